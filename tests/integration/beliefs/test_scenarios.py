"""Scripted scenarios of the belief engine against the real Neo4j (offline reasoner)."""

from __future__ import annotations

import pytest

from app.beliefs import formulas as f
from app.beliefs import history, revision, store, updates
from app.beliefs.dissatisfaction import compute_dissatisfaction
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import BeliefUpdate, EvidenceForBelief, EvidenceResult
from app.beliefs.replay import compare_with_stored
from app.errors import BeliefImmutable, CycleRefused
from app.graph.client import GraphClient
from app.packs.loader import load_pack
from app.seeds.pack_schema import KnowledgePack
from tests.integration.beliefs.engine import Engine


@pytest.fixture
async def engine(graph: GraphClient) -> Engine:
    return await Engine.new(graph)


async def test_resistance_then_breakthrough(engine: Engine) -> None:
    belief = await engine.belief("Month-end accruals can wait until the 5th", strength=0.6)
    for _ in range(3):
        await engine.evidence(belief, "reinforcing", "The 5th worked last quarter")
    reinforced, _, _ = await engine.state(belief)
    assert reinforced > 0.6

    tensions = []
    for number in range(1, 5):  # 0.15, 0.30, 0.45, 0.60: resistance
        outcome = await engine.evidence(
            belief, "contradicting", f"Auditors flagged late accruals ({number})"
        )
        assert outcome.revision.revisions == []
        strength, tension, active = await engine.state(belief)
        assert strength == reinforced and active
        tensions.append(tension)
    assert tensions == pytest.approx([0.15, 0.30, 0.45, 0.60])

    breakthrough = await engine.evidence(
        belief, "contradicting", "Accruals must be booked by the 2nd business day", confidence=1.0
    )

    (revised,) = breakthrough.revision.revisions
    assert revised.old_belief_id == belief and revised.trigger_tension == pytest.approx(0.75)
    assert revised.mode == "threshold" and revised.reasoner == "offline"
    assert "booked by the 2nd business day" in (revised.new_statement or "")
    _, _, active = await engine.state(belief)
    assert not active
    new_strength, new_tension, new_active = await engine.state(revised.new_belief_id or "")
    assert new_active and new_tension == 0.0
    assert new_strength == engine.mechanics.revision_initial_strength

    old = await store.get_belief(engine.graph, engine.mechanics, engine.agent_id, belief)
    new = await store.get_belief(
        engine.graph, engine.mechanics, engine.agent_id, revised.new_belief_id or ""
    )
    assert [s.id for s in old.successors] == [revised.new_belief_id]
    assert [p.id for p in new.predecessors] == [belief]
    assert new.predecessors[0].revision_id == revised.id
    detail = await history.get_revision(engine.graph, engine.agent_id, revised.id)
    assert detail.revision["trigger_tension"] == pytest.approx(0.75)
    assert "5 against" in detail.revision["evidence_summary"]
    assert await compare_with_stored(engine.graph, engine.mechanics, engine.agent_id) == []


async def test_revision_moves_edges_and_cascades_to_connected_beliefs_at_threshold(
    engine: Engine,
) -> None:
    leaf = await engine.belief("Vendors invoice within 30 days", strength=0.8)
    middle = await engine.belief("Cash forecasts can assume 30-day payables", strength=0.8)
    top = await engine.belief("Liquidity is predictable", strength=0.8)
    await engine.supports(leaf, middle, 1.0)
    await engine.supports(middle, top, 1.0)
    # Tension flows up: middle receives 0.075 per contradiction of leaf (ρ · w), top 0.0375.
    for _ in range(4):  # leaf 0.6, middle 0.3
        await engine.evidence(leaf, "contradicting", "Vendors invoice at 45 days")
    for confidence in (1.0, 1.0, 0.3):  # middle 0.3 + 0.15 + 0.15 + 0.045 = 0.645
        await engine.evidence(middle, "contradicting", "Payables slipped", confidence=confidence)
    _, middle_tension, _ = await engine.state(middle)
    assert middle_tension == pytest.approx(0.645)

    # One more: leaf 0.75 and middle 0.72 reach the threshold in the same request.
    outcome = await engine.evidence(leaf, "contradicting", "Vendors invoice at 45 days")

    revisions = outcome.revision.revisions
    assert [r.old_belief_id for r in revisions] == [leaf, middle]
    assert revisions[1].mode == "cascade" and revisions[1].depth == 1
    assert revisions[1].parent_revision_id == revisions[0].id

    new_leaf, new_middle = revisions[0].new_belief_id, revisions[1].new_belief_id
    detail = await store.get_belief(
        engine.graph, engine.mechanics, engine.agent_id, new_middle or ""
    )
    assert [s.id for s in detail.supported_by] == [new_leaf]
    assert [s.id for s in detail.supports] == [top]
    top_strength, _, _ = await engine.state(top)
    assert top_strength == pytest.approx(engine.mechanics.revision_initial_strength)
    assert await compare_with_stored(engine.graph, engine.mechanics, engine.agent_id) == []


async def test_one_violation_outweighs_several_confirmations(engine: Engine) -> None:
    belief = await engine.belief(
        "Client data stays inside the firm", category="ethical", strength=0.5
    )
    for _ in range(3):
        await engine.outcome(belief, outcome="success", moral_valence="confirmation")
    confirmed, _, _ = await engine.state(belief)
    assert confirmed == 1.0

    result = await engine.outcome(
        belief, outcome="failure", moral_valence="violation", severity=0.0
    )

    # three confirmations gained 0.5; one mild violation takes 0.15 · 10 · 0.5 = 0.75
    assert result.new_strength == pytest.approx(0.25)
    assert result.new_strength < 0.5 and not result.is_distrusted
    assert result.is_invalidated  # ethical threshold 0.95


async def test_distrust_is_permanent(engine: Engine) -> None:
    belief = await engine.belief("Never share credentials", category="ethical", strength=0.9)

    result = await engine.outcome(
        belief, outcome="failure", moral_valence="violation", severity=1.0
    )
    assert result.new_strength == 0.0 and result.is_distrusted

    for _ in range(5):
        again = await engine.outcome(belief, outcome="success", moral_valence="confirmation")
        assert again.new_strength == 0.0 and again.is_distrusted
    await engine.evidence(belief, "reinforcing", "They never shared one since")
    detail = await store.get_belief(
        engine.graph, engine.mechanics, engine.agent_id, belief, history_limit=5
    )
    assert detail.belief.strength == 0.0
    # Evidence received and logged, but no reinforcement applied: nothing counts it as one.
    assert detail.belief.reinforcement_count == 0 and detail.belief.last_reinforced is None
    assert [e["stance"] for e in detail.evidence] == ["reinforcing"]
    assert await compare_with_stored(engine.graph, engine.mechanics, engine.agent_id) == []


async def test_a_cycle_is_refused_and_named(engine: Engine) -> None:
    a, b, c = [await engine.belief(name) for name in ("a", "b", "c")]
    await engine.supports(a, b)
    await engine.supports(b, c)

    with pytest.raises(CycleRefused) as raised:
        await engine.supports(c, a)
    with pytest.raises(CycleRefused):
        await engine.supports(a, a)

    assert raised.value.details["cycle"] == [a, b, c]
    detail = await store.get_belief(engine.graph, engine.mechanics, engine.agent_id, c)
    assert detail.supports == []


async def test_an_immutable_creed_belief_is_never_revised(engine: Engine) -> None:
    creed = await engine.belief(
        "Act with integrity", category="ethical", strength=1.0, is_immutable=True
    )
    outcomes = [
        await engine.evidence(creed, "contradicting", "Integrity slowed the deal") for _ in range(7)
    ]

    approvals = [a for o in outcomes for a in o.revision.approvals]
    assert all(o.revision.revisions == [] for o in outcomes)
    assert approvals and {a.id for a in approvals} == {approvals[0].id}  # one pending request
    assert approvals[0].kind == "revision" and approvals[0].status == "pending"
    _, tension, active = await engine.state(creed)
    assert active and tension == 1.0
    with pytest.raises(BeliefImmutable):
        await store.update_belief(
            engine.graph,
            engine.mechanics,
            engine.agent_id,
            creed,
            BeliefUpdate(statement="Act with some integrity"),
        )


async def test_context_strength_backs_off_and_outcomes_apply_in_context(engine: Engine) -> None:
    belief = await engine.belief(
        "Approvals take a day", strength=0.8, contexts=[{"name": "month_end", "strength": 0.3}]
    )

    def in_context(context: str | None) -> float:
        return detail_of[context].strength_in_context

    detail_of = {}
    for context in (None, "month_end", "acme/month_end", "quarter_end"):
        detail_of[context] = await store.get_belief(
            engine.graph, engine.mechanics, engine.agent_id, belief, context
        )
    assert in_context(None) == 0.8 and in_context("quarter_end") == 0.8
    assert in_context("month_end") == 0.3 and in_context("acme/month_end") == 0.3
    assert detail_of["month_end"].supervision_mode == "guidance"
    assert detail_of[None].supervision_mode == "autonomous"

    result = await engine.outcome(belief, outcome="success", context="acme/month_end")

    assert result.old_strength == 0.3 and result.new_strength == pytest.approx(0.45)
    acme = await store.get_belief(
        engine.graph, engine.mechanics, engine.agent_id, belief, "acme/month_end"
    )
    month_end = await store.get_belief(
        engine.graph, engine.mechanics, engine.agent_id, belief, "month_end"
    )
    assert acme.strength_in_context == pytest.approx(0.45)
    assert acme.supervision_mode == "proposal"
    assert month_end.strength_in_context == 0.3 and acme.belief.strength == 0.8
    assert await compare_with_stored(engine.graph, engine.mechanics, engine.agent_id) == []


async def test_dissatisfaction_matches_the_reference_and_names_contributors(engine: Engine) -> None:
    hub = await engine.belief("hub", importance=1.0)
    others = [await engine.belief(f"leaf {i}", importance=0.5) for i in range(3)]
    for other in others:
        await engine.supports(other, hub)
    await engine.evidence(hub, "contradicting", "x")
    await engine.evidence(hub, "contradicting", "y")
    await engine.evidence(others[0], "contradicting", "z")

    result = await compute_dissatisfaction(engine.graph, engine.mechanics, engine.agent_id)

    rows = []
    for belief_id, degree in [(hub, 3), *((o, 1) for o in others)]:
        _, tension, _ = await engine.state(belief_id)
        importance = 1.0 if belief_id == hub else 0.5
        rows.append((belief_id, tension, importance, degree))
    value, contributions = f.dissatisfaction(rows)
    assert result.value == pytest.approx(value, abs=1e-9)
    assert [c.id for c in result.contributors] == [
        c.belief_id for c in contributions if c.share > 0
    ]
    assert result.band == f.band(value, engine.mechanics)


async def test_meditation_after_a_long_streak_of_high_dissatisfaction(graph: GraphClient) -> None:
    mechanics = Mechanics(meditation_turns=2, meditation_dissatisfaction=0.5)
    engine = await Engine.new(graph, mechanics)
    tense = await engine.belief("Everything is fine", importance=1.0)
    calm = await engine.belief("Tea is warm", importance=0.1)
    for _ in range(4):
        await engine.evidence(tense, "contradicting", "It is not fine")  # 0.6 < 0.7: no revision
    ran = []
    for _ in range(3):
        value, streak, outcome = await revision.observe_turn(
            graph, mechanics, engine.reasoner, engine.agent_id
        )
        ran.append((round(value, 3) > 0.5, streak, outcome is not None))
    assert ran == [(True, 1, False), (True, 2, False), (True, 0, True)]
    _, _, tense_active = await engine.state(tense)
    _, _, calm_active = await engine.state(calm)
    assert not tense_active and calm_active
    revisions = await history.list_revisions(graph, engine.agent_id)
    assert [r.mode for r in revisions.data] == ["meditation"]


async def test_a_revision_that_fails_half_way_changes_nothing(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uuid as uuid_module

    from app.errors import ConstraintViolation

    leaf = await engine.belief("Leaf", strength=0.8)
    middle = await engine.belief("Middle", strength=0.8)
    await engine.supports(leaf, middle)
    for _ in range(4):
        await engine.evidence(leaf, "contradicting", "no")
    for confidence in (1.0, 1.0, 0.3):
        await engine.evidence(middle, "contradicting", "no", confidence=confidence)
    # The cascaded (second) revision will try to create its new belief with the id of an
    # existing belief: the uniqueness constraint fails the transaction after the first revision
    # was already written in it.
    real_uuid4 = uuid_module.uuid4
    calls = {"n": 0}

    def colliding_uuid4() -> uuid_module.UUID:
        calls["n"] += 1
        return uuid_module.UUID(leaf) if calls["n"] == 5 else real_uuid4()

    monkeypatch.setattr("app.beliefs.revision.uuid.uuid4", colliding_uuid4)
    events_before = await history.list_events(engine.graph, engine.agent_id, limit=5000)

    with pytest.raises(ConstraintViolation):
        await engine.evidence(leaf, "contradicting", "no")

    monkeypatch.setattr("app.beliefs.revision.uuid.uuid4", real_uuid4)
    _, leaf_tension, leaf_active = await engine.state(leaf)
    _, _, middle_active = await engine.state(middle)
    assert leaf_active and middle_active and leaf_tension == pytest.approx(0.75)
    assert (await history.list_revisions(engine.graph, engine.agent_id)).count == 0
    events_after = await history.list_events(engine.graph, engine.agent_id, limit=5000)
    # Only the evidence (which commits before revising) added events; no revision event.
    new_kinds = {e["kind"] for e in events_after.data[events_before.count :]}
    assert new_kinds == {"contradiction"}
    assert await compare_with_stored(engine.graph, engine.mechanics, engine.agent_id) == []


async def test_dissatisfaction_sums_follow_edges_revisions_edits_and_deactivation(
    engine: Engine,
) -> None:
    from app.beliefs import edges
    from app.beliefs.models import BeliefUpdate, EdgeCreate

    async def check() -> None:
        kept = (
            await engine.graph.read("beliefs/dissatisfaction/get_sums", agent_id=engine.agent_id)
        )[0]
        before = await compute_dissatisfaction(engine.graph, engine.mechanics, engine.agent_id)
        recomputed = (
            await engine.graph.write(
                "beliefs/dissatisfaction/recompute_sums", agent_id=engine.agent_id
            )
        )[0]
        after = await compute_dissatisfaction(engine.graph, engine.mechanics, engine.agent_id)
        for key in ("d_imp", "d_imp_deg", "d_t_imp", "d_t_imp_deg", "d_max_degree"):
            assert kept[key] == pytest.approx(recomputed[key], abs=1e-9), key
        assert before.value == pytest.approx(after.value, abs=1e-12)

    hub = await engine.belief("hub", importance=0.9)
    leaves = [await engine.belief(f"leaf {i}", importance=0.3 + 0.1 * i) for i in range(4)]
    for leaf in leaves:
        await engine.supports(leaf, hub, 0.8)
    await edges.create_edge(
        engine.graph,
        engine.mechanics,
        engine.agent_id,
        EdgeCreate(type="CONTRADICTS", source_id=leaves[0], target_id=leaves[1]),
    )
    await check()
    for _ in range(3):
        await engine.evidence(leaves[0], "contradicting", "no")
    await engine.evidence(hub, "contradicting", "no")
    await check()
    await store.update_belief(
        engine.graph, engine.mechanics, engine.agent_id, leaves[2], BeliefUpdate(importance=1.0)
    )
    await check()
    # leaf 0 reaches the threshold (0.45 → 0.6 → 0.75): a revision moves its edges
    await engine.evidence(leaves[0], "contradicting", "no")
    outcome = await engine.evidence(leaves[0], "contradicting", "no")
    assert outcome.revision.revisions
    await check()
    await store.update_belief(
        engine.graph, engine.mechanics, engine.agent_id, hub, BeliefUpdate(is_active=False)
    )
    await check()
    summary = await compute_dissatisfaction(engine.graph, engine.mechanics, engine.agent_id)
    assert summary.beliefs == 4  # four leaves (one of them revised), the hub deactivated


async def test_urgent_revisions_stop_at_the_time_bound_of_the_injected_clock(
    graph: GraphClient,
) -> None:
    mechanics = Mechanics(urgent_revision_beliefs=3, urgent_revision_seconds=20)
    engine = await Engine.new(graph, mechanics)
    tense = [await engine.belief(f"Tense belief {n}", importance=1.0) for n in range(3)]
    for belief in tense:
        for _ in range(4):  # tension 0.6: urgent (≥ 0.5) but under the threshold (0.7)
            await engine.evidence(belief, "contradicting", "It is not so")
    # The first revision starts at 0 s; by the next check 25 s have passed (≥ 20 s).
    seconds = iter([0.0, 0.0, 25.0, 25.0, 25.0])

    outcome = await revision.revise_urgent(
        graph, mechanics, engine.reasoner, engine.agent_id, lambda: next(seconds)
    )

    assert [r.mode for r in outcome.revisions] == ["urgent"]
    # Time standing still, the same call revises the two left.
    again = await revision.revise_urgent(
        graph, mechanics, engine.reasoner, engine.agent_id, lambda: 0.0
    )
    assert len(again.revisions) == 2


def _pack(version: int, *keys: str) -> KnowledgePack:
    beliefs = {
        "strong": {"statement": "Ledgers balance", "strength": 0.9, "supports": [{"key": "top"}]},
        "weak": {"statement": "Ledgers drift", "strength": 0.1, "supports": [{"key": "top"}]},
        "top": {"statement": "The books can be trusted", "strength": 0.5},
    }
    return KnowledgePack.model_validate(
        {
            "name": "retire-test",
            "version": version,
            "industry": "testing",
            "description": "A pack whose second version drops a supporter",
            "beliefs": [{"key": key, "category": "aesthetic", **beliefs[key]} for key in keys],
        }
    )


async def test_a_supporter_a_pack_retires_no_longer_holds_up_what_it_supported(
    engine: Engine,
) -> None:
    await load_pack(
        engine.graph,
        None,
        engine.mechanics,
        engine.agent_id,
        _pack(1, "strong", "weak", "top"),
        strength_cap=None,
    )
    page = await store.list_beliefs(engine.graph, engine.agent_id)
    top = next(b for b in page.data if b.statement == "The books can be trusted")
    assert top.strength == pytest.approx(0.5)

    report = await load_pack(
        engine.graph,
        None,
        engine.mechanics,
        engine.agent_id,
        _pack(2, "strong", "top"),
        strength_cap=None,
    )

    assert report.retired == ["weak"]
    strength, _, _ = await engine.state(top.id)
    assert strength == pytest.approx(0.9)
    assert await compare_with_stored(engine.graph, engine.mechanics, engine.agent_id) == []


async def _supported_chain(engine: Engine) -> dict[str, str]:
    ids = {
        name: await engine.belief(f"Belief {name}", strength=strength)
        for name, strength in (("a", 0.5), ("b", 0.5), ("c", 0.3), ("d", 0.4))
    }
    await engine.supports(ids["a"], ids["b"])
    await engine.supports(ids["b"], ids["c"], weight=0.5)
    await engine.supports(ids["d"], ids["c"])
    return ids


async def test_a_batch_of_evidence_equals_the_pieces_one_at_a_time_in_order(
    graph: GraphClient,
) -> None:
    """A piece on a belief above one an earlier piece reinforced sees that cascade first (the
    review's case: A SUPPORTS B, A reinforced then B, gave 0.55 in a batch, 0.559 one by one)."""
    pieces = [
        ("a", "reinforcing", 1.0),
        ("b", "reinforcing", 0.2),
        ("c", "contradicting", 0.5),
        ("d", "reinforcing", 0.6),
        ("c", "reinforcing", 0.4),
        ("b", "reinforcing", 0.3),
        ("a", "contradicting", 0.2),
        ("a", "reinforcing", 0.5),
    ]
    one_by_one, batched = await Engine.new(graph), await Engine.new(graph)
    single_ids, batch_ids = await _supported_chain(one_by_one), await _supported_chain(batched)
    expected = []
    for name, stance, confidence in pieces:
        item = EvidenceForBelief(
            belief_id=single_ids[name], text=name, stance=stance, confidence=confidence
        )
        applied = await updates.apply_evidence(
            graph, one_by_one.mechanics, one_by_one.agent_id, [item]
        )
        expected.extend(applied.results)

    batch = await updates.apply_evidence(
        graph,
        batched.mechanics,
        batched.agent_id,
        [
            EvidenceForBelief(
                belief_id=batch_ids[name], text=name, stance=stance, confidence=confidence
            )
            for name, stance, confidence in pieces
        ],
    )

    def moves(results: list[EvidenceResult]) -> list[float]:
        return [
            value
            for r in results
            for value in (r.old_strength, r.new_strength, r.old_tension, r.new_tension)
        ]

    assert moves(batch.results) == pytest.approx(moves(expected))
    for name in "abcd":
        single = await store.get_belief(
            graph, one_by_one.mechanics, one_by_one.agent_id, single_ids[name], history_limit=0
        )
        batched_belief = await store.get_belief(
            graph, batched.mechanics, batched.agent_id, batch_ids[name], history_limit=0
        )
        assert batched_belief.belief.strength == pytest.approx(single.belief.strength), name
        assert batched_belief.belief.tension == pytest.approx(single.belief.tension), name
        assert batched_belief.belief.reinforcement_count == single.belief.reinforcement_count, name
    # The review's case: b, reinforced after a's cascade raised it to 0.55, reaches 0.559.
    assert (batch.results[1].old_strength, batch.results[1].new_strength) == pytest.approx(
        (0.55, 0.559)
    )
    assert await compare_with_stored(graph, batched.mechanics, batched.agent_id) == []
