"""The query parameters a route takes, read from the route itself (its signature and those of its
dependencies, as FastAPI analysed them), so a list of them never drifts from what it parses; and
the refusal of any other on the ``/v1`` routes (a misspelt filter is a 422 naming it, never
ignored)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.requests import HTTPConnection, Request

Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])
# Set on an endpoint that reads its query string itself (takes_any_query_parameters).
_ANY_QUERY = "__credence_any_query__"
# The routes the refusal covers: the REST API (not /health, /metrics, /browser/).
_PREFIX = "/v1/"
# Where a route keeps the names it takes, read once (routes are not hashable).
_TAKEN = "__credence_query_parameters__"


def query_parameter_names(dependant: Dependant) -> tuple[str, ...]:
    """The names (aliases) of the query parameters of ``dependant`` and of its dependencies, in
    the order FastAPI reads them, each once."""
    names = [field.alias for field in dependant.query_params]
    for dependency in dependant.dependencies:
        names.extend(query_parameter_names(dependency))
    return tuple(dict.fromkeys(names))


def route_query_parameters(router: APIRouter, endpoint: Callable[..., Any]) -> tuple[str, ...]:
    """The query parameters of the route of ``router`` that ``endpoint`` serves.

    Raises:
        LookupError: no route of ``router`` is served by ``endpoint`` (a programming error).
    """
    for route in router.routes:
        if isinstance(route, APIRoute) and route.endpoint is endpoint:
            return query_parameter_names(route.dependant)
    raise LookupError(f"no route of the router is served by {endpoint.__name__}")


def takes_any_query_parameters(endpoint: Endpoint) -> Endpoint:
    """Marks a route that reads its query string itself (and refuses what it does not take)."""
    setattr(endpoint, _ANY_QUERY, True)
    return endpoint


async def refuse_unknown_query_parameters(connection: HTTPConnection) -> None:
    """A dependency of every route: on a ``/v1`` route, a query parameter it does not take is a
    422 naming each (``["query", "statuss"]``, ``extra_forbidden``). Async: a plain function
    would run in the thread pool, a hop on every request."""
    route = connection.scope.get("route")
    if (
        not isinstance(connection, Request)
        or not connection.query_params
        or not isinstance(route, APIRoute)
        or not route.path.startswith(_PREFIX)
        or getattr(route.endpoint, _ANY_QUERY, False)
    ):
        return
    taken: tuple[str, ...] | None = getattr(route, _TAKEN, None)
    if taken is None:
        taken = query_parameter_names(route.dependant)
        setattr(route, _TAKEN, taken)
    unknown = sorted({name for name in connection.query_params if name not in taken})
    if unknown:
        takes = f"this route takes {', '.join(taken)}" if taken else "this route takes none"
        raise RequestValidationError(
            [
                {
                    "loc": ("query", name),
                    "msg": f"unknown query parameter ({takes})",
                    "type": "extra_forbidden",
                }
                for name in unknown
            ]
        )
