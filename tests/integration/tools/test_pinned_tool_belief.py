"""A supervision mode pinned on the agent's belief about a tool routes its calls (real API, real
Neo4j, mcp-server-time and mcp-server-sqlite, offline reasoner; docs/tools.md): the pin replaces
the mode of the belief's strength, and a destructive tool still waits for its confirmed
successes, a pin of autonomous included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from tests.integration.tools.conftest import TIME_SERVER, ToolAgent, tool_settings

CLOCK = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}
UTC = {"timezone": "UTC"}


def _belief_of(agent: ToolAgent, connection: str, tool: str) -> str:
    tools = {t["name"]: t for t in agent.get(f"/connections/{connection}/tools")["data"]}
    belief_id: str = tools[tool]["belief_id"]
    return belief_id


def _pin(agent: ToolAgent, belief_id: str, mode: str) -> None:
    response = agent.client.patch(
        f"/v1/agents/{agent.id}/beliefs/{belief_id}", json={"supervision_mode": mode}
    )
    assert response.status_code == 200, response.text


def test_a_pinned_tool_belief_routes_its_calls(agent: ToolAgent) -> None:
    agent.post("/connections", CLOCK, expect=201)
    belief = _belief_of(agent, "clock", "get_current_time")
    assert agent.call("clock", "get_current_time", UTC)["mode"] == "proposal"  # its 0.5

    _pin(agent, belief, "guidance")
    asked: dict[str, Any] = agent.call("clock", "get_current_time", UTC)
    assert asked["mode"] == "guidance", asked["response"]
    assert asked["approval"]["kind"] == "guidance"
    assert asked["relevant_belief"]["supervision_mode"] == "guidance"
    # The same pin routes a call written in a message.
    message = 'call clock.get_current_time {"timezone": "UTC"}'
    assert agent.post("/chat", {"message": message})["mode"] == "guidance"

    # Below its category's threshold (contextual, 0.75) a belief never decides autonomy,
    # pinned or not: the pin replaces the base mode, the safety steps still apply.
    _pin(agent, belief, "autonomous")
    capped = agent.call("clock", "get_current_time", UTC)
    assert capped["mode"] == "proposal", capped["response"]
    assert capped["relevant_belief"]["invalidated"] is True

    _pin(agent, belief, "derived")
    assert agent.call("clock", "get_current_time", UTC)["mode"] == "proposal"
    assert agent.post("/chat", {"message": message})["relevant_belief"]["supervision_mode"] is None


def test_a_pin_of_autonomous_does_not_skip_a_destructive_tools_successes(
    settings: Settings, tmp_path: Path
) -> None:
    """With tool beliefs not invalidated at 0.5 (a contextual threshold of 0.3), a pin of
    autonomous makes a read-only tool's call autonomous, and leaves a destructive tool's at
    proposal until its confirmed successes (docs/tools.md: earned autonomy)."""
    mechanics = settings.mechanics.model_copy(update={"threshold_contextual": 0.3})
    lenient = tool_settings(settings).model_copy(update={"mechanics": mechanics})
    with TestClient(create_app(lenient)) as client:
        agent = ToolAgent(client, client.post("/v1/agents", json={"name": "Pinned"}).json()["id"])
        agent.post("/connections", CLOCK, expect=201)
        agent.connect_ledger(tmp_path / "ledger.db")
        _pin(agent, _belief_of(agent, "clock", "get_current_time"), "autonomous")
        acted = agent.call("clock", "get_current_time", UTC)
        assert acted["mode"] == "autonomous", acted["response"]
        assert acted["execution"]["status"] == "executed"

        _pin(agent, _belief_of(agent, "ledger", "create_table"), "autonomous")
        create = "CREATE TABLE invoices (number TEXT PRIMARY KEY, amount REAL)"
        capped = agent.call("ledger", "create_table", {"query": create}, speaker="Dana")
        assert capped["mode"] == "proposal", capped["response"]
        assert capped["execution"] is None
        assert capped["relevant_belief"]["supervision_mode"] == "autonomous"
        assert capped["relevant_belief"]["invalidated"] is False
        client.delete(f"/v1/agents/{agent.id}")
