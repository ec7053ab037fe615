"""The MCP prompts: the two questions Credence is built to answer well.

Each prompt's arguments have a model (``PROMPT_ARGUMENTS``) that ``arguments.ArgumentCheck``
checks them against, with REST's bounds: a topic is at most what ``/context`` takes as a query.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, ConfigDict, Field

from app.mcp.tool_calls import AgentArg
from app.retrieval.models import MAX_QUERY_CHARS

TopicArg = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        description="The claim or topic, in your own words",
    ),
]


class ExplainWhyArguments(BaseModel):
    model_config = ConfigDict(extra="forbid")

    topic: TopicArg
    agent_id: AgentArg = None


class ReviewTensionsArguments(BaseModel):
    model_config = ConfigDict(extra="forbid")

    agent_id: AgentArg = None


PROMPT_ARGUMENTS: dict[str, type[BaseModel]] = {
    "explain_why": ExplainWhyArguments,
    "review_tensions": ReviewTensionsArguments,
}


def register_prompts(server: MCPServer) -> None:
    @server.prompt(name="explain_why", title="Explain why you believe…")
    def explain_why(topic: TopicArg, agent_id: AgentArg = None) -> str:
        """Why the agent believes something: find the belief, then explain it."""
        agent = f" (agent_id {agent_id})" if agent_id else ""
        return (
            f"Explain why you believe this: {topic}\n\n"
            f"Use your Credence memory{agent}. First call search_beliefs with the topic to find "
            "the belief that matches it best. Then call explain_belief with its id. Answer in "
            "plain words: what you believe and how strongly; what supports it (the chain, with "
            "its weights); the evidence for and against it and who it came from; any open "
            "contradiction; and, if it was revised, what you believed before and why it "
            "changed. Say so plainly if no belief matches."
        )

    @server.prompt(name="review_tensions", title="Review your open tensions")
    def review_tensions(agent_id: AgentArg = None) -> str:
        """Go through the agent's most tense beliefs and what could resolve them."""
        agent = f" (agent_id {agent_id})" if agent_id else ""
        return (
            f"Review your open tensions, using your Credence memory{agent}. Call agent_overview "
            "to see your dissatisfaction and your most tense beliefs. For the two or three most "
            "tense, call explain_belief and say: what the belief is, what evidence is pushing "
            "against it, which contradictions are open, and what evidence or question would "
            "settle it. End with the one question you would most like answered."
        )
