"""The Browser guide's HTML (app/browser/guide.py), without a graph."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from app.browser.guide import GuideAgent, param_command, query_text, render_guide
from app.browser.slides import GUIDE_QUERIES, SLIDES
from app.graph.catalog import default_catalog

ROOT = Path(__file__).resolve().parents[3]
GUIDE = "http://127.0.0.1:8000/browser/guide"
STYLE = "http://127.0.0.1:8000/browser/style.grass"


class _Blocks(HTMLParser):
    """The guide's slides and the text of its runnable blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.slides = 0
        self.runnable: list[str] = []
        self._in_runnable = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "slide":
            self.slides += 1
        if tag == "pre" and "runnable" in (dict(attrs).get("class") or ""):
            self._in_runnable = True
            self.runnable.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._in_runnable = False

    def handle_data(self, data: str) -> None:
        if self._in_runnable:
            self.runnable[-1] += data


def _blocks(page: str) -> _Blocks:
    parser = _Blocks()
    parser.feed(page)
    return parser


def test_a_guide_sets_the_agent_and_runs_every_story_query() -> None:
    agent = GuideAgent(id="a1b2", name="Credence <demo>", complete=True)

    page = render_guide(agent, default_catalog(), guide_url=GUIDE, style_url=STYLE)

    blocks = _blocks(page)
    assert blocks.slides == 1 + len(SLIDES)
    assert "<title>Credence: Credence &lt;demo&gt;</title>" in page
    assert blocks.runnable.count(':param agent_id => "a1b2"') == blocks.slides
    assert f":style {STYLE}" in blocks.runnable
    for slide in SLIDES:
        for query in slide.queries:
            text = query_text(default_catalog(), query)
            assert text in blocks.runnable, query.name
            assert not text.startswith("//") and "$agent_id" in text
    assert "did not finish" not in page


def test_an_unfinished_demo_is_said_so() -> None:
    agent = GuideAgent(id="a1", name="Credence demo", complete=False)

    page = render_guide(agent, default_catalog(), guide_url=GUIDE, style_url=STYLE)

    assert "credence demo --rebuild" in page


def test_without_a_demo_agent_one_slide_says_to_build_it() -> None:
    page = render_guide(None, default_catalog(), guide_url=GUIDE, style_url=STYLE)

    blocks = _blocks(page)
    assert blocks.slides == 1
    assert "Run credence demo first" in page
    assert f":guide {GUIDE}" in blocks.runnable


def test_the_agent_id_is_a_cypher_string_literal() -> None:
    assert param_command('odd"id\\') == ':param agent_id => "odd\\"id\\\\"'


def _return_columns(query: str) -> list[str]:
    """The columns of a query's last top-level RETURN (``AS`` names, else the expressions)."""
    text = (ROOT / "cypher" / GUIDE_QUERIES / f"{query}.cypher").read_text(encoding="utf-8")
    returned = re.findall(r"^RETURN (.*?)(?=^ORDER BY|^LIMIT|\Z)", text, re.M | re.S)[-1]
    columns, depth, current = [], 0, ""
    for char in returned:
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            columns.append(current)
            current = ""
        else:
            current += char
    columns.append(current)
    return [_column_name(c) for c in columns]


def _column_name(column: str) -> str:
    """The ``AS`` name of a returned column, else its expression."""
    named = re.search(r"\bAS (\w+)\s*$", column) or re.match(r"\s*(.*?)\s*$", column, re.S)
    assert named is not None  # the second pattern matches any text
    return named[1]


def test_the_docs_name_each_slides_table_columns_as_its_query_returns_them() -> None:
    section = (
        (ROOT / "docs" / "browser.md").read_text(encoding="utf-8").split("## §2")[1].split("##")[0]
    )
    rows = {
        cells[0]: cells
        for line in section.splitlines()
        if line.startswith("| ") and (cells := [c.strip() for c in line.strip("|").split(" | ")])
    }
    assert {slide.title for slide in SLIDES} <= set(rows)
    for slide in SLIDES:
        named = re.findall(r"`(\w+)`", rows[slide.title][3])
        assert named == [query.name for query in slide.queries], slide.title
    for title, cells in rows.items():
        tables = [name for name in re.findall(r"`(\w+)`", cells[3]) if not name.startswith("draw_")]
        if tables:
            assert cells[2] == f"`{', '.join(_return_columns(tables[0]))}`", title
