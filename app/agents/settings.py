"""Enrichment at birth through a directory server (``CREDENCE_ENRICHMENT__*``, docs/packs.md §4)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

EnrichmentTransport = Literal["stdio", "http"]


class EnrichmentSettings(BaseModel):
    """The people-search (directory) MCP server a birth with ``enrich: true`` asks, when the
    request names none (``CREDENCE_ENRICHMENT__*``; unset: no provider, and ``enrich: true``
    is refused with 422)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    transport: EnrichmentTransport = "stdio"
    """How to reach the directory server: stdio (command, args) or http (url)."""
    command: Annotated[str | None, Field(min_length=1)] = Field(
        default=None, examples=[".venv-mcp/bin/people-directory"]
    )
    """The stdio directory server's command (unset, with no url: no enrichment provider)."""
    args: list[str] = Field(default_factory=list)
    """The stdio server's arguments, as a JSON list."""
    cwd: str | None = Field(default=None, examples=["/srv/directory"])
    """The stdio server's working directory (unset: the API's)."""
    url: Annotated[str | None, Field(pattern=r"^https?://")] = Field(
        default=None, examples=["https://directory.example/mcp"]
    )
    """The streamable-HTTP directory server's URL (with transport http)."""
    # Values are secrets: kept in the process, never written to the graph or the logs.
    env: dict[str, str] = Field(default_factory=dict, examples=[{"DIRECTORY_API_KEY": "change-me"}])
    """The stdio server's environment, as JSON (an API key of the people-search service)."""
    headers: dict[str, str] = Field(
        default_factory=dict, examples=[{"Authorization": "Bearer change-me"}]
    )
    """The HTTP server's headers, as JSON (an Authorization header)."""
    tool: Annotated[str, Field(min_length=1, max_length=128)] = "lookup_person"
    """The directory's tool a birth calls with the principal's email, name and company."""
    # Start, listing and the call together: a birth waits no longer on a slow directory.
    timeout_s: Annotated[float, Field(gt=0.0, le=600.0)] = 20.0
    """Seconds the whole enrichment may take (start, list, call); past it the birth is a 504
    enrichment_timed_out and nothing is written."""

    @property
    def configured(self) -> bool:
        return self.command is not None if self.transport == "stdio" else self.url is not None
