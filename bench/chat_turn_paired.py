"""A chat turn of an agent **without** tools connected, the code of two checkouts side by side in
one run (issue 25: routing a message to a tool must not slow the turns that have none).

Two worker processes, each importing ``app`` from its own checkout (``--old`` and ``--new``),
each with its own new agent on the same Neo4j (offline reasoner, no session, reflection out of
reach), run the same ordinary messages turn by turn, alternating (which goes first flips every
pair), so both see the same load. Reported: p50 / p95 of each and the ratio new / old.

    .venv/bin/python bench/chat_turn_paired.py --old /work/main --new . --turns 150
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

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


def _start(checkout: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, __file__, "--worker"],
        env={**os.environ, "PYTHONPATH": str(checkout.resolve())},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    ready = json.loads(process.stdout.readline())  # type: ignore[union-attr]
    assert ready["ready"].startswith(str(checkout.resolve())), ready
    return process


def _turn(process: subprocess.Popen[str], message: str) -> float:
    process.stdin.write(message + "\n")  # type: ignore[union-attr]
    process.stdin.flush()  # type: ignore[union-attr]
    return float(json.loads(process.stdout.readline())["ms"])  # type: ignore[union-attr]


def _quantiles(values: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(values, n=100)
    return statistics.median(values), cuts[94]


def main(old: Path, new: Path, turns: int, warmup: int) -> None:
    workers = {"old": _start(old), "new": _start(new)}
    times: dict[str, list[float]] = {"old": [], "new": []}
    try:
        for index in range(warmup + turns):
            message = MESSAGES[index % len(MESSAGES)]
            order = ("old", "new") if index % 2 == 0 else ("new", "old")
            for name in order:
                ms = _turn(workers[name], message)
                if index >= warmup:
                    times[name].append(ms)
    finally:
        for process in workers.values():
            process.stdin.close()  # type: ignore[union-attr]
            process.wait(60)
    (old50, old95), (new50, new95) = _quantiles(times["old"]), _quantiles(times["new"])
    print(f"{turns} turns each (after {warmup} warm-up), alternating, offline, no tools")
    print(f"  old {old}: p50 {old50:7.1f} ms  p95 {old95:7.1f} ms")
    print(f"  new {new}: p50 {new50:7.1f} ms  p95 {new95:7.1f} ms")
    print(f"  ratio new/old: p50 {new50 / old50:.3f}  p95 {new95 / old95:.3f}")
    # Each pair ran the same message under the same load: the ratio of each pair, and where
    # the slowest turns fell (a load spike lands on one side of a pair).
    pairs = [new / old for old, new in zip(times["old"], times["new"], strict=True)]
    print(f"  per-pair ratio new/old: median {statistics.median(pairs):.3f}")
    slowest = sorted(times["old"] + times["new"], reverse=True)[: max(1, turns // 10)]
    from_new = sum(ms in times["new"] for ms in slowest)
    print(f"  the slowest 10 % of all turns: {from_new} new, {len(slowest) - from_new} old")


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
        main(arguments.old, arguments.new, arguments.turns, arguments.warmup)
