"""The MCP tools: each one a REST route's service call, named for what a model wants done.

Every tool takes an optional ``agent_id`` (see ``access.resolve_agent`` for the default) and
answers the service's own pydantic model, so its output schema is the REST response's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field, ValidationError

from app.agents import overview as overviews
from app.agents import store as agent_store
from app.agents.models import AgentPage
from app.agents.overview import AgentOverview
from app.beliefs import explain as explanations
from app.beliefs import store, updates, writes
from app.beliefs.analytics import runner
from app.beliefs.analytics.models import AnalyticsList, AnalyticsResult
from app.beliefs.explain import MAX_DEPTH, BeliefExplanation
from app.beliefs.formulas import MoralValence, Outcome
from app.beliefs.models import (
    BeliefPage,
    ContextName,
    EvidenceForBelief,
    EvidenceKind,
    EvidenceOutcome,
    OutcomeIn,
    OutcomeResult,
    Stance,
)
from app.errors import CredenceError
from app.loop import approvals
from app.loop.models import (
    ApprovalAnswer,
    ApprovalsPublic,
    ApprovalStatus,
    ChatRequest,
    TurnResult,
)
from app.loop.resume import resume_approval
from app.loop.turn import run_turn
from app.mcp.access import access_of, resolve_agent
from app.mcp.errors import error_text, invalid_input
from app.mcp.services import McpServices, ServicesProvider
from app.memory import episodes as episode_store
from app.memory.episodes import EpisodeBatch, EpisodeIn, ImportReport
from app.reasoning.protocol import WorkUnit
from app.retrieval.models import MAX_QUERY_CHARS, ContextRequest, SectionName
from app.retrieval.models import Context as RetrievedContext
from app.retrieval.sources import assemble_context

T = TypeVar("T")

AgentArg = Annotated[
    str | None,
    Field(
        default=None,
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="The agent (default: the API key's only agent, `credence mcp --agent`, "
        "or the default agent)",
    ),
]
BeliefArg = Annotated[str, Field(min_length=1, max_length=64, description="A belief id")]
ContextArg = Annotated[
    ContextName | None,
    Field(description="A context name such as month_end (falls back to its parents)"),
]
READ = ToolAnnotations(read_only_hint=True)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False)


def register_tools(server: MCPServer, services: ServicesProvider) -> None:
    """Adds every Credence tool to ``server``."""

    async def run(
        ctx: Context,
        agent_id: str | None,
        work: Callable[[McpServices, str], Awaitable[T]],
    ) -> T:
        """Resolves and checks the agent, runs the service call, and turns a Credence error
        into a tool error with REST's body."""
        try:
            current = services()
            agent = await resolve_agent(current, access_of(ctx.request_context.request), agent_id)
            return await work(current, agent)
        except CredenceError as error:
            raise ToolError(error_text(error)) from error

    def build(model: Callable[..., T], **fields: Any) -> T:
        """A service's input model from tool arguments (its validators run as over REST)."""
        try:
            return model(**fields)
        except ValidationError as error:
            raise ToolError(error_text(invalid_input(error))) from error

    @server.tool(annotations=READ)
    async def list_agents(
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        skip: Annotated[int, Field(ge=0)] = 0,
    ) -> AgentPage:
        """The agents you can use (newest first), with their active beliefs and episodes."""
        try:
            access = access_of(ctx.request_context.request)
            visible = access.visible if access is not None else None
            return await agent_store.list_agents(services().graph, visible, skip, limit)
        except CredenceError as error:
            raise ToolError(error_text(error)) from error

    @server.tool(annotations=READ)
    async def get_context(
        ctx: Context,
        query: Annotated[
            str, Field(min_length=1, max_length=MAX_QUERY_CHARS, description="What to recall")
        ],
        k: Annotated[int, Field(ge=1, le=100, description="Items per section")] = 10,
        sections: list[SectionName] | None = None,
        agent_id: AgentArg = None,
    ) -> RetrievedContext:
        """What the agent knows that bears on a query: relevant beliefs (with their open
        contradictions), episodes, rules, people and working memory, fused from vector and
        keyword search, within the frame's token budget."""
        chosen: dict[str, Any] = {"sections": sections} if sections else {}
        request = build(ContextRequest, q=query, k=k, **chosen)
        return await run(
            ctx,
            agent_id,
            lambda s, agent: assemble_context(
                s.graph, s.embedder, s.settings.retrieval, agent, request
            ),
        )

    @server.tool(annotations=READ)
    async def search_beliefs(
        ctx: Context,
        query: Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS)],
        k: Annotated[int, Field(ge=1, le=100)] = 10,
        agent_id: AgentArg = None,
    ) -> RetrievedContext:
        """The agent's beliefs most relevant to a query (by meaning and by words), each with
        its strength, tension, score and open contradictions."""
        request = build(ContextRequest, q=query, k=k, sections=["beliefs"])
        return await run(
            ctx,
            agent_id,
            lambda s, agent: assemble_context(
                s.graph, s.embedder, s.settings.retrieval, agent, request
            ),
        )

    @server.tool(annotations=READ)
    async def list_beliefs(
        ctx: Context,
        text: Annotated[str | None, Field(min_length=1, max_length=200)] = None,
        min_tension: Annotated[float | None, Field(ge=0, le=1)] = None,
        sort: Literal["newest", "tension"] = "newest",
        active: bool = True,
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        skip: Annotated[int, Field(ge=0)] = 0,
        agent_id: AgentArg = None,
    ) -> BeliefPage:
        """The agent's beliefs filtered by words in the statement and tension, newest or most
        tense first."""
        return await run(
            ctx,
            agent_id,
            lambda s, agent: store.list_beliefs(
                s.graph,
                agent,
                active=active,
                min_tension=min_tension,
                text=text,
                sort=sort,
                skip=skip,
                limit=limit,
            ),
        )

    @server.tool(annotations=READ)
    async def explain_belief(
        ctx: Context,
        belief_id: BeliefArg,
        context: ContextArg = None,
        depth: Annotated[int, Field(ge=1, le=MAX_DEPTH, description="SUPPORTS hops")] = 3,
        limit: Annotated[int, Field(ge=1, le=200)] = 20,
        agent_id: AgentArg = None,
    ) -> BeliefExplanation:
        """Why the agent holds a belief: a plain summary, then what supports it (the SUPPORTS
        chain with weights), the evidence for and against it with who or what it came from,
        its open contradictions, the revisions that made it, and its recent events."""
        return await run(
            ctx,
            agent_id,
            lambda s, agent: explanations.explain_belief(
                s.graph,
                s.settings.mechanics,
                agent,
                belief_id,
                context=context,
                depth=depth,
                limit=limit,
            ),
        )

    @server.tool(annotations=WRITE)
    async def record_evidence(
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
        item = build(
            EvidenceForBelief,
            belief_id=belief_id,
            text=text,
            stance=stance,
            confidence=confidence,
            source_person_id=source_person_id,
            episode_id=episode_id,
            kind=kind,
        )
        return await run(
            ctx,
            agent_id,
            lambda s, agent: writes.record_evidence(
                s.graph, s.settings.mechanics, s.reasoner, s.embedder, agent, [item]
            ),
        )

    @server.tool(annotations=WRITE)
    async def record_outcome(
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
        body = build(
            OutcomeIn,
            outcome=outcome,
            moral_valence=moral_valence,
            severity=severity,
            context=context,
        )
        return await run(
            ctx,
            agent_id,
            lambda s, agent: updates.apply_outcome(
                s.graph, s.settings.mechanics, agent, belief_id, body
            ),
        )

    @server.tool(annotations=WRITE)
    async def import_episodes(
        ctx: Context,
        episodes: Annotated[list[EpisodeIn], Field(min_length=1, max_length=1000)],
        end_sessions: bool = False,
        agent_id: AgentArg = None,
    ) -> ImportReport:
        """Import conversation turns as episodes (all or nothing; idempotent on external_id);
        speakers new to the agent are born as people."""
        batch = build(EpisodeBatch, episodes=episodes, end_sessions=end_sessions)
        return await run(
            ctx,
            agent_id,
            lambda s, agent: episode_store.import_episodes(
                s.graph, s.embedder, s.settings.retrieval, agent, batch, memory=s.settings.memory
            ),
        )

    @server.tool(annotations=WRITE)
    async def chat(
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
        request = build(
            ChatRequest, message=message, speaker=speaker, session=session, context=context
        )
        return await run(ctx, agent_id, lambda s, agent: run_turn(s.loop(), agent, request))

    @server.tool(annotations=READ)
    async def list_approvals(
        ctx: Context,
        status: ApprovalStatus | None = "pending",
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        agent_id: AgentArg = None,
    ) -> ApprovalsPublic:
        """The agent's approvals waiting for a person (or those of another status)."""
        return await run(
            ctx,
            agent_id,
            lambda s, agent: approvals.list_approvals(s.graph, agent, status, limit),
        )

    @server.tool(annotations=WRITE)
    async def answer_approval(
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
        answer = build(
            ApprovalAnswer, action=action, text=text, work_unit=work_unit, speaker=speaker
        )
        return await run(
            ctx,
            agent_id,
            lambda s, agent: resume_approval(s.loop(), agent, approval_id, answer),
        )

    @server.tool(annotations=READ)
    async def list_analytics() -> AnalyticsList:
        """The analytics queries on revisions and tension, with their parameters and columns
        (run one with run_analytics)."""
        return runner.list_analytics(services().graph.catalog)

    @server.tool(annotations=READ)
    async def run_analytics(
        ctx: Context,
        name: Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[a-z0-9_]+$")],
        params: dict[str, str | int | float | bool] | None = None,
        agent_id: AgentArg = None,
    ) -> AnalyticsResult:
        """Run one analytics query for the agent (parameters as list_analytics names them)."""
        values = {
            key: str(value).lower() if isinstance(value, bool) else str(value)
            for key, value in (params or {}).items()
        }
        return await run(
            ctx, agent_id, lambda s, agent: runner.run_analytics(s.graph, agent, name, values)
        )

    @server.tool(annotations=READ)
    async def agent_overview(
        ctx: Context,
        top: Annotated[int, Field(ge=1, le=50)] = 5,
        agent_id: AgentArg = None,
    ) -> AgentOverview:
        """The agent at a glance: its dissatisfaction (and the beliefs behind it), its most
        tense beliefs and its latest revisions."""
        return await run(
            ctx,
            agent_id,
            lambda s, agent: overviews.agent_overview(s.graph, s.settings.mechanics, agent, top),
        )
