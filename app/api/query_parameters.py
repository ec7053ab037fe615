"""The query parameters a route takes, read from the route itself (its signature and those of its
dependencies, as FastAPI analysed them), so a list of them never drifts from what it parses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute


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
