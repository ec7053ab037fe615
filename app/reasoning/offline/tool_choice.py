"""The offline route from a message to a tool (a message without the ``call`` syntax).

Deterministic, in two steps:

1. **Which tool**: the one whose description is closest to the message (cosine between the
   message's embedding and the embedding of ``"<tool>: <description>"`` stored on its Tool
   node), when that cosine reaches the request's ``threshold`` (``tools.route_similarity``);
   ties go to the first qualified name. Without embeddings no tool is chosen.
2. **Which arguments**: only what the message states. A property of the tool's input schema
   takes a value when the message names it — ``timezone: Europe/Warsaw``, ``table_name =
   invoices``, ``query is "SELECT 1"`` (the property's name, its underscores as spaces too,
   then ``:``, ``=`` or ``is``, then a quoted or a single-word value) — or, for a property with
   an ``enum``, when exactly one of its values appears in the message. A value is converted to
   the property's type (integer, number, boolean, string); one that does not convert is not
   taken. A required property without a value is *missing*: the choice names the tool and what
   it needs, and no call is made.
"""

from __future__ import annotations

import re
from typing import Any

from app.reasoning.protocol import ToolCall, ToolChoice, ToolChoiceRequest

OFFLINE = "offline"
_VALUE = r"(?:\"(?P<double>[^\"]*)\"|'(?P<single>[^']*)'|(?P<bare>[^\s,;]+))"


def choose_tool(request: ToolChoiceRequest) -> ToolChoice:
    """See the module docstring."""
    scored = [tool for tool in request.tools if tool.similarity is not None]
    if not scored:
        return ToolChoice(reasoner=OFFLINE)
    best = min(scored, key=lambda tool: (-(tool.similarity or 0.0), tool.qualified_name))
    similarity = round(float(best.similarity or 0.0), 4)
    if similarity < request.threshold:
        return ToolChoice(reasoner=OFFLINE, similarity=similarity)
    arguments, missing = derive_arguments(request.message, best.input_schema)
    call = None
    if not missing:
        connection, _, tool = best.qualified_name.partition(".")
        call = ToolCall(connection=connection, tool=tool, arguments=arguments)
    return ToolChoice(
        call=call,
        tool=best.qualified_name,
        missing=missing,
        similarity=similarity,
        reasoner=OFFLINE,
    )


def derive_arguments(message: str, schema: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The arguments the message states for ``schema``'s properties, and the required ones it
    does not state (see the module docstring)."""
    properties: dict[str, Any] = schema.get("properties") or {}
    required = [name for name in schema.get("required") or [] if name in properties]
    arguments: dict[str, Any] = {}
    for name, spec in properties.items():
        value = _stated(message, name, spec if isinstance(spec, dict) else {})
        if value is not None:
            arguments[name] = value
    return arguments, [name for name in required if name not in arguments]


def _stated(message: str, name: str, spec: dict[str, Any]) -> Any:
    spelled = "|".join(
        re.escape(form) for form in dict.fromkeys((name, name.replace("_", " "))) if form
    )
    named = re.search(
        rf"(?<![\w-])(?:{spelled})\s*(?:[:=]|\bis\b)\s*{_VALUE}", message, re.IGNORECASE
    )
    if named is not None:
        raw = named.group("double") or named.group("single")
        if raw is None:
            raw = named.group("bare").rstrip(".?!")
        return _typed(raw, spec)
    options = spec.get("enum")
    if isinstance(options, list):
        present = [
            option
            for option in options
            if isinstance(option, str | int | float)
            and re.search(rf"(?<![\w-]){re.escape(str(option))}(?![\w-])", message, re.IGNORECASE)
        ]
        if len(present) == 1:
            return present[0]
    return None


def _typed(raw: str, spec: dict[str, Any]) -> Any:
    kind = spec.get("type", "string")
    try:
        if kind == "integer":
            return int(raw)
        if kind == "number":
            return float(raw)
    except ValueError:
        return None
    if kind == "boolean":
        lowered = raw.lower()
        return {"true": True, "yes": True, "false": False, "no": False}.get(lowered)
    if kind == "string" or kind is None:
        return raw
    return None
