"""Two checkouts' code side by side in one run: the driver of the paired benchmarks
(``chat_turn_paired.py``, ``context_paired.py``).

Each benchmark script is also its own worker: started with ``--worker`` and
``PYTHONPATH=<checkout>``, it imports ``app`` from that checkout, prints
``{"ready": app.__file__}``, then answers each line of its input (one message) with
``{"ms": ...}``. The driver starts one worker per checkout and sends them the same messages,
alternating which goes first each pair, so both see the same load; it reports p50 / p95 of each
and the ratios new / old.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def start(script: str, checkout: Path, worker_args: Sequence[str] = ()) -> subprocess.Popen[str]:
    """``script``'s worker on ``checkout``'s code, once it says it is ready."""
    process = subprocess.Popen(
        [sys.executable, script, "--worker", *worker_args],
        env={**os.environ, "PYTHONPATH": str(checkout.resolve())},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    ready = json.loads(process.stdout.readline())  # type: ignore[union-attr]
    assert ready["ready"].startswith(str(checkout.resolve())), ready
    return process


def ask(process: subprocess.Popen[str], message: str) -> float:
    """The milliseconds the worker took for ``message``."""
    process.stdin.write(message + "\n")  # type: ignore[union-attr]
    process.stdin.flush()  # type: ignore[union-attr]
    return float(json.loads(process.stdout.readline())["ms"])  # type: ignore[union-attr]


def quantiles(values: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(values, n=100)
    return statistics.median(values), cuts[94]


def compare(
    script: str,
    old: Path,
    new: Path,
    messages: Sequence[str],
    runs: int,
    warmup: int,
    *,
    what: str,
    worker_args: Sequence[str] = (),
) -> None:
    """Runs ``runs`` messages (after ``warmup``) through both checkouts' workers of ``script``,
    alternating, and prints the comparison (``what``: what a message is, for the report)."""
    workers = {"old": start(script, old, worker_args), "new": start(script, new, worker_args)}
    times: dict[str, list[float]] = {"old": [], "new": []}
    try:
        for index in range(warmup + runs):
            message = messages[index % len(messages)]
            order = ("old", "new") if index % 2 == 0 else ("new", "old")
            for name in order:
                ms = ask(workers[name], message)
                if index >= warmup:
                    times[name].append(ms)
    finally:
        for process in workers.values():
            process.stdin.close()  # type: ignore[union-attr]
            process.wait(60)
    (old50, old95), (new50, new95) = quantiles(times["old"]), quantiles(times["new"])
    print(f"{runs} {what} each (after {warmup} warm-up), alternating")
    print(f"  old {old}: p50 {old50:7.1f} ms  p95 {old95:7.1f} ms")
    print(f"  new {new}: p50 {new50:7.1f} ms  p95 {new95:7.1f} ms")
    print(f"  ratio new/old: p50 {new50 / old50:.3f}  p95 {new95 / old95:.3f}")
    # Each pair ran the same message under the same load: the ratio of each pair, and where
    # the slowest fell (a load spike lands on one side of a pair).
    pairs = [new / old for old, new in zip(times["old"], times["new"], strict=True)]
    print(f"  per-pair ratio new/old: median {statistics.median(pairs):.3f}")
    slowest = sorted(times["old"] + times["new"], reverse=True)[: max(1, runs // 10)]
    from_new = sum(ms in times["new"] for ms in slowest)
    print(f"  the slowest 10 % of all: {from_new} new, {len(slowest) - from_new} old")
