"""The supervisor: which step an investigation takes next, decided from the graph's state alone
(so a resumed investigation continues exactly where the last committed step left it).

In order: at the iteration cap, synthesize; propose hypotheses when there are none (once: when
the proposal gave none, synthesize); resolve an open conflict; judge sources not yet judged;
search for a hypothesis still undecided that has searches left (the least searched first; a
search in which every source failed does not use one up, and a hypothesis gets at most as many
of those besides); otherwise synthesize.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.research.assessment import unjudged
from app.research.models import ResearchState, StepKind
from app.research.settings import ResearchSettings


@dataclass(frozen=True, slots=True)
class NextStep:
    kind: StepKind
    why: str
    hypothesis_id: str | None = None
    conflict_id: str | None = None


def next_step(state: ResearchState, settings: ResearchSettings) -> NextStep | None:
    """The next step, or None when the investigation is not running."""
    investigation = state.investigation
    if investigation.status != "running":
        return None
    if investigation.iteration >= investigation.iteration_cap:
        return NextStep("synthesize", f"iteration cap {investigation.iteration_cap} reached")
    if not state.hypotheses:
        if investigation.iteration == 0:
            return NextStep("supervisor", "no hypotheses yet: propose them from the question")
        # Proposed once and none came: asking again would give the same (and never end).
        return NextStep("synthesize", "the question gave no hypothesis to investigate")
    open_conflict = next((c for c in state.conflicts if c.status == "open"), None)
    if open_conflict is not None:
        return NextStep(
            "resolve",
            "an open conflict between sources comes first",
            hypothesis_id=open_conflict.hypothesis_id,
            conflict_id=open_conflict.id,
        )
    pending = unjudged(state)
    if pending:
        return NextStep("judge", f"{len(pending)} source/hypothesis pair(s) not judged yet")
    searchable = [
        h
        for h in state.hypotheses
        if h.status in ("proposed", "validating")
        and h.searches < settings.searches_per_hypothesis
        and h.failed_searches < settings.searches_per_hypothesis
    ]
    if searchable:
        target = min(searchable, key=lambda h: (h.searches, h.ordinal))
        return NextStep(
            "search",
            f"hypothesis {target.ordinal + 1} is {target.status} "
            f"after {target.searches} search(es)",
            hypothesis_id=target.id,
        )
    return NextStep("synthesize", "every hypothesis is decided or out of searches")
