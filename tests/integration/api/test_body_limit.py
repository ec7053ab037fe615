"""Bounded bodies against a real `credence serve` (uvicorn, TCP): a body over
CREDENCE_API__MAX_BODY_BYTES is answered 413 body_too_large before the client has sent it, with
a declared length or chunked, with a wrong API key too; a WebSocket message over the limit
gets the `body_too_large` error frame, then the socket closes with 1009; the MCP transport is
bounded the same way. A client that closes part-way through its body is counted 499 in the
metrics, not 500."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.config import Settings
from app.errors import BodyTooLarge
from tools.serve.api_process import running_api, server_env

LIMIT = 65536


@pytest.fixture(scope="module")
def api(settings: Settings) -> Iterator[str]:
    env = server_env(
        settings,
        CREDENCE_MIGRATE_ON_START="false",
        CREDENCE_LOG_LEVEL="WARNING",
        CREDENCE_API__MAX_BODY_BYTES=str(LIMIT),
        CREDENCE_API_KEYS=json.dumps({"right-key": ["*"]}),
    )
    with running_api(env) as base:
        yield base


def _address(api: str) -> tuple[str, int]:
    host, port = api.removeprefix("http://").split(":")
    return host, int(port)


def _answer(connection: socket.socket) -> tuple[int, dict[str, object]]:
    """The status and JSON body of the response (read until the server closes)."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head.lower():
        body = body.split(b"\r\n", 1)[1].rsplit(b"\r\n0\r\n", 1)[0]
    return status, json.loads(body)


def _request_head(path: str, headers: dict[str, str]) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_a_200_mb_body_with_a_wrong_key_is_413_before_it_is_sent(api: str) -> None:
    with socket.create_connection(_address(api), timeout=30) as connection:
        # Only the head of a declared 200 MB body is ever sent: the answer comes without the
        # body. (Sending body bytes the server never reads would race its close: bytes that
        # arrive after it make the kernel reset the connection, which can drop the answer.)
        connection.sendall(
            _request_head(
                "/v1/agents", {"Content-Length": str(200 * 1024 * 1024), "X-API-Key": "wrong"}
            )
        )
        status, body = _answer(connection)

    assert status == 413
    error = body["error"]
    assert isinstance(error, dict)
    assert error["code"] == "body_too_large"
    assert error["details"] == {"limit": LIMIT, "size": 200 * 1024 * 1024}


def test_a_chunked_body_is_413_as_soon_as_it_passes_the_limit(api: str) -> None:
    with socket.create_connection(_address(api), timeout=30) as connection:
        connection.sendall(
            _request_head("/v1/agents", {"Transfer-Encoding": "chunked", "X-API-Key": "right-key"})
        )
        chunk = b'{"name": "' + b"x" * 8192
        # Just enough chunks to pass the limit, so that the server has read all that was sent
        # when it answers (nothing arrives after its close to reset the connection).
        for _ in range(LIMIT // len(chunk) + 1):
            connection.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        # The body never ends (no last chunk): the answer comes anyway.
        status, body = _answer(connection)

    assert status == 413
    error = body["error"]
    assert isinstance(error, dict) and error["code"] == "body_too_large"


def test_a_body_within_the_limit_is_served(api: str) -> None:
    response = httpx.post(
        f"{api}/v1/agents",
        json={"name": "Within the limit", "identity_goal": "x" * 1000},
        headers={"x-api-key": "right-key"},
        timeout=60,
    )

    assert response.status_code == 201, response.text


def test_the_mcp_transport_refuses_a_big_body(api: str) -> None:
    response = httpx.post(
        f"{api}/mcp",
        content=b"{" * (LIMIT + 1),
        headers={"accept": "application/json, text/event-stream", "x-api-key": "wrong"},
        timeout=30,
    )

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "body_too_large"


def test_a_websocket_message_over_the_limit_gets_the_error_frame_then_1009(api: str) -> None:
    """uvicorn's websockets refused the message from its frame header and closed the socket
    with 1009 before the app saw it: no `body_too_large` frame ever went out."""
    url = api.replace("http://", "ws://") + "/v1/agents/any-agent/ws/chat"
    with connect(url, additional_headers={"x-api-key": "right-key"}) as chat:
        chat.send(json.dumps({"message": "x" * (LIMIT + 1)}))
        frame = json.loads(chat.recv(timeout=30))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                chat.recv(timeout=30)

    # What a body of no declared length over the limit is answered (the 413 of the test above).
    refused = BodyTooLarge(LIMIT)
    assert frame == {
        "type": "error",
        "error": {
            "code": "body_too_large",
            "status": 413,
            "message": refused.message,
            "details": {"limit": LIMIT, "size": None},
        },
    }
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def _requests_counted(api: str, route: str, status: str) -> float:
    """credence_http_requests_total of POST ``route`` answered ``status`` (0 before the first)."""
    text = httpx.get(f"{api}/metrics", timeout=30).text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "credence_http_requests_total" and sample.labels == {
                "method": "POST",
                "route": route,
                "status": status,
            }:
                return sample.value
    return 0.0


@pytest.mark.parametrize(
    ("framing", "route"),
    [
        # A body of no declared length is read before routing (app/api/body_limit.py).
        ({"Transfer-Encoding": "chunked"}, "unmatched"),
        ({"Content-Length": "1000"}, "/v1/agents"),
    ],
)
def test_a_client_gone_part_way_through_its_body_is_counted_499_not_a_server_error(
    api: str, framing: dict[str, str], route: str
) -> None:
    before = {status: _requests_counted(api, route, status) for status in ("400", "499", "500")}
    with socket.create_connection(_address(api), timeout=30) as connection:
        connection.sendall(_request_head("/v1/agents", {**framing, "X-API-Key": "right-key"}))
        half = b'{"name": "Half a'
        chunked = "Transfer-Encoding" in framing
        connection.sendall(f"{len(half):x}\r\n".encode() + half + b"\r\n" if chunked else half)
        # Closed with the body unfinished: nothing can be answered.

    # The server counts the request once it sees the close: asked again until it has (at most
    # 300 scrapes; each is a round trip to the server, which reads the close in between).
    for _ in range(300):
        if _requests_counted(api, route, "499") > before["499"]:
            break
        time.sleep(0.1)

    after = {status: _requests_counted(api, route, status) for status in ("400", "499", "500")}
    assert after == {**before, "499": before["499"] + 1}
