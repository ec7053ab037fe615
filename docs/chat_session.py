"""Records a `credence chat` session with the offline reasoner through a pseudo-terminal at 100
columns, colours removed, and prints it (the transcript of docs/chat-session.md was produced
with it):

    .venv/bin/python docs/chat_session.py > /tmp/chat.txt

It creates the agent of that document (three beliefs, the first SUPPORTS the second) on the
Neo4j of the settings (CREDENCE_NEO4J_*), then types what a person types: five contradictions,
a question, the inspection commands, a request, its approval and ``\\quit``. The
pseudo-terminal is the one the CLI chat tests type into (tests/support/chat_terminal.py).
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs.edges import create_edge
from app.beliefs.models import BeliefCreate, EdgeCreate
from app.beliefs.store import create_belief
from app.config import Settings
from app.graph.client import GraphClient
from tests.support.chat_terminal import PROMPT, Terminal, credence_command

RECOGNITION = "Revenue is recognised when the performance obligation is satisfied"
STANDARDS = "The financial statements follow the accounting standards"
RECONCILE = "Bank accounts are reconciled at month end before the books are closed"
DENIAL = "That's wrong: revenue is not recognised when the performance obligation is satisfied."
TYPED = [
    *[DENIAL] * 5,
    "When is revenue recognised?",
    "\\beliefs",
    "\\dissatisfaction",
    "\\graph",
    "\\history",
    "Please reconcile the Chase bank account before the books are closed",
    "\\approve",
]
COLUMNS = 100
TIMEOUT_S = 180.0


async def make_agent(settings: Settings) -> str:
    graph = GraphClient.from_settings(settings.neo4j)
    try:
        agent = await create_agent(graph, AgentCreate(name="Ledger"))

        async def belief(text: str, strength: float) -> str:
            data = BeliefCreate(statement=text, category="aesthetic", strength=strength)
            return (await create_belief(graph, settings.mechanics, agent.id, data)).id

        revenue = await belief(RECOGNITION, 0.8)
        standards = await belief(STANDARDS, 0.8)
        await belief(RECONCILE, 0.55)
        edge = EdgeCreate(type="SUPPORTS", source_id=revenue, target_id=standards, weight=1.0)
        await create_edge(graph, settings.mechanics, agent.id, edge)
        return agent.id
    finally:
        await graph.close()


def _environment() -> dict[str, str]:
    """The environment of this process (its Neo4j settings too), on the offline reasoner."""
    env = {key: value for key, value in os.environ.items() if key != "ANTHROPIC_API_KEY"}
    return {**env, "CREDENCE_REASONER__PROVIDER": "offline"}


def main() -> None:
    agent_id = asyncio.run(make_agent(Settings()))
    args = [*credence_command(), "chat", "--agent", agent_id, "--session", "demo"]
    terminal = Terminal(args, _environment(), columns=COLUMNS)
    try:
        terminal.expect(re.escape(PROMPT), timeout_s=TIMEOUT_S)
        for line in TYPED:
            time.sleep(0.3)  # readline reads the line once the prompt is drawn
            terminal.command(line, timeout_s=TIMEOUT_S)
        time.sleep(0.3)
        terminal.send("\\quit")
        terminal.wait()
    finally:
        terminal.close()
    lines = [line.rstrip() for line in terminal.text.splitlines()]
    sys.stdout.write("\n".join(line for line in lines if line) + "\n")


if __name__ == "__main__":
    main()
