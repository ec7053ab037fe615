"""The strength ``GET /connections/{name}/tools`` shows for a tool is the one a call routes on
(real Neo4j, mcp-server-time): the belief's strength in the call's context (HOLDS_IN, with its
back-off), not only its default strength (a review's finding: the listing showed 0.5 while a
month-end call routed on 0.88)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from tests.integration.tools.conftest import TIME_SERVER, ToolAgent, tool_settings

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}
# A Monday, the last business day of November 2026: a month end.
MONTH_END = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _listed(agent: ToolAgent, **params: Any) -> dict[str, Any]:
    tools = agent.get("/connections/clock/tools", **params)["data"]
    tool: dict[str, Any] = next(t for t in tools if t["name"] == "get_current_time")
    return tool


def _outcome(agent: ToolAgent, belief_id: str, outcome: str, context: str) -> None:
    agent.post(f"/beliefs/{belief_id}/outcome", {"outcome": outcome, "context": context})


def _routed_on(agent: ToolAgent, context: str | None = None) -> float:
    """The strength a call of the tool routed on (its turn's relevant belief), made in
    ``context`` (None: the one a call without a context takes)."""
    message = 'call clock.get_current_time {"timezone": "UTC"}'
    called = agent.post("/chat", {"message": message, "context": context})
    strength: float = called["relevant_belief"]["strength"]
    return strength


def test_the_listing_reads_a_tools_strength_in_the_context_a_call_routes_on(
    agent: ToolAgent,
) -> None:
    agent.post("/connections", CLOCK, expect=201)
    belief_id = _listed(agent)["belief_id"]
    _outcome(agent, belief_id, "success", "month_end")
    _outcome(agent, belief_id, "failure", "acme/month_end")

    general = _listed(agent, context="nowhere")
    assert general["belief_strength"] == 0.5  # the default strength did not move
    assert general["context"] == "nowhere" and general["context_applied"] is None
    assert general["strength_in_context"] == 0.5  # no strength held there: the default's
    held = {c["name"]: c["strength"] for c in general["contexts"]}
    assert list(held) == ["acme/month_end", "month_end"]
    assert held["month_end"] == pytest.approx(0.65) and held["acme/month_end"] < 0.65

    month_end = _listed(agent, context="month_end")
    assert month_end["strength_in_context"] == pytest.approx(0.65)
    assert month_end["context_applied"] == "month_end"
    assert month_end["strength_in_context"] == pytest.approx(_routed_on(agent, context="month_end"))

    acme = _listed(agent, context="acme/month_end")
    assert acme["context_applied"] == "acme/month_end"
    assert acme["strength_in_context"] == pytest.approx(held["acme/month_end"])
    assert acme["strength_in_context"] == pytest.approx(_routed_on(agent, context="acme/month_end"))

    # A context the belief holds nothing in backs off as routing does: to month_end.
    other = _listed(agent, context="globex/month_end")
    assert other["context_applied"] == "month_end"
    assert other["strength_in_context"] == pytest.approx(0.65)
    assert _routed_on(agent, context="globex/month_end") == pytest.approx(0.65)


@pytest.mark.parametrize("context", ["Month End", "month_end/", "a" * 201, ""])
def test_a_context_that_is_not_a_context_name_is_a_422(agent: ToolAgent, context: str) -> None:
    agent.post("/connections", CLOCK, expect=201)
    response = agent.client.get(
        f"/v1/agents/{agent.id}/connections/clock/tools", params={"context": context}
    )
    assert response.status_code == 422, response.text
    assert response.json()["error"]["details"]["errors"][0]["location"] == ["query", "context"]


def test_without_a_context_the_listing_reads_the_one_a_call_takes_now(
    settings: Settings,
) -> None:
    """On a month-end day a call without a context routes on the month_end strength: the
    listing without ``?context=`` shows that one, beside the default."""
    clocked = tool_settings(settings).model_copy(update={"clock_start": MONTH_END})
    with TestClient(create_app(clocked)) as client:
        agent = ToolAgent(
            client, client.post("/v1/agents", json={"name": "Month end"}).json()["id"]
        )
        agent.post("/connections", CLOCK, expect=201)
        belief_id = _listed(agent)["belief_id"]
        for _ in range(3):
            _outcome(agent, belief_id, "success", "month_end")

        listed = _listed(agent)
        assert listed["context"] == "month_end" and listed["context_applied"] == "month_end"
        assert listed["belief_strength"] == 0.5
        assert listed["strength_in_context"] == pytest.approx(0.95)
        assert listed["strength_in_context"] == pytest.approx(_routed_on(agent))
        # Asked for the default's context by name, the listing and the call agree too.
        assert _listed(agent, context="ordinary")["strength_in_context"] == 0.5
        assert _routed_on(agent, context="ordinary") == 0.5


def test_the_explanation_names_the_context_strength_an_approved_call_moved(
    settings: Settings,
) -> None:
    """README step 6: on a month-end day an approved call's success moves the tool belief's
    month_end strength, 0.5 → 0.65, and leaves the default at 0.5; the explanation's summary
    names both, so it shows the move the person just caused."""
    clocked = tool_settings(settings).model_copy(update={"clock_start": MONTH_END})
    with TestClient(create_app(clocked)) as client:
        agent = ToolAgent(
            client, client.post("/v1/agents", json={"name": "Month end explained"}).json()["id"]
        )
        agent.post("/connections", CLOCK, expect=201)
        proposed = agent.call("clock", "get_current_time", {"timezone": "UTC"})
        assert proposed["mode"] == "proposal", proposed
        agent.approve(proposed["approval"]["id"])
        belief_id = proposed["relevant_belief"]["id"]

        why = agent.get(f"/beliefs/{belief_id}/explanation")
        assert "strength 0.50 by default, 0.65 in month_end," in why["summary"], why["summary"]
        assert why["contexts"] == [{"name": "month_end", "strength": pytest.approx(0.65)}]
