"""What a ``credence`` command costs to start: CPU seconds (user + system) and wall seconds of
whole commands, each run several times, two checkouts interleaved run by run (an old one and
this one) so that both see the same load. Prints a Markdown table of medians.

    python bench/cli_start.py --old /tmp/credence-main --new . --agent AGENT_ID --runs 5

The commands read CREDENCE_NEO4J_URI / CREDENCE_NEO4J_PASSWORD: a database of one's own (never
another person's). The figures: bench/README.md "CLI start"."""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUN = "from app.cli.main import main; main()"


def commands(agent: str | None) -> list[list[str]]:
    """``--help``, then, given an agent, the reads of the README's "More to try"."""
    shown = [["--help"], ["agents", "list"]]
    if agent:
        shown += [["beliefs", "list", "--agent", agent], ["status", "--agent", agent]]
    return shown


def measured(checkout: Path, args: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ``credence ARGS`` run from ``checkout``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", RUN, *args],
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout), "COLUMNS": "120"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the checkout to compare with")
    parser.add_argument("--new", type=Path, default=Path(), help="this checkout")
    parser.add_argument("--agent", help="an agent id of the database (for the reads)")
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    trees = {"old": options.old.resolve(), "new": options.new.resolve()}
    print(f"load average before: {os.getloadavg()}")
    print("| command | old CPU s | new CPU s | old wall s | new wall s |")
    print("|---|---|---|---|---|")
    for args in commands(options.agent):
        runs: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
        for _ in range(options.runs):
            for name, tree in trees.items():
                runs[name].append(measured(tree, args))
        cpu = {name: statistics.median(r[0] for r in found) for name, found in runs.items()}
        wall = {name: statistics.median(r[1] for r in found) for name, found in runs.items()}
        shown = " ".join("ID" if part == options.agent else part for part in args)
        print(
            f"| `credence {shown}` | {cpu['old']:.2f} | {cpu['new']:.2f} "
            f"| {wall['old']:.2f} | {wall['new']:.2f} |"
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
