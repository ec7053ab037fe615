"""cypher/browser/style.grass: a rule for every label and relationship type the graph holds, read
the way Neo4j Browser reads it (GraphStyleModel.parse in neo4j-browser: rules split on ``;``,
each property on its first ``:``, braces and quotes as the only syntax)."""

from __future__ import annotations

import re
from pathlib import Path

from app.browser.guide import style_sheet

REPOSITORY = Path(__file__).resolve().parents[3]
_LABEL = re.compile(r"\(\s*[a-z_0-9]*\s*:\s*([A-Z][A-Za-z]+)")
_TYPES = re.compile(r"\[\s*[a-z_0-9]*\s*:\s*([A-Z_|:]+)")
# A type written as a string where the query chooses it: CREATE (ev)-[:$(CASE ... 'REINFORCES')]
_QUOTED_TYPE = re.compile(r"'([A-Z][A-Z_]+)'")


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """Browser's parser, in Python: selector -> properties."""
    rules: dict[str, str] = {}
    inside_string = inside_props = False
    keyword = props = ""
    for char in text:
        if char == "{" and not inside_string:
            inside_props = True
            continue
        if char == "}" and not inside_string:
            inside_props = False
            rules[keyword] = props
            keyword = props = ""
            continue
        if char == "'":
            inside_string = not inside_string
            continue
        if inside_props:
            props += char
        elif not char.isspace():
            keyword += char
    parsed: dict[str, dict[str, str]] = {}
    for selector, body in rules.items():
        parsed[selector] = {}
        for prop in body.split(";"):
            key, _, value = prop.partition(":")
            if key.strip() and value.strip():
                parsed[selector][key.strip()] = value.split(":")[0].strip()
    return parsed


def _graph_vocabulary() -> tuple[set[str], set[str]]:
    """Labels and relationship types written or read by schema/ and cypher/."""
    labels: set[str] = set()
    types: set[str] = set()
    files = [*(REPOSITORY / "schema").glob("*.cypher"), *(REPOSITORY / "cypher").rglob("*.cypher")]
    for path in files:
        text = "\n".join(
            line for line in path.read_text().splitlines() if not line.lstrip().startswith("//")
        )
        labels |= set(_LABEL.findall(text))
        for found in _TYPES.findall(text):
            types |= {part for part in re.split(r"[|:]", found) if part}
        if "$(CASE" in text:
            types |= set(_QUOTED_TYPE.findall(text))
    return labels, types


def test_every_label_and_relationship_type_has_a_rule() -> None:
    rules = parse_grass(style_sheet())
    labels, types = _graph_vocabulary()

    assert {"Belief", "Subject", "Action", "Tool"} <= labels
    assert {"SUPPORTS", "CONTRADICTS", "MENTIONS", "REINFORCES"} <= types
    missing = sorted(
        [f"node.{label}" for label in labels if f"node.{label}" not in rules]
        + [f"relationship.{kind}" for kind in types if f"relationship.{kind}" not in rules]
    )
    assert not missing, f"no style rule for {missing}"


def test_every_rule_reads_back_whole() -> None:
    text = style_sheet()
    rules = parse_grass(text)

    assert rules["node.Belief"]["caption"] == "{statement}"
    assert rules["relationship.SUPPORTS"]["caption"] == "supports {weight}"
    assert rules["relationship.CONTRADICTS"]["caption"] == "contradicts {strength} {status}"
    for selector, props in rules.items():
        assert selector.split(".")[0] in {"node", "relationship"}, selector
        assert "color" in props, f"{selector} has no colour"
    # A comment would become part of the next selector, a colon in a caption would cut it.
    assert "/*" not in text
    for caption in re.findall(r"caption:\s*'([^']*)'", text):
        assert ":" not in caption and ";" not in caption, caption
