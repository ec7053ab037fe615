"""Neo4j Browser with Credence's guide and style, driven in Chromium as a person would: connect,
the guide opens by itself, the style is applied, every slide's blocks run (▶) and return rows on
the demo agent. One screenshot per slide in tests/browser/screenshots/."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from app.browser.slides import SLIDES
from tests.browser.conftest import POST_CONNECT_API, SCREENSHOTS

QUERY_TIMEOUT_MS = 60_000
# Browser's status line of a table result, and the drawing's count of nodes.
STREAMED = re.compile(r"started streaming (\d+) records|Displaying (\d+) nodes", re.IGNORECASE)
# No slide starts a person on a drawing larger than this.
MOST_DRAWN_NODES = 60
# The style's colours of a belief and a tool (cypher/browser/style.grass).
BELIEF_COLOUR = "#4C8EDA"


def _guide(page: Page) -> Locator:
    return page.get_by_test_id("guidesDrawer")


def _frames(page: Page) -> Locator:
    return page.get_by_test_id("frame")


def _clear(page: Page) -> None:
    """Browser's `:clear`, typed in its editor (the stream keeps at most 15 frames)."""
    page.locator("#monaco-main-editor").click()
    page.keyboard.type(":clear")
    page.get_by_test_id("editor-Run").click()
    try:
        expect(_frames(page)).to_have_count(0, timeout=QUERY_TIMEOUT_MS)
    except AssertionError:
        page.screenshot(path=str(SCREENSHOTS / "failed-clear.png"))
        raise


def _run_block(page: Page, block: Locator) -> Locator:
    """Clicks the ▶ of a guide block on a cleared stream; its frame, once the result is in."""
    _clear(page)
    block.locator("i.fa-play-circle-o").click()
    expect(_frames(page)).to_have_count(1, timeout=QUERY_TIMEOUT_MS)
    return _frames(page).first


def _rows_of(frame: Locator) -> int:
    """Rows a Cypher frame returned (its status line), once the result is in."""
    expect(frame.get_by_test_id("frame-loaded-contents")).to_be_visible(timeout=QUERY_TIMEOUT_MS)
    expect(frame.get_by_test_id("cypherFrameErrorMessage")).to_have_count(0)
    expect(frame).to_contain_text(STREAMED, timeout=QUERY_TIMEOUT_MS)
    streamed = STREAMED.search(frame.inner_text())
    assert streamed
    rows, drawn = streamed.groups()
    if drawn is not None:
        assert int(drawn) <= MOST_DRAWN_NODES, f"{drawn} nodes drawn"
        return int(drawn)
    return int(rows)


def test_browser_connects_and_opens_the_guide_on_connect(browser_page: Page) -> None:
    page = browser_page
    guide = _guide(page)

    expect(guide).to_contain_text("Credence: Credence demo", timeout=QUERY_TIMEOUT_MS)
    expect(guide).to_contain_text("Credence in Neo4j Browser")
    # Pagination numbers count from 1: the first slide and one per story.
    expect(guide.get_by_test_id(f"pagination-{len(SLIDES) + 1}")).to_be_visible()
    # Telemetry is off (client.allow_telemetry=false): Browser shows no consent banner ("To help
    # make Neo4j Browser better we collect information on product usage").
    expect(page.get_by_text("information on product usage", exact=False)).to_have_count(0)
    page.screenshot(path=str(SCREENSHOTS / "01-connected-guide.png"))


def test_the_style_is_applied_on_connect(browser_page: Page) -> None:
    page = browser_page
    style_frame = _frames(page).filter(has_text=f":style {POST_CONNECT_API}/browser/style.grass")

    expect(style_frame).to_have_count(1, timeout=QUERY_TIMEOUT_MS)
    expect(style_frame).to_contain_text("node.Belief")
    expect(style_frame).to_contain_text("relationship.SUPPORTS")


def test_every_slide_runs_and_returns_rows_on_the_demo_agent(browser_page: Page) -> None:
    page = browser_page
    guide = _guide(page)
    expect(guide).to_contain_text("Credence: Credence demo", timeout=QUERY_TIMEOUT_MS)
    empty: list[str] = []
    for index in range(len(SLIDES) + 1):
        guide.get_by_test_id(f"pagination-{index + 1}").click()
        blocks = guide.locator("pre.runnable")
        expect(blocks.first).to_be_visible()
        for position in range(blocks.count()):
            block = blocks.nth(position)
            code = block.inner_text().strip()
            frame = _run_block(page, block)
            if code.startswith(":"):  # :param agent_id, :style
                shows = "agent_id" if code.startswith(":param") else "node.Belief"
                expect(frame).to_contain_text(shows, timeout=QUERY_TIMEOUT_MS)
                expect(frame.get_by_test_id("cypherFrameErrorMessage")).to_have_count(0)
                continue
            if _rows_of(frame) == 0:
                empty.append(f"slide {index}: {code.splitlines()[0]}")
            page.wait_for_timeout(1500)  # a drawing's layout settles
            page.screenshot(path=str(SCREENSHOTS / f"{index + 2:02d}-slide-{index}-{position}.png"))
    assert not empty, f"queries with no rows on the demo agent: {empty}"


def test_drawn_beliefs_have_the_style_colour(browser_page: Page) -> None:
    page = browser_page
    guide = _guide(page)
    guide.get_by_test_id("pagination-2").click()
    drawing = guide.locator("pre.runnable").filter(has_text="draw").first
    if drawing.count() == 0:
        drawing = guide.locator("pre.runnable").last

    frame = _run_block(page, drawing)

    assert _rows_of(frame) > 0
    circles = frame.locator("svg g.node circle.b-outline")
    expect(circles.first).to_be_visible(timeout=QUERY_TIMEOUT_MS)
    fills = {circles.nth(i).get_attribute("fill") for i in range(circles.count())}
    assert BELIEF_COLOUR in {fill.upper() for fill in fills if fill}, fills
