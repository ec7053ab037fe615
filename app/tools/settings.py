"""Settings of connected MCP servers and their tools (``CREDENCE_TOOLS__*``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from app.common import Unit

Seconds = Annotated[float, Field(gt=0.0, le=3600.0)]


class ToolSettings(BaseModel):
    """Connected MCP servers and their tools (``CREDENCE_TOOLS__*``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    # A server that does not answer in time is a failed execution with a clear message: starting
    # (spawn + initialize), listing its tools and each call have their own limit.
    start_timeout_s: Seconds = 30.0
    """Seconds a server may take to start (spawn and initialize)."""
    list_timeout_s: Seconds = 15.0
    """Seconds a server may take to list its tools."""
    call_timeout_s: Seconds = 30.0
    """Seconds one tool call may take."""
    # A call that runs is recorded while it runs (its decision and Action, ``running``), and
    # what came of it is written with its memory right after the answer: the answer waits for
    # no commit after the tool returns. A process that stops in between leaves the Action
    # ``interrupted`` (the outcome unknown). True loses nothing, for one more commit before each
    # answer (bench/README.md, "Tool calls", run L: 2-3 ms a call for a trivial tool, the
    # record's whole write for a slower one).
    outcome_before_answer: bool = False
    """Write a call's outcome before the answer instead of right after it."""
    result_summary_chars: Annotated[int, Field(ge=100, le=100_000)] = 2000
    """Characters of a call's result kept on its Action node and shown to the verifier."""
    # Its strength decides supervision (proposal below 0.7), and each outcome of a call moves it.
    initial_strength: Unit = 0.5
    """The strength of the belief the agent forms about each tool it discovers (that it does
    what is asked of it when called)."""
    # Chosen in bench/tool_routing_threshold.py: requests for a tool scored 0.32-0.80 against
    # its description, ordinary messages at most 0.29; 0.45 keeps a margin above the latter.
    route_similarity: Unit = 0.45
    """A chat message without the `call` syntax is routed offline to the tool whose description
    is at least this close to it (cosine)."""
    route_embedding_model: str = "all-minilm-l6-v2"
    """The embedding model of the offline route's cosine, the one its threshold was chosen on:
    e5-small-v2 separated requests from ordinary messages worse (bench/tool_routing_threshold.py,
    bench/README.md). Empty: the running model's (then the vectors stored on the tools)."""
    # MCP's destructiveHint, which the protocol presumes for a tool that does not say it is
    # read-only.
    destructive_min_successes: Annotated[int, Field(ge=0, le=1000)] = 3
    """A destructive tool never runs autonomously before this many confirmed successes."""
    # Created at API start when missing; the secret values it holds stay in the process, never
    # in the graph.
    connections_file: Path | None = Field(default=None, examples=["/etc/credence/connections.yaml"])
    """A YAML file of the deployment's tool connections (unset: none)."""
    # Whoever may write an agent's connections may start processes on this host (a stdio server
    # is a command).
    stdio_commands: list[str] | None = Field(
        default=None, examples=[[".venv-mcp/bin/mcp-server-sqlite"]]
    )
    """The only commands a stdio connection may run, as given (unset: any)."""
