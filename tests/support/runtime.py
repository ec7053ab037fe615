"""The runtime behind a test client: TestClient types its app as any ASGI app."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.runtime import Runtime


def runtime_of(client: TestClient) -> Runtime:
    """The runtime the client's app (``create_app``'s) serves with."""
    assert isinstance(client.app, FastAPI), client.app
    runtime = client.app.state.runtime
    assert isinstance(runtime, Runtime), runtime
    return runtime
