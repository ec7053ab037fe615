"""``credence identity``: the agent's identity document, generated from the graph."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markdown import Markdown

from app.agents.identity import IdentityDocument, read_identity
from app.cli.common import AgentOption, agent_id_of, console, run_with_graph
from app.graph.client import GraphClient


def identity_command(
    agent: AgentOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
    raw: Annotated[bool, typer.Option("--raw", help="Print the markdown as it is")] = False,
) -> None:
    """Print the agent's identity document (the system prompt of its Claude calls)."""
    agent_id = agent_id_of(agent)

    async def work(graph: GraphClient) -> IdentityDocument:
        return await read_identity(graph, agent_id)

    document = run_with_graph(work)
    if as_json:
        print(document.model_dump_json(indent=2))  # noqa: T201 - plain JSON on stdout
    elif raw:
        print(document.markdown, end="")  # noqa: T201 - the markdown on stdout
    else:
        console.print(Markdown(document.markdown))
