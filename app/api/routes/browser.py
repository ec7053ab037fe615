"""Neo4j Browser: the Credence guide and style sheet it fetches on connect (docs/browser.md).

Open like /health (Browser sends no API key): they name the agent and carry query text and
style rules, no data; Browser runs the queries over Bolt with the Neo4j login. Cross-origin
reads by the Browser are allowed by :mod:`app.api.browser_cors`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse

from app.api.deps import GraphDep
from app.api.openapi import ERROR_SCHEMA
from app.browser.guide import find_guide_agent, render_guide, style_sheet

router = APIRouter(prefix="/browser", tags=["browser"])

# Errors are JSON like every error of the API (app/api/errors.py), though the guide is HTML.
_ERROR_BODY = {"application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_SCHEMA}"}}}
_GUIDE_RESPONSES: dict[int | str, dict[str, object]] = {
    200: {
        "content": {"text/html": {"schema": {"type": "string"}}},
        "description": "The guide's slides (Neo4j Browser's HTML guide format).",
    },
    404: {"content": _ERROR_BODY, "description": "agent_id names no agent."},
    503: {
        "content": _ERROR_BODY,
        "description": "Neo4j is unreachable or busy; try again after Retry-After seconds.",
        "headers": {
            "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
        },
    },
}
_STYLE_RESPONSES: dict[int | str, dict[str, object]] = {
    200: {
        "content": {"text/plain": {"schema": {"type": "string"}}},
        "description": "The GraSS style sheet.",
    },
}

AgentIdQuery = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=64,
        # As an agent id in a path (app/api/deps.py): what no agent id can be is a 422.
        pattern=r"^[A-Za-z0-9_-]+$",
        description="The agent the guide is about (default: the demo agent, `credence demo`).",
    ),
]


@router.get("/guide", response_class=HTMLResponse, responses=_GUIDE_RESPONSES)
async def guide(graph: GraphDep, request: Request, agent_id: AgentIdQuery = None) -> HTMLResponse:
    """The Credence guide for Neo4j Browser: `:guide http://127.0.0.1:8000/browser/guide`."""
    agent = await find_guide_agent(graph, agent_id)
    page = render_guide(
        agent,
        graph.catalog,
        guide_url=str(request.url_for("guide")),
        style_url=str(request.url_for("style")),
    )
    return HTMLResponse(page)


@router.get("/style.grass", response_class=PlainTextResponse, responses=_STYLE_RESPONSES)
async def style() -> PlainTextResponse:
    """Credence's style for Neo4j Browser: `:style http://127.0.0.1:8000/browser/style.grass`."""
    return PlainTextResponse(style_sheet())
