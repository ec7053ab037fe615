"""The offline route from a message to a tool (a message without the ``call`` syntax).

Deterministic, in two steps:

1. **Which tool**: the one whose description is closest to the message (cosine between the
   message's embedding and the embedding of ``"<tool>: <description>"`` stored on its Tool
   node), when that cosine reaches the request's ``threshold`` (``tools.route_similarity``).
   A request that names a connection ("record invoice INV-1042 … in the ledger") may also go
   below the threshold to that connection's tools that say the act the request asks for: a
   short request shares few words with a tool's description. A tool whose name or
   description says the act the request's verb asks for ("record" → INSERT / write; "show" →
   SELECT / list) ranks ``ACT_BONUS`` higher, and one the message states every required
   argument for ``CALLABLE_BONUS`` higher. Ties go to the first qualified name. Without
   embeddings no tool is chosen.
2. **Which arguments**: only what the message states. A property of the tool's input schema
   takes a value when the message names it — ``timezone: Europe/Warsaw``, ``table_name =
   invoices``, ``query is "SELECT 1"`` (the property's name, its underscores as spaces too,
   then ``:``, ``=`` or ``is``, then a quoted or a single-word value) — or, for a property with
   an ``enum``, when exactly one of its values appears in the message. A value is converted to
   the property's type: the ``enum`` / ``const`` value it names, else the first of the types
   the property allows that it converts to, in the order integer, number, boolean, string,
   array (a quoted ``"1, 2"`` of simple items) — the types of a ``type`` list, of each
   ``anyOf`` / ``oneOf`` member and of a local ``$ref``; ``null`` and ``nullable`` add none
   (``times: 3`` for an optional integer is ``3``). One that does not convert is not taken; the
   call then passes the tool's schema check like any other (app/loop/tool_routing.py). A
   required property without a value is *missing*: the choice names the tool and what it
   needs, and no call is made.
"""

from __future__ import annotations

import re
from typing import Any

from app.reasoning.offline.requests import is_request
from app.reasoning.protocol import ToolCall, ToolChoice, ToolChoiceRequest, ToolOffer
from app.text.stopwords import word_set
from app.text.words import tokens

OFFLINE = "offline"
_VALUE = r"(?:\"(?P<double>[^\"]*)\"|'(?P<single>[^']*)'|(?P<bare>[^\s,;]+))"

# What a tool's name or description says for the act a request's verb asks for, one row per act:
# (the request's verbs, the tool's words).
_ACTS: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (
        word_set("record add post book enter insert log register save store write note"),
        word_set("insert write record post log save store"),
    ),
    (
        word_set("update change correct fix adjust amend edit modify set rename"),
        word_set("update write modify edit"),
    ),
    (
        word_set("delete remove void drop purge erase wipe"),
        word_set("delete remove drop write"),
    ),
    (word_set("create make open"), word_set("create new")),
    (
        word_set("show list find get read fetch look count select search display tell"),
        word_set("select read list get describe show search find"),
    ),
)
ACT_BONUS = 0.25
# Between two tools about as close, the one the message already states every required argument
# for (a call can be made) goes first.
CALLABLE_BONUS = 0.05


def choose_tool(request: ToolChoiceRequest) -> ToolChoice:
    """See the module docstring."""
    scored = [tool for tool in request.tools if tool.similarity is not None]
    if not scored:
        return ToolChoice(reasoner=OFFLINE)
    named = _named_connections(request.message, scored)
    acts = _act_words(request.message)
    eligible = [
        tool
        for tool in scored
        if (tool.similarity or 0.0) >= request.threshold
        or (tool.qualified_name.partition(".")[0] in named and _does(tool, acts))
    ]
    if not eligible:
        closest = max(round(float(tool.similarity or 0.0), 4) for tool in scored)
        return ToolChoice(reasoner=OFFLINE, similarity=closest)
    best = min(
        eligible, key=lambda tool: (-_score(tool, acts, request.message), tool.qualified_name)
    )
    similarity = round(float(best.similarity or 0.0), 4)
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


def _named_connections(message: str, tools: list[ToolOffer]) -> set[str]:
    """The connections a request names as a word ("… in the ledger"); none for a message that
    asks for nothing."""
    if not is_request(message):
        return set()
    words = set(tokens(message))
    return {
        connection
        for connection in (tool.qualified_name.partition(".")[0] for tool in tools)
        if connection.lower() in words
    }


def _act_words(message: str) -> frozenset[str]:
    """The tool words for the acts the request's words ask for."""
    words = set(tokens(message))
    return frozenset(word for verbs, tool_words in _ACTS if words & verbs for word in tool_words)


def _does(tool: ToolOffer, acts: frozenset[str]) -> bool:
    """Whether the tool's name or description says one of the acts."""
    said = set(tokens(f"{tool.qualified_name.replace('_', ' ')} {tool.description}"))
    return bool(said & acts)


def _score(tool: ToolOffer, acts: frozenset[str], message: str) -> float:
    callable_now = not derive_arguments(message, tool.input_schema)[1]
    return (
        (tool.similarity or 0.0)
        + (ACT_BONUS if _does(tool, acts) else 0.0)
        + (CALLABLE_BONUS if callable_now else 0.0)
    )


def derive_arguments(message: str, schema: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The arguments the message states for ``schema``'s properties, and the required ones it
    does not state (see the module docstring)."""
    properties: dict[str, Any] = schema.get("properties") or {}
    required = [name for name in schema.get("required") or [] if name in properties]
    arguments: dict[str, Any] = {}
    for name, spec in properties.items():
        shapes = _shapes(spec, schema)
        value = _stated(message, name, shapes, schema)
        if value is not None:
            arguments[name] = value
    return arguments, [name for name in required if name not in arguments]


def _stated(message: str, name: str, shapes: list[dict[str, Any]], root: dict[str, Any]) -> Any:
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
        return _typed(raw, shapes, root)
    present = [
        option
        for option in _options(shapes)
        if isinstance(option, str | int | float)
        and not isinstance(option, bool)
        and re.search(rf"(?<![\w-]){re.escape(str(option))}(?![\w-])", message, re.IGNORECASE)
    ]
    return present[0] if len(present) == 1 else None


# The depth of anyOf / oneOf / $ref a property's schema is read to (deeper shapes are ignored).
_SHAPE_DEPTH = 8
# The order a stated value is tried in the types a property allows: the first that converts.
_TYPE_ORDER = ("integer", "number", "boolean", "string", "array")


def _shapes(spec: Any, root: dict[str, Any], depth: int = 0) -> list[dict[str, Any]]:
    """The alternatives a property's schema allows, flattened: the schema itself (when it says a
    type, an ``enum`` or a ``const``), each member of its ``anyOf`` / ``oneOf``, and what a local
    ``$ref`` (``#/$defs/…``) names. A schema that says nothing of its shape is a string, as
    before."""
    if not isinstance(spec, dict) or depth > _SHAPE_DEPTH:
        return []
    ref = spec.get("$ref")
    if isinstance(ref, str):
        return _shapes(_resolved(ref, root), root, depth + 1)
    members = [m for key in ("anyOf", "oneOf") for m in spec.get(key) or [] if isinstance(m, dict)]
    said = any(key in spec for key in ("type", "enum", "const"))
    shapes = [spec] if said or not members else []
    for member in members:
        shapes.extend(_shapes(member, root, depth + 1))
    return shapes


def _resolved(ref: str, root: dict[str, Any]) -> Any:
    """What a local reference (``#/$defs/Unit``) names in the tool's schema (None otherwise)."""
    if not ref.startswith("#/"):
        return None
    found: Any = root
    for part in ref[2:].split("/"):
        if not isinstance(found, dict):
            return None
        found = found.get(part.replace("~1", "/").replace("~0", "~"))
    return found


def _options(shapes: list[dict[str, Any]]) -> list[Any]:
    """The values the property's ``enum`` / ``const`` alternatives allow."""
    options: list[Any] = []
    for shape in shapes:
        if isinstance(shape.get("enum"), list):
            options.extend(shape["enum"])
        if "const" in shape:
            options.append(shape["const"])
    return options


def _types(shapes: list[dict[str, Any]]) -> list[str]:
    """The JSON types the property's free alternatives (not enums) allow, in ``_TYPE_ORDER``;
    ``nullable`` and ``null`` add nothing a stated value could be."""
    allowed: set[str] = set()
    for shape in shapes:
        if "enum" in shape or "const" in shape:
            continue
        kind = shape.get("type", "string")
        allowed.update(kind if isinstance(kind, list) else [kind])
    return [kind for kind in _TYPE_ORDER if kind in allowed]


def _typed(
    raw: str, shapes: list[dict[str, Any]], root: dict[str, Any], *, items: bool = True
) -> Any:
    """``raw`` as the value the property takes: the enum value it names, else the first of the
    property's types it converts to (integer, number, boolean, string, then a comma-separated
    array of simple items); None when none does."""
    for option in _options(shapes):
        if not isinstance(option, bool) and str(option).lower() == raw.lower():
            return option
    for kind in _types(shapes):
        if kind == "array":
            value = _array(raw, shapes, root) if items else None
        else:
            value = _scalar(raw, kind)
        if value is not None:
            return value
    return None


def _scalar(raw: str, kind: str) -> Any:
    if kind == "integer":
        return int(raw) if re.fullmatch(r"[+-]?\d+", raw) else None
    if kind == "number":
        if not re.fullmatch(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", raw):
            return None
        return float(raw)
    if kind == "boolean":
        return {"true": True, "yes": True, "false": False, "no": False}.get(raw.lower())
    return raw if kind == "string" else None


def _array(raw: str, shapes: list[dict[str, Any]], root: dict[str, Any]) -> list[Any] | None:
    """A quoted ``"a, b"`` as an array whose items each convert to the items' schema (a simple
    one: no arrays within); None when one does not."""
    item_shapes = [
        shape
        for spec in shapes
        if "array" in _types([spec])
        for shape in _shapes(spec.get("items", {}), root)
    ]
    values = [
        _typed(part.strip(), item_shapes, root, items=False)
        for part in raw.split(",")
        if part.strip()
    ]
    return values if values and all(value is not None for value in values) else None
