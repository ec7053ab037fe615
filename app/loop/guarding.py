"""The guardian as the loop uses it: tier 1 on the request and on the proposed action, the
high-risk kinds that call for the tier-3 audit, and the creed that audit reads."""

from __future__ import annotations

from app.graph.client import GraphClient
from app.guardian.audit import creed_for, high_risk_kinds
from app.guardian.check import Censors, evaluate_soon, load_censors
from app.guardian.settings import GuardianSettings
from app.loop.models import GuardianReport


def refuses(report: GuardianReport) -> bool:
    """Whether the guardian's word stops the turn from acting (a block or absolute censor, or
    a failed audit); a warning does not."""
    return report.action in ("block", "absolute")


class Guard:
    def __init__(self, graph: GraphClient, settings: GuardianSettings) -> None:
        self._graph = graph
        self._settings = settings

    async def censors(self, agent_id: str) -> Censors:
        """The agent's tier-1 censors, read once for every text of a turn.

        Raises:
            AgentNotFound.
        """
        return await load_censors(self._graph, agent_id)

    async def check(
        self, agent_id: str, text: str, censors: Censors | None = None
    ) -> GuardianReport:
        """Tier 1 (the shipped defaults and the agent's censors) on ``text``; ``censors`` as
        :meth:`censors` returned them, or None to read them now.

        Raises:
            AgentNotFound.
        """
        censors = censors or await self.censors(agent_id)
        verdict = await evaluate_soon(text, censors.rules, self._settings.check_timeout_seconds)
        verdict.skipped_invalid.extend(censors.malformed)
        return GuardianReport(
            action=verdict.action,
            reason=verdict.reason if verdict.matches or verdict.timed_out else None,
            matches=[match.model_dump() for match in verdict.matches],
            timed_out=verdict.timed_out,
        )

    def high_risk_kinds(self, text: str) -> list[str]:
        return high_risk_kinds(text, self._settings)

    async def creed(self, agent_id: str) -> list[str]:
        """The terminal creed, then the active ethical core beliefs."""
        return await creed_for(self._graph, agent_id)
