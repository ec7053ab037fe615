"""Analytics on revisions: the read-only queries of ``cypher/analytics/``, run by name.

Each file is runnable as-is in Neo4j Browser, so its ``//`` header is also its contract here:

- the first line says what it does (the description listed by ``credence analytics list``);
- a ``// :param {agent_id: '<agent id>', limit: 10}`` line, pasted into Browser, sets every
  parameter; here it gives the defaults of the optional ones;
- ``//   $name :: TYPE [NOT NULL]  ...`` lines declare each parameter (``required`` right after
  the type marks one that has no default; ``one of 'a', 'b'`` lists the allowed values);
- ``//   column :: TYPE  ...`` lines declare the returned columns, in order.

Parameters arriving as text (query string, ``--param key=value``) are converted to the declared
type. Integer parameters of analytics are sizes, so negative values are refused.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any, Literal

from pydantic import BaseModel

from app.errors import InvalidInput, UnknownAnalytics
from app.graph.agent_scope import require_agent
from app.graph.catalog import QueryCatalog, default_catalog
from app.graph.client import GraphClient

FOLDER = "analytics"

ParamType = Literal["STRING", "INTEGER", "FLOAT", "BOOLEAN"]
_PARAM_TYPES: tuple[ParamType, ...] = ("STRING", "INTEGER", "FLOAT", "BOOLEAN")

_PARAM_LINE = re.compile(r"^//\s*:param\s+(?P<map>\{.*\})\s*$")
_PARAM_DECLARATION = re.compile(
    r"^//\s+\$(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*::\s*(?P<type>[A-Z]+)"
    r"(?P<not_null>\s+NOT\s+NULL)?(?:\s+(?P<rest>.*))?$"
)
_COLUMN_DECLARATION = re.compile(r"^//\s+(?P<name>[a-z_][a-z0-9_]*)\s*::\s*\S")
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")
_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One declared ``$parameter`` of an analytics query."""

    name: str
    type: ParamType
    nullable: bool
    required: bool
    default: Any
    choices: tuple[str, ...]
    description: str


@dataclass(frozen=True, slots=True)
class AnalyticsSpec:
    """What an analytics file's header declares."""

    name: str
    description: str
    param_line: str
    params: tuple[ParamSpec, ...]
    columns: tuple[str, ...]

    def param(self, name: str) -> ParamSpec | None:
        return next((p for p in self.params if p.name == name), None)


class ParamInfo(BaseModel):
    name: str
    type: ParamType
    nullable: bool
    required: bool
    default: Any = None
    choices: list[str]
    description: str


class AnalyticsInfo(BaseModel):
    name: str
    description: str
    param_line: str
    params: list[ParamInfo]
    columns: list[str]


class AnalyticsList(BaseModel):
    data: list[AnalyticsInfo]
    count: int


class AnalyticsResult(BaseModel):
    name: str
    description: str
    params: dict[str, Any]
    columns: list[str]
    rows: list[dict[str, Any]]
    count: int


# --- the header --------------------------------------------------------------------------------


def parse_param_map(text: str) -> dict[str, Any]:
    """Parses the map of a ``:param {...}`` line (a Cypher map literal of plain values).

    Keys are identifiers (or quoted); values are quoted strings, integers, floats, ``true``,
    ``false`` or ``null``.

    Raises:
        ValueError: anything else, naming the position.
    """
    return _MapParser(text).parse()


class _MapParser:
    _TOKEN = re.compile(
        r"""\s*(?:
            (?P<punct>[{}:,])
          | '(?P<single>(?:[^'\\]|\\.)*)'
          | "(?P<double>(?:[^"\\]|\\.)*)"
          | (?P<number>-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)
          | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
          | `(?P<backtick>[^`]+)`
        )""",
        re.VERBOSE,
    )

    def __init__(self, text: str) -> None:
        self._text = text
        self._tokens = self._tokenize(text)
        self._at = 0

    def _tokenize(self, text: str) -> list[tuple[str, Any]]:
        tokens: list[tuple[str, Any]] = []
        position = 0
        while position < len(text):
            if not text[position:].strip():
                break
            match = self._TOKEN.match(text, position)
            if match is None:
                raise ValueError(f"unexpected text at position {position}: {text[position:]!r}")
            position = match.end()
            if match["punct"] is not None:
                tokens.append(("punct", match["punct"]))
            elif match["single"] is not None:
                tokens.append(("string", _unescape(match["single"])))
            elif match["double"] is not None:
                tokens.append(("string", _unescape(match["double"])))
            elif match["number"] is not None:
                number = match["number"]
                is_float = any(c in number for c in ".eE")
                tokens.append(("number", float(number) if is_float else int(number)))
            elif match["backtick"] is not None:
                tokens.append(("key", match["backtick"]))
            else:
                tokens.append(("word", match["word"]))
        return tokens

    def _next(self) -> tuple[str, Any]:
        if self._at >= len(self._tokens):
            raise ValueError(f"the map {self._text!r} ends too early")
        token = self._tokens[self._at]
        self._at += 1
        return token

    def _expect(self, punct: str) -> None:
        kind, value = self._next()
        if (kind, value) != ("punct", punct):
            raise ValueError(f"expected {punct!r}, found {value!r} in {self._text!r}")

    def parse(self) -> dict[str, Any]:
        self._expect("{")
        result: dict[str, Any] = {}
        kind, value = self._next()
        while (kind, value) != ("punct", "}"):
            if kind not in ("word", "string", "key"):
                raise ValueError(f"expected a key, found {value!r} in {self._text!r}")
            key = str(value)
            if key in result:
                raise ValueError(f"key {key!r} appears twice in {self._text!r}")
            self._expect(":")
            result[key] = self._value()
            kind, value = self._next()
            if (kind, value) == ("punct", ","):
                kind, value = self._next()
            elif (kind, value) != ("punct", "}"):
                raise ValueError(f"expected ',' or '}}', found {value!r} in {self._text!r}")
        if self._at != len(self._tokens):
            raise ValueError(f"unexpected text after the map in {self._text!r}")
        return result

    def _value(self) -> Any:
        kind, value = self._next()
        if kind in ("string", "number"):
            return value
        if kind == "word" and value.lower() in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[value.lower()]
        raise ValueError(f"unsupported value {value!r} in {self._text!r}")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), text)


def parse_header(name: str, text: str) -> AnalyticsSpec:
    """Reads the contract of one analytics file from its leading ``//`` lines.

    Raises:
        ValueError: the header is incomplete or inconsistent (every problem listed).
    """
    header: list[str] = []
    for line in text.splitlines():
        if not line.lstrip().startswith("//"):
            break
        header.append(line.strip())
    body = "\n".join(
        line for line in text.splitlines()[len(header) :] if not line.lstrip().startswith("//")
    )
    problems: list[str] = []
    description = header[0].removeprefix("//").strip() if header else ""
    if not description:
        problems.append("the first line must say what the query does")

    param_lines = [m for m in map(_PARAM_LINE.match, header) if m is not None]
    defaults: dict[str, Any] = {}
    param_line = ""
    if len(param_lines) != 1:
        problems.append("there must be exactly one '// :param {...}' line")
    else:
        param_line = param_lines[0].string.removeprefix("//").strip()
        try:
            defaults = parse_param_map(param_lines[0]["map"])
        except ValueError as error:
            problems.append(f"the :param line does not parse: {error}")

    params: list[ParamSpec] = []
    for match in filter(None, map(_PARAM_DECLARATION.match, header)):
        type_name = match["type"]
        if type_name not in _PARAM_TYPES:
            problems.append(f"${match['name']}: unsupported type {type_name}")
            continue
        rest = (match["rest"] or "").strip()
        required = rest.startswith("required")
        choices = tuple(_QUOTED.findall(rest.split("one of", 1)[1])) if "one of" in rest else ()
        params.append(
            ParamSpec(
                name=match["name"],
                type=_param_type(type_name),
                nullable=match["not_null"] is None,
                required=required,
                default=None if required else defaults.get(match["name"]),
                choices=choices,
                description=rest,
            )
        )
    columns = tuple(m["name"] for m in map(_COLUMN_DECLARATION.match, header) if m is not None)

    declared = {p.name for p in params}
    used = set(re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", body))
    if "agent_id" not in declared:
        problems.append("$agent_id must be declared (every analytics query is agent-scoped)")
    if used != declared:
        problems.append(
            f"declared parameters {sorted(declared)} differ from those the query uses "
            f"{sorted(used)}"
        )
    if set(defaults) != declared:
        problems.append(
            f"the :param line sets {sorted(defaults)}, the header declares {sorted(declared)}"
        )
    for param in params:
        if param.required or param.name not in defaults:
            continue
        try:
            _coerce(param, param.default)
        except ValueError as error:
            problems.append(f"default of ${param.name}: {error}")
    if not columns:
        problems.append("the header must declare the returned columns ('//   name :: TYPE')")
    if problems:
        raise ValueError(f"cypher/{FOLDER}/{name}.cypher: " + "; ".join(problems))
    return AnalyticsSpec(
        name=name,
        description=description,
        param_line=param_line,
        params=tuple(params),
        columns=columns,
    )


def _param_type(name: str) -> ParamType:
    for known in _PARAM_TYPES:
        if known == name:
            return known
    raise ValueError(f"unsupported type {name}")


# --- parameters --------------------------------------------------------------------------------


def _coerce(param: ParamSpec, value: Any) -> Any:
    """``value`` as the declared type (text is converted).

    Raises:
        ValueError: the value does not fit.
    """
    if isinstance(value, str) and param.type != "STRING":
        text = value.strip()
        if text.lower() == "null":
            value = None
        elif param.type == "INTEGER":
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"expected an integer, got {value!r}") from None
        elif param.type == "FLOAT":
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"expected a number, got {value!r}") from None
        elif text.lower() in _TRUE:
            value = True
        elif text.lower() in _FALSE:
            value = False
        else:
            raise ValueError(f"expected true or false, got {value!r}")
    if value is None:
        if not param.nullable:
            raise ValueError("may not be null")
        return None
    if param.type == "STRING":
        if not isinstance(value, str):
            raise ValueError(f"expected a string, got {value!r}")
        if param.choices and value not in param.choices:
            raise ValueError(f"expected one of {', '.join(param.choices)}; got {value!r}")
        return value
    if param.type == "BOOLEAN":
        if not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected a number, got {value!r}")
    if param.type == "INTEGER":
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"expected an integer, got {value!r}")
        if value < 0:
            raise ValueError(f"must not be negative, got {value!r}")
        return int(value)
    if not math.isfinite(value):
        raise ValueError(f"expected a finite number, got {value!r}")
    return float(value)


def resolve_params(spec: AnalyticsSpec, given: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters to run ``spec`` with: given values converted, defaults for the rest.

    ``agent_id`` is not among them: it always comes from the caller's agent.

    Raises:
        InvalidInput: unknown names, missing required values, values that do not fit (all
            listed in ``details["errors"]``).
    """
    errors: list[dict[str, Any]] = []
    resolved: dict[str, Any] = {}
    known = sorted(p.name for p in spec.params if p.name != "agent_id")
    for key in given:
        if spec.param(key) is None or key == "agent_id":
            hint = (
                "the agent comes from the path (API) or --agent (CLI)"
                if key == "agent_id"
                else f"known: {', '.join(known) or 'none'}"
            )
            errors.append({"location": ["params", key], "message": f"unknown parameter; {hint}"})
    for param in spec.params:
        if param.name == "agent_id":
            continue
        if param.name not in given:
            if param.required:
                errors.append({"location": ["params", param.name], "message": "required"})
            else:
                resolved[param.name] = param.default
            continue
        try:
            resolved[param.name] = _coerce(param, given[param.name])
        except ValueError as error:
            errors.append({"location": ["params", param.name], "message": str(error)})
    if errors:
        summary = "; ".join(f"{e['location'][-1]}: {e['message']}" for e in errors)
        raise InvalidInput(
            f"invalid parameters for analytics {spec.name!r}: {summary}", errors=errors
        )
    return resolved


# --- results -----------------------------------------------------------------------------------


def json_safe(value: Any) -> Any:
    """A value made of JSON types only: temporal values as ISO 8601 text, NaN/inf as null."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    return str(value)


# --- the service -------------------------------------------------------------------------------


def analytics_names(catalog: QueryCatalog | None = None) -> list[str]:
    """The names of the files in ``cypher/analytics/``, sorted."""
    prefix = f"{FOLDER}/"
    names = (catalog or default_catalog()).names()
    return [
        n.removeprefix(prefix)
        for n in names
        if n.startswith(prefix) and "/" not in n[len(prefix) :]
    ]


def analytics_spec(name: str, catalog: QueryCatalog | None = None) -> AnalyticsSpec:
    """The declared contract of one analytics query.

    Raises:
        UnknownAnalytics: no file ``cypher/analytics/<name>.cypher``.
    """
    catalog = catalog or default_catalog()
    known = analytics_names(catalog)
    if name not in known:
        raise UnknownAnalytics(name, known)
    return parse_header(name, catalog.get(f"{FOLDER}/{name}").text)


def list_analytics(catalog: QueryCatalog | None = None) -> AnalyticsList:
    """Every analytics query with its description, parameters and columns."""
    catalog = catalog or default_catalog()
    data = [_info(analytics_spec(name, catalog)) for name in analytics_names(catalog)]
    return AnalyticsList(data=data, count=len(data))


def _info(spec: AnalyticsSpec) -> AnalyticsInfo:
    return AnalyticsInfo(
        name=spec.name,
        description=spec.description,
        param_line=spec.param_line,
        params=[
            ParamInfo(
                name=p.name,
                type=p.type,
                nullable=p.nullable,
                required=p.required,
                default=p.default,
                choices=list(p.choices),
                description=p.description,
            )
            for p in spec.params
        ],
        columns=list(spec.columns),
    )


async def run_analytics(
    graph: GraphClient, agent_id: str, name: str, params: Mapping[str, Any] | None = None
) -> AnalyticsResult:
    """Runs ``cypher/analytics/<name>.cypher`` for one agent.

    Args:
        graph: the graph client (its catalog holds the query).
        agent_id: the agent whose graph is read.
        name: the file name without ``.cypher``.
        params: the other parameters, typed or as text; the header's defaults fill the rest.

    Returns:
        The declared columns and the rows (JSON-safe values), with the parameters used.

    Raises:
        UnknownAnalytics: no such file.
        InvalidInput: parameters that are unknown, missing or do not fit.
        AgentNotFound: no such agent.
    """
    spec = analytics_spec(name, graph.catalog)
    resolved = resolve_params(spec, params or {})
    await require_agent(graph, agent_id)
    rows = await graph.read(f"{FOLDER}/{name}", agent_id=agent_id, **resolved)
    columns = list(spec.columns)
    for row in rows[:1]:
        columns += [key for key in row if key not in columns]
    return AnalyticsResult(
        name=name,
        description=spec.description,
        params={"agent_id": agent_id, **resolved},
        columns=columns,
        rows=[json_safe(row) for row in rows],
        count=len(rows),
    )
