"""A reflection's inputs and the plan of each cluster: its members, cohesion, the briefs the
reasoner sees, and (once the rule is known) its capability domain and knowledge gap."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from app.memory.capability_map import capability_for
from app.memory.reflection.clustering import central, cohesion
from app.memory.reflection.models import OUTCOME_KEYS, ReflectRequest
from app.memory.rules import RuleCreate
from app.memory.settings import MemoryMechanics, ReflectionSettings
from app.reasoning.protocol import AbstractedRule, EpisodeBrief


@dataclass(frozen=True)
class CandidateEpisode:
    id: str
    text: str
    outcome: str | None
    frame: str | None
    occurred_at: datetime
    # A chat turn counted its outcome in the capability when it happened; counting it again here
    # would double it.
    counted_by_turn: bool = False


@dataclass
class ClusterPlan:
    members: list[CandidateEpisode]
    cohesion: float
    briefs: list[EpisodeBrief]
    rule: RuleCreate | None = None
    abstracted: AbstractedRule | None = None
    embedding: list[float] | None = None
    domain: str = ""
    gap: str | None = None


@dataclass(frozen=True)
class Candidates:
    """The unconsolidated episodes a reflection looks at, oldest first, with their unit vectors
    and the counts of those it skipped."""

    episodes: list[CandidateEpisode]
    unit: np.ndarray
    skipped: dict[str, int]


@dataclass(frozen=True)
class ReflectionScope:
    """One reflection's fixed inputs, shared by its steps."""

    agent_id: str
    request: ReflectRequest
    settings: ReflectionSettings
    mechanics: MemoryMechanics
    at: datetime
    # The model the new rules' vectors are made with (app/embeddings/embedder.py model_id).
    embedding_model: str | None = None


def cluster_plans(
    candidates: Candidates, groups: list[list[int]], settings: ReflectionSettings
) -> list[ClusterPlan]:
    """One plan per cluster: its members, cohesion and the briefs of its most central episodes."""
    plans: list[ClusterPlan] = []
    for group in groups:
        vectors = candidates.unit[group]
        members = [candidates.episodes[i] for i in group]
        briefs = [
            EpisodeBrief(
                id=members[i].id,
                text=members[i].text[: settings.brief_chars],
                outcome=members[i].outcome,
                frame=members[i].frame,
            )
            for i in central(vectors, settings.max_briefs_per_cluster)
        ]
        plans.append(ClusterPlan(members=members, cohesion=cohesion(vectors), briefs=briefs))
    return plans


def outcome_counts(members: list[CandidateEpisode]) -> dict[str, int]:
    counts = Counter(m.outcome if m.outcome in OUTCOME_KEYS else "unknown" for m in members)
    return {key: counts.get(key, 0) for key in OUTCOME_KEYS}


def _concept_domain(concept: str) -> str:
    return " ".join(concept.split()).lower()[:120]


def domain_of(members: list[CandidateEpisode], concept: str, settings: ReflectionSettings) -> str:
    if settings.capability_domain == "frame":
        frames = Counter(m.frame for m in members if m.frame)
        if frames:
            # Most common; a tie goes to the alphabetically first frame. The capability is the
            # one a turn in that frame exercises (app/memory/capability_map.py).
            frame = min(frames, key=lambda frame: (-frames[frame], frame))
            return capability_for(None, frame) or frame
    return _concept_domain(concept)


def gap_of(counts: dict[str, int], concept: str, settings: ReflectionSettings) -> str | None:
    judged = counts["success"] + counts["failure"] + counts["partial"]
    if judged == 0 or counts["failure"] / judged <= settings.gap_failure_share:
        return None
    return f"{' '.join(concept.split())} (similar episodes mostly failed)"
