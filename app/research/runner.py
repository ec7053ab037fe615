"""Runs an investigation step by step until it finishes, is paused or cancelled, or fails.

Before each step the runner re-reads the investigation from the graph and asks the supervisor
for the next step; the step prepares outside any transaction and commits in one (its writes and
its ``ResearchStep`` together, claimed by ordinal). So the graph is the only state: a process
that dies loses at most the step in flight, and ``resume`` (any process) continues from the last
committed step. A pause or cancel takes effect between steps; a step prepared while it happened
commits nothing.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Awaitable, Callable

from app.errors import AgentNotFound, CredenceError, InvestigationNotFound
from app.research import store
from app.research.models import Investigation, ResearchState, ResearchStep
from app.research.services import ResearchServices, StepPlan
from app.research.steps import judge, propose, resolve, search, synthesize
from app.research.supervisor import NextStep, next_step

log = logging.getLogger(__name__)

StepListener = Callable[[ResearchStep], Awaitable[None]]


async def _prepare(services: ResearchServices, state: ResearchState, step: NextStep) -> StepPlan:
    if step.kind == "supervisor":
        return await propose.prepare(services, state)
    if step.kind == "search" and step.hypothesis_id is not None:
        return await search.prepare(services, state, step.hypothesis_id)
    if step.kind == "judge":
        return await judge.prepare(services, state)
    if step.kind == "resolve" and step.conflict_id is not None:
        return await resolve.prepare(services, state, step.conflict_id)
    return await synthesize.prepare(services, state)


async def run_step(
    services: ResearchServices, agent_id: str, investigation_id: str
) -> ResearchStep | None:
    """Takes the next step, if the investigation is running.

    Returns:
        The committed step, or None when there is nothing to do (not running) or the step was
        not committed because the status or ordinal changed while it was prepared.
    """
    state = await store.load_state(services.graph, agent_id, investigation_id)
    decision = next_step(state, services.research)
    if decision is None:
        return None
    started_at = services.graph.clock.now()
    begun = time.perf_counter()
    plan = await _prepare(services, state, decision)
    record = store.StepRecord(
        id=str(uuid.uuid4()),
        ordinal=state.investigation.iteration,
        kind=plan.kind,
        started_at=started_at,
        duration_ms=(time.perf_counter() - begun) * 1000,
        summary=plan.summary,
        model_calls=plan.tally.calls,
        input_tokens=plan.tally.input_tokens,
        output_tokens=plan.tally.output_tokens,
        reasoners=plan.tally.reasoners,
        details={"why": decision.why, **plan.details},
    )
    committed = await store.commit_step(
        services.graph, agent_id, investigation_id, record, plan.write
    )
    if committed is not None and plan.after_commit is not None:
        try:
            await plan.after_commit()
        except CredenceError as error:
            # The step has committed; what follows it (revision, embedding) is retried by the
            # agent's next write or revision, so it must not fail the investigation.
            log.warning("after %s step of %s: %s", plan.kind, investigation_id, error.message)
    return committed


async def run_investigation(
    services: ResearchServices,
    agent_id: str,
    investigation_id: str,
    on_step: StepListener | None = None,
) -> Investigation:
    """Runs the investigation until it is no longer running.

    Args:
        on_step: called after each committed step (streaming, progress).

    Returns:
        The investigation as it stands at the end (finished, paused, cancelled or failed).

    Raises:
        AgentNotFound: the agent is being deleted (or is gone): nothing more can be written to
            it, not even the investigation's failure, so it ends where it stands.
        InvestigationNotFound: no such investigation of this agent (a deleted agent's is gone).
    """
    while True:
        try:
            step = await run_step(services, agent_id, investigation_id)
        except (AgentNotFound, InvestigationNotFound):
            raise
        except CredenceError as error:
            await _fail(services, agent_id, investigation_id, error.message)
            break
        except Exception as error:
            log.exception("investigation %s failed", investigation_id)
            await _fail(services, agent_id, investigation_id, f"{type(error).__name__}: {error}")
            break
        if step is None:
            investigation = await store.get_investigation(
                services.graph, agent_id, investigation_id
            )
            if investigation.status != "running":
                return investigation
            continue  # the step lost a race (another runner took its ordinal): read again
        if on_step is not None:
            await on_step(step)
    return await store.get_investigation(services.graph, agent_id, investigation_id)


async def _fail(services: ResearchServices, agent_id: str, investigation_id: str, why: str) -> None:
    log.warning("investigation %s failed: %s", investigation_id, why)
    await store.change_status(
        services.graph, agent_id, investigation_id, ["running"], "failed", error=why[:2000]
    )
