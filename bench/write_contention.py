"""Write contention (reliability issue): how often concurrent writers of one agent collide.

Two API processes (``credence serve``) on the one Neo4j the settings name; one agent with a few
beliefs; ``--clients`` threads write at once, each through one of the two processes:
- half of them send contradicting evidence to the one "hot" belief,
- the rest send evidence to the agent's other beliefs, an outcome now and then, and (with
  ``--chat``) chat turns, which write episodes, people and decisions beside the beliefs.
Printed: the statuses (a 5xx is a failure of the run), the transaction attempts that failed with a
transient error and were run again (``credence_neo4j_transaction_retries_total`` of both
processes: every attempt the driver or the client ran again), the distinct deadlock cycles the
servers logged (lock types only, ids removed), and request latency p50 / p95 per kind.

    .venv/bin/python bench/write_contention.py                  # 16 clients x 20 requests
    .venv/bin/python bench/write_contention.py --clients 4 --per-client 50 --chat

The agent it creates (named ``bench-contention-<pid>``) is deleted at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from tools.serve.api_process import credence_command, free_port, server_env  # noqa: E402


@contextmanager
def api_process(env: dict[str, str], log_path: Path) -> Iterator[str]:
    """One ``credence serve`` logging to ``log_path``; yields its base URL once healthy."""
    port = free_port()
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [credence_command(), "serve", "--port", str(port)], env=env, stdout=log, stderr=log
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the API did not start; see {log_path}")
                time.sleep(0.3)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=30)


def retries_by_code(api: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for line in httpx.get(f"{api}/metrics", timeout=30).text.splitlines():
        if line.startswith("credence_neo4j_transaction_retries_total{"):
            code = re.search(r'code="([^"]*)"', line)
            counts[code.group(1) if code else "?"] += int(float(line.rsplit(" ", 1)[1]))
    return counts


def deadlock_shapes(logs: list[Path]) -> Counter[str]:
    """The deadlock cycles the servers logged, with ids and transaction numbers removed."""
    shapes: Counter[str] = Counter()
    for path in logs:
        for line in path.read_text(errors="replace").splitlines():
            if "transient error in a transaction" not in line:
                continue
            locks = re.findall(r"(EXCLUSIVE|SHARED) ([A-Z_]+)", line)
            if os.environ.get("SHOW_DEADLOCKS"):
                print(line[-600:])
            shapes[" / ".join(f"{mode} {kind}" for mode, kind in locks) or line[-160:]] += 1
    return shapes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--per-client", type=int, default=20)
    parser.add_argument("--beliefs", type=int, default=5)
    parser.add_argument("--chat", action="store_true", help="two of the clients send chat turns")
    parser.add_argument("--keep", action="store_true", help="leave the agent (to look at it)")
    args = parser.parse_args()

    settings = Settings()
    env = server_env(settings, CREDENCE_MIGRATE_ON_START="false", CREDENCE_LOG_LEVEL="INFO")
    statuses: Counter[int] = Counter()
    latency: dict[str, list[float]] = defaultdict(list)
    lock = threading.Lock()
    keep = os.environ.get("CONTENTION_LOG_DIR")
    with tempfile.TemporaryDirectory() if keep is None else contextlib.nullcontext(keep) as tmp:
        logs = [Path(tmp) / "api-1.log", Path(tmp) / "api-2.log"]
        with api_process(env, logs[0]) as first, api_process(env, logs[1]) as second:
            apis = (first, second)
            with httpx.Client(base_url=first, timeout=120) as client:
                agent = client.post(
                    "/v1/agents", json={"name": f"bench-contention-{os.getpid()}"}
                ).json()["id"]
                beliefs = [
                    client.post(
                        f"/v1/agents/{agent}/beliefs",
                        json={
                            "statement": f"Claim {i} holds.",
                            "category": "contextual",
                            "strength": 0.6,
                        },
                    ).json()["id"]
                    for i in range(args.beliefs)
                ]
            hot, others = beliefs[0], beliefs[1:]

            def request(client: httpx.Client, number: int, i: int) -> tuple[str, httpx.Response]:
                if number % 2 == 0:
                    return "evidence (hot belief)", client.post(
                        f"/v1/agents/{agent}/beliefs/{hot}/evidence",
                        json={
                            "text": f"client {number} item {i}",
                            "stance": "contradicting",
                            "confidence": 0.1,
                        },
                    )
                if args.chat and number in (1, 3):
                    return "chat turn", client.post(
                        f"/v1/agents/{agent}/chat",
                        json={
                            "message": f"Does claim {i % args.beliefs} still hold?",
                            "session": f"s{number}",
                        },
                    )
                target = others[(number + i) % len(others)]
                if i % 5 == 4:
                    return "outcome", client.post(
                        f"/v1/agents/{agent}/beliefs/{target}/outcome",
                        json={"outcome": "success" if i % 2 == 0 else "failure"},
                    )
                return "evidence (other beliefs)", client.post(
                    f"/v1/agents/{agent}/beliefs/{target}/evidence",
                    json={
                        "text": f"client {number} item {i}",
                        "stance": "reinforcing",
                        "confidence": 0.3,
                    },
                )

            def writer(number: int) -> None:
                with httpx.Client(base_url=apis[number % 2], timeout=120) as client:
                    for i in range(args.per_client):
                        started = time.perf_counter()
                        kind, response = request(client, number, i)
                        elapsed = (time.perf_counter() - started) * 1000
                        with lock:
                            statuses[response.status_code] += 1
                            latency[kind].append(elapsed)

            started = time.perf_counter()
            threads = [threading.Thread(target=writer, args=(n,)) for n in range(args.clients)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.perf_counter() - started
            retries = retries_by_code(first) + retries_by_code(second)
            if args.keep:
                print(f"agent {agent} kept")
            else:
                httpx.delete(f"{first}/v1/agents/{agent}", timeout=300)
        shapes = deadlock_shapes(logs)

    total = sum(statuses.values())
    print(
        f"requests {total} in {wall:.1f} s ({total / wall:.1f}/s),",
        f"statuses {dict(sorted(statuses.items()))}",
    )
    print(f"5xx: {sum(n for s, n in statuses.items() if s >= 500)}")
    print(f"attempts run again after a transient error: {sum(retries.values())} {dict(retries)}")
    for shape, count in shapes.most_common():
        print(f"  {count:4d} x {shape}")
    for kind, values in sorted(latency.items()):
        values.sort()
        p95 = values[max(0, int(len(values) * 0.95) - 1)]
        print(
            f"{kind:26s} n={len(values):4d}",
            f"p50 {statistics.median(values):7.1f} ms  p95 {p95:7.1f} ms",
        )


if __name__ == "__main__":
    main()
