"""``tools``: the research source made of the agent's connected tools that an operator marked as
search sources (``search_tools`` when connecting, ``PATCH .../connections/{name}/tools/{tool}``,
``credence connections search``, or the connections file).

Each marked tool is called with the query as its query argument — the property named
``query`` (else ``q``, else the first required string property of its input schema) — through
the process's MCP sessions, with the call's time limit. Its answer becomes passages: a JSON
list of objects (``text`` or ``snippet`` or ``content``, with ``title``, ``url`` / ``origin``,
``published`` / ``date`` when given), else the text split at blank lines; each at most
``MAX_PASSAGE_CHARS``. A passage's ``ref`` is the tool's name and a hash of its text, so the same
answer is recognised on a later search. Only tools that do not destroy can be marked: research
reads, and its calls are not turns (no approval, no Action node: the investigation records its
sources). A call passes the tool's input-schema check as every call does
(app/tools/argument_check.py): one the schema refuses (a tool that needs more than the query) is
not sent. Each tool that fails (refused, unreachable, failed) is reported with why, as
``tools/<qualified name>`` among the search's failures, whether or not another tool answered.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import logging
import re
from datetime import date
from typing import Any

from app.errors import AgentNotFound
from app.graph.client import GraphClient
from app.reasoning.protocol import ToolCall
from app.research.sources.protocol import Passage, SourceAnswer, failure_text
from app.tools.argument_check import check_arguments
from app.tools.calls import execution_of
from app.tools.clients import McpClients
from app.tools.connections import list_search_tools, spec_for

log = logging.getLogger(__name__)
MAX_PASSAGE_CHARS = 1000
_TEXT_FIELDS = ("text", "snippet", "content", "body", "summary")


class ToolSearchSource:
    """See the module docstring."""

    name = "tools"

    def __init__(self, graph: GraphClient, clients: McpClients) -> None:
        self._graph = graph
        self._clients = clients

    async def search(self, agent_id: str, query: str, *, limit: int) -> SourceAnswer:
        """The passages of the tools that answered, and each tool that failed (its qualified
        name → why), whether or not another answered.

        Raises:
            AgentNotFound: no such agent (as a tool's call reports it).
        """
        rows = await list_search_tools(self._graph, agent_id)
        answers = await asyncio.gather(
            *(self._ask(agent_id, row, query, limit) for row in rows), return_exceptions=True
        )
        found: list[list[Passage]] = []
        failed: dict[str, str] = {}
        for row, answer in zip(rows, answers, strict=True):
            if isinstance(answer, list):
                found.append(answer)
                continue
            if isinstance(answer, AgentNotFound) or not isinstance(answer, Exception):
                raise answer
            qualified_name = str(row["tool"]["qualified_name"])
            log.warning("search tool %s failed: %s", qualified_name, answer)
            failed[qualified_name] = failure_text(answer)
        # Rank by rank across the tools, as the registry merges its sources.
        merged = [
            passage
            for rank in itertools.zip_longest(*found)
            for passage in rank
            if passage is not None
        ]
        return SourceAnswer(passages=merged[:limit], failed_parts=failed)

    async def _ask(
        self, agent_id: str, row: dict[str, Any], query: str, limit: int
    ) -> list[Passage]:
        tool: dict[str, Any] = row["tool"]
        schema = json.loads(tool["input_schema"]) if tool.get("input_schema") else {}
        arguments = {query_argument(schema): query}
        # As every call: one the tool's schema refuses is not sent (the source fails with why).
        check_arguments(tool["qualified_name"], schema, arguments, where=())
        spec = spec_for(self._clients, agent_id, row["connection"])
        result = await self._clients.call(spec, tool["name"], arguments)
        call = ToolCall(connection=row["connection"]["name"], tool=tool["name"])
        execution = execution_of(call, result, 0.0, 1_000_000)
        if execution.status == "failed":
            raise RuntimeError(execution.message[:300])
        return passages_of(tool["qualified_name"], str(execution.output.get("content", "")))[:limit]


def query_argument(schema: dict[str, Any]) -> str:
    """The property a search tool takes its query in (see the module docstring)."""
    properties: dict[str, Any] = schema.get("properties") or {}
    for name in ("query", "q"):
        if name in properties:
            return name
    for name in schema.get("required") or []:
        spec = properties.get(name)
        if isinstance(spec, dict) and spec.get("type", "string") == "string":
            return str(name)
    return "query"


def passages_of(qualified_name: str, text: str) -> list[Passage]:
    """The passages of a search tool's answer, best first as the tool ranked them."""
    items = _json_items(text)
    if items is None:
        items = [{"text": block} for block in re.split(r"\n\s*\n", text) if block.strip()]
    passages: list[Passage] = []
    for rank, item in enumerate(items):
        body = next((str(item[key]) for key in _TEXT_FIELDS if item.get(key)), "").strip()
        if not body:
            continue
        body = body[:MAX_PASSAGE_CHARS]
        title = str(item.get("title") or body.split("\n", 1)[0])[:200]
        origin = str(item.get("url") or item.get("origin") or qualified_name)
        digest = hashlib.sha256(f"{origin}\n{body}".encode()).hexdigest()[:16]
        passages.append(
            Passage(
                kind="tool",
                ref=f"{qualified_name}:{digest}",
                title=title,
                origin=origin,
                text=body,
                published=_date(item.get("published") or item.get("date")),
                score=round(1.0 / (1 + rank), 4),
            )
        )
    return passages


def _json_items(text: str) -> list[dict[str, Any]] | None:
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    if isinstance(parsed, dict):
        parsed = next((value for value in parsed.values() if isinstance(value, list)), [parsed])
    if isinstance(parsed, list) and all(isinstance(item, dict) for item in parsed):
        return parsed
    return None


def _date(value: Any) -> date | None:
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None
