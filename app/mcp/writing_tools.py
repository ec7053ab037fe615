"""The MCP tools that write: evidence, outcomes, episodes, a chat turn, answering approvals."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import Context
from pydantic import Field

from app.beliefs import updates, writes
from app.beliefs.formulas import MoralValence, Outcome
from app.beliefs.models import (
    EvidenceForBelief,
    EvidenceKind,
    EvidenceOutcome,
    OutcomeIn,
    OutcomeResult,
    Stance,
)
from app.loop.models import ApprovalAnswer, ChatRequest, TurnResult
from app.loop.resume_turn import resume_approval
from app.loop.turn import run_turn
from app.mcp.tool_calls import AgentArg, BeliefArg, ContextArg, ToolCalls
from app.memory import episodes as episode_store
from app.memory.episodes import MAX_BATCH, EpisodeBatch, EpisodeIn, ImportReport
from app.reasoning.protocol import WorkUnit


class WritingTools(ToolCalls):
    """Tools that teach the agent or act through it (annotated as writing, not destructive)."""

    async def record_evidence(
        self,
        ctx: Context,
        belief_id: BeliefArg,
        text: Annotated[str, Field(min_length=1, max_length=2000)],
        stance: Stance,
        kind: EvidenceKind = "factual",
        confidence: Annotated[float, Field(ge=0, le=1)] = 1.0,
        source_person_id: Annotated[str | None, Field(max_length=64)] = None,
        episode_id: Annotated[str | None, Field(max_length=64)] = None,
        agent_id: AgentArg = None,
    ) -> EvidenceOutcome:
        """Give the agent evidence on a belief: reinforcing raises its strength, contradicting
        adds tension (propagated to what it supports); a belief reaching tension 0.7 is revised.
        Answers the changes and any revision."""
        item = self.build(
            EvidenceForBelief,
            belief_id=belief_id,
            text=text,
            stance=stance,
            confidence=confidence,
            source_person_id=source_person_id,
            episode_id=episode_id,
            kind=kind,
        )
        return await self.run(
            ctx,
            agent_id,
            lambda s, agent: writes.record_evidence(
                s.graph, s.settings.mechanics, s.reasoner, s.embedder, agent, [item]
            ),
        )

    async def record_outcome(
        self,
        ctx: Context,
        belief_id: BeliefArg,
        outcome: Outcome,
        moral_valence: MoralValence = "neutral",
        severity: Annotated[float, Field(ge=0, le=1)] = 0.5,
        context: ContextArg = None,
        agent_id: AgentArg = None,
    ) -> OutcomeResult:
        """Tell the agent how acting on a belief turned out; its strength moves (a violation
        of an ethical belief far more than a success), in a context when one is named."""
        body = self.build(
            OutcomeIn,
            outcome=outcome,
            moral_valence=moral_valence,
            severity=severity,
            context=context,
        )
        return await self.run(
            ctx,
            agent_id,
            lambda s, agent: updates.apply_outcome(
                s.graph, s.settings.mechanics, agent, belief_id, body
            ),
        )

    async def import_episodes(
        self,
        ctx: Context,
        episodes: Annotated[list[EpisodeIn], Field(min_length=1, max_length=MAX_BATCH)],
        end_sessions: bool = False,
        agent_id: AgentArg = None,
    ) -> ImportReport:
        """Import conversation turns as episodes (all or nothing; idempotent on external_id);
        speakers new to the agent are born as people. One call takes at most 1,000 episodes and
        1,000,000 characters of speaker, text, user_message and response in all: split a larger
        log into several calls."""
        batch = self.build(EpisodeBatch, episodes=episodes, end_sessions=end_sessions)
        return await self.run(
            ctx,
            agent_id,
            lambda s, agent: episode_store.import_episodes(
                s.graph, s.embedder, s.settings.retrieval, agent, batch, memory=s.settings.memory
            ),
        )

    async def chat(
        self,
        ctx: Context,
        message: Annotated[str, Field(min_length=1, max_length=8000)],
        speaker: Annotated[str | None, Field(min_length=1, max_length=200)] = None,
        session: Annotated[str | None, Field(min_length=1, max_length=200)] = None,
        context: ContextArg = None,
        agent_id: AgentArg = None,
    ) -> TurnResult:
        """One turn of the agent's cognitive loop: it appraises the message, learns from it
        (tension, revisions), decides how much autonomy it has, and answers; a guidance or
        proposal turn leaves an approval to answer with answer_approval."""
        request = self.build(
            ChatRequest, message=message, speaker=speaker, session=session, context=context
        )
        return await self.run(ctx, agent_id, lambda s, agent: run_turn(s.loop(), agent, request))

    async def answer_approval(
        self,
        ctx: Context,
        approval_id: Annotated[str, Field(min_length=1, max_length=64)],
        action: Literal["approve", "reject", "modify", "answer"],
        text: Annotated[str | None, Field(max_length=8000)] = None,
        work_unit: WorkUnit | None = None,
        speaker: Annotated[str | None, Field(min_length=1, max_length=200)] = None,
        agent_id: AgentArg = None,
    ) -> TurnResult:
        """Approve, reject (with a reason), modify (with a work unit) or answer (with text) a
        pending approval; the paused turn resumes and its result comes back."""
        answer = self.build(
            ApprovalAnswer, action=action, text=text, work_unit=work_unit, speaker=speaker
        )
        return await self.run(
            ctx,
            agent_id,
            lambda s, agent: resume_approval(s.loop(), agent, approval_id, answer),
        )
