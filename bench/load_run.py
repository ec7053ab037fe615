"""Load (reliability issue): the throughput one API process sustains while its p95 stays under
twice the idle p95.

One ``credence serve`` on the Neo4j the settings name; locust (headless, bounded) runs the mix of
``bench/load/locustfile.py`` against one existing agent: context queries 6 : evidence 3 : chat
turns 1, each client waiting 0-0.2 s between requests. Steps of 1, 2, 4, 8, 16 clients (each
``--step-s`` seconds); the 1-client step is the idle reference. Printed per step: requests/s,
p50 / p95 / p99 over all requests and per kind, failures; then the highest throughput whose p95
stays within 2x the idle p95.

    .venv/bin/python bench/load_run.py --agent <id of an agent with 100k beliefs>
    .venv/bin/python bench/load_run.py --agent <id> --users 1,2,4,8 --step-s 60

The agent is used as it is (evidence and chat turns are added to it); ``bench/turn_performance.py
--keep`` or ``bench/memory_performance.py --keep`` leave a 100k agent to run this against.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from write_contention import api_process  # noqa: E402

from app.config import Settings  # noqa: E402
from tools.serve.api_process import server_env  # noqa: E402


def run_step(
    api: str, env: dict[str, str], users: int, seconds: int, out: Path
) -> dict[str, dict[str, str]]:
    """Runs locust headless for one step; the rows of its stats CSV by request name."""
    prefix = out / f"users-{users}"
    locust = Path(sys.executable).parent / "locust"
    subprocess.run(
        [
            str(locust), "-f", str(HERE / "load" / "locustfile.py"), "--headless",
            "--host", api, "--users", str(users), "--spawn-rate", str(users),
            "--run-time", f"{seconds}s", "--csv", str(prefix), "--only-summary",
            "--loglevel", "WARNING",
        ],
        env=env, check=False, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    with Path(f"{prefix}_stats.csv").open(newline="") as stats:
        return {row["Name"]: row for row in csv.DictReader(stats)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", required=True, help="the agent to load (an existing id)")
    parser.add_argument("--users", default="1,2,4,8,16")
    parser.add_argument("--step-s", type=int, default=45)
    parser.add_argument("--warmup-s", type=int, default=15)
    args = parser.parse_args()

    settings = Settings()
    env = server_env(settings, CREDENCE_MIGRATE_ON_START="false", CREDENCE_LOG_LEVEL="WARNING")
    with tempfile.TemporaryDirectory() as tmp, api_process(env, Path(tmp) / "api.log") as api:
        agent = httpx.get(f"{api}/v1/agents/{args.agent}/overview", timeout=120)
        agent.raise_for_status()
        beliefs = httpx.get(
            f"{api}/v1/agents/{args.agent}/beliefs", params={"limit": 200}, timeout=120
        ).json()["data"]
        load_env = {
            **env,
            "LOAD_AGENT": args.agent,
            "LOAD_BELIEFS": ",".join(b["id"] for b in beliefs if b["is_active"]),
        }
        print(f"agent {args.agent}: {len(beliefs)} beliefs sampled for evidence; warm-up")
        run_step(api, load_env, 2, args.warmup_s, Path(tmp))
        results = []
        for users in (int(u) for u in args.users.split(",")):
            rows = run_step(api, load_env, users, args.step_s, Path(tmp))
            total = rows["Aggregated"]
            results.append((users, rows))
            kinds = "  ".join(
                f"{name}: {float(row['50%']):.0f}/{float(row['95%']):.0f}"
                for name, row in sorted(rows.items())
                if name != "Aggregated"
            )
            print(
                f"{users:3d} clients  {float(total['Requests/s']):6.1f} req/s  "
                f"p50 {float(total['50%']):5.0f}  p95 {float(total['95%']):5.0f}  "
                f"p99 {float(total['99%']):5.0f} ms  failures {total['Failure Count']}  "
                f"({kinds})"
            )
    idle_p95 = float(results[0][1]["Aggregated"]["95%"])
    within = [
        (float(rows["Aggregated"]["Requests/s"]), users)
        for users, rows in results
        if float(rows["Aggregated"]["95%"]) <= 2 * idle_p95
    ]
    best, users = max(within)
    print(
        f"idle p95 {idle_p95:.0f} ms; highest throughput with p95 <= {2 * idle_p95:.0f} ms: "
        f"{best:.1f} req/s ({users} clients)"
    )


if __name__ == "__main__":
    main()
