"""Frames against the real Neo4j: install (idempotent), list, choose."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.memory import frames
from app.seeds.pack_schema import FrameSpec


async def test_installing_the_seed_frames_twice_changes_nothing(
    graph: GraphClient, test_graph: GraphClient, agent: str
) -> None:
    first = await frames.install_frames(graph, agent)
    second = await frames.install_frames(graph, agent)

    keys = [frame.key for frame in first]
    assert keys[:6] == ["task", "question", "decision", "creative", "conversation", "debug"]
    assert [(f.key, f.id) for f in second] == [(f.key, f.id) for f in first]
    counts = (await test_graph.read("memory/count_labelled", agent_id=agent))[0]
    assert counts["frames"] == len(first)
    decision = next(f for f in first if f.key == "decision")
    assert decision.default_stakes == "high" and decision.context_budget > 0
    assert decision.questions_to_ask and decision.source == "seed"


async def test_a_reinstall_updates_a_frame_in_place(graph: GraphClient, agent: str) -> None:
    [original] = await frames.install_frames(
        graph,
        agent,
        [
            FrameSpec(
                key="audit",
                name="Audit",
                activation_patterns=["audit"],
                default_category="ethical",
                default_stakes="high",
            )
        ],
        source="pack:audit",
    )
    spec = FrameSpec(
        key="audit",
        name="Audit review",
        activation_patterns=["audit", "sox"],
        default_category="ethical",
        default_stakes="high",
        context_budget=5000,
    )
    later = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
    [updated] = await frames.install_frames(graph, agent, [spec], source="pack:audit", now=later)

    assert updated.id == original.id
    # The listing reads the times as text (toString) back as the instants written.
    [listed] = (await frames.list_frames(graph, agent)).data
    assert listed.updated_at == later and listed.installed_at == original.installed_at
    assert updated.name == "Audit review" and updated.activation_patterns == ["audit", "sox"]
    assert updated.context_budget == 5000


async def test_choosing_uses_installed_frames_or_the_defaults(
    graph: GraphClient, agent: str
) -> None:
    fallback = await frames.choose_frame(graph, agent, "Why did the report fail with an error?")
    assert fallback.from_defaults
    assert fallback.selection.key == "debug"

    await frames.install_frames(graph, agent)
    chosen = await frames.choose_frame(graph, agent, "Should we approve this? pros and cons")
    assert not chosen.from_defaults
    assert chosen.selection.key == "decision" and chosen.selection.matches == 4
    assert chosen.frame is not None and chosen.frame.default_stakes == "high"
    small_talk = await frames.choose_frame(graph, agent, "lorem ipsum")
    assert small_talk.selection.key == "conversation" and not small_talk.selection.matched


async def test_frames_are_scoped_to_their_agent(
    graph: GraphClient, agent: str, other_agent: str, agent_id: str
) -> None:
    await frames.install_frames(graph, agent)
    assert (await frames.list_frames(graph, other_agent)).count == 0
    with pytest.raises(AgentNotFound):
        await frames.list_frames(graph, agent_id)
    with pytest.raises(AgentNotFound):
        await frames.install_frames(graph, agent_id)


def _audit_frame(key: str = "audit") -> FrameSpec:
    return FrameSpec(
        key=key,
        name="Audit review",
        activation_patterns=["audit"],
        default_category="contextual",
        default_stakes="medium",
        questions_to_ask=[],
        context_budget=2500,
    )


async def test_a_pack_frame_adds_to_the_defaults_of_an_agent_without_seed_frames(
    graph: GraphClient, agent: str
) -> None:
    # An agent created over the API has no frames; a pack bringing one frame must not take the
    # shipped ones away: a decision is still a decision (high stakes), not a low-stakes chat.
    await frames.install_frames(graph, agent, [_audit_frame()], source="pack:audit")

    chosen = await frames.choose_frame(graph, agent, "Should we approve this? pros and cons")
    assert chosen.selection.key == "decision"
    assert chosen.frame is not None and chosen.frame.default_stakes == "high"
    assert chosen.from_defaults
    audit = await frames.choose_frame(graph, agent, "the audit")
    assert audit.selection.key == "audit" and not audit.from_defaults
    assert audit.frame is not None and audit.frame.context_budget == 2500


def _document(version: int, frames_: list[dict[str, object]]) -> dict[str, object]:
    return {
        "name": "task-override",
        "version": version,
        "industry": "testing",
        "description": "A pack that redefines the task frame, then drops it.",
        "beliefs": [{"key": "b", "statement": "Ledgers balance.", "category": "ethical"}],
        "frames": frames_,
    }


async def test_a_retired_pack_frame_of_a_shipped_key_gives_the_shipped_frame_back(
    client: TestClient, graph: GraphClient, agent: str
) -> None:
    # A pack loaded before frame keys were checked (docs/packs.md §2) replaced the installed
    # seed "task" (merged on the key): loading it again under that key is refused now, and its
    # next version, which drops the frame, gives the agent the shipped task frame back.
    await frames.install_frames(graph, agent)
    url = f"/v1/agents/{agent}/packs"
    override = _audit_frame("task").model_dump() | {"activation_patterns": ["ledger"]}
    await frames.install_frames(graph, agent, [_audit_frame("task")], source="pack:task-override")
    refused = client.post(url, json=_document(1, [override]))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "frame_key_taken"
    assert client.post(url, json=_document(2, [])).json()["retired_frames"] == ["task"]

    chosen = await frames.choose_frame(graph, agent, "please build and fix the export")
    assert chosen.selection.key == "task"
    assert chosen.frame is not None and chosen.frame.name == "Task execution"
