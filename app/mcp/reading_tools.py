"""The MCP tools that read: recall, beliefs and why they are held, approvals, analytics."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from app.agents import overview as overviews
from app.agents import store as agent_store
from app.agents.models import AgentPage
from app.agents.overview import AgentOverview
from app.beliefs import explain as explanations
from app.beliefs import store
from app.beliefs.analytics import runner
from app.beliefs.analytics.models import AnalyticsList, AnalyticsResult
from app.beliefs.explain import MAX_DEPTH, BeliefExplanation
from app.beliefs.models import BeliefPage
from app.beliefs.replay import ConsistencyReport, check_consistency
from app.common import MAX_SKIP
from app.errors import CredenceError
from app.loop import approvals
from app.loop.models import ApprovalsPublic, ApprovalStatus
from app.mcp.access import access_of
from app.mcp.errors import error_text
from app.mcp.tool_calls import AgentArg, BeliefArg, ContextArg, ToolCalls
from app.retrieval.models import (
    DEFAULT_K,
    K_DESCRIPTION,
    MAX_BUDGET_TOKENS,
    MAX_QUERY_CHARS,
    MIN_BUDGET_TOKENS,
    ContextRequest,
    Mode,
    SectionName,
)
from app.retrieval.models import Context as RetrievedContext


class ReadingTools(ToolCalls):
    """Tools that change nothing in the graph (annotated read-only)."""

    async def list_agents(
        self,
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        skip: Annotated[int, Field(ge=0, le=MAX_SKIP)] = 0,
    ) -> AgentPage:
        """The agents you can use (newest first), with their active beliefs and episodes."""
        try:
            access = access_of(ctx.request_context.request)
            visible = access.visible if access is not None else None
            return await agent_store.list_agents(self.services().graph, visible, skip, limit)
        except CredenceError as error:
            raise ToolError(error_text(error)) from error

    async def get_context(
        self,
        ctx: Context,
        query: Annotated[
            str, Field(min_length=1, max_length=MAX_QUERY_CHARS, description="What to recall")
        ],
        k: Annotated[int, Field(ge=1, le=100, description=K_DESCRIPTION)] = DEFAULT_K,
        sections: list[SectionName] | None = None,
        mode: Annotated[Mode, Field(description="fused, vector only or fulltext only")] = "fused",
        budget_tokens: Annotated[
            int | None,
            Field(
                ge=MIN_BUDGET_TOKENS,
                le=MAX_BUDGET_TOKENS,
                description="The token budget shared by the sections (default: the frame's)",
            ),
        ] = None,
        agent_id: AgentArg = None,
    ) -> RetrievedContext:
        """What the agent knows that bears on a query: relevant beliefs (with their open
        contradictions), episodes, rules, people, working memory, research conflicts and past
        decisions (each with its line ``- [outcome] description (confidence: c)``), fused from
        vector and keyword search, within the frame's token budget; ``sections``: only these."""
        chosen: dict[str, Any] = {"sections": sections} if sections else {}
        request = self.build(
            ContextRequest, q=query, k=k, mode=mode, budget_tokens=budget_tokens, **chosen
        )
        return await self.run(
            ctx,
            agent_id,
            lambda s, agent: s.runtime.retrieval.context(agent, request),
        )

    async def search_beliefs(
        self,
        ctx: Context,
        query: Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS)],
        k: Annotated[int, Field(ge=1, le=100)] = 10,
        agent_id: AgentArg = None,
    ) -> RetrievedContext:
        """The agent's beliefs most relevant to a query (by meaning and by words), each with
        its strength, tension, score and open contradictions."""
        request = self.build(ContextRequest, q=query, k=k, sections=["beliefs"])
        return await self.run(
            ctx,
            agent_id,
            lambda s, agent: s.runtime.retrieval.context(agent, request),
        )

    async def list_beliefs(
        self,
        ctx: Context,
        text: Annotated[str | None, Field(min_length=1, max_length=200)] = None,
        min_tension: Annotated[float | None, Field(ge=0, le=1)] = None,
        sort: Literal["newest", "tension"] = "newest",
        active: bool = True,
        needing_attention: bool = False,
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        skip: Annotated[int, Field(ge=0, le=MAX_SKIP)] = 0,
        agent_id: AgentArg = None,
    ) -> BeliefPage:
        """The agent's beliefs filtered by words in the statement and tension, newest or most
        tense first; needing_attention: only the invalidated ones (below their category's
        threshold)."""
        return await self.run(
            ctx,
            agent_id,
            lambda s, agent: store.list_beliefs(
                s.graph,
                agent,
                active=active,
                min_tension=min_tension,
                text=text,
                invalidated=True if needing_attention else None,
                sort=sort,
                skip=skip,
                limit=limit,
            ),
        )

    async def explain_belief(
        self,
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
        return await self.run(
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

    async def list_approvals(
        self,
        ctx: Context,
        status: ApprovalStatus | None = "pending",
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        agent_id: AgentArg = None,
    ) -> ApprovalsPublic:
        """The agent's approvals waiting for a person (or those of another status)."""
        return await self.run(
            ctx,
            agent_id,
            lambda s, agent: approvals.list_approvals(s.graph, agent, status, limit),
        )

    async def list_analytics(self) -> AnalyticsList:
        """The analytics queries on revisions and tension, with their parameters and columns
        (run one with run_analytics)."""
        return runner.list_analytics(self.services().graph.catalog)

    async def run_analytics(
        self,
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
        return await self.run(
            ctx, agent_id, lambda s, agent: runner.run_analytics(s.graph, agent, name, values)
        )

    async def replay_beliefs(self, ctx: Context, agent_id: AgentArg = None) -> ConsistencyReport:
        """Rebuild every belief from the agent's event log alone and compare with the graph:
        whether the log explains every belief, and each difference."""
        return await self.run(
            ctx,
            agent_id,
            lambda s, agent: check_consistency(s.graph, s.settings.mechanics, agent),
        )

    async def agent_overview(
        self,
        ctx: Context,
        top: Annotated[int, Field(ge=1, le=50)] = 5,
        agent_id: AgentArg = None,
    ) -> AgentOverview:
        """The agent at a glance: its dissatisfaction (and the beliefs behind it), its most
        tense beliefs and its latest revisions."""
        return await self.run(
            ctx,
            agent_id,
            lambda s, agent: overviews.agent_overview(s.graph, s.settings.mechanics, agent, top),
        )
