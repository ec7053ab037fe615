"""Reading an analytics file's contract from its leading ``//`` lines (see the package doc)."""

from __future__ import annotations

import re
from itertools import takewhile
from typing import Any

from app.beliefs.analytics.models import PARAM_TYPES, AnalyticsSpec, ParamSpec, ParamType
from app.beliefs.analytics.param_map import parse_param_map
from app.beliefs.analytics.params import coerce

FOLDER = "beliefs/analytics"

_PARAM_LINE = re.compile(r"^//\s*:param\s+(?P<map>\{.*\})\s*$")
_PARAM_DECLARATION = re.compile(
    r"^//\s+\$(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*::\s*(?P<type>[A-Z]+)"
    r"(?P<not_null>\s+NOT\s+NULL)?(?:\s+(?P<rest>.*))?$"
)
_COLUMN_DECLARATION = re.compile(r"^//\s+(?P<name>[a-z_][a-z0-9_]*)\s*::\s*\S")
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")
# "one of 'a', 'b', 'c'": the quoted, comma-separated values right after "one of" (a later
# "(default 'a')" is not one more).
_CHOICES = re.compile(r"one of\s+('(?:[^'\\]|\\.)*'(?:\s*,\s*'(?:[^'\\]|\\.)*')*)")
_PARAMETER_USE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_PARAM_TYPE_OF: dict[str, ParamType] = {t: t for t in PARAM_TYPES}


def parse_header(name: str, text: str) -> AnalyticsSpec:
    """Reads the contract of one analytics file from its leading ``//`` lines.

    Args:
        name: the file name without ``.cypher`` (named in the error).
        text: the whole file.

    Returns:
        The description, the ``:param`` line, the declared parameters and columns.

    Raises:
        ValueError: the header is incomplete or inconsistent (every problem listed).
    """
    header, body = _split(text)
    problems: list[str] = []
    description = _description(header, problems)
    param_line, defaults = _param_line(header, problems)
    params = _declared_params(header, defaults, problems)
    columns = tuple(m["name"] for m in map(_COLUMN_DECLARATION.match, header) if m is not None)
    problems += _inconsistencies(params, defaults, columns, body)
    if problems:
        raise ValueError(f"cypher/{FOLDER}/{name}.cypher: " + "; ".join(problems))
    return AnalyticsSpec(
        name=name,
        description=description,
        param_line=param_line,
        params=params,
        columns=columns,
    )


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("//")


def _split(text: str) -> tuple[list[str], str]:
    """The header (the leading comment lines, stripped) and the query without comment lines."""
    lines = text.splitlines()
    header = [line.strip() for line in takewhile(_is_comment, lines)]
    body = "\n".join(line for line in lines[len(header) :] if not _is_comment(line))
    return header, body


def _description(header: list[str], problems: list[str]) -> str:
    description = header[0].removeprefix("//").strip() if header else ""
    if not description:
        problems.append("the first line must say what the query does")
    return description


def _param_line(header: list[str], problems: list[str]) -> tuple[str, dict[str, Any]]:
    """The ``:param`` line as pasted into Browser, and the values it sets."""
    matches = [m for m in map(_PARAM_LINE.match, header) if m is not None]
    if len(matches) != 1:
        problems.append("there must be exactly one '// :param {...}' line")
        return "", {}
    try:
        defaults = parse_param_map(matches[0]["map"])
    except ValueError as error:
        problems.append(f"the :param line does not parse: {error}")
        defaults = {}
    return matches[0].string.removeprefix("//").strip(), defaults


def _declared_params(
    header: list[str], defaults: dict[str, Any], problems: list[str]
) -> tuple[ParamSpec, ...]:
    params: list[ParamSpec] = []
    for match in filter(None, map(_PARAM_DECLARATION.match, header)):
        param_type = _PARAM_TYPE_OF.get(match["type"])
        if param_type is None:
            problems.append(f"${match['name']}: unsupported type {match['type']}")
            continue
        rest = (match["rest"] or "").strip()
        required = rest.startswith("required")
        listed = _CHOICES.search(rest)
        choices = tuple(_QUOTED.findall(listed[1])) if listed else ()
        params.append(
            ParamSpec(
                name=match["name"],
                type=param_type,
                nullable=match["not_null"] is None,
                required=required,
                default=None if required else defaults.get(match["name"]),
                choices=choices,
                description=rest,
            )
        )
    return tuple(params)


def _inconsistencies(
    params: tuple[ParamSpec, ...],
    defaults: dict[str, Any],
    columns: tuple[str, ...],
    body: str,
) -> list[str]:
    """Where the declarations disagree with the ``:param`` line, the query or each other."""
    problems: list[str] = []
    declared = {p.name for p in params}
    used = set(_PARAMETER_USE.findall(body))
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
            coerce(param, param.default)
        except ValueError as error:
            problems.append(f"default of ${param.name}: {error}")
    if not columns:
        problems.append("the header must declare the returned columns ('//   name :: TYPE')")
    return problems
