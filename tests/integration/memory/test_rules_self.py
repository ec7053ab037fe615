"""Rules and the self-model against the real Neo4j."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from app.beliefs.mechanics import Mechanics
from app.beliefs.models import BeliefCreate
from app.beliefs.store import create_belief
from app.clock import FixedClock
from app.config import Settings
from app.embeddings.embedder import Embedder, UnavailableEmbedder
from app.errors import AgentNotFound, CreedImmutable, InvalidInput, RuleNotFound
from app.graph.client import GraphClient
from app.memory import rules, self_model
from app.memory.rules import RuleCreate, effective_confidence
from app.memory.self_model import CapabilityOutcome, CapabilitySeed, IdentityUpdate

T0 = datetime(2026, 1, 10, 8, 0, tzinfo=UTC)


def _rule(**fields: object) -> RuleCreate:
    return RuleCreate.model_validate(
        {"trigger_concept": "month end", "content": "Accrue unbilled hours", **fields}
    )


async def test_a_rule_without_embeddings_is_stored_without_one(
    graph: GraphClient, test_graph: GraphClient, agent: str
) -> None:
    rule = await rules.create_rule(graph, agent, _rule(), UnavailableEmbedder(), now=T0)

    assert not rule.has_embedding and rule.validation_count == 0
    assert rule.confidence == 0.8 and rule.source == "manual" and rule.created_at == T0
    probe = await test_graph.read("memory/get_rule_node", rule_id=rule.id)
    assert probe[0]["dimensions"] is None


async def test_a_rule_is_embedded_when_embeddings_are_available(
    graph: GraphClient, test_graph: GraphClient, agent: str
) -> None:
    embedder = Embedder()
    if not embedder.available:
        pytest.fail(f"embeddings should be available here: {embedder.status().reason}")
    rule = await rules.create_rule(graph, agent, _rule(), embedder, now=T0)

    assert rule.has_embedding
    probe = await test_graph.read("memory/get_rule_node", rule_id=rule.id)
    assert probe[0]["dimensions"] == 384


@pytest.mark.parametrize("age_days", [0.5, 29, 31, 45, 90, 400])
async def test_cypher_decay_equals_the_python_formula(
    graph: GraphClient, agent: str, age_days: float
) -> None:
    rule = await rules.create_rule(graph, agent, _rule(confidence=0.9), None, now=T0)
    now = T0 + timedelta(days=age_days)

    listed = await rules.list_rules(graph, agent, now=now)
    read = await rules.get_rule(graph, agent, rule.id, now=now)

    expected = effective_confidence(0.9, None, T0, now)
    assert listed.data[0].effective_confidence == pytest.approx(expected)
    assert read.effective_confidence == pytest.approx(expected)


async def test_validation_counts_and_restarts_the_clock(graph: GraphClient, agent: str) -> None:
    rule = await rules.create_rule(graph, agent, _rule(confidence=0.8), None, now=T0)
    later = T0 + timedelta(days=90)
    assert (await rules.get_rule(graph, agent, rule.id, now=later)).effective_confidence < 0.8

    validated = await rules.validate_rule(graph, agent, rule.id, now=later)
    again = await rules.validate_rule(graph, agent, rule.id, now=later + timedelta(days=1))

    assert validated.validation_count == 1 and validated.last_validated == later
    assert validated.effective_confidence == 0.8
    assert again.validation_count == 2
    with pytest.raises(RuleNotFound):
        await rules.validate_rule(graph, agent, "no-such-rule")


async def test_rules_sort_and_filter_by_effective_confidence(
    graph: GraphClient, agent: str
) -> None:
    fresh = await rules.create_rule(
        graph, agent, _rule(confidence=0.6, trigger_concept="audit"), None, now=T0
    )
    stale = await rules.create_rule(
        graph, agent, _rule(confidence=0.9), None, now=T0 - timedelta(days=365)
    )
    page = await rules.list_rules(graph, agent, now=T0)
    assert [r.id for r in page.data] == [fresh.id, stale.id]
    confident = await rules.list_rules(graph, agent, min_effective_confidence=0.5, now=T0)
    assert [r.id for r in confident.data] == [fresh.id]
    audit = await rules.list_rules(graph, agent, trigger_concept="AUD", now=T0)
    assert [r.id for r in audit.data] == [fresh.id]


async def test_a_rule_derived_from_unknown_episodes_is_not_written(
    graph: GraphClient, test_graph: GraphClient, agent: str, other_agent: str
) -> None:
    episode = f"ep-{uuid.uuid4()}"
    foreign = f"ep-{uuid.uuid4()}"
    await test_graph.write("memory/create_episode", agent_id=agent, id=episode)
    await test_graph.write("memory/create_episode", agent_id=other_agent, id=foreign)

    linked = await rules.create_rule(graph, agent, _rule(derived_from=[episode]), None)
    assert linked.derived_from == [episode]
    with pytest.raises(InvalidInput) as raised:
        await rules.create_rule(graph, agent, _rule(derived_from=[episode, foreign]), None)
    assert raised.value.details["errors"][0]["location"] == ["body", "derived_from"]
    assert (await rules.list_rules(graph, agent)).count == 1


async def test_the_self_view(graph: GraphClient, creed_agent: str) -> None:
    mechanics = Mechanics()
    mine = await create_belief(
        graph,
        mechanics,
        creed_agent,
        BeliefCreate(
            statement="I ask when unsure", category="relational", domain="self", importance=0.9
        ),
    )
    await create_belief(
        graph,
        mechanics,
        creed_agent,
        BeliefCreate(statement="Invoices are due in 30 days", category="contextual"),
    )
    await self_model.add_capabilities(
        graph, creed_agent, [CapabilitySeed(domain="reconciliation", proficiency=0.4)]
    )
    await self_model.add_knowledge_gaps(graph, creed_agent, ["Approval limits", "approval LIMITS"])

    view = await self_model.get_self(graph, creed_agent)

    assert view.identity.name == "Creedy"
    assert view.identity.terminal_creed == [
        "Never deceive the people I serve",
        "Protect their data",
    ]
    assert [b.id for b in view.self_beliefs] == [mine.id]
    assert [(c.domain, c.proficiency, c.success_rate) for c in view.capabilities] == [
        ("reconciliation", 0.4, 0.5)
    ]
    assert view.knowledge_gaps == ["Approval limits"]
    remaining = await self_model.resolve_knowledge_gap(graph, creed_agent, "approval limits")
    assert remaining == []


async def test_the_terminal_creed_cannot_be_changed(graph: GraphClient, creed_agent: str) -> None:
    with pytest.raises(CreedImmutable):
        await self_model.update_identity(
            graph, creed_agent, IdentityUpdate(terminal_creed=["Anything goes"])
        )
    with pytest.raises(CreedImmutable):
        await self_model.update_identity(
            graph, creed_agent, IdentityUpdate(identity_goal="New goal", terminal_creed=[])
        )
    view = await self_model.get_self(graph, creed_agent)
    assert view.identity.terminal_creed == [
        "Never deceive the people I serve",
        "Protect their data",
    ]
    assert view.identity.identity_goal == "Help"  # the refused edit wrote nothing

    same = await self_model.update_identity(
        graph,
        creed_agent,
        IdentityUpdate(
            identity_goal="Help well",
            terminal_creed=["Never deceive the people I serve", "Protect their data"],
        ),
    )
    assert same.identity.identity_goal == "Help well"


async def test_capability_outcomes(graph: GraphClient, agent: str, test_graph: GraphClient) -> None:
    await self_model.add_capabilities(graph, agent, [CapabilitySeed(domain="debugging")])
    win = await self_model.record_capability_outcome(
        graph, agent, CapabilityOutcome(domain="debugging", success=True, complexity=1.0), now=T0
    )
    loss = await self_model.record_capability_outcome(
        graph, agent, CapabilityOutcome(domain="debugging", success=False, complexity=0.5)
    )
    new = await self_model.record_capability_outcome(
        graph, agent, CapabilityOutcome(domain="payroll", success=True, complexity=0.2)
    )
    await self_model.add_capabilities(graph, agent, [CapabilitySeed(domain="debugging")])

    assert win.proficiency == pytest.approx(0.35) and win.success_rate == pytest.approx(0.55)
    assert win.experience_count == 1 and win.last_refined == T0
    assert loss.proficiency == pytest.approx(0.34) and loss.success_rate == pytest.approx(0.495)
    # A domain it had no capability in starts at 0.5 (seed 003).
    assert new.proficiency == pytest.approx(0.51) and new.experience_count == 1
    view = await self_model.get_self(graph, agent)
    assert [(c.domain, c.experience_count) for c in view.capabilities] == [
        ("debugging", 2),
        ("payroll", 1),
    ]
    counts = (await test_graph.read("memory/count_labelled", agent_id=agent))[0]
    assert counts["capabilities"] == 2


async def test_rules_and_self_are_scoped(
    graph: GraphClient, agent: str, other_agent: str, agent_id: str
) -> None:
    rule = await rules.create_rule(graph, agent, _rule(), None)
    await self_model.add_capabilities(graph, agent, [CapabilitySeed(domain="secret")])

    assert (await rules.list_rules(graph, other_agent)).count == 0
    with pytest.raises(RuleNotFound):
        await rules.get_rule(graph, other_agent, rule.id)
    assert (await self_model.get_self(graph, other_agent)).capabilities == []
    with pytest.raises(AgentNotFound):
        await rules.list_rules(graph, agent_id)
    with pytest.raises(AgentNotFound):
        await self_model.get_self(graph, agent_id)
    with pytest.raises(AgentNotFound):
        await self_model.record_capability_outcome(
            graph, agent_id, CapabilityOutcome(domain="x", success=True)
        )


async def test_a_capability_outcome_without_a_time_is_at_the_graph_clocks_time(
    settings: Settings, agent: str
) -> None:
    # The injected clock, not the machine's: last_refined is the clock's instant.
    at = datetime(2021, 3, 4, 5, 6, 7, tzinfo=UTC)
    fixed = GraphClient.from_settings(settings.neo4j, clock=FixedClock(at))
    try:
        refined = await self_model.record_capability_outcome(
            fixed, agent, CapabilityOutcome(domain="debugging", success=True)
        )
    finally:
        await fixed.close()
    assert refined.last_refined == at
