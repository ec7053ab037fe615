"""What an investigation's steps need from the process: the graph, the reasoner, embeddings, the
settings of the packages it writes into, and the sources it may search."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from app.beliefs.mechanics import Mechanics
from app.embeddings.embedder import Embedder
from app.graph.client import GraphClient, Transaction
from app.loop.settings import LoopSettings
from app.reasoning.protocol import Judgement, Reasoner
from app.research.models import StepKind
from app.research.settings import ResearchSettings
from app.research.sources.registry import SourceRegistry
from app.retrieval.settings import RetrievalSettings


@dataclass(frozen=True, slots=True)
class ResearchServices:
    graph: GraphClient
    reasoner: Reasoner
    embedder: Embedder
    mechanics: Mechanics
    loop: LoopSettings
    retrieval: RetrievalSettings
    research: ResearchSettings
    # The registered sources; an investigation searches those it names (all by default).
    sources: SourceRegistry


@dataclass(slots=True)
class Tally:
    """The reasoner calls a step made and what they cost."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    reasoners: list[str] = field(default_factory=list)

    def count(self, answer: Judgement) -> None:
        self.calls += 1
        if answer.reasoner not in self.reasoners:
            self.reasoners.append(answer.reasoner)
        if answer.usage is not None:
            self.input_tokens += answer.usage.input_tokens
            self.output_tokens += answer.usage.output_tokens


@dataclass(slots=True)
class StepPlan:
    """A step prepared outside any transaction (searches and reasoner calls done): what it
    writes, and what it does after its transaction has committed."""

    kind: StepKind
    summary: str
    write: Callable[[Transaction, str], Awaitable[None]]
    tally: Tally = field(default_factory=Tally)
    details: dict[str, Any] = field(default_factory=dict)
    after_commit: Callable[[], Awaitable[None]] | None = None
