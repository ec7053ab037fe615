"""Every error status of every operation in the OpenAPI document carries the error body's
schema (app/api/openapi.py), also the statuses a route declares itself with only a
description, which keep that description."""

from __future__ import annotations

from typing import Any

from app.api.app import create_app
from app.config import Settings

ERROR_REF = "#/components/schemas/ErrorResponse"


def _document() -> dict[str, Any]:
    settings = Settings(
        _env_file=None, neo4j_uri="bolt://127.0.0.1:1", migrate_on_start=False, api_keys={}
    )
    return create_app(settings).openapi()


def test_every_error_status_of_every_operation_has_the_error_body() -> None:
    document = _document()
    missing = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation.get("responses", {}).items():
                if status[:1] not in ("4", "5"):
                    continue
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                if schema != {"$ref": ERROR_REF}:
                    missing.append(f"{method.upper()} {path} {status}")
                if status == "503" and "Retry-After" not in response.get("headers", {}):
                    missing.append(f"{method.upper()} {path} 503 without Retry-After")
    assert missing == []
    entry = document["components"]["schemas"]["ErrorDetails"]["properties"]["errors"]
    assert entry["items"] == {"$ref": "#/components/schemas/ErrorEntry"}


def test_a_declared_error_status_keeps_its_description() -> None:
    paths = _document()["paths"]
    delete = paths["/v1/agents/{agent_id}"]["delete"]["responses"]
    assert delete["409"]["description"] == "the default agent, without force=true"
    assert delete["404"]["description"] == "no such agent"
    birth = paths["/v1/agents"]["post"]["responses"]
    assert "enrichment" in birth["502"]["description"]
