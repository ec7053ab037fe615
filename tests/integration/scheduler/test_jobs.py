"""The monthly rule decay and the pending embeddings on the schedule, and ``credence worker``
(docs/loop.md §14), on a real Neo4j with the clock moved."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli_app
from app.clock import Clock, FixedClock
from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.memory.rules import RuleCreate, create_rule, effective_confidence, record_decay
from tests.integration.scheduler.conftest import MakeRuntime
from tests.support.agents import MakeAgent


async def test_rules_have_their_decayed_confidence_recorded_once_a_month(
    make_agent: MakeAgent,
    graph: GraphClient,
    test_graph: GraphClient,
    make_runtime: MakeRuntime,
    moved_clock: FixedClock,
) -> None:
    agent = make_agent("Rules")
    written = moved_clock.now()
    rule = await create_rule(
        graph,
        agent,
        RuleCreate(
            trigger_concept="invoices", content="Chase invoices after 30 days", confidence=0.8
        ),
        now=written,
    )
    runtime = make_runtime([agent], ["rule_decay"])
    moved_clock.advance(timedelta(days=45))
    [run] = await runtime.scheduler.tick()
    expected = effective_confidence(0.8, None, written, moved_clock.now())
    assert (
        run.outcome == "ok"
        and run.detail == f"1 rule(s), 1 decaying, mean confidence {expected:.3f}"
    )
    [stored] = await test_graph.read("scheduler/get_rule_decay", rule_id=rule.id)
    assert stored["confidence"] == 0.8  # the decay is recorded, never applied to the confidence
    assert stored["decayed_confidence"] == pytest.approx(expected)
    # Due again a month later on the clock, not before.
    moved_clock.advance(timedelta(days=29))
    assert await runtime.scheduler.tick() == []
    moved_clock.advance(timedelta(days=1))
    [again] = await runtime.scheduler.tick()
    assert again.job == "rule_decay" and again.agent_id == agent


async def test_the_rule_decay_write_takes_the_agents_lock_and_spares_an_agent_being_deleted(
    make_agent: MakeAgent, graph: GraphClient, test_graph: GraphClient, moved_clock: FixedClock
) -> None:
    """docs/graph-model.md §5: every write to an agent's graph takes its lock first; the lock
    also refuses writes to an agent whose deletion has begun."""
    agent = make_agent("Locked rules")
    rule = await create_rule(
        graph,
        agent,
        RuleCreate(trigger_concept="audits", content="Book audits a month ahead", confidence=0.7),
        now=moved_clock.now(),
    )

    async def lock_count() -> int:
        [row] = await test_graph.read("scheduler/get_agent_lock", agent_id=agent)
        return int(row["write_count"])

    before = await lock_count()
    moved_clock.advance(timedelta(days=45))
    decay = await record_decay(graph, agent, moved_clock.now())
    assert (decay.rules, decay.decaying) == (1, 1)
    assert await lock_count() == before + 1
    [recorded] = await test_graph.read("scheduler/get_rule_decay", rule_id=rule.id)

    await graph.write("agents/store/lock_agent_for_deletion", agent_id=agent)
    moved_clock.advance(timedelta(days=30))
    with pytest.raises(AgentNotFound):
        await record_decay(graph, agent, moved_clock.now())
    assert await test_graph.read("scheduler/get_rule_decay", rule_id=rule.id) == [recorded]


async def test_a_belief_left_without_a_vector_is_embedded_on_the_schedule(
    client: TestClient,
    make_agent: MakeAgent,
    test_graph: GraphClient,
    make_runtime: MakeRuntime,
) -> None:
    agent = make_agent("Vectors")
    created = client.post(
        f"/v1/agents/{agent}/beliefs",
        json={"statement": "Suppliers are paid on Fridays", "category": "contextual"},
    )
    belief = created.json()["id"]
    await test_graph.write("scheduler/mark_belief_unembedded", agent_id=agent, belief_id=belief)
    runtime = make_runtime([agent], ["embeddings"])
    [run] = await runtime.scheduler.tick()
    [state] = await test_graph.read(
        "scheduler/get_belief_vector_state", agent_id=agent, belief_id=belief
    )
    if not runtime.embedder.status().available:  # pragma: no cover - the suite has the model
        assert run.outcome == "skipped" and state == {"embedded": False, "pending": True}
        return
    assert run.outcome == "ok" and run.detail == "embedded 1 belief(s), 0 rule(s)"
    assert state == {"embedded": True, "pending": False}
    # Nothing waits now: the agent is not looked at again.
    assert await runtime.scheduler.tick() == []


async def test_an_agent_being_deleted_is_not_chosen_for_the_embedding_job(
    client: TestClient,
    make_agent: MakeAgent,
    graph: GraphClient,
    test_graph: GraphClient,
    make_runtime: MakeRuntime,
) -> None:
    """Its beliefs cannot take a vector (the lock refuses the write): the job ran anyway and
    reported "embedded 0 belief(s)", every time it was due, until the deletion ended."""
    going, staying = make_agent("Going vectors"), make_agent("Staying vectors")
    for agent in (going, staying):
        created = client.post(
            f"/v1/agents/{agent}/beliefs",
            json={"statement": "Suppliers are paid on Fridays", "category": "contextual"},
        )
        await test_graph.write(
            "scheduler/mark_belief_unembedded", agent_id=agent, belief_id=created.json()["id"]
        )
    await graph.write("agents/store/lock_agent_for_deletion", agent_id=going)
    runtime = make_runtime([going, staying], ["embeddings"])

    runs = await runtime.scheduler.tick()

    assert [run.agent_id for run in runs] == [staying]


async def test_an_agent_being_deleted_is_not_chosen_for_rule_decay(
    client: TestClient,
    make_agent: MakeAgent,
    graph: GraphClient,
    make_runtime: MakeRuntime,
) -> None:
    """Its decay write is refused by its lock: the job failed with "agent not found" at every
    due tick until the deletion ended (the idle-session, reflection and approval-expiry searches
    leave such an agent out the same way)."""
    going, staying = make_agent("Going rules"), make_agent("Staying rules")
    for agent in (going, staying):
        created = client.post(
            f"/v1/agents/{agent}/rules",
            json={"trigger_concept": "audits", "content": "Audits start on Mondays"},
        )
        assert created.status_code == 201, created.text
    await graph.write("agents/store/lock_agent_for_deletion", agent_id=going)
    runtime = make_runtime([going, staying], ["rule_decay"])

    runs = await runtime.scheduler.tick()

    assert [(run.agent_id, run.outcome) for run in runs] == [(staying, "ok")]


def test_credence_worker_once_runs_what_is_due(
    cli: CliRunner,
    client: TestClient,
    make_agent: MakeAgent,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    agent = make_agent("Worked")
    rule = client.post(
        f"/v1/agents/{agent}/rules",
        json={"trigger_concept": "audits", "content": "Audits start on Mondays"},
    )
    assert rule.status_code == 201, rule.text
    # The worker's clock 40 days after the rule was written.
    monkeypatch.setenv("CREDENCE_CLOCK_START", (clock.now() + timedelta(days=40)).isoformat())
    monkeypatch.setenv("CREDENCE_SCHEDULER__JOBS", '["rule_decay"]')
    monkeypatch.setenv("CREDENCE_SCHEDULER__AGENT_IDS", f'["{agent}"]')
    result = cli.invoke(cli_app, ["worker", "--once"])
    assert result.exit_code == 0, result.output
    assert "rule_decay" in result.output and agent in result.output
    assert "1 rule(s), 1 decaying" in result.output


async def test_episodes_imported_without_a_turn_are_reflected_on_once_the_agent_is_quiet(
    client: TestClient,
    make_agent: MakeAgent,
    make_runtime: MakeRuntime,
    moved_clock: FixedClock,
    clock: Clock,
) -> None:
    quiet, busy = make_agent("Imported"), make_agent("Talking")
    episodes = [
        {"external_id": f"e{day}", "speaker": "Dana Fox", "text": f"The audit meeting is on {day}"}
        for day in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
    ]
    for agent in (quiet, busy):
        imported = client.post(f"/v1/agents/{agent}/episodes", json={"episodes": episodes})
        assert imported.status_code == 201, imported.text
    # The busy agent is in a session now: a turn's own triggers reflect on it (docs/loop.md §11).
    client.post(f"/v1/agents/{busy}/chat", json={"message": "Hello there.", "session": "now"})
    moved_clock.at = clock.now()
    runtime = make_runtime([quiet, busy], ["reflection"])
    [run] = await runtime.scheduler.tick()
    assert (run.agent_id, run.outcome) == (quiet, "ok"), run
    assert run.detail.startswith("5 open episode(s) on the schedule:")
    status = client.get(f"/v1/agents/{quiet}/status").json()
    assert status["episodes"]["since_reflection"] == 0 and status["last_reflection_at"]
    assert client.get(f"/v1/agents/{busy}/status").json()["episodes"]["since_reflection"] == 6
