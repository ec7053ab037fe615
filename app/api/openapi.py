"""The OpenAPI document declares every status a route can return, so that a generated client is
truthful: the error statuses follow from the operation's inputs, and every one has the error
body's schema (``app/api/errors.py``: ``{"error": {"code", "message", "details"}}``).

- an operation that reads the API key (the ``x-api-key`` header): 401 (a key is required or
  unknown) and 403 (the key may not touch this agent);
- a path with ids (``{agent_id}``, ``{belief_id}`` ...): 404 (no such agent or item);
- a request body: 400 (the body is not JSON), 404 (a name or id in it names nothing, e.g. a
  knowledge pack) and 422;
- every operation: 413 (a body larger than ``CREDENCE_API__MAX_BODY_BYTES`` is refused before
  routing, app/api/body_limit.py, whether the operation takes a body or not);
- any input: 422 (validation);
- writes (POST, PUT, PATCH, DELETE): 409 (a conflict: a constraint, an immutable or inactive
  belief, a cycle, an approval already answered ...);
- every ``/v1`` operation: 503 (Neo4j unreachable or busy, with ``Retry-After``), and the
  ``X-Credence-Bookmark`` header (in on every one, out on the writes' 2xx answers).

What an operation declares itself (``responses=``) is kept, except that every error status it
declares (4xx, 5xx; with a model or only a description) gets the error body's schema, its
description kept (FastAPI's own 422 schema is not what the API sends; its "Validation Error" is
replaced by ours).
The entries of the error body's ``details.errors`` have one schema, ``ErrorEntry`` (docs/api.md,
"Error entries").
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field

from app.graph.causality import HEADER, HEADER_PATTERN

ERROR_SCHEMA = "ErrorResponse"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
METHODS = WRITES | {"GET", "HEAD", "OPTIONS"}
_DESCRIPTIONS = {
    "400": "The request body is not valid JSON.",
    "401": "An API key is required (keys are configured) or the key is unknown.",
    "403": "The API key may not access this agent.",
    "404": "No such agent, or no such item (in the path or named in the body).",
    "409": "The request conflicts with the graph's state.",
    "413": "The request body is larger than the server takes (CREDENCE_API__MAX_BODY_BYTES);"
    " it was not read.",
    "422": "The input is invalid; every problem is listed with its location.",
    "503": "Neo4j is unreachable or busy; try again after Retry-After seconds.",
}


class ErrorEntry(BaseModel):
    """One problem of an error (``details.errors``; docs/api.md, "Error entries"): every entry
    has exactly these keys, whatever found the problem."""

    model_config = ConfigDict(extra="forbid")

    location: list[str | int] = Field(
        description="Where, as path parts: the part of the request first (body, query, path,"
        ' header), e.g. ["body", "episodes", 1, "about"]; in a file ["file", <name>, "line",'
        " <n>, <field>...] (no line part for a field of a YAML document or the file as a whole);"
        " empty for the input as a whole.",
    )
    message: str = Field(description="What is wrong, for people.")
    type: str = Field(
        description="A short snake_case code of the kind of problem: pydantic's where pydantic"
        " found it (missing, string_too_long, ...), else the producer's (pattern_refused,"
        " duplicate_key, json_invalid, ...).",
    )


class ErrorDetails(BaseModel):
    """What the error carries beside its message: ids, names, and ``errors`` for invalid
    input."""

    model_config = ConfigDict(extra="allow")

    errors: list[ErrorEntry] = Field(
        default_factory=list,
        description="Every problem of the input (422, and 502 enrichment_failed); absent where"
        " the error has no entries.",
    )


class ErrorDetail(BaseModel):
    code: str = Field(description="Stable error code, e.g. agent_not_found, invalid_input.")
    message: str
    details: ErrorDetails = Field(default_factory=ErrorDetails)


class ErrorResponse(BaseModel):
    """The body of every error answer."""

    error: ErrorDetail


def install_openapi(app: FastAPI) -> None:
    """Makes ``app.openapi()`` declare the error statuses of every operation (built once)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            declare_errors(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def declare_errors(schema: dict[str, Any]) -> None:
    """Adds the error statuses each operation can return to ``schema`` (in place)."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.update(_model_schemas())
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            if method.upper() not in METHODS:
                continue
            if path.startswith("/v1/"):
                _declare_bookmarks(operation, write=method.upper() in WRITES)
            responses = operation.setdefault("responses", {})
            for status in _statuses(path, method.upper(), operation):
                if status == "422" or status not in responses:
                    responses[status] = _error_response(status, responses.get(status))
            _declare_error_bodies(responses)


def _declare_error_bodies(responses: dict[str, Any]) -> None:
    """Every error status gets the error body's schema, also one a route declares itself with
    only a description (kept), and a 503 its Retry-After header."""
    for status, response in responses.items():
        if status[:1] in ("4", "5"):
            response["content"] = _error_content()
        if status == "503":
            response.setdefault("headers", {}).setdefault(
                "Retry-After",
                {"description": "Seconds to wait.", "schema": {"type": "integer"}},
            )


def _declare_bookmarks(operation: dict[str, Any], write: bool) -> None:
    """The X-Credence-Bookmark header (app/graph/causality.py): accepted by every /v1 operation,
    answered by the writes."""
    parameters = operation.setdefault("parameters", [])
    if not any(p.get("in") == "header" and p.get("name") == HEADER for p in parameters):
        parameters.append(
            {
                "name": HEADER,
                "in": "header",
                "required": False,
                "description": "Bookmarks of earlier writes (from their X-Credence-Bookmark"
                " answers, comma-separated): this request reads after them, on any process.",
                "schema": {"type": "string", "pattern": HEADER_PATTERN},
            }
        )
    if not write:
        return
    for status, response in operation.get("responses", {}).items():
        if status.startswith("2"):
            response.setdefault("headers", {})[HEADER] = {
                "description": "The bookmarks of this request's writes (send them back to read"
                " them through another API process).",
                "schema": {"type": "string"},
            }


def _statuses(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    parameters = operation.get("parameters", [])
    statuses: set[str] = {"413"}
    if any(p.get("in") == "header" and p.get("name") == "x-api-key" for p in parameters):
        statuses |= {"401", "403"}
    if "{" in path:
        statuses.add("404")
    if "requestBody" in operation:
        statuses |= {"400", "404", "422"}
    if parameters or "requestBody" in operation:
        statuses.add("422")
    if method in WRITES:
        statuses.add("409")
    if path.startswith("/v1/"):
        statuses.add("503")
    return sorted(statuses)


def _error_response(status: str, declared: dict[str, Any] | None = None) -> dict[str, Any]:
    """The error response of ``status``; a 422 keeps the description its operation declared
    (not FastAPI's own "Validation Error")."""
    description = (declared or {}).get("description")
    if status != "422" or description in (None, "Validation Error"):
        description = _DESCRIPTIONS[status]
    response: dict[str, Any] = {"description": description, "content": _error_content()}
    return response


def _error_content() -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_SCHEMA}"}}}


def _model_schemas() -> dict[str, Any]:
    schema = ErrorResponse.model_json_schema(ref_template="#/components/schemas/{model}")
    definitions = schema.pop("$defs", {})
    return {ERROR_SCHEMA: schema, **definitions}
