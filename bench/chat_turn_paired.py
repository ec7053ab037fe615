"""A chat turn of an agent **without** tools connected, the code of two checkouts side by side in
one run (issue 25: routing a message to a tool must not slow the turns that have none).

Two worker processes, each importing ``app`` from its own checkout (``--old`` and ``--new``),
each with its own new agent on the same Neo4j (offline reasoner, no session, reflection out of
reach), run the same ordinary messages turn by turn, alternating (which goes first flips every
pair), so both see the same load (``paired.py``). Reported: p50 / p95 of each and the ratio
new / old.

    .venv/bin/python bench/chat_turn_paired.py --old /work/main --new . --turns 150
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from paired import compare

MESSAGES = [
    "Please reconcile the petty cash account.",
    "Who has to approve wire transfers?",
    "Our fiscal year ends on the thirtieth of June.",
    "What do you believe about the quarterly report?",
    "Send the report to Ana by Friday",
    "Is the invoice from Acme paid?",
    "The meeting moved to three o'clock.",
    "How much time do we have before the deadline?",
]


async def worker() -> None:
    import app
    from app.agents.models import AgentCreate
    from app.agents.store import create_agent, delete_agent
    from app.config import Settings
    from app.loop.models import ChatRequest
    from app.loop.turn import run_turn
    from app.reasoning.settings import ReasonerSettings
    from app.runtime import Runtime

    base = Settings(reasoner=ReasonerSettings(provider="offline"))
    settings = base.model_copy(
        update={"loop": base.loop.model_copy(update={"reflect_every_episodes": 10**9})}
    )
    runtime = Runtime.open(settings)
    agent = await create_agent(runtime.graph, AgentCreate(name="bench-chat-turn-paired"))
    print(json.dumps({"ready": app.__file__}), flush=True)
    loop = asyncio.get_running_loop()
    try:
        while (line := (await loop.run_in_executor(None, sys.stdin.readline)).strip()) != "":
            started = time.perf_counter()
            await run_turn(runtime.loop, agent.id, ChatRequest(message=line))
            print(json.dumps({"ms": (time.perf_counter() - started) * 1000}), flush=True)
    finally:
        await delete_agent(runtime.graph, agent.id, default_agent_name="", force=True)
        await runtime.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("--old", type=Path, default=Path("/work/main"))
    parser.add_argument("--new", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--turns", type=int, default=150)
    parser.add_argument("--warmup", type=int, default=10)
    arguments = parser.parse_args()
    if arguments.worker:
        asyncio.run(worker())
    else:
        compare(
            __file__,
            arguments.old,
            arguments.new,
            MESSAGES,
            arguments.turns,
            arguments.warmup,
            what="turns (offline, no tools)",
        )
