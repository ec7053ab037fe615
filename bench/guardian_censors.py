"""The guardian under adversarial input: how long each shipped censor takes on 100 kB texts built
to make it backtrack, and whether the API keeps answering while such a check runs.

Part 1 (no server): every shipped censor against 100 kB of each repeated unit ("rm ", "rm -",
"chmod -R ", ...). Printed per censor: the worst time and the unit that caused it, for the
patterns of this checkout and for those of a baseline revision (``--baseline``, default the
commit before the rewrite), each capped at ``--cap`` seconds (the engine's timeout: a capped
figure is "at least"). The floor is one search of a plain literal pattern over the same text.

Part 2 (``--api``, needs Neo4j as the settings name it): one ``credence serve``; one thread sends
``--checks`` guardian checks of the worst text found in part 1 while the main thread asks
``/health`` every 20 ms. Printed: the checks' durations and /health p50 / p99 / max during them
(target: p99 under 100 ms), beside /health alone.

    .venv/bin/python bench/guardian_censors.py
    .venv/bin/python bench/guardian_censors.py --api --checks 5
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import regex
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from app.guardian.patterns import timed_search  # noqa: E402
from tools.serve.api_process import running_api, server_env  # noqa: E402

SIZE = 100_000
UNITS = (
    "rm ",
    "rm -",
    "rm -r ",
    "`rm ",
    "chmod -R ",
    "chmod ",
    "git push -f ",
    "curl ",
    "curl -d ",
    "echo $",
    "print ",
    "cat ",
    "dd ",
    "eval(",
    "$(",
    "`",
    "drop table ",
    "DROP TABLE ",
    "DROP DATABASE ",
    "TRUNCATE ",
    "DELETE FROM ",
    "match (n) ",
    "send ",
    "transfer to ",
    "wire money to ",
    "change ",
    "disable ",
    "x(){ ",
    "; ",
    "-----BEGIN ",
    "a",
    " ",
    "a-",
)
# The units the first report found (118 s, 143 s, 51 s on the old patterns with Python's re).
ISSUE_UNITS = ("rm ", "rm -", "chmod -R ")


def adversarial(unit: str, size: int = SIZE) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def worst_cases(
    censors: list[dict[str, str]], units: tuple[str, ...], cap: float
) -> dict[str, tuple[float, str]]:
    texts = {unit: adversarial(unit) for unit in units}
    worst: dict[str, tuple[float, str]] = {}
    for censor in censors:
        pattern = regex.compile(censor["pattern"])
        worst[censor["key"]] = max(
            (timed_search(pattern, text, cap), unit) for unit, text in texts.items()
        )
    return worst


def censors_at(revision: str | None) -> list[dict[str, str]]:
    if revision is None:
        text = (ROOT / "seeds" / "censors.yaml").read_text()
    else:
        text = subprocess.run(
            ["git", "show", f"{revision}:seeds/censors.yaml"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    censors: list[dict[str, str]] = yaml.safe_load(text)["censors"]
    return censors


def report_censors(baseline: str, cap: float) -> str:
    floor = min(timed_search(regex.compile(r"\bzzqx\b"), adversarial(u), cap) for u in ISSUE_UNITS)
    now = worst_cases(censors_at(None), UNITS, cap)
    old = worst_cases(censors_at(baseline), ISSUE_UNITS, cap)
    print(f"floor (one literal search over 100 kB): {floor * 1000:.2f} ms")
    print(f"{'censor':34s} {'now: worst':>12s}  {'on':16s} {'baseline, issue units':>22s}")
    for key, (seconds, unit) in sorted(now.items(), key=lambda item: -item[1][0]):
        before = old.get(key)
        before_text = "(new)" if before is None else _seconds(before[0], cap)
        print(f"{key:34s} {_seconds(seconds, cap):>12s}  {unit!r:16s} {before_text:>22s}")
    total = sum(seconds for seconds, _ in now.values())
    slowest_key, (_slowest, unit) = max(now.items(), key=lambda item: item[1][0])
    print(f"sum of the worst cases: {total * 1000:.0f} ms; slowest {slowest_key} on {unit!r}")
    return unit


def _seconds(value: float, cap: float) -> str:
    prefix = ">=" if value >= cap else ""
    return f"{prefix}{value * 1000:.1f} ms" if value < 10 else f"{prefix}{value:.1f} s"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _health_latencies(base: str, stop: threading.Event, out: list[float]) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        while not stop.is_set():
            started = time.perf_counter()
            client.get("/health")
            out.append(time.perf_counter() - started)
            time.sleep(0.02)


def report_api(unit: str, checks: int) -> None:
    env = server_env(Settings(), CREDENCE_MIGRATE_ON_START="true")
    with running_api(env) as base, httpx.Client(base_url=base, timeout=120) as client:
        agent = client.post("/v1/agents", json={"name": "bench-guardian"}).json()["id"]
        idle: list[float] = []
        stop = threading.Event()
        watcher = threading.Thread(target=_health_latencies, args=(base, stop, idle))
        watcher.start()
        time.sleep(3)
        stop.set()
        watcher.join()
        during: list[float] = []
        stop = threading.Event()
        watcher = threading.Thread(target=_health_latencies, args=(base, stop, during))
        watcher.start()
        durations: list[float] = []
        actions: list[str] = []
        text = adversarial(unit)
        for _ in range(checks):
            started = time.perf_counter()
            verdict = client.post(f"/v1/agents/{agent}/guardian/check", json={"text": text})
            durations.append(time.perf_counter() - started)
            actions.append(f"{verdict.status_code}:{verdict.json().get('action')}")
        stop.set()
        watcher.join()
        client.delete(f"/v1/agents/{agent}")
    print(f"\n{checks} checks of 100 kB of {unit!r}: {[f'{d:.2f} s' for d in durations]} {actions}")
    for name, values in (("idle", idle), ("during the checks", during)):
        print(
            f"/health {name:18s} n={len(values):4d}  p50 {statistics.median(values) * 1000:6.1f} ms"
            f"  p99 {_percentile(values, 0.99) * 1000:6.1f} ms  max {max(values) * 1000:6.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="eb35245", help="revision of the old patterns")
    parser.add_argument("--cap", type=float, default=5.0, help="seconds one search may take")
    parser.add_argument("--api", action="store_true", help="also measure /health during checks")
    parser.add_argument("--checks", type=int, default=5)
    args = parser.parse_args()
    unit = report_censors(args.baseline, args.cap)
    if args.api:
        report_api(unit, args.checks)


if __name__ == "__main__":
    main()
