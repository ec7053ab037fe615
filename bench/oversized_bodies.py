"""Oversized bodies against a real API process (issue 24): how much the process grows after 20
bodies larger than CREDENCE_API__MAX_BODY_BYTES, each refused with 413 (target: no growth).

One `credence serve` on the Neo4j the settings name. Its resident memory (RSS, psutil) is read
after a warm-up (an agent created, a few small requests), then after each of ``--bodies``
oversized requests to ``POST /v1/agents`` with a wrong API key: half declare their length
(``Content-Length``; the client streams the whole body while the server answers), half are sent
chunked (no length). Printed: the statuses, the time to the answer, bytes the client got to send
before the answer came, and the RSS before, after the first body (one-time allocations of the
first answers), after the last, and its peak.

    .venv/bin/python bench/oversized_bodies.py                 # 20 bodies of 200 MB
    .venv/bin/python bench/oversized_bodies.py --mb 50 --bodies 10
    .venv/bin/python bench/oversized_bodies.py --limit 0       # no limit: the old behaviour
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import statistics
import sys
import time
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from tools.serve.api_process import running_api, server_env  # noqa: E402

CHUNK = 1024 * 1024


def _server_pid(port: int) -> int:
    """The process listening on ``port`` (the API)."""
    for connection in psutil.net_connections(kind="tcp"):
        listening = connection.status == "LISTEN" and connection.pid is not None
        if listening and connection.laddr and connection.laddr.port == port:
            return int(connection.pid)
    raise RuntimeError(f"no process listens on {port}")


def _rss_mb(pid: int) -> float:
    rss: int = psutil.Process(pid).memory_info().rss  # psutil: no stubs installed (pyproject)
    return rss / 1e6


def _send(port: int, size: int, chunked: bool) -> tuple[int, float, int]:
    """Sends one oversized body (stopping once the answer has come); returns the status, the
    seconds to the answer, and the bytes of body sent by then."""
    head = [
        "POST /v1/agents HTTP/1.1",
        "Host: 127.0.0.1",
        "Content-Type: application/json",
        "X-API-Key: wrong-key",
        "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}",
    ]
    body = b'{"name": "' + b"x" * (CHUNK - 10)
    sent = 0
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=120) as connection:
        connection.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        connection.setblocking(False)
        answer = b""
        while sent < size and b"\r\n\r\n" not in answer:
            piece = f"{len(body):x}\r\n".encode() + body + b"\r\n" if chunked else body
            try:
                connection.sendall(piece)
                sent += len(body)
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                pass
            with contextlib.suppress(BlockingIOError):
                answer += connection.recv(65536)
        connection.setblocking(True)
        while b"\r\n\r\n" not in answer:
            more = connection.recv(65536)
            if not more:
                break
            answer += more
    elapsed = time.perf_counter() - started
    status = int(answer.split(b" ", 2)[1]) if answer else 0
    return status, elapsed, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bodies", type=int, default=20)
    parser.add_argument("--mb", type=int, default=200, help="size of each body (MB)")
    parser.add_argument(
        "--limit", type=int, default=2 * 1024 * 1024, help="CREDENCE_API__MAX_BODY_BYTES"
    )
    args = parser.parse_args()
    settings = Settings()
    extra = {
        "CREDENCE_MIGRATE_ON_START": "false",
        "CREDENCE_LOG_LEVEL": "WARNING",
        "CREDENCE_API_KEYS": json.dumps({"bench-key": ["*"]}),
    }
    if args.limit:
        extra["CREDENCE_API__MAX_BODY_BYTES"] = str(args.limit)
    else:  # "no limit": larger than any body sent
        extra["CREDENCE_API__MAX_BODY_BYTES"] = str(args.mb * CHUNK * 4)
    with running_api(server_env(settings, **extra), start_timeout_s=300) as base:
        port = int(base.rsplit(":", 1)[1])
        pid = _server_pid(port)
        headers = {"x-api-key": "bench-key"}
        with httpx.Client(base_url=base, timeout=60, headers=headers) as client:
            created = client.post("/v1/agents", json={"name": "bench-oversized"})
            for _ in range(5):
                client.get("/v1/agents")
        before = _rss_mb(pid)
        rss: list[float] = []
        statuses: dict[int, int] = {}
        seconds: list[float] = []
        sent_mb: list[float] = []
        for number in range(args.bodies):
            status, elapsed, sent = _send(port, args.mb * CHUNK, chunked=number % 2 == 1)
            statuses[status] = statuses.get(status, 0) + 1
            seconds.append(elapsed)
            sent_mb.append(sent / 1e6)
            rss.append(_rss_mb(pid))
        time.sleep(1.0)
        after = _rss_mb(pid)
        peak = max([before, after, *rss])
        with httpx.Client(base_url=base, timeout=60, headers=headers) as client:
            client.delete(f"/v1/agents/{created.json()['id']}")
    print(f"limit {args.limit or 'none'} bytes, {args.bodies} bodies of {args.mb} MB")
    print(f"statuses {statuses}")
    print(
        f"answer after s: median {statistics.median(seconds):.3f}, max {max(seconds):.3f}; "
        f"MB sent before the answer: median {statistics.median(sent_mb):.1f}, "
        f"max {max(sent_mb):.1f}"
    )
    print(
        f"RSS MB: before {before:.1f}, after the first body {rss[0]:.1f}, after the last "
        f"{after:.1f} (growth {after - before:+.1f}; from the first body on "
        f"{after - rss[0]:+.1f}), peak {peak:.1f}"
    )


if __name__ == "__main__":
    main()
