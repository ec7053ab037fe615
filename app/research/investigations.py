"""Research mode's service functions: start, list, read, pause, resume and cancel
investigations, and read their reports. Routes and the CLI call these."""

from __future__ import annotations

import uuid

from app.errors import InvalidInput, InvestigationStateConflict
from app.graph.agent_scope import require_agent
from app.research import store
from app.research.models import Investigation, InvestigationDetail, InvestigationPage
from app.research.services import ResearchServices
from app.research.tasks import InvestigationTasks

# The longest question an investigation takes (the API's bound too).
MAX_QUESTION_CHARS = 2000


async def start_investigation(
    services: ResearchServices,
    tasks: InvestigationTasks | None,
    agent_id: str,
    question: str,
    *,
    iteration_cap: int | None = None,
    sources: list[str] | None = None,
    started_by: str = "api",
) -> Investigation:
    """Creates a running investigation and, given a task registry, starts it in the background.

    Args:
        tasks: where to run it; None leaves it to the caller (the CLI runs it in the foreground).
        iteration_cap: steps before it must synthesize (the settings' default when None).
        sources: names of registered sources to search (all when None or empty).

    Raises:
        AgentNotFound: no such agent.
        InvalidInput: the question is blank or longer than 2,000 characters.
        UnknownResearchSource: a named source is not registered.
    """
    question = question.strip()
    if not question or len(question) > MAX_QUESTION_CHARS:
        reason = "must not be blank" if not question else f"at most {MAX_QUESTION_CHARS} characters"
        raise InvalidInput(
            f"invalid question: {reason}",
            errors=[{"location": ["question"], "message": reason, "type": "value_error"}],
        )
    services.sources.select(sources)  # every name must be registered
    investigation = await store.create_investigation(
        services.graph,
        agent_id,
        {
            "id": str(uuid.uuid4()),
            "question": question,
            "iteration_cap": iteration_cap or services.research.default_iteration_cap,
            "started_by": started_by,
            "sources": list(dict.fromkeys(sources or [])),
        },
    )
    if tasks is not None:
        tasks.ensure_running(services, agent_id, investigation.id)
    return investigation


async def pause_investigation(
    services: ResearchServices, agent_id: str, investigation_id: str
) -> Investigation:
    """Pauses a running investigation (it stops after the step in flight).

    Raises:
        InvestigationNotFound, InvestigationStateConflict (it is not running).
    """
    change = await store.change_status(
        services.graph, agent_id, investigation_id, ["running"], "paused"
    )
    if not change.changed:
        raise InvestigationStateConflict(investigation_id, "pause", change.old_status)
    return await store.get_investigation(services.graph, agent_id, investigation_id)


async def resume_investigation(
    services: ResearchServices,
    tasks: InvestigationTasks | None,
    agent_id: str,
    investigation_id: str,
) -> Investigation:
    """Resumes a paused or failed investigation, or one left running by a process that stopped,
    from its last committed step.

    A running investigation whose runner is alive in this process (``tasks``) is not resumed:
    that is a conflict. Only this process' runners are known (the CLI passes no registry, and a
    runner in another process leaves no trace but its steps): resuming one that another process
    runs is harmless, as steps are claimed by ordinal.

    Raises:
        InvestigationNotFound, InvestigationStateConflict (it finished or was cancelled, or it
        is running here).
    """
    allowed = ["paused", "failed"]
    if tasks is None or not tasks.running(investigation_id):
        allowed.append("running")
    change = await store.change_status(
        services.graph, agent_id, investigation_id, allowed, "running"
    )
    if not change.changed:
        raise InvestigationStateConflict(investigation_id, "resume", change.old_status)
    if tasks is not None:
        tasks.ensure_running(services, agent_id, investigation_id)
    return await store.get_investigation(services.graph, agent_id, investigation_id)


async def cancel_investigation(
    services: ResearchServices, agent_id: str, investigation_id: str
) -> Investigation:
    """Cancels a running, paused or failed investigation for good.

    Raises:
        InvestigationNotFound, InvestigationStateConflict (it already finished or was cancelled).
    """
    change = await store.change_status(
        services.graph, agent_id, investigation_id, ["running", "paused", "failed"], "cancelled"
    )
    if not change.changed:
        raise InvestigationStateConflict(investigation_id, "cancel", change.old_status)
    return await store.get_investigation(services.graph, agent_id, investigation_id)


async def get_investigation(
    services: ResearchServices, agent_id: str, investigation_id: str
) -> InvestigationDetail:
    """The investigation with its hypotheses, sources, evidence, conflicts and steps.

    Raises:
        InvestigationNotFound.
    """
    return await store.load_detail(services.graph, agent_id, investigation_id)


async def list_investigations(
    services: ResearchServices, agent_id: str, status: str | None, skip: int, limit: int
) -> InvestigationPage:
    """A page of the agent's investigations, newest first.

    Raises:
        AgentNotFound: no such agent (when it has no investigations).
    """
    page = await store.list_investigations(services.graph, agent_id, status, skip, limit)
    if page.count == 0:
        await require_agent(services.graph, agent_id)
    return page


async def get_report(
    services: ResearchServices, agent_id: str, investigation_id: str
) -> str | None:
    """The investigation's markdown report (None until it has synthesized).

    Raises:
        InvestigationNotFound.
    """
    detail = await store.load_detail(services.graph, agent_id, investigation_id)
    report = detail.investigation.report
    return None if report is None else report + failed_sources_note(detail)


def failed_sources_note(detail: InvestigationDetail) -> str:
    """A markdown section naming each source that failed in the investigation's searches, and
    why (``""`` when none did): an investigation whose sources failed may have found nothing
    only because of them, and an undecided verdict says so."""
    searches = [step for step in detail.steps if step.kind == "search"]
    failed: dict[str, tuple[int, str]] = {}
    for step in searches:
        for name, why in (step.details.get("failed_sources") or {}).items():
            failed[name] = (failed.get(name, (0, ""))[0] + 1, str(why))
    if not failed:
        return ""
    lines = ["", "## Sources that failed", ""]
    for name, (count, why) in failed.items():
        lines.append(f"- `{name}` failed in {count} of {len(searches)} search(es): {why}")
    if detail.investigation.verdict == "undecided":
        lines += ["", "The verdict is undecided while sources failed: it may be undecided only "
                  "because they could not be searched."]  # fmt: skip
    return "\n".join(lines) + "\n"
