"""The offline reasoner's research judgements: hypotheses from the question itself, conflict
resolution by explicit rules (date, authority, agreement of the other sources), and a templated
report that cites its sources.

A passage's stance comes from the same machinery as a claim's stance towards a belief
(:mod:`app.reasoning.offline.stance`); this module only maps and explains it.
"""

from __future__ import annotations

import re

from app.reasoning.offline.stance import StanceDecision
from app.reasoning.protocol import (
    ConflictRequest,
    ConflictResolution,
    ConflictSide,
    ResearchStance,
    SynthesisRequest,
)

# How much an offline judgement trusts a kind of source when two disagree: a document the user
# loaded as a corpus over the agent's own beliefs, rules and (least) what was said in a turn.
SOURCE_AUTHORITY = {"corpus": 0.7, "belief": 0.6, "rule": 0.5, "episode": 0.4}
# Authorities closer than this decide nothing.
AUTHORITY_MARGIN = 0.15
# Another source counts for a side when its stance is at least this confident (the research
# evidence floor: weaker stances do not count as evidence either).
AGREEMENT_CONFIDENCE = 0.7

_QUESTION_LEAD = re.compile(
    r"^\s*(?:is it (?:true|the case|correct) that|is it true|do you think|check whether|"
    r"check if|verify that|verify whether|investigate whether|whether)\s+",
    re.IGNORECASE,
)


def hypothesis_from(question: str) -> str:
    """The question as one testable statement: a claim is its own hypothesis; a leading
    "Is it true that" / "Check whether" and a trailing "?" are dropped."""
    statement = _QUESTION_LEAD.sub("", " ".join(question.split())).rstrip(" ?")
    statement = statement or question.strip()
    return statement[:1].upper() + statement[1:]


def passage_stance(decision: StanceDecision) -> tuple[ResearchStance, float, str]:
    """The stance machinery's decision as a research stance, its confidence and its reason."""
    why = "; ".join(decision.cues)
    if decision.stance == "reinforcing":
        return "supports", decision.confidence, f"agrees with the hypothesis ({why})"
    if decision.stance == "contradicting":
        return "contradicts", decision.confidence, f"contradicts the hypothesis ({why})"
    return "neutral", decision.confidence, f"does not bear on the hypothesis ({why})"


def _side_name(side: ConflictSide) -> str:
    # The origin tells two passages of one document (or two revisions of one page) apart.
    return side.origin or side.title or side.source_id


def resolve_conflict(request: ConflictRequest) -> ConflictResolution:
    """Which side to trust, by rules in order: the newer source when both dates are known and
    differ; the clearly more authoritative kind of source; the side more of the other sources
    agree with. Otherwise unresolvable, saying which rule found nothing."""
    first, second = request.first, request.second
    if first.published and second.published and first.published != second.published:
        newer, older = (first, second) if first.published > second.published else (second, first)
        return ConflictResolution(
            outcome="first" if newer is first else "second",
            basis="date",
            reason=f"'{_side_name(newer)}' ({newer.published}) is newer than "
            f"'{_side_name(older)}' ({older.published}); the newer source is trusted.",
            reasoner="offline",
        )
    first_authority = SOURCE_AUTHORITY.get(first.kind, 0.5)
    second_authority = SOURCE_AUTHORITY.get(second.kind, 0.5)
    if abs(first_authority - second_authority) >= AUTHORITY_MARGIN:
        stronger = first if first_authority > second_authority else second
        return ConflictResolution(
            outcome="first" if stronger is first else "second",
            basis="authority",
            reason=f"a {stronger.kind} source outranks a "
            f"{(second if stronger is first else first).kind} source.",
            reasoner="offline",
        )
    # Another source tips the balance only when it is at least as decisive as the weaker of the
    # two in conflict: a looser match (a sentence from another page sharing a number) must not
    # outvote the two sentences that are plainly about the claim.
    bar = max(AGREEMENT_CONFIDENCE, min(first.confidence, second.confidence))
    agreeing = {"first": 0, "second": 0}
    for other in request.others:
        if other.confidence < bar or other.stance == "neutral":
            continue
        agreeing["first" if other.stance == first.stance else "second"] += 1
    if agreeing["first"] != agreeing["second"]:
        side = "first" if agreeing["first"] > agreeing["second"] else "second"
        return ConflictResolution(
            outcome=side,
            basis="agreement",
            reason=f"{max(agreeing.values())} other source(s) agree with "
            f"'{_side_name(first if side == 'first' else second)}', "
            f"{min(agreeing.values())} with the other.",
            reasoner="offline",
        )
    dates = (
        "no publication dates"
        if not (first.published or second.published)
        else (
            "only one publication date"
            if not (first.published and second.published)
            else "the same date"
        )
    )
    return ConflictResolution(
        outcome="unresolvable",
        basis="none",
        reason=f"cannot resolve: {dates}, sources of equal authority ({first.kind}, "
        f"{second.kind}), and the other sources do not tip the balance "
        f"({agreeing['first']} vs {agreeing['second']}).",
        reasoner="offline",
    )


def report(request: SynthesisRequest) -> str:
    """The markdown report: the verdict, each hypothesis with its cited evidence, the
    conflicts and their resolutions, and the numbered sources."""
    lines = [f"# {request.question}", "", f"**Verdict: {request.verdict}.**", ""]
    failed = request.failure_note()
    if failed:
        lines += [f"_{failed[0].upper()}{failed[1:]}: the verdict rests on those that answered._"]
        lines.append("")
    lines.append("## Hypotheses")
    for hypothesis in request.hypotheses:
        named = ", ".join(hypothesis.failed_sources)
        failing = f"; {named} failed" if named else ""
        lines.append(
            f"- **{hypothesis.statement}** — {hypothesis.status} "
            f"(confidence {hypothesis.confidence:.2f}{failing})"
        )
        if hypothesis.supporting:
            lines.append(f"  - supported by {_cites(hypothesis.supporting)}")
        if hypothesis.contradicting:
            lines.append(f"  - contradicted by {_cites(hypothesis.contradicting)}")
        if not hypothesis.supporting and not hypothesis.contradicting:
            lines.append(
                "  - no source that answered bears on it"
                if hypothesis.failed_sources
                else "  - no source bears on it"
            )
    if request.conflicts:
        lines += ["", "## Conflicts between sources"]
        for conflict in request.conflicts:
            lines.append(
                f"- {_cites(conflict.sources)} disagree on “{conflict.hypothesis}”: "
                f"{conflict.status}" + (f" — {conflict.resolution}" if conflict.resolution else "")
            )
    lines += ["", "## Sources"]
    for source in request.sources:
        excerpt = source.text if len(source.text) <= 300 else source.text[:299] + "…"
        lines.append(f"- [{source.number}] {source.title} ({source.origin}): {excerpt}")
    if not request.sources:
        lines.append("No source was found" + (" (sources failed)." if failed else "."))
    lines += ["", "_Written by the offline reasoner from the investigation's graph._"]
    return "\n".join(lines) + "\n"


def _cites(numbers: list[int]) -> str:
    return ", ".join(f"[{number}]" for number in numbers)
