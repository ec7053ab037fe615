"""Why an agent holds a belief: the answer Credence exists to give, in one read.

What supports it (the SUPPORTS chain with its weights), the evidence for and against it and
the beliefs it superseded (with the person or episode each piece came from), its open
contradictions, its revision lineage and its most recent events, with a plain-text summary a
model (or a person) can read first.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from app.beliefs.mechanics import Mechanics
from app.beliefs.models import Belief, ContextStrength, Contradiction, LinkedBelief
from app.beliefs.replay import SUPPORT_ACTIONS
from app.beliefs.store import get_belief
from app.errors import BeliefNotFound
from app.graph.client import GraphClient

MAX_DEPTH = 5  # the SUPPORTS hops explain_belief.cypher can follow


class Supporter(BaseModel):
    """A belief that holds this one up, directly (depth 1) or through others."""

    id: str
    statement: str
    strength: float
    tension: float
    is_active: bool
    depth: int = Field(description="SUPPORTS hops from the supporter to the explained belief")
    weight: float = Field(description="the weight of the supporter's own SUPPORTS edge")
    path_weight: float = Field(description="product of the weights down to the explained belief")
    supports_id: str = Field(description="the belief the supporter's edge holds up")
    supports_statement: str


class DerivationInput(BaseModel):
    """A supporter a derivation counted, as its cascade event recorded it."""

    id: str
    statement: str | None = Field(default=None, description="its statement now")
    strength: float = Field(description="its strength when the derivation counted it")
    weight: float = Field(description="the weight of its SUPPORTS edge then")


class Derivation(BaseModel):
    """The belief's latest derivation from its supporters (its newest cascade event): the
    weighted mean Σ w · strength / Σ w over the active supporters then (docs/beliefs.md §6)."""

    seq: int
    at: datetime | None = None
    cause: str | None = Field(default=None, description="what set the cascade off")
    old_strength: float
    strength: float = Field(description="the strength it derived")
    supporter_count: int | None = Field(
        default=None,
        description="supporters counted; null on an event written before events recorded them",
    )
    weighted_sum: float | None = None
    weight_sum: float | None = None
    supporters: list[DerivationInput] = Field(
        default_factory=list,
        description="the supporters counted, heaviest edge first (at most the first 50)",
    )
    current: bool = Field(description="whether its strength is still this derivation's result")


class EvidenceItem(BaseModel):
    """One piece of evidence, on the belief or on a belief it superseded."""

    id: str
    belief_id: str = Field(description="the belief it was given on (a predecessor, maybe)")
    text: str
    kind: str | None = None
    stance: str
    weight: float
    tension_delta: float | None = None
    at: datetime | None = None
    source_person_id: str | None = None
    source_person: str | None = Field(default=None, description="the person's name")
    episode_id: str | None = None
    episode_text: str | None = None


class LineageRevision(BaseModel):
    """A revision that revised or produced a belief of the lineage."""

    id: str
    mode: str | None = None
    depth: int | None = None
    trigger_tension: float | None = None
    old_belief_id: str | None = None
    old_statement: str | None = None
    new_belief_id: str | None = None
    new_statement: str | None = None
    evidence_summary: str | None = None
    reasoning: str | None = None
    behavioral_changes: list[str] = Field(default_factory=list)
    reasoner: str | None = None
    at: datetime | None = None


class ToolOutcome(BaseModel):
    """A call of a connected MCP server's tool whose outcome moved the belief."""

    tool: str = Field(description="connection.tool")
    status: str
    mode: str | None = None
    result: str | None = Field(default=None, description="the start of the result")
    at: datetime | None = None


class ResearchSource(BaseModel):
    title: str | None = None
    origin: str | None = None


class InformingInvestigation(BaseModel):
    """An investigation (research mode) whose decided hypothesis created, reinforced or
    challenged the belief."""

    investigation_id: str
    question: str
    hypothesis_id: str
    hypothesis: str = Field(description="the hypothesis' statement")
    effect: str = Field(description="created, reinforced or challenged")
    at: datetime | None = None
    evidence: int = Field(description="the pieces of evidence it applied to the belief")
    sources: list[ResearchSource] = Field(description="where each of those pieces came from")


class EvidenceTotals(BaseModel):
    """Every piece of evidence on the belief's lineage, by stance (the lists hold at most
    ``limit``)."""

    reinforcing: int = 0
    contradicting: int = 0
    other: int = 0


class SupportTotals(BaseModel):
    """Every supporter within ``depth`` hops (the chain lists at most ``limit``)."""

    active: int = Field(default=0, description="direct supporters that count in its strength")
    inactive: int = Field(
        default=0, description="direct supporters no longer held (they count no more)"
    )
    deeper: int = Field(default=0, description="active supporters further down, not direct")


class BeliefExplanation(BaseModel):
    belief: Belief
    summary: str = Field(description="the explanation in a few plain sentences")
    strength_in_context: float
    context: str | None
    contexts: list[ContextStrength] = Field(
        default_factory=list,
        description="its context-conditional strengths (an outcome in month_end moves that one)",
    )
    support_chain: list[Supporter]
    supports: list[LinkedBelief] = Field(description="the beliefs this one holds up")
    latest_derivation: Derivation | None = Field(
        default=None,
        description="its newest derivation from its supporters, with the supporters it counted; "
        "null when none ever derived it",
    )
    support_totals: SupportTotals = Field(default_factory=SupportTotals)
    evidence_for: list[EvidenceItem]
    evidence_against: list[EvidenceItem]
    other_evidence: list[EvidenceItem] = Field(description="neutral or novel evidence")
    evidence_totals: EvidenceTotals = Field(
        default_factory=EvidenceTotals,
        description="every piece by stance; the three lists hold at most limit pieces in all",
    )
    open_contradictions: list[Contradiction]
    predecessors: list[LinkedBelief] = Field(description="the beliefs it replaced, oldest first")
    successors: list[LinkedBelief] = Field(description="what replaced it, when it is inactive")
    revisions: list[LineageRevision] = Field(description="the lineage's revisions, oldest first")
    recent_events: list[dict[str, Any]] = Field(description="newest first")
    tool_outcomes: list[ToolOutcome] = Field(
        default_factory=list,
        description="tool calls whose outcomes moved it, newest first (a belief about a tool)",
    )
    tool_calls_succeeded: int = 0
    tool_calls_failed: int = 0
    investigations: list[InformingInvestigation] = Field(
        default_factory=list,
        description="the investigations that informed it, newest first (docs/research.md)",
    )


async def explain_belief(
    graph: GraphClient,
    mechanics: Mechanics,
    agent_id: str,
    belief_id: str,
    *,
    context: str | None = None,
    depth: int = 3,
    limit: int = 20,
) -> BeliefExplanation:
    """Why the agent holds ``belief_id``.

    Args:
        context: the context to give its strength in (with back-off), as ``get_belief``.
        depth: SUPPORTS hops to follow (1 to 5).
        limit: the most supporters, evidence items and recent events returned.

    Raises:
        BeliefNotFound: no such belief for this agent.
    """
    detail = await get_belief(graph, mechanics, agent_id, belief_id, context, history_limit=limit)
    rows = await graph.read(
        "beliefs/explain/explain_belief",
        agent_id=agent_id,
        belief_id=belief_id,
        depth=max(1, min(depth, MAX_DEPTH)),
        limit=limit,
    )
    if not rows:  # deleted between the two reads
        raise BeliefNotFound(belief_id, agent_id)
    row = rows[0]
    outcomes = await graph.read(
        "beliefs/explain/list_tool_outcomes", agent_id=agent_id, belief_id=belief_id, limit=limit
    )
    derivations = await graph.read(
        "beliefs/explain/get_latest_derivation", agent_id=agent_id, belief_id=belief_id
    )
    informing = await graph.read(
        "beliefs/explain/list_informing_investigations",
        agent_id=agent_id,
        belief_id=belief_id,
        limit=limit,
    )
    evidence = [EvidenceItem.model_validate(item) for item in row["evidence"]]
    explanation = BeliefExplanation(
        belief=detail.belief,
        summary="",
        strength_in_context=detail.strength_in_context,
        context=context,
        contexts=detail.contexts,
        support_chain=[Supporter.model_validate(item) for item in row["support_chain"]],
        support_totals=SupportTotals.model_validate(row["support_totals"]),
        supports=detail.supports,
        latest_derivation=Derivation.model_validate(derivations[0]) if derivations else None,
        evidence_for=[e for e in evidence if e.stance == "reinforcing"],
        evidence_against=[e for e in evidence if e.stance == "contradicting"],
        other_evidence=[e for e in evidence if e.stance not in ("reinforcing", "contradicting")],
        evidence_totals=EvidenceTotals.model_validate(row["evidence_totals"]),
        open_contradictions=[c for c in detail.contradictions if c.status != "resolved"],
        predecessors=detail.predecessors,
        successors=detail.successors,
        revisions=[LineageRevision.model_validate(item) for item in row["revisions"]],
        recent_events=detail.events,
        tool_outcomes=[ToolOutcome.model_validate(outcome) for outcome in outcomes],
        tool_calls_succeeded=outcomes[0]["succeeded"] if outcomes else 0,
        tool_calls_failed=outcomes[0]["failed"] if outcomes else 0,
        investigations=[InformingInvestigation.model_validate(item) for item in informing],
    )
    explanation.summary = summarize(explanation)
    return explanation


def summarize(explanation: BeliefExplanation) -> str:
    """The explanation as a few sentences: state, support, evidence, tension, history."""
    belief = explanation.belief
    state = "held" if belief.is_active else "no longer held"
    in_context = (
        f" ({explanation.strength_in_context:.2f} in context {explanation.context!r})"
        if explanation.context
        else ""
    )
    lines = [
        f"{belief.statement!r} is {state}: strength {_strengths(explanation)}{in_context}, "
        f"tension {belief.tension:.2f}, source {belief.source or 'unknown'}."
    ]
    lines.extend(_support_lines(explanation))
    if explanation.latest_derivation is not None:
        lines.append(_derivation_line(explanation.latest_derivation))
    lines.extend(_edge_change_lines(explanation.recent_events))
    totals = explanation.evidence_totals
    lines.append(
        f"Evidence: {totals.reinforcing} for, {totals.contradicting} against, {totals.other} other."
    )
    if explanation.evidence_against:
        latest = explanation.evidence_against[0]
        source = f" (from {latest.source_person})" if latest.source_person else ""
        lines.append(f"Latest against: {latest.text!r}{source}.")
    if explanation.open_contradictions:
        lines.append(
            "Open contradictions: "
            + "; ".join(repr(c.statement) for c in explanation.open_contradictions[:3])
            + "."
        )
    if explanation.predecessors:
        produced = next((r for r in explanation.revisions if r.new_belief_id == belief.id), None)
        why = ""
        if produced is not None and produced.trigger_tension is not None:
            why = f" ({produced.mode}, at tension {produced.trigger_tension:.2f})"
        reasoning = f": {produced.reasoning}" if produced and produced.reasoning else "."
        lines.append(
            f"It replaced {explanation.predecessors[-1].statement!r} in a revision{why}{reasoning}"
        )
    if explanation.successors:
        lines.append(f"It was revised into {explanation.successors[-1].statement!r}.")
    if explanation.tool_outcomes:
        latest_call = explanation.tool_outcomes[0]
        lines.append(
            f"Calls of {latest_call.tool} moved it: {explanation.tool_calls_succeeded} "
            f"succeeded, {explanation.tool_calls_failed} failed; the latest {latest_call.status}"
            + (f" ({latest_call.result[:80]!r})." if latest_call.result else ".")
        )
    lines.extend(_research_lines(explanation))
    return " ".join(lines)


def _strengths(explanation: BeliefExplanation, named: int = 3) -> str:
    """Its default strength, and the strengths of the contexts where it differs ("0.50 by
    default, 0.65 in month_end"): an outcome in a context moves that context's strength only
    (docs/beliefs.md §3), so the summary shows the move."""
    default = explanation.belief.strength
    differing = [c for c in explanation.contexts if f"{c.strength:.2f}" != f"{default:.2f}"]
    if not differing:
        return f"{default:.2f}"
    shown = ", ".join(f"{c.strength:.2f} in {c.name}" for c in differing[:named])
    more = f" and {len(differing) - named} more context(s)" if len(differing) > named else ""
    return f"{default:.2f} by default, {shown}{more}"


def _research_lines(explanation: BeliefExplanation) -> list[str]:
    """The investigations that informed it, the latest named."""
    if not explanation.investigations:
        return []
    latest = explanation.investigations[0]
    more = len(explanation.investigations) - 1
    return [
        f"Research: investigation {latest.investigation_id} ({latest.question!r}) "
        f"{latest.effect} it with {latest.evidence} piece(s) of evidence"
        + (f"; {more} more investigation(s) informed it." if more else ".")
    ]


def _support_lines(explanation: BeliefExplanation) -> list[str]:
    """What holds it up, as its strength counts it: the active direct supporters (the strongest
    three named), then those no longer held, named apart because they count no more."""
    totals = explanation.support_totals
    direct = [s for s in explanation.support_chain if s.depth == 1]
    active = [s for s in direct if s.is_active]
    lines = []
    if totals.active:
        named = "; ".join(f"{s.statement!r} (weight {s.weight:.2f})" for s in active[:3])
        more = f", {totals.active - len(active[:3])} more directly" if totals.active > 3 else ""
        deeper = f", and {totals.deeper} more further down the chain" if totals.deeper else ""
        lines.append(f"Supported by {named}{more}{deeper}.")
    else:
        lines.append("No other belief supports it.")
    if totals.inactive:
        gone = [repr(s.statement) for s in direct if not s.is_active][:3]
        more = f" and {totals.inactive - len(gone)} more" if totals.inactive > len(gone) else ""
        lines.append(
            f"No longer held, so no longer counted in its strength: {'; '.join(gone)}{more}."
        )
    return lines


def _edge_change_lines(events: list[dict[str, Any]]) -> list[str]:
    """The latest change of its supporters among its recent events (newest first): each edge
    linked, re-weighed, removed, retired or moved at that moment (one transaction: by hand, by
    a turn, by a pack version, or by a revision of a supporter), by its note, oldest first
    (the first three named)."""
    changes = [e for e in events if e.get("action") in SUPPORT_ACTIONS and e.get("note")]
    if not changes:
        return []
    at = changes[0].get("at")
    together = [e["note"] for e in changes if e.get("at") == at][::-1]
    more = f"; and {len(together) - 3} more" if len(together) > 3 else ""
    when = f" at {at.isoformat()}" if isinstance(at, datetime) else ""
    return [f"Its supporters last changed{when}: {'; '.join(together[:3])}{more}."]


def _derivation_line(derivation: Derivation) -> str:
    """Where its derived strength came from: the weighted mean of the supporters its latest
    cascade counted, with each one's strength and weight then (the heaviest three named)."""
    at = f" at {derivation.at.isoformat()}" if derivation.at else ""
    cause = f" ({derivation.cause})" if derivation.cause else ""
    head = (
        f"Its strength {derivation.strength:.2f} was"
        if derivation.current
        else f"Its latest derivation, {derivation.strength:.2f}, was"
    )
    if derivation.supporter_count is None:
        inputs = "the weighted mean of its supporters then (an old event: it did not name them)"
    else:
        named = ", ".join(
            f"{(s.statement or s.id)!r} {s.strength:.2f} (w {s.weight:.2f})"
            for s in derivation.supporters[:3]
        )
        more = derivation.supporter_count - len(derivation.supporters[:3])
        inputs = f"the weighted mean of {named}" + (f" and {more} more" if more > 0 else "")
    since = "" if derivation.current else "; later events moved it since"
    return f"{head} derived{at}{cause} as {inputs}{since}."
