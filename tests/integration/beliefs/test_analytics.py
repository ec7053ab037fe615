"""The analytics of cypher/beliefs/analytics/ against the real Neo4j, on one scripted agent's
history.

The scenario (built once for the module, through the real services and the offline reasoner):

- pack beliefs P1 "Clients pay within 30 days", P2 "Month-end close takes three days",
  P3 (deactivated later), P4 (strength 0.5: invalidated from the start) and A "Invoice data is
  accurate"; an API belief B "Cash forecasts are reliable"; A SUPPORTS B; B CONTRADICTS P2 (open);
  A CONTRADICTS P1 (resolved);
- alice contradicts P1 five times: revision R1 (P1 -> P1');
- bob contradicts B three times (tension 0.45);
- alice (twice) and an unnamed source (three times) contradict A: A reaches 0.75 and B, through
  propagation, 0.825: revision R2 (B -> B', threshold) cascades into R3 (A -> A', depth 1);
- carol contradicts P1' five times: revision R4 (P1' -> P1'');
- bob contradicts P2 twice and dave reinforces it once; P3 is deactivated;
- dissatisfaction is observed five times: before R1, after R1, with B at 0.45, after R2/R3 and
  after R4.
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.beliefs import edges, history, store, updates
from app.beliefs.analytics.header import parse_header
from app.beliefs.analytics.param_map import parse_param_map
from app.beliefs.analytics.params import MAX_INTEGER, resolve_params
from app.beliefs.analytics.runner import analytics_names, list_analytics, run_analytics
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import (
    BeliefCreate,
    BeliefUpdate,
    EdgeCreate,
    EvidenceForBelief,
    RevisionSummary,
)
from app.beliefs.revision import observe_turn
from app.cli.main import app as cli_app
from app.errors import AgentNotFound, InvalidInput, UnknownAnalytics
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner
from app.resources import resource_dir

MECHANICS = Mechanics()
REASONER = OfflineReasoner()


@dataclass
class Scenario:
    agent_id: str
    p1: str
    p2: str
    p3: str
    p4: str
    a: str
    b: str
    r1: RevisionSummary
    r2: RevisionSummary
    r3: RevisionSummary
    r4: RevisionSummary
    dissatisfaction: list[float]

    @property
    def p1_now(self) -> str:
        return self.r4.new_belief_id or ""

    @property
    def b_now(self) -> str:
        return self.r2.new_belief_id or ""

    @property
    def a_now(self) -> str:
        return self.r3.new_belief_id or ""


async def _belief(graph: GraphClient, agent_id: str, statement: str, **fields: Any) -> str:
    data = BeliefCreate.model_validate({"statement": statement, "category": "contextual", **fields})
    return (await store.create_belief(graph, MECHANICS, agent_id, data)).id


async def _edge(graph: GraphClient, agent_id: str, **fields: Any) -> None:
    await edges.create_edge(graph, MECHANICS, agent_id, EdgeCreate.model_validate(fields))


async def _evidence(
    graph: GraphClient, agent_id: str, items: list[tuple[str, str, str | None]]
) -> list[RevisionSummary]:
    """Records (belief, stance, person) items in one batch; returns the revisions it caused."""
    outcome = await updates.record_evidence(
        graph,
        MECHANICS,
        REASONER,
        agent_id,
        [
            EvidenceForBelief(
                belief_id=belief_id,
                stance=stance,
                text=f"{person or 'someone'} says no ({number})"
                if stance == "contradicting"
                else f"{person} agrees",
                source_person_id=_person_id(person) if person else None,
            )
            for number, (belief_id, stance, person) in enumerate(items)
        ],
    )
    return outcome.revision.revisions


# Person ids are unique across the database; the names are what the scenario talks about.
_RUN = uuid.uuid4().hex[:8]


def _person_id(name: str) -> str:
    return f"{name}-{_RUN}"


async def _observe(graph: GraphClient, agent_id: str) -> float:
    value, _, meditation = await observe_turn(graph, MECHANICS, REASONER, agent_id)
    assert meditation is None
    return value


@pytest.fixture(scope="module")
async def scenario(graph: GraphClient, test_graph: GraphClient) -> AsyncIterator[Scenario]:
    agent_id = (await create_agent(graph, AgentCreate(name="analytics scenario"))).id
    # Evidence from a named person weighs its relationship value: these people weigh 1.0.
    for person in ("alice", "bob", "carol", "dave"):
        await test_graph.write(
            "probe/create_trusted_person",
            agent_id=agent_id,
            id=_person_id(person),
            person_name=person,
        )
    pack = {"source": "pack", "strength": 0.9}
    p1 = await _belief(graph, agent_id, "Clients pay invoices within 30 days", **pack)
    p2 = await _belief(graph, agent_id, "Month-end close takes three days", **pack)
    p3 = await _belief(graph, agent_id, "Expense reports are filed weekly", **pack)
    p4 = await _belief(
        graph, agent_id, "Suppliers accept early-payment discounts", source="pack", strength=0.5
    )
    a = await _belief(graph, agent_id, "Invoice data is accurate", **pack)
    b = await _belief(graph, agent_id, "Cash forecasts are reliable", strength=0.9, importance=0.9)
    await _edge(graph, agent_id, type="SUPPORTS", source_id=a, target_id=b, weight=1.0)
    await _edge(graph, agent_id, type="CONTRADICTS", source_id=b, target_id=p2, strength=0.8)
    await _edge(graph, agent_id, type="CONTRADICTS", source_id=a, target_id=p1, status="resolved")
    samples = [await _observe(graph, agent_id)]

    (r1,) = await _evidence(graph, agent_id, [(p1, "contradicting", "alice")] * 5)
    samples.append(await _observe(graph, agent_id))

    assert await _evidence(graph, agent_id, [(b, "contradicting", "bob")] * 3) == []
    samples.append(await _observe(graph, agent_id))
    r2, r3 = await _evidence(
        graph,
        agent_id,
        [(a, "contradicting", "alice")] * 2 + [(a, "contradicting", None)] * 3,
    )
    samples.append(await _observe(graph, agent_id))

    (r4,) = await _evidence(
        graph, agent_id, [(r1.new_belief_id or "", "contradicting", "carol")] * 5
    )
    assert (
        await _evidence(
            graph,
            agent_id,
            [
                (p2, "contradicting", "bob"),
                (p2, "contradicting", "bob"),
                (p2, "reinforcing", "dave"),
            ],
        )
        == []
    )
    await store.update_belief(graph, MECHANICS, agent_id, p3, BeliefUpdate(is_active=False))
    samples.append(await _observe(graph, agent_id))

    # The scenario is what the docstring says, or every assertion below is meaningless.
    assert (r1.old_belief_id, r1.depth, r1.mode) == (p1, 0, "threshold")
    assert (r2.old_belief_id, r2.depth, r2.mode) == (b, 0, "threshold")
    assert (r3.old_belief_id, r3.depth, r3.mode) == (a, 1, "cascade")
    assert r3.parent_revision_id == r2.id
    assert (r4.old_belief_id, r4.depth) == (r1.new_belief_id, 0)
    yield Scenario(agent_id, p1, p2, p3, p4, a, b, r1, r2, r3, r4, samples)


async def _run(graph: GraphClient, agent_id: str, name: str, **params: Any) -> list[dict[str, Any]]:
    result = await run_analytics(graph, agent_id, name, params)
    for row in result.rows:
        assert list(row) == result.columns, f"{name}: the header's columns are not the rows' keys"
    return result.rows


# --- each analytics query, with real values --------------------------------------------------


async def test_revisions_over_time_counts_triggered_and_cascaded_revisions_per_period(
    graph: GraphClient, scenario: Scenario
) -> None:
    revisions = (await history.list_revisions(graph, scenario.agent_id)).data
    days = Counter((r.at or datetime.min).date().isoformat() for r in revisions)

    by_day = await _run(graph, scenario.agent_id, "revisions_over_time")
    by_month = await _run(graph, scenario.agent_id, "revisions_over_time", bucket="month")

    assert [row["period"] for row in by_day] == sorted(days)
    assert [row["revisions"] for row in by_day] == [days[d] for d in sorted(days)]
    assert sum(row["triggered"] for row in by_day) == 3
    assert sum(row["cascaded"] for row in by_day) == 1
    if len(by_day) == 1:  # always, unless the scenario ran across midnight
        assert by_day[0]["avg_trigger_tension"] == pytest.approx((0.75 + 0.825 + 0.75 + 0.75) / 4)
        assert by_day[0]["max_trigger_tension"] == pytest.approx(0.825)
    assert all(re.fullmatch(r"\d{4}-\d{2}-01", row["period"]) for row in by_month)
    assert sum(row["revisions"] for row in by_month) == 4


async def test_longest_lineages_follow_supersession_from_the_first_to_the_current_belief(
    graph: GraphClient, scenario: Scenario
) -> None:
    rows = await _run(graph, scenario.agent_id, "longest_lineages")
    top_only = await _run(graph, scenario.agent_id, "longest_lineages", limit=1)

    longest = rows[0]
    assert longest["root_id"] == scenario.p1
    assert longest["first_statement"] == "Clients pay invoices within 30 days"
    assert longest["revisions"] == 2
    assert longest["belief_ids"] == [scenario.p1, scenario.r1.new_belief_id, scenario.p1_now]
    assert longest["current_id"] == scenario.p1_now and longest["current_is_active"] is True
    assert longest["current_statement"] == scenario.r4.new_statement
    assert longest["first_source"] == "pack"
    assert datetime.fromisoformat(longest["started_at"]) < datetime.fromisoformat(
        longest["last_revised_at"]
    )
    assert {(row["root_id"], row["current_id"], row["revisions"]) for row in rows[1:]} == {
        (scenario.b, scenario.b_now, 1),
        (scenario.a, scenario.a_now, 1),
    }
    assert top_only == [longest]


async def test_cascade_depths_count_revisions_and_cascades_per_depth(
    graph: GraphClient, scenario: Scenario
) -> None:
    rows = await _run(graph, scenario.agent_id, "cascade_depths")

    # Depth 0: R1, R2, R4; depth 1: R3. Cascades: R1 and R4 alone (reach 0), R2 + R3 (reach 1).
    assert rows == [
        {"depth": 0, "revisions": 3, "cascades": 2, "largest_cascade": 1},
        {"depth": 1, "revisions": 1, "cascades": 1, "largest_cascade": 2},
    ]


async def test_most_contested_beliefs_rank_tension_then_open_contradictions(
    graph: GraphClient, scenario: Scenario
) -> None:
    active = await _run(graph, scenario.agent_id, "most_contested_beliefs")
    everything = await _run(
        graph, scenario.agent_id, "most_contested_beliefs", include_inactive=True
    )
    top_two = await _run(
        graph, scenario.agent_id, "most_contested_beliefs", include_inactive=True, limit=2
    )

    # P2: tension 0.30, open contradiction with B' (moved from B by R2), 2 against and 1 for.
    # B': no tension of its own yet, but the open contradiction. A' and P1'' contradict each
    # other only in a resolved way, so they are not contested; P4 has nothing against it.
    assert [(r["belief_id"], r["open_contradictions"], r["challenges"]) for r in active] == [
        (scenario.p2, 1, 2),
        (scenario.b_now, 1, 0),
    ]
    assert active[0]["tension"] == pytest.approx(0.30)
    assert active[0]["reinforcements"] == 1 and active[0]["is_active"] is True
    assert active[0]["last_challenged"] is not None
    assert active[1]["tension"] == 0.0 and active[1]["last_challenged"] is None
    # Superseded beliefs keep the tension they were revised at: B 0.825 leads, then the three
    # at 0.75 (ordered by id), then P2 and B'.
    at_threshold = sorted([scenario.p1, scenario.r1.new_belief_id or "", scenario.a])
    assert [r["belief_id"] for r in everything] == [
        scenario.b,
        *at_threshold,
        scenario.p2,
        scenario.b_now,
    ]
    assert everything[0]["tension"] == pytest.approx(0.825) and everything[0]["challenges"] == 3
    assert everything[0]["is_active"] is False
    assert top_two == everything[:2]


def _timeline(rows: list[dict[str, Any]]) -> list[tuple[int, str, str, float]]:
    return [(r["generation"], r["kind"], r["action"], round(r["new_tension"], 6)) for r in rows]


async def test_belief_tension_timeline_runs_across_the_lineage_from_the_events(
    graph: GraphClient, scenario: Scenario
) -> None:
    lineage = await _run(
        graph, scenario.agent_id, "belief_tension_timeline", belief_id=scenario.b_now
    )
    from_the_old_end = await _run(
        graph, scenario.agent_id, "belief_tension_timeline", belief_id=scenario.b
    )
    own_only = await _run(
        graph,
        scenario.agent_id,
        "belief_tension_timeline",
        belief_id=scenario.b_now,
        follow_lineage=False,
    )

    expected = [
        (0, "manual", "created", 0.0),
        # A SUPPORTS B and B CONTRADICTS P2 were linked by hand: history, no tension.
        (0, "manual", "support_linked", 0.0),
        (0, "manual", "contradiction_recorded", 0.0),
        # Bob's three contradictions came in one batch: one event for the batch.
        (0, "contradiction", "evidence", 0.45),
        # A's five contradictions (one batch) flow up to B at 0.5 · 0.15 each.
        (0, "contradiction", "propagated", 0.825),
        (0, "revision", "superseded", 0.825),
        (1, "revision", "created", 0.0),
        # R2 moved B's edges to B': A's support and the contradiction with P2, in its history.
        (1, "revision", "support_linked", 0.0),
        (1, "revision", "contradiction_moved", 0.0),
        # R3 replaced A (0.9) by A' (0.5): its edge moved, then B' re-derives its strength
        # from its new supporter.
        (1, "revision", "support_moved", 0.0),
        (1, "cascade", None, 0.0),
    ]
    assert _timeline(lineage) == expected
    assert from_the_old_end == lineage
    assert _timeline(own_only) == [(0, *step[1:]) for step in expected if step[0] == 1]
    seqs = [r["seq"] for r in lineage]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert {r["belief_id"] for r in lineage[:6]} == {scenario.b}
    assert {r["belief_id"] for r in lineage[6:]} == {scenario.b_now}
    propagated = lineage[4]
    assert propagated["origin_belief_ids"] == [scenario.a]
    assert sorted(propagated["evidence_texts"]) == [
        "alice says no (0)",
        "alice says no (1)",
        "someone says no (2)",
        "someone says no (3)",
        "someone says no (4)",
    ]
    assert propagated["tension_change"] == pytest.approx(0.375)
    assert sorted(lineage[3]["evidence_texts"]) == [f"bob says no ({n})" for n in range(3)]
    assert lineage[0]["old_tension"] is None and lineage[0]["tension_change"] is None
    assert lineage[5]["revision_id"] == lineage[6]["revision_id"] == scenario.r2.id
    assert lineage[-1]["new_strength"] == pytest.approx(0.5)


async def test_belief_tension_timeline_defaults_to_the_most_tense_active_belief(
    graph: GraphClient, scenario: Scenario
) -> None:
    rows = await _run(graph, scenario.agent_id, "belief_tension_timeline")
    unknown = await _run(graph, scenario.agent_id, "belief_tension_timeline", belief_id="nope")

    assert {r["belief_id"] for r in rows} == {scenario.p2}
    assert _timeline(rows) == [
        (0, "manual", "created", 0.0),
        (0, "manual", "contradiction_recorded", 0.0),  # B CONTRADICTS P2, by hand
        (0, "revision", "contradiction_moved", 0.0),  # R2 revised B: B' CONTRADICTS P2
        # two contradictions and a reinforcement in one batch: one event of each kind
        (0, "contradiction", "evidence", 0.30),
        (0, "reinforcement", "evidence", 0.30),
    ]
    assert rows[-1]["new_strength"] == pytest.approx(0.9 + 0.1 * 0.1)
    assert unknown == []


async def test_revision_triggers_group_challenging_evidence_by_person(
    graph: GraphClient, scenario: Scenario
) -> None:
    rows = await _run(graph, scenario.agent_id, "revision_triggers_by_person")

    by_person = {row["person"]: row for row in rows}
    # R1 (alice ×5 on P1), R2 (bob ×3 on B), R3 (alice ×2 and 3 unnamed on A), R4 (carol ×5).
    # Bob's later evidence on P2 and dave's reinforcement triggered nothing.
    expected = {
        "alice": (_person_id("alice"), 2, 7, 1.05),
        "carol": (_person_id("carol"), 1, 5, 0.75),
        "bob": (_person_id("bob"), 1, 3, 0.45),
        "unknown": (None, 1, 3, 0.45),
    }
    assert set(by_person) == set(expected)
    for person, (person_id, revisions, evidence, tension) in expected.items():
        row = by_person[person]
        assert (row["person_id"], row["revisions"], row["evidence"]) == (
            person_id,
            revisions,
            evidence,
        ), person
        assert row["tension_added"] == pytest.approx(tension), person
        assert row["total_weight"] == pytest.approx(float(evidence)), person
        assert row["last_at"] is not None
    assert [row["person"] for row in rows[:2]] == ["alice", "carol"]


async def test_pack_beliefs_not_surviving_name_their_fate_and_their_successor(
    graph: GraphClient, scenario: Scenario
) -> None:
    rows = await _run(graph, scenario.agent_id, "pack_beliefs_not_surviving")
    with_invalidated = await _run(
        graph, scenario.agent_id, "pack_beliefs_not_surviving", include_invalidated=True
    )

    def summary(row: dict[str, Any]) -> tuple[Any, ...]:
        return (
            row["belief_id"],
            row["fate"],
            row["revision_mode"],
            row["revisions_since"],
            row["current_id"],
        )

    # Most recently lost first: P3 (deactivated last), A (R3), P1 (R1). P2 and P4 are active.
    assert [summary(row) for row in rows] == [
        (scenario.p3, "deactivated", None, 0, None),
        (scenario.a, "revised", "cascade", 1, scenario.a_now),
        (scenario.p1, "revised", "threshold", 2, scenario.p1_now),
    ]
    assert rows[0]["lost_at"] is not None and rows[0]["trigger_tension"] is None
    assert rows[1]["trigger_tension"] == pytest.approx(0.75)
    assert rows[2]["statement"] == "Clients pay invoices within 30 days"
    assert rows[2]["current_statement"] == scenario.r4.new_statement
    assert all(row["pack"] is None for row in rows)  # source 'pack', no KnowledgePack yet
    assert [summary(row) for row in with_invalidated] == [
        (scenario.p4, "invalidated", None, 0, None),
        *map(summary, rows),
    ]
    assert with_invalidated[0]["lost_at"] is None


async def test_dissatisfaction_history_shows_each_turn_with_change_and_revisions_between(
    graph: GraphClient, scenario: Scenario
) -> None:
    rows = await _run(graph, scenario.agent_id, "dissatisfaction_history")
    last_two = await _run(graph, scenario.agent_id, "dissatisfaction_history", limit=2)

    values = scenario.dissatisfaction
    assert [row["value"] for row in rows] == pytest.approx(values)
    assert values[0] == 0.0 and max(values) > 0.0
    assert [row["band"] for row in rows] == [
        "low" if v < 0.3 else "medium" if v < 0.6 else "high" for v in values
    ]
    assert rows[0]["change"] is None
    assert [row["change"] for row in rows[1:]] == pytest.approx(
        [b - a for a, b in pairwise(values)]
    )
    assert [row["revisions"] for row in rows] == [0, 1, 0, 2, 1]
    ats = [datetime.fromisoformat(row["at"]) for row in rows]
    assert ats == sorted(ats)
    assert values[2] > 0.0 and rows[2]["change"] == pytest.approx(values[2])
    assert last_two == rows[3:]


async def test_every_analytics_query_answers_an_agent_with_no_data(graph: GraphClient) -> None:
    agent_id = (await create_agent(graph, AgentCreate(name="empty"))).id

    for name in analytics_names():
        result = await run_analytics(graph, agent_id, name)
        assert result.rows == [] and result.count == 0, name
        assert result.columns, name


async def test_run_analytics_refuses_unknown_names_params_agents_and_bad_values(
    graph: GraphClient, scenario: Scenario
) -> None:
    with pytest.raises(UnknownAnalytics) as unknown:
        await run_analytics(graph, scenario.agent_id, "drop_everything")
    assert unknown.value.details["known"] == analytics_names()

    with pytest.raises(AgentNotFound):
        await run_analytics(graph, "no-such-agent", "cascade_depths")

    with pytest.raises(InvalidInput) as invalid:
        await run_analytics(
            graph,
            scenario.agent_id,
            "most_contested_beliefs",
            {"limit": "-1", "include_inactive": "maybe", "colour": "red", "agent_id": "x"},
        )
    problems = {e["location"][-1]: e["message"] for e in invalid.value.details["errors"]}
    assert set(problems) == {"limit", "include_inactive", "colour", "agent_id"}

    with pytest.raises(InvalidInput) as bucket:
        await run_analytics(
            graph, scenario.agent_id, "revisions_over_time", {"bucket": "fortnight"}
        )
    assert "one of day, week, month, year" in bucket.value.message

    as_text = await run_analytics(
        graph, scenario.agent_id, "most_contested_beliefs", {"limit": "1", "include_inactive": "1"}
    )
    assert as_text.params == {"agent_id": scenario.agent_id, "limit": 1, "include_inactive": True}
    assert [row["belief_id"] for row in as_text.rows] == [scenario.b]


# --- the headers: Browser's :param line is also the app's defaults ---------------------------


def _analytics_files() -> list[str]:
    return sorted(
        p.stem for p in (resource_dir("cypher") / "beliefs" / "analytics").glob("*.cypher")
    )


def test_the_analytics_listed_are_the_files_in_cypher_analytics() -> None:
    listed = list_analytics()

    assert [info.name for info in listed.data] == _analytics_files() == analytics_names()
    assert listed.count == len(_analytics_files()) >= 8
    for info in listed.data:
        text = (
            resource_dir("cypher") / "beliefs" / "analytics" / f"{info.name}.cypher"
        ).read_text()
        assert text.startswith(f"// {info.description}")
        assert re.fullmatch(r"[a-z]+(_[a-z]+)+", info.name), "verb_noun names"


@pytest.mark.parametrize("name", _analytics_files())
def test_each_header_has_a_param_line_whose_values_are_valid_defaults(name: str) -> None:
    text = (resource_dir("cypher") / "beliefs" / "analytics" / f"{name}.cypher").read_text()
    spec = parse_header(name, text)  # raises, listing every problem, if inconsistent
    assert ";" not in text, "Browser would split the file into statements at a ';'"

    (param_line,) = [line for line in text.splitlines() if line.startswith("// :param ")]
    pasted = parse_param_map(param_line.removeprefix("// :param "))
    declared = {p.name: p for p in spec.params}
    assert set(pasted) == set(declared)
    assert declared["agent_id"].required and declared["agent_id"].type == "STRING"
    assert not declared["agent_id"].nullable
    optional = {n: p for n, p in declared.items() if not p.required}
    assert all(p.default == pasted[n] for n, p in optional.items())
    # The defaults are what run_analytics uses when nothing is given.
    assert resolve_params(spec, {}) == {n: pasted[n] for n in optional}
    body = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    assert set(re.findall(r"\$(\w+)", body)) == set(declared)
    assert spec.columns and len(set(spec.columns)) == len(spec.columns)


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("{agent_id: '<agent id>'}", {"agent_id": "<agent id>"}),
        (
            '{a: "x, y", b: -2, c: 0.5, d: true, e: false, f: null, `g h`: 1e3}',
            {"a": "x, y", "b": -2, "c": 0.5, "d": True, "e": False, "f": None, "g h": 1000.0},
        ),
        ("{a: 'don\\'t'}", {"a": "don't"}),
        ("{}", {}),
        ("{a: 1,}", {"a": 1}),
        ("{a: 1", None),
        ("{a: [1, 2]}", None),
        ("{a: 1, a: 2}", None),
        ("{a: datetime()}", None),
    ],
)
def test_param_lines_parse_as_plain_cypher_maps(text: str, parsed: dict[str, Any] | None) -> None:
    if parsed is None:
        with pytest.raises(ValueError):
            parse_param_map(text)
    else:
        assert parse_param_map(text) == parsed


def test_a_header_that_disagrees_with_its_query_is_refused_with_every_problem() -> None:
    text = "\n".join(
        [
            "// Something.",
            "// :param {agent_id: '<agent id>', limit: 'ten'}",
            "//   $agent_id :: STRING NOT NULL  required; the agent",
            "//   $limit :: INTEGER NOT NULL  most rows",
            "MATCH (b:Belief {agent_id: $agent_id}) RETURN b.id AS id LIMIT $top",
        ]
    )

    with pytest.raises(ValueError) as error:
        parse_header("broken", text)

    message = str(error.value)
    assert "'top'" in message  # used but not declared
    assert "default of $limit" in message
    assert "columns" in message


# --- Browser style ----------------------------------------------------------------------------

# What Neo4j Browser reads. A dropped .grass file goes through parseGrassCSS
# (neo4j-browser src/shared/services/grassUtils.ts) into the GraphStyleModel
# (src/neo4j-arc/graph-visualization/models/GraphStyle.ts), whose selectors are `node`,
# `node.<Label>`, `relationship` and `relationship.<TYPE>`, and whose renderer reads these keys.
_NODE_PROPERTIES = {
    "color",
    "border-color",
    "border-width",
    "text-color-internal",
    "diameter",
    "font-size",
    "caption",
}
_RELATIONSHIP_PROPERTIES = {
    "color",
    "shaft-width",
    "font-size",
    "padding",
    "text-color-external",
    "text-color-internal",
    "caption",
}


def _parse_grass(text: str) -> dict[str, dict[str, str]]:
    """Browser's parseGrassCSS, transcribed: quotes toggle strings and are dropped, braces
    outside strings are dropped, and a property with other than one ':' is silently dropped."""
    rules: dict[str, str] = {}
    inside_string = inside_props = inside_binding = False
    keyword = props = ""
    for c in text:
        if c in "'\"":
            inside_string = not inside_string
            continue
        if c == "{" and not inside_string:
            inside_binding, inside_props = inside_props, True
            continue
        if c == "}" and not inside_string:
            if inside_binding:
                inside_binding = False
            else:
                inside_props = False
                rules[keyword] = props
                keyword = props = ""
            continue
        if inside_props:
            props += c
        elif not c.isspace():
            keyword += c
    parsed: dict[str, dict[str, str]] = {}
    for selector, body in rules.items():
        parsed[selector] = {}
        for prop in body.split(";"):
            if not prop.strip():
                continue
            parts = prop.split(":")
            assert len(parts) == 2, f"{selector}: Browser drops {prop.strip()!r}"
            parsed[selector][parts[0].strip()] = parts[1].strip()
    return parsed


def test_the_browser_style_sheet_uses_only_what_browser_understands() -> None:
    text = (resource_dir("cypher") / "browser" / "style.grass").read_text()
    rules = _parse_grass(text)

    labels = {s.split(".", 1)[1] for s in rules if s.startswith("node.")}
    types = {s.split(".", 1)[1] for s in rules if s.startswith("relationship.")}
    assert set(rules) == {"node", "relationship"} | {f"node.{n}" for n in labels} | {
        f"relationship.{t}" for t in types
    }
    assert {
        "Agent",
        "Belief",
        "BeliefEvent",
        "Evidence",
        "Revision",
        "Context",
        "Episode",
        "Person",
        "KnowledgePack",
        "DissatisfactionSample",
    } <= labels
    assert {"SUPPORTS", "CONTRADICTS", "SUPERSEDED_BY"} <= types
    for selector, props in rules.items():
        allowed = _NODE_PROPERTIES if selector.startswith("node") else _RELATIONSHIP_PROPERTIES
        assert props and set(props) <= allowed, selector
        for key, value in props.items():
            if "color" in key:
                assert re.fullmatch(r"#[0-9A-Fa-f]{6}", value), (selector, key, value)
            if key in ("diameter", "border-width", "shaft-width", "font-size", "padding"):
                assert re.fullmatch(r"\d+px", value), (selector, key, value)
    assert rules["node.Belief"]["caption"] == "{statement}"
    # The bookkeeping labels (locks, migrations, the scheduler's jobs, corpus statistics) share
    # one pale grey, so they recede; every label of the agent's mind has a colour of its own.
    bookkeeping = {"AgentLock", "CredenceMigration", "CredenceMigrationLock", "LexicalCorpus",
                   "ScheduledJob"}  # fmt: skip
    colours = [
        props["color"]
        for s, props in rules.items()
        if s.startswith("node.") and s.split(".", 1)[1] not in bookkeeping
    ]
    assert len(set(colours)) == len(colours), "one colour per label"
    assert {rules[f"node.{label}"]["color"] for label in bookkeeping} == {"#E0E0E0"}


# --- API and CLI ------------------------------------------------------------------------------


def test_api_lists_and_runs_analytics_as_json(client: TestClient, scenario: Scenario) -> None:
    base = f"/v1/agents/{scenario.agent_id}/analytics"
    listed = client.get(base)
    depths = client.get(f"{base}/cascade_depths")
    one = client.get(f"{base}/longest_lineages", params={"limit": 1})
    timeline = client.get(
        f"{base}/belief_tension_timeline",
        params={"belief_id": scenario.b_now, "follow_lineage": "false"},
    )
    unknown = client.get(f"{base}/drop_everything")
    invalid = client.get(f"{base}/longest_lineages", params={"limit": "many"})
    no_agent = client.get("/v1/agents/no-such-agent/analytics/cascade_depths")

    assert listed.status_code == 200
    assert [a["name"] for a in listed.json()["data"]] == analytics_names()
    contested = next(a for a in listed.json()["data"] if a["name"] == "most_contested_beliefs")
    assert {p["name"]: p["default"] for p in contested["params"]} == {
        "agent_id": None,
        "limit": 20,
        "include_inactive": False,
    }
    assert depths.status_code == 200, depths.text
    assert depths.json()["columns"] == ["depth", "revisions", "cascades", "largest_cascade"]
    assert depths.json()["rows"] == [
        {"depth": 0, "revisions": 3, "cascades": 2, "largest_cascade": 1},
        {"depth": 1, "revisions": 1, "cascades": 1, "largest_cascade": 2},
    ]
    assert depths.json()["count"] == 2
    assert one.status_code == 200
    assert one.json()["params"]["limit"] == 1
    assert [r["root_id"] for r in one.json()["rows"]] == [scenario.p1]
    assert isinstance(one.json()["rows"][0]["started_at"], str)
    assert timeline.status_code == 200
    assert {r["belief_id"] for r in timeline.json()["rows"]} == {scenario.b_now}
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "unknown_analytics"
    assert unknown.json()["error"]["details"]["known"] == analytics_names()
    assert invalid.status_code == 422
    assert invalid.json()["error"]["code"] == "invalid_input"
    assert invalid.json()["error"]["details"]["errors"][0]["location"] == ["params", "limit"]
    assert no_agent.status_code == 404
    assert no_agent.json()["error"]["code"] == "agent_not_found"


def test_cli_lists_and_runs_analytics_as_tables(
    cli: CliRunner, scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed = cli.invoke(cli_app, ["analytics", "list"])
    lineages = cli.invoke(
        cli_app, ["analytics", "longest_lineages", "--agent", scenario.agent_id, "-p", "limit=1"]
    )
    monkeypatch.setenv("CREDENCE_AGENT_ID", scenario.agent_id)
    triggers = cli.invoke(cli_app, ["analytics", "revision_triggers_by_person"])
    unknown = cli.invoke(cli_app, ["analytics", "drop_everything"])
    bad_param = cli.invoke(cli_app, ["analytics", "cascade_depths", "--param", "limit"])
    monkeypatch.delenv("CREDENCE_AGENT_ID")
    no_agent = cli.invoke(cli_app, ["analytics", "cascade_depths"])

    assert listed.exit_code == 0, listed.output
    for name in analytics_names():
        assert name in listed.output
    assert lineages.exit_code == 0, lineages.output
    assert scenario.p1[:8] in lineages.output and "Clients pay" in lineages.output
    assert "1 row(s)" in lineages.output and "limit=1" in lineages.output
    assert triggers.exit_code == 0, triggers.output
    assert all(p in triggers.output for p in ("alice", "bob", "carol", "unknown", "1.050"))
    assert unknown.exit_code == 1 and "unknown_analytics" in unknown.output
    assert bad_param.exit_code == 2 and "key=value" in bad_param.output
    assert no_agent.exit_code == 2 and "CREDENCE_AGENT_ID" in no_agent.output


def test_a_limit_past_the_bound_is_refused_naming_it_over_http_and_from_the_cli(
    client: TestClient, cli: CliRunner, scenario: Scenario
) -> None:
    """Unbounded, these reached the driver (an int past 64 bits: OverflowError, a reset
    connection) or the query (``toInteger($limit) + 1``: long overflow): both a 500."""
    base = f"/v1/agents/{scenario.agent_id}/analytics"
    for name, limit in (
        ("longest_lineages", "9223372036854775808"),
        ("dissatisfaction_history", "9223372036854775807"),
        ("most_contested_beliefs", str(MAX_INTEGER + 1)),
    ):
        refused = client.get(f"{base}/{name}", params={"limit": limit})
        assert refused.status_code == 422, refused.text
        [error] = refused.json()["error"]["details"]["errors"]
        assert error == {
            "location": ["params", "limit"],
            "message": f"must be at most {MAX_INTEGER}, got {int(limit)}",
            "type": "value_error",
        }
    at_most = client.get(f"{base}/dissatisfaction_history", params={"limit": MAX_INTEGER})
    assert at_most.status_code == 200, at_most.text
    assert at_most.json()["params"]["limit"] == MAX_INTEGER

    agent = ["--agent", scenario.agent_id]
    too_many = cli.invoke(
        cli_app, ["analytics", "longest_lineages", *agent, "-p", "limit=9223372036854775808"]
    )
    assert too_many.exit_code == 1
    assert "invalid_input" in too_many.output
    assert f"limit: must be at most {MAX_INTEGER}, got 9223372036854775808" in too_many.output


def test_a_bucket_outside_its_choices_lists_each_choice_once(
    client: TestClient, scenario: Scenario
) -> None:
    base = f"/v1/agents/{scenario.agent_id}/analytics"
    for name in ("revisions_over_time", "tool_outcomes_over_time"):
        refused = client.get(f"{base}/{name}", params={"bucket": "WEEK"})
        assert refused.status_code == 422
        [error] = refused.json()["error"]["details"]["errors"]
        assert error == {
            "location": ["params", "bucket"],
            "message": "expected one of day, week, month, year; got 'WEEK'",
            "type": "value_error",
        }
    listed = client.get(base).json()["data"]
    for info in listed:
        for param in info["params"]:
            assert len(param["choices"]) == len(set(param["choices"])), (info["name"], param)
