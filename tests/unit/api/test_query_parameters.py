"""The query parameters a route takes are read from the route (its signature and its
dependencies'), so the context route's list of them, which it refuses every other against,
cannot drift from what it parses."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from app.api.app import create_app
from app.api.query_parameters import route_query_parameters
from app.api.routes import context
from app.config import Settings

# Module level: the annotations are strings (``from __future__``), resolved in these globals.
ROUTER = APIRouter()


async def paging(skip: int = 0, limit: Annotated[int, Query(alias="max")] = 5) -> int:
    return skip + limit


@ROUTER.get("/things/{thing_id}")
async def things(
    thing_id: str,
    paged: Annotated[int, Depends(paging)],
    q: str,
    flag: Annotated[bool, Query()] = False,
    skip: int = 0,
) -> dict[str, Any]:
    return {}


def test_the_parameters_of_a_route_come_from_its_signature_and_dependencies() -> None:
    # A parameter added to a route (or to a dependency of it) is in its list at once.
    assert set(route_query_parameters(ROUTER, things)) == {"q", "flag", "skip", "max"}


def test_the_context_route_refuses_exactly_what_it_does_not_declare() -> None:
    settings = Settings(
        _env_file=None, neo4j_uri="bolt://127.0.0.1:1", migrate_on_start=False, api_keys={}
    )
    operation = create_app(settings).openapi()["paths"]["/v1/agents/{agent_id}/context"]["get"]
    declared = {p["name"] for p in operation["parameters"] if p["in"] == "query"}

    assert set(context.PARAMETERS) == declared
    assert {"q", "k", "section", "mode", "budget_tokens"} <= declared
