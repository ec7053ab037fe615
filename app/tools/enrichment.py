"""Enrichment at birth through a connected MCP tool (docs/packs.md §4): the
:class:`~app.agents.enrichment.EnrichmentProvider` that asks a directory (people-search) server,
through the process's MCP clients (app/tools/clients.py).

The server is the one the birth request names (``enrichment``), else the one the settings
configure (``CREDENCE_ENRICHMENT__*``). It is started for the birth, its tools listed, the tool
called once with the principal's email, name and company (those its input schema takes; a call
the schema still refuses, a tool that needs more, is not sent: the enrichment fails naming the
argument, as every call passes that check, app/reasoning/tool_arguments.py), and it is closed
again. The whole of it is bounded by one limit; a failure or a timeout is
:class:`~app.errors.EnrichmentFailed` (502) or :class:`~app.errors.EnrichmentTimedOut` (504).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pydantic import ValidationError

from app.agents.enrichment import DirectoryAnswer, first_problem
from app.agents.models import BirthProfile, EnrichmentSource
from app.agents.settings import EnrichmentSettings
from app.errors import (
    EnrichmentFailed,
    EnrichmentTimedOut,
    InvalidInput,
    ToolServerFailed,
    error_entry,
    validation_entries,
)
from app.reasoning.tool_arguments import schema_refusal
from app.tools.calls import result_text
from app.tools.clients import McpClients, ServerSpec
from app.tools.settings import ToolSettings

if TYPE_CHECKING:
    # Annotations only: the MCP SDK is imported where a server is reached (app/tools/clients.py).
    import mcp_types as types


class McpEnrichment:
    """Looks the principal up through one tool of a directory MCP server."""

    def __init__(self, clients: McpClients, spec: ServerSpec, tool: str, timeout_s: float):
        self.clients = clients
        self.spec = spec
        self.tool = tool
        self.timeout_s = timeout_s
        self.name = f"{spec.name}.{tool}"

    async def lookup(self, profile: BirthProfile) -> DirectoryAnswer:
        """The directory's answer about the principal.

        Raises:
            EnrichmentFailed: the server did not start, has no such tool, refuses the lookup's
                arguments by its input schema, answered an error or an answer that is not the
                directory's JSON.
            EnrichmentTimedOut: all of it took longer than the limit.
        """
        try:
            async with asyncio.timeout(self.timeout_s):
                result = await self._call(profile)
        except TimeoutError:
            raise EnrichmentTimedOut(
                self.name, f"no answer within {self.timeout_s:g} s (timed out)"
            ) from None
        except ToolServerFailed as error:
            raise EnrichmentFailed(self.name, error.message) from error
        finally:
            await self.clients.close(self.spec.key)
        return directory_answer(self.name, result)

    async def _call(self, profile: BirthProfile) -> types.CallToolResult:
        tools = await self.clients.list_tools(self.spec)
        found = next((tool for tool in tools if tool.name == self.tool), None)
        if found is None:
            offered = ", ".join(tool.name for tool in tools) or "none"
            raise EnrichmentFailed(
                self.name, f"the server has no tool {self.tool!r} (it has: {offered})"
            )
        arguments = lookup_arguments(profile, found)
        # As every call: one the tool's input schema refuses is not sent.
        refusal = schema_refusal(found.input_schema, arguments)
        if refusal is not None:
            raise EnrichmentFailed(
                self.name,
                f"the tool refuses the lookup's arguments ({', '.join(arguments) or 'none'}): "
                f"{refusal}",
                errors=[error_entry(refusal.location, refusal.message, "schema_error")],
            )
        return await self.clients.call(self.spec, self.tool, arguments)


def lookup_arguments(profile: BirthProfile, tool: types.Tool) -> dict[str, Any]:
    """The principal's email, name and company, those given, limited to the properties the
    tool's input schema declares (all of them when it declares none)."""
    offered = {"email": profile.email, "name": profile.name, "company": profile.company}
    declared = (tool.input_schema or {}).get("properties")
    return {
        key: value
        for key, value in offered.items()
        if value is not None and (not isinstance(declared, dict) or key in declared)
    }


def directory_answer(provider: str, result: types.CallToolResult) -> DirectoryAnswer:
    """The tool's result as the directory's answer: its structured content, else its text as
    JSON.

    Raises:
        EnrichmentFailed: the tool answered an error, or something that is not the answer.
    """
    text = result_text(result)
    if result.is_error:
        raise EnrichmentFailed(provider, f"the tool answered an error: {text[:500]}")
    payload: Any = result.structured_content
    if payload is None or set(payload) == {"result"}:
        payload = payload["result"] if payload else None
    if payload is None:
        try:
            payload = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError:
            raise EnrichmentFailed(provider, f"the answer is not JSON: {text[:200]!r}") from None
    try:
        return DirectoryAnswer.model_validate(payload)
    except ValidationError as error:
        problems = validation_entries(
            error.errors(include_input=False, include_url=False), ["answer"]
        )
        raise EnrichmentFailed(
            provider,
            f"the answer does not validate: {first_problem(problems)}",
            errors=problems,
        ) from None


def enrichment_provider(
    clients: McpClients,
    source: EnrichmentSource | None,
    settings: EnrichmentSettings,
    tool_settings: ToolSettings,
) -> McpEnrichment | None:
    """The provider of a birth: the request's directory server, else the settings', else None.

    Raises:
        InvalidInput: the request's stdio command is not one of CREDENCE_TOOLS__STDIO_COMMANDS.
    """
    key = f"birth-enrichment:{uuid.uuid4()}"
    if source is not None:
        allowed = tool_settings.stdio_commands
        if source.command is not None and allowed is not None and source.command not in allowed:
            raise InvalidInput(
                f"enrichment command {source.command!r} is not one of the allowed stdio "
                "commands (CREDENCE_TOOLS__STDIO_COMMANDS)",
                errors=[
                    {
                        "location": ["body", "enrichment", "command"],
                        "message": "not an allowed stdio command",
                        "type": "not_allowed",
                    }
                ],
            )
        spec = ServerSpec(
            key=key,
            name=_server_name(source.command, source.args, source.url),
            transport=source.transport,
            command=source.command,
            args=tuple(source.args),
            cwd=source.cwd,
            url=source.url,
        )
        return McpEnrichment(clients, spec, source.tool, source.timeout_s or settings.timeout_s)
    if not settings.configured:
        return None
    spec = ServerSpec(
        key=key,
        name=_server_name(settings.command, settings.args, settings.url),
        transport=settings.transport,
        command=settings.command,
        args=tuple(settings.args),
        cwd=settings.cwd,
        url=settings.url,
        env=dict(settings.env),
        headers=dict(settings.headers),
    )
    return McpEnrichment(clients, spec, settings.tool, settings.timeout_s)


def _server_name(command: str | None, args: Sequence[str], url: str | None) -> str:
    """How reports and errors name the directory server: its command's file name (the module of
    ``python -m module``) or its URL's host; never another argument or a header (they may hold
    secrets)."""
    if command is not None:
        if "-m" in args[:-1]:
            return args[list(args).index("-m") + 1].rsplit(".", 1)[-1]
        return Path(command).name or "directory"
    return urlsplit(url or "").hostname or "directory"
