"""Rules: heuristics with a confidence that decays while they go unvalidated."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, status

from app.api.deps import AgentIdDep, EmbedderDep, GraphDep, SettingsDep, SkipQuery
from app.memory import rules
from app.memory.rules import Rule, RuleCreate, RulePage

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["rules"])

RuleId = Annotated[str, Path(min_length=1, max_length=64)]


@router.get("/rules")
async def list_rules(
    graph: GraphDep,
    settings: SettingsDep,
    agent_id: AgentIdDep,
    trigger_concept: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    min_effective_confidence: Annotated[float | None, Query(ge=0, le=1)] = None,
    skip: SkipQuery = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> RulePage:
    """List rules by effective (decayed) confidence, highest first."""
    return await rules.list_rules(
        graph,
        agent_id,
        trigger_concept=trigger_concept,
        min_effective_confidence=min_effective_confidence,
        skip=skip,
        limit=limit,
        mechanics=settings.memory,
    )


@router.post("/rules", status_code=status.HTTP_201_CREATED)
async def create_rule(
    graph: GraphDep,
    settings: SettingsDep,
    embedder: EmbedderDep,
    agent_id: AgentIdDep,
    body: RuleCreate,
) -> Rule:
    """Create a rule (embedded when embeddings are available)."""
    return await rules.create_rule(graph, agent_id, body, embedder, mechanics=settings.memory)


@router.get("/rules/{rule_id}")
async def read_rule(
    graph: GraphDep, settings: SettingsDep, agent_id: AgentIdDep, rule_id: RuleId
) -> Rule:
    """One rule with its effective confidence."""
    return await rules.get_rule(graph, agent_id, rule_id, mechanics=settings.memory)


@router.post("/rules/{rule_id}/validate")
async def validate_rule(
    graph: GraphDep, settings: SettingsDep, agent_id: AgentIdDep, rule_id: RuleId
) -> Rule:
    """Record that the rule held again (count + 1; the decay clock restarts)."""
    return await rules.validate_rule(graph, agent_id, rule_id, mechanics=settings.memory)
