"""Records a `credence chat` session with the offline reasoner through a pseudo-terminal at 100
columns, colours removed, and prints it (the transcript of docs/chat-session.md was produced
with it):

    .venv/bin/python docs/chat_session.py > /tmp/chat.txt

It creates the agent of that document (three beliefs, the first SUPPORTS the second) on the
Neo4j of the settings (CREDENCE_NEO4J_*), then types what a person types: five contradictions,
a question, the inspection commands, a request, its approval and ``\\quit``.
"""

from __future__ import annotations

import asyncio
import codecs
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs.edges import create_edge
from app.beliefs.models import BeliefCreate, EdgeCreate
from app.beliefs.store import create_belief
from app.config import Settings
from app.graph.client import GraphClient

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
PROMPT = "you›"
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>()][0-9A-B]?")
COLUMNS = 100


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


class Terminal:
    """`credence chat` on the slave side of a pty of COLUMNS columns."""

    def __init__(self, agent_id: str) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, COLUMNS, 0, 0))
        env = {key: value for key, value in os.environ.items() if key != "ANTHROPIC_API_KEY"}
        env.update(
            CREDENCE_REASONER__PROVIDER="offline",
            COLUMNS=str(COLUMNS),
            TERM="xterm-256color",
            PYTHONIOENCODING="utf-8",
        )
        credence = str(Path(sys.executable).parent / "credence")
        self.process = subprocess.Popen(
            [credence, "chat", "--agent", agent_id, "--session", "demo"],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.raw = ""

    def text(self) -> str:
        return ANSI.sub("", self.raw).replace("\r", "")

    def read_until_prompt(self, prompts: int, timeout_s: float = 180.0) -> None:
        deadline = time.monotonic() + timeout_s
        while self.text().count(PROMPT) < prompts:
            if time.monotonic() > deadline:
                raise SystemExit(f"no prompt after {timeout_s} s:\n{self.text()[-2000:]}")
            if not self.read(0.5):
                return

    def read(self, wait_s: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], wait_s)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        self.raw += self.decoder.decode(data)
        return bool(data)

    def send(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")


def main() -> None:
    agent_id = asyncio.run(make_agent(Settings()))
    terminal = Terminal(agent_id)
    terminal.read_until_prompt(1)
    for count, line in enumerate([*TYPED, "\\quit"], start=2):
        time.sleep(0.3)  # readline reads the line once the prompt is drawn
        terminal.send(line)
        terminal.read_until_prompt(count)
    terminal.process.wait(timeout=60)
    while terminal.read(0.2):
        pass
    lines = [line.rstrip() for line in terminal.text().splitlines()]
    sys.stdout.write("\n".join(line for line in lines if line) + "\n")


if __name__ == "__main__":
    main()
