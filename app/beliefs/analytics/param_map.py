"""The map of a ``// :param {...}`` header line: a Cypher map literal of plain values.

A YAML flow mapping has the shape of a Cypher map (``{agent_id: '<agent id>', limit: 10}``), so
PyYAML reads the structure. Where the two languages read the same text differently, Cypher's
reading wins, because the line is pasted into Neo4j Browser as it is:

- strings: Cypher escapes with a backslash inside '...' and "..." (``'don\\'t'``); YAML's '...'
  has no escapes. Names may be `backticked`. Each quoted piece is therefore rewritten as a YAML
  double-quoted scalar (written by PyYAML's emitter) before the map is parsed.
- ``{a:1}`` is an entry in Cypher but one plain scalar in YAML: a space goes after each ``:``.
- plain values are Cypher's literals only: integers, floats (``1e3``, ``.5``, ``-2.``),
  ``true``, ``false`` and ``null`` in any case. YAML 1.1 also reads ``yes``/``no``/``on``/
  ``off``, ``~``, ``0x1F``, ``010`` (as octal), ``1_000``, ``1:30`` and dates, and takes bare
  words as strings; here those are refused, as Cypher would.
- YAML-only syntax (anchors, aliases, tags, complex keys, comments, block scalars) is refused,
  and so are lists, nested maps and repeated keys.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable
from typing import Any

import yaml
from yaml.constructor import ConstructorError

_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
# The tag a `backticked` name carries through YAML: valid as a key, not as a value.
_NAME_TAG = "!cypher-name"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Scanned left to right, so what a string holds stays in that string. A quote that does not
# close, and what only YAML gives a meaning to, are refused; any blank is a space (YAML refuses
# tabs between tokens, Cypher does not).
_REWRITTEN = re.compile(
    r"""'(?P<single>(?:[^'\\]|\\.)*)'
      | "(?P<double>(?:[^"\\]|\\.)*)"
      | `(?P<name>[^`]+)`
      | (?P<colon>:)
      | (?P<blank>\s)
      | (?P<refused>['"`!&*?|>%@\#\ufeff])""",
    re.VERBOSE,
)


def parse_param_map(text: str) -> dict[str, Any]:
    """Parses the map of a ``:param {...}`` line (a Cypher map literal of plain values).

    Keys are identifiers (or quoted); values are quoted strings, integers, floats, ``true``,
    ``false`` or ``null``.

    Raises:
        ValueError: anything else, naming the problem.
    """
    loader = _CypherMapLoader(_as_yaml(text))
    try:
        parsed = loader.get_single_data()
    except yaml.YAMLError as error:
        raise ValueError(f"{getattr(error, 'problem', None) or error} in {text!r}") from None
    finally:
        loader.dispose()
    if not isinstance(parsed, dict):
        raise ValueError(f"expected a map {{...}}, found {text!r}")
    return parsed


def _as_yaml(text: str) -> str:
    """``text`` with Cypher's quoting and spacing written the way YAML reads them.

    Raises:
        ValueError: a quote that does not close, or a character outside strings that only YAML
            gives a meaning to.
    """

    def rewrite(match: re.Match[str]) -> str:
        if match["refused"] is not None:
            raise ValueError(
                f"unexpected {match['refused']!r} at position {match.start()} in {text!r}"
            )
        if match["colon"] is not None:
            return ": "
        if match["blank"] is not None:
            return " "
        if match["name"] is not None:
            return f"{_NAME_TAG} {_yaml_string(match['name'])}"
        quoted = match["single"] if match["single"] is not None else match["double"]
        return _yaml_string(_unescape(quoted))

    return _REWRITTEN.sub(rewrite, text)


def _unescape(text: str) -> str:
    # As the map has always been read: \n and \t name a character, any other escaped character
    # stands for itself (Cypher would also read \r, \b, \f and \uXXXX; no header uses them).
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), text)


def _yaml_string(value: str) -> str:
    # PyYAML's own emitter escapes what its reader would refuse raw (control characters, DEL).
    return yaml.safe_dump(value, default_style='"', width=math.inf).rstrip("\n")


class _CypherMapLoader(yaml.SafeLoader):
    """PyYAML's safe loader, reading plain scalars as Cypher literals and maps as Cypher maps."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Hashable, Any]:
        entries: dict[Hashable, Any] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            if key in entries:
                raise _refused(f"key {key!r} appears twice", key_node)
            entries[key] = self._literal(value_node)
        return entries

    def construct_cypher_int(self, node: yaml.ScalarNode) -> int:
        # YAML 1.1 would read 010 as octal; a Cypher integer is decimal.
        return int(node.value)

    def _key(self, node: yaml.Node) -> str:
        if isinstance(node, yaml.ScalarNode) and (
            node.tag == _NAME_TAG or node.style is not None or _IDENTIFIER.fullmatch(node.value)
        ):
            return str(node.value)
        raise _refused(f"expected a key, found {_shown(node)}", node)

    def _literal(self, node: yaml.Node) -> Any:
        # A plain scalar that no Cypher literal matched is a bare word: Cypher quotes strings.
        bare_word = (
            isinstance(node, yaml.ScalarNode) and node.style is None and node.tag == _STR_TAG
        )
        if not isinstance(node, yaml.ScalarNode) or node.tag == _NAME_TAG or bare_word:
            raise _refused(f"unsupported value {_shown(node)}", node)
        return self.construct_object(node)


_CypherMapLoader.add_constructor(_INT_TAG, _CypherMapLoader.construct_cypher_int)
# YAML 1.1's implicit types are dropped for Cypher's literals only, so any other plain scalar
# stays text (and is refused as a bare word).
_CypherMapLoader.yaml_implicit_resolvers = {}
for _tag, _pattern, _first in (
    ("tag:yaml.org,2002:null", r"(?i:null)\Z", "nN"),
    ("tag:yaml.org,2002:bool", r"(?i:true|false)\Z", "tTfF"),
    (_INT_TAG, r"-?[0-9]+\Z", "-0123456789"),
    (
        "tag:yaml.org,2002:float",
        r"-?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][-+]?[0-9]+)?\Z",
        "-.0123456789",
    ),
):
    _CypherMapLoader.add_implicit_resolver(_tag, re.compile(_pattern), list(_first))


def _refused(problem: str, node: yaml.Node) -> ConstructorError:
    return ConstructorError(None, None, problem, node.start_mark)


def _shown(node: yaml.Node) -> str:
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if isinstance(node, yaml.MappingNode):
        return "a map"
    return repr(node.value)
