"""Control characters are refused at the API's edge: a JSON body whose strings (or keys) hold a
C0 control character or DEL (tab, line feed and carriage return excepted) is a 422 naming the
first such place (``["body", "speaker"]``, ``["body", "episodes", 3, "text"]``) before the route
runs, so nothing is written and no work starts. The texts Credence makes itself (a claim learned
from a message, a tool's description, a research source) are not checked: they come from
outside only through these bodies, a tool's answer or a file, and only what a client sends is
the client's to correct.

The bulk uploads (episode imports, research source files) are not checked: they carry documents
written elsewhere, where a stray form feed is no reason to refuse a thousand episodes.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection, Request

from app.api.body_limit import UPLOAD_PATHS
from app.common import control_character_problem
from app.errors import InvalidInput

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH"})
# The deepest nesting looked at (the routes' own models refuse deeper bodies anyway).
MAX_DEPTH = 64


async def refuse_control_characters(connection: HTTPConnection) -> None:
    """A dependency of every route: raises InvalidInput for a body string with a control
    character (the route's parse of the body, not a second one). A WebSocket's messages
    are checked by their own models (app/loop/models.py)."""
    if not isinstance(connection, Request):
        return
    request = connection
    if request.method not in WRITE_METHODS or any(
        pattern.match(request.url.path) for pattern in UPLOAD_PATHS
    ):
        return
    if "json" not in request.headers.get("content-type", ""):
        return
    if not await request.body():
        return
    try:
        # The route's own parse, cached on the request (FastAPI reads a JSON body with
        # request.json() before the dependencies run): the body is parsed once.
        document = await request.json()
    except (ValueError, RecursionError):
        return  # the route answers a body that is not JSON (400)
    found = first_control_character(document, ["body"])
    if found is not None:
        location, problem = found
        where = ".".join(str(part) for part in location)
        raise InvalidInput(
            f"invalid request: {where}: {problem}",
            errors=[{"location": location, "message": problem, "type": "value_error"}],
        )


def first_control_character(
    value: Any, location: list[str | int], depth: int = 0
) -> tuple[list[str | int], str] | None:
    """The location and the problem of the first string in ``value`` holding a control
    character (depth first, in the document's order), or None."""
    if isinstance(value, str):
        problem = control_character_problem(value)
        return (location, problem) if problem is not None else None
    if depth >= MAX_DEPTH:
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            problem = control_character_problem(key)
            if problem is not None:
                return [*location, key], f"its name {problem}"
            found = first_control_character(item, [*location, key], depth + 1)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = first_control_character(item, [*location, index], depth + 1)
            if found is not None:
                return found
    return None
