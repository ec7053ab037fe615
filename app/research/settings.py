"""Research mode's tunables (``CREDENCE_RESEARCH__...``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field


class ResearchSettings(BaseModel):
    """Research mode's tunables (``CREDENCE_RESEARCH__*``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    default_iteration_cap: Annotated[int, Field(ge=1, le=100)] = 10
    """Steps an investigation takes unless its start asks otherwise (seed 004: 10); at the cap it
    synthesizes."""
    max_iteration_cap: Annotated[int, Field(ge=1, le=1000)] = 100
    """The largest iteration cap an investigation's start may ask for."""
    max_hypotheses: Annotated[int, Field(ge=1, le=5)] = 3
    """Hypotheses the reasoner may propose for one question."""
    passages_per_source: Annotated[int, Field(ge=1, le=50)] = 5
    """Passages each source returns per search."""
    searches_per_hypothesis: Annotated[int, Field(ge=1, le=10)] = 2
    """Searches per hypothesis (each with a different query) before it is left undecided. A
    search in which every source failed does not count (the same query is tried again), and a
    hypothesis gets at most this many of those besides."""
    judgements_per_step: Annotated[int, Field(ge=1, le=100)] = 12
    """(hypothesis, source) pairs one judge step judges."""
    # The offline judge calls any passage about the topic without a contradiction cue
    # "supports", with a confidence that grows with similarity; 0.7 (cosine >= ~0.72) keeps
    # sentences that merely share a page with the claim from counting (0.5 let three such
    # sentences outvote a real conflict in tests/integration/research).
    evidence_floor: Annotated[float, Field(ge=0.0, le=1.0)] = 0.7
    """A stance counts as evidence (and can make a conflict) from this confidence on."""
    decision_floor: Annotated[float, Field(ge=0.0, le=1.0)] = 0.7
    """A hypothesis is confirmed / refuted when its winning evidence is at least this confident."""
    # The learned stance judge's confidence is its class probability; the floors were chosen on
    # the VitaminC validation pages (bench/research_floors.py; bench/README.md). Without the
    # learned judge (its weights missing or switched off) the cue judge's confidences are no
    # probabilities: its judgements keep evidence_floor and decision_floor (for_offline_judge).
    offline_support_floor: Annotated[float, Field(ge=0.0, le=1.0)] = 0.8
    """The learned offline stance judge: a support counts and decides from this confidence on."""
    offline_contradiction_floor: Annotated[float, Field(ge=0.0, le=1.0)] = 0.7
    """The learned offline stance judge: a contradiction counts and decides from this on."""
    # A page's other sentences (older revisions of a figure, other facts about the subject)
    # otherwise outvote the sentence that states the claim. Chosen on the VitaminC validation
    # pages with the floors (bench/research_floors.py).
    offline_relevance_margin: Annotated[float | None, Field(ge=0.0, le=1.0)] = 0.02
    """The learned judge's stances count only for passages at least as close to the hypothesis
    as the closest one judged, less this margin (cosine; unset: every passage counts)."""
    # Off: an operator resumes them explicitly (POST .../resume or `credence research resume`),
    # so a crash loop does not restart them unattended.
    resume_on_start: bool = False
    """At API start, continue the investigations a stopped process left running."""


def for_offline_judge(settings: ResearchSettings, learned: bool) -> ResearchSettings:
    """The settings research runs with: as configured under the learned stance judge; under the
    cue judge alone, its judgements count and decide from ``evidence_floor`` (at 0.8 the cue
    judge lost 9 points on one-sided VitaminC claims: bench/README.md), every passage counting
    (no relevance margin: it was chosen for the learned judge)."""
    if learned:
        return settings
    return settings.model_copy(
        update={
            "offline_support_floor": settings.evidence_floor,
            "offline_contradiction_floor": settings.evidence_floor,
            "offline_relevance_margin": None,
        }
    )
