"""An edit never lands on an inactive belief, even one deactivated by another writer after the
edit began: the edit checks the belief inside its own write transaction, under the agent's
lock (app/beliefs/store.py update_belief). Real Neo4j, and through the API."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

import pytest
from fastapi.testclient import TestClient

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs import store
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import BeliefCreate, BeliefUpdate
from app.errors import BeliefInactive
from app.graph.client import GraphClient, Transaction

MECHANICS = Mechanics()
STATEMENT = "Accruals are booked monthly."
T = TypeVar("T")


class _DeactivatedBeforeTheWrite:
    """The graph, with the belief deactivated (in its own committed transaction, by the store
    itself) just before the edit's write transaction opens: as another writer would between
    anything the edit read first and its write."""

    def __init__(self, graph: GraphClient, agent_id: str, belief_id: str) -> None:
        self._graph, self._agent_id, self._belief_id = graph, agent_id, belief_id
        self.deactivated = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._graph, name)

    async def write_transaction(
        self, work: Callable[[Transaction], Awaitable[T]], action: str = "writing"
    ) -> T:
        if not self.deactivated:
            self.deactivated = True
            await store.update_belief(
                self._graph,
                MECHANICS,
                self._agent_id,
                self._belief_id,
                BeliefUpdate(is_active=False),
            )
        return await self._graph.write_transaction(work, action)


@pytest.mark.parametrize(
    "change",
    [
        BeliefUpdate(statement="Accruals are booked weekly."),
        BeliefUpdate(importance=0.9),
        BeliefUpdate(supervision_mode="guidance"),
    ],
)
async def test_a_belief_deactivated_after_the_edit_began_is_not_edited(
    graph: GraphClient, change: BeliefUpdate
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="Edited while deactivated"))).id
    belief = await store.create_belief(
        graph, MECHANICS, agent, BeliefCreate(statement=STATEMENT, category="contextual")
    )
    racing = _DeactivatedBeforeTheWrite(graph, agent, belief.id)

    with pytest.raises(BeliefInactive):
        await store.update_belief(cast(GraphClient, racing), MECHANICS, agent, belief.id, change)

    assert racing.deactivated
    detail = await store.get_belief(graph, MECHANICS, agent, belief.id)
    assert detail.belief.is_active is False
    assert detail.belief.statement == STATEMENT
    assert detail.belief.importance == belief.importance
    assert detail.belief.supervision_mode is None
    # The deactivation's event and the creation's; no edit was recorded.
    assert sorted(event["action"] for event in detail.events) == ["created", "deactivated"]


def test_an_edit_of_an_inactive_belief_is_a_409_through_the_api(
    client: TestClient, agent: str
) -> None:
    created = client.post(
        f"/v1/agents/{agent}/beliefs", json={"statement": STATEMENT, "category": "contextual"}
    )
    assert created.status_code == 201, created.text
    belief = f"/v1/agents/{agent}/beliefs/{created.json()['id']}"
    assert client.patch(belief, json={"is_active": False}).status_code == 200

    edited = client.patch(belief, json={"statement": "Accruals are booked weekly."})
    again = client.patch(belief, json={"is_active": False})
    unknown = client.patch(f"/v1/agents/{agent}/beliefs/no-such-belief", json={"importance": 0.2})

    assert edited.status_code == 409, edited.text
    assert edited.json()["error"]["code"] == "belief_inactive"
    assert edited.json()["error"]["details"]["belief_id"] == created.json()["id"]
    # Deactivating it again is still a no-op, not a conflict; an unknown belief is a 404.
    assert again.status_code == 200, again.text
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "belief_not_found"
    assert client.get(belief).json()["belief"]["statement"] == STATEMENT
