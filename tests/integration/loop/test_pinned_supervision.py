"""A supervision mode pinned on a belief (``PATCH /beliefs/{bid}`` ``supervision_mode``) routes
the turns that rest on it (real API, real Neo4j, offline reasoner; docs/loop.md §4). A review's
finding: the pin was stored and shown by ``GET``, and the loop routed on the strength alone, so a
belief pinned to guidance ("always ask me first") still acted autonomously."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.integration.loop.conftest import Agent
from tests.support.agents import MakeAgent

RECONCILE = "Bank accounts are reconciled at month end before the books are closed"
REQUEST = "Please reconcile the Chase bank account before the books are closed"


def _pin(agent: Agent, belief_id: str, mode: str) -> None:
    response = agent.client.patch(
        f"/v1/agents/{agent.id}/beliefs/{belief_id}", json={"supervision_mode": mode}
    )
    assert response.status_code == 200, response.text


def _route_phase(client: TestClient, agent: Agent, message: str) -> dict[str, Any]:
    """The route phase a turn streams (its mode and reasons), over the WebSocket."""
    with client.websocket_connect(f"/v1/agents/{agent.id}/ws/chat") as socket:
        socket.send_json({"message": message})
        while True:
            event = socket.receive_json()
            if event["type"] == "phase" and event["phase"] == "route":
                routed: dict[str, Any] = event["data"]
            if event["type"] in ("result", "error"):
                assert event["type"] == "result", event
                return routed


def test_a_pin_routes_the_turn_and_derived_clears_it(agent: Agent) -> None:
    belief = agent.belief(RECONCILE, 0.85)
    assert agent.chat(REQUEST)["mode"] == "autonomous"

    _pin(agent, belief, "guidance")
    assert agent.get(f"/beliefs/{belief}")["supervision_mode"] == "guidance"
    asked = agent.chat(REQUEST)
    assert asked["mode"] == "guidance", asked["response"]
    assert asked["approval"]["kind"] == "guidance"
    assert asked["execution"] is None
    assert asked["relevant_belief"]["id"] == belief
    assert asked["relevant_belief"]["supervision_mode"] == "guidance"
    assert agent.get(f"/episodes/{asked['turn_id']}")["supervision_mode"] == "guidance"

    _pin(agent, belief, "proposal")
    proposed = agent.chat(REQUEST)
    assert proposed["mode"] == "proposal"
    assert proposed["approval"]["kind"] == "proposal"

    _pin(agent, belief, "derived")
    assert agent.get(f"/beliefs/{belief}")["belief"]["supervision_mode"] is None
    again = agent.chat(REQUEST)
    assert again["mode"] == "autonomous"
    assert again["relevant_belief"]["supervision_mode"] is None


def test_the_reasons_say_the_pin(client: TestClient, agent: Agent) -> None:
    belief = agent.belief(RECONCILE, 0.85)
    _pin(agent, belief, "guidance")
    routed = _route_phase(client, agent, REQUEST)
    assert routed["mode"] == "guidance"
    assert routed["reasons"][0] == (
        "pinned to guidance on the belief (its strength 0.85 would give autonomous)"
    )


def test_a_pin_of_autonomous_still_yields_to_the_safety_steps(
    client: TestClient, agent: Agent, make_agent: MakeAgent
) -> None:
    belief = agent.belief(RECONCILE, 0.65)  # proposal by its strength
    _pin(agent, belief, "autonomous")
    acted = agent.chat(REQUEST)
    assert acted["mode"] == "autonomous"
    assert acted["execution"]["status"] == "recorded_not_executed"
    # A high-stakes frame still caps it at proposal.
    turn = agent.chat("Should we reconcile the Chase bank account before the books are closed?")
    assert turn["stakes"] == "high"
    assert turn["mode"] in ("proposal", "guidance")
    # An invalidated belief (below the aesthetic threshold, 0.60) never decides autonomy.
    other = Agent(client, make_agent("Pinned but invalidated"))
    _pin(other, other.belief(RECONCILE, 0.55), "autonomous")
    routed = _route_phase(client, other, REQUEST)
    assert routed["mode"] == "proposal"
    assert routed["reasons"] == [
        "pinned to autonomous on the belief (its strength 0.55 would give proposal)",
        "the relevant belief is invalidated (below its category's threshold)",
    ]
