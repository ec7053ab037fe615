"""The supervisor's first step: the hypotheses an investigation tests, proposed from its question
by the reasoner (the offline reasoner takes the question itself as the one hypothesis)."""

from __future__ import annotations

import uuid

from app.graph.client import Transaction
from app.reasoning.protocol import HypothesesRequest
from app.research.models import ResearchState
from app.research.services import ResearchServices, StepPlan, Tally


async def prepare(services: ResearchServices, state: ResearchState) -> StepPlan:
    """Proposes the hypotheses (deduplicated, at most ``max_hypotheses``) and embeds them."""
    tally = Tally()
    answer = await services.reasoner.propose_hypotheses(
        HypothesesRequest(
            question=state.investigation.question,
            max_hypotheses=services.research.max_hypotheses,
        )
    )
    tally.count(answer)
    statements: list[str] = []
    for statement in answer.hypotheses:
        statement = " ".join(statement.split())
        if statement and statement.lower() not in {s.lower() for s in statements}:
            statements.append(statement[:2000])
    statements = statements[: services.research.max_hypotheses]
    vectors = await services.embedder.embed(statements) if services.embedder.available else None
    hypotheses = [
        {
            "id": str(uuid.uuid4()),
            "ordinal": ordinal,
            "statement": statement,
            "embedding": list(vectors[ordinal]) if vectors is not None else None,
        }
        for ordinal, statement in enumerate(statements)
    ]

    async def write(tx: Transaction, step_id: str) -> None:
        await tx.run(
            "research/steps/add_hypotheses",
            agent_id=state.investigation.agent_id,
            investigation_id=state.investigation.id,
            hypotheses=hypotheses,
            step_id=step_id,
            embedding_model=services.embedder.model_id,
        )

    return StepPlan(
        kind="supervisor",
        summary=f"proposed {len(hypotheses)} hypothesis(es): "
        + "; ".join(f"“{h['statement']}”" for h in hypotheses),
        write=write,
        tally=tally,
        details={"hypotheses": [h["statement"] for h in hypotheses]},
    )
