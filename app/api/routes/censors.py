"""The guardian: an agent's censors (tier 1) and a check of any text against them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response, status
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from app.api.deps import AgentIdDep, GraphDep, ReasonerDep, SettingsDep
from app.api.openapi import ErrorResponse
from app.common import StrictUnit
from app.guardian import censors
from app.guardian.check import check, check_and_audit
from app.guardian.models import (
    Censor,
    CensorAction,
    CensorAdded,
    CensorCreate,
    CensorPage,
    CensorSource,
    Verdict,
)
from app.reasoning.protocol import WorkSpec

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["guardian"])

CensorId = Annotated[str, Path(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_:\-]+$")]


class ProposedWork(WorkSpec):
    """The work unit a check is given: its confidence a number, as every float of a request
    body (the reasoner's own answers stay lax)."""

    confidence: StrictUnit = 0.5


class GuardianCheck(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: Annotated[str, Field(min_length=1, max_length=100_000)]
    work_unit: ProposedWork | None = Field(
        default=None,
        description="the action proposed for the text: its description, verb and entities are "
        "checked too, and read for the high-risk kinds of the tier-3 audit",
    )
    audit: StrictBool = Field(
        default=False,
        description="also run the tier-3 audit against the agent's creed (the reasoner's "
        "judgement: Claude when a key is set), whether or not the text is high-risk",
    )


@router.get("/censors")
async def list_censors(
    graph: GraphDep,
    agent_id: AgentIdDep,
    action: Annotated[CensorAction | None, Query()] = None,
    source: Annotated[CensorSource | None, Query()] = None,
    include_inactive: Annotated[bool, Query()] = False,
) -> CensorPage:
    """List the censors the agent is checked against: shipped defaults, then stored ones."""
    return await censors.list_censors(
        graph, agent_id, action=action, source=source, include_inactive=include_inactive
    )


@router.post(
    "/censors",
    status_code=status.HTTP_201_CREATED,
    responses={
        200: {"model": CensorAdded, "description": "The same censor already exists."},
        409: {
            "model": ErrorResponse,
            "description": "A new pattern under a key the agent already has (a shipped "
            "default's, a pack censor's or another stored censor's): ``conflict`` naming the "
            "key; nothing written.",
        },
    },
)
async def add_censor(
    graph: GraphDep,
    settings: SettingsDep,
    agent_id: AgentIdDep,
    body: CensorCreate,
    response: Response,
) -> CensorAdded:
    """Add a censor (201); the same pattern already present answers 200 with that censor; a
    key the agent already has answers 409; a pattern that backtracks on adversarial probes
    answers 422."""
    added = await censors.add_censor(graph, agent_id, body, settings=settings.guardian)
    if added.status != "created":
        response.status_code = status.HTTP_200_OK
    return added


@router.get("/censors/{censor_id}")
async def read_censor(graph: GraphDep, agent_id: AgentIdDep, censor_id: CensorId) -> Censor:
    """One censor (a shipped default by its ``default:<key>`` id)."""
    return await censors.get_censor(graph, agent_id, censor_id)


@router.delete("/censors/{censor_id}")
async def remove_censor(graph: GraphDep, agent_id: AgentIdDep, censor_id: CensorId) -> Censor:
    """Remove (deactivate) a censor; absolute ones and shipped defaults answer 409."""
    return await censors.remove_censor(graph, agent_id, censor_id)


@router.post("/guardian/check")
async def check_text(
    graph: GraphDep,
    reasoner: ReasonerDep,
    settings: SettingsDep,
    agent_id: AgentIdDep,
    body: GuardianCheck,
) -> Verdict:
    """Check a text against the agent's censors: allow / warn / block / absolute, and why;
    with ``audit: true`` also audit it against the creed (reason, violations, recommendation)."""
    if body.audit:
        return await check_and_audit(
            graph,
            reasoner,
            agent_id,
            body.text,
            settings=settings.guardian,
            work_unit=body.work_unit,
        )
    return await check(
        graph, agent_id, body.text, settings=settings.guardian, work_unit=body.work_unit
    )
