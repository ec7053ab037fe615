"""The Browser guide for one agent: HTML slides in the format Neo4j Browser plays (``<slide>``
elements, ``pre.runnable`` code it runs), written per request for the agent it names.

Which agent: the one of ``?agent_id=`` when given, else the demo agent (``credence demo``), found
by its name. Without one the guide is a single slide that says how to build it.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template

from app.browser.slides import AGENTS, GUIDE_QUERIES, OVERVIEW, SLIDES, GuideQuery, Slide
from app.demo import DEMO_AGENT_NAME
from app.demo.script import SIGN_OFF_SESSION
from app.errors import AgentNotFound
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.resources import resource_dir

TEMPLATES = Path(__file__).resolve().parent / "templates"
STYLE_FILE = ("browser", "style.grass")


@dataclass(frozen=True, slots=True)
class GuideAgent:
    """The agent a guide is written for; ``complete`` is false for a demo whose build stopped
    half-way (its last session is not closed)."""

    id: str
    name: str
    complete: bool


async def find_guide_agent(graph: GraphClient, agent_id: str | None) -> GuideAgent | None:
    """The agent of ``agent_id``, or the demo agent when it is None.

    Returns:
        None when no demo agent exists (``agent_id`` None).

    Raises:
        AgentNotFound: ``agent_id`` names no agent.
        GraphUnavailable: Neo4j cannot be reached.
    """
    rows = await graph.read(
        "browser/find_guide_agent",
        agent_id=agent_id,
        agent_name=DEMO_AGENT_NAME,
        final_session=SIGN_OFF_SESSION,
    )
    if not rows:
        if agent_id is not None:
            raise AgentNotFound(agent_id)
        return None
    row = rows[0]
    return GuideAgent(id=str(row["id"]), name=str(row["name"]), complete=bool(row["complete"]))


def render_guide(
    agent: GuideAgent | None, catalog: QueryCatalog, *, guide_url: str, style_url: str
) -> str:
    """The guide's HTML: a first slide that sets ``$agent_id`` and applies the style, one slide
    per story of :data:`~app.browser.slides.SLIDES`; without an agent, one slide that says to
    run ``credence demo`` and open ``guide_url`` again."""
    if agent is None:
        return _page("Credence: no demo agent yet", [_missing_demo_slide(catalog, guide_url)])
    slides = [_first_slide(agent, catalog, style_url)]
    slides += [_story_slide(slide, agent, catalog) for slide in SLIDES]
    return _page(f"Credence: {agent.name}", slides)


def style_sheet() -> str:
    """The GraSS style sheet (``cypher/browser/style.grass``)."""
    folder, name = STYLE_FILE
    return (resource_dir("cypher") / folder / name).read_text(encoding="utf-8")


def param_command(agent_id: str) -> str:
    """Browser's command that sets ``$agent_id`` (a Cypher string literal)."""
    literal = agent_id.replace("\\", "\\\\").replace('"', '\\"')
    return f':param agent_id => "{literal}"'


def query_text(catalog: QueryCatalog, query: GuideQuery) -> str:
    """A guide query as Browser shows it: the file without its ``//`` header."""
    text = catalog.get(f"{GUIDE_QUERIES}/{query.name}").source
    lines = text.splitlines()
    while lines and lines[0].lstrip().startswith("//"):
        lines.pop(0)
    return "\n".join(lines).strip()


def _first_slide(agent: GuideAgent, catalog: QueryCatalog, style_url: str) -> str:
    paragraphs = [
        f"This guide reads the graph of <b>{_e(agent.name)}</b> (<code>{_e(agent.id)}</code>). "
        "Click ▶ beside a block to run it; click the block itself to edit it first.",
        "Every query below reads <code>$agent_id</code>: run this once per Browser session "
        "(each slide repeats it).",
    ]
    if not agent.complete:
        paragraphs.append(
            "<b>This demo agent's build did not finish</b>: some stories may show no rows. "
            "Run <code>credence demo --rebuild</code>."
        )
    body = [_paragraph(text) for text in paragraphs]
    body.append(_code(param_command(agent.id), "Set the agent"))
    body.append(_code(query_text(catalog, OVERVIEW), OVERVIEW.caption))
    body.append(
        _paragraph(
            "The style (applied on connect) colours each kind of node and puts SUPPORTS weights "
            "and CONTRADICTS strengths on the edges; to apply it again:"
        )
    )
    body.append(_code(f":style {style_url}", "Apply Credence's style"))
    body.append(
        _paragraph(
            "Clicking a node lists its properties alphabetically (Browser's order), so a "
            "belief's statement and strength come after its embedding: the tables below name "
            "them first."
        )
    )
    return _slide("Credence in Neo4j Browser", "What one agent believes, and why.", body)


def _story_slide(slide: Slide, agent: GuideAgent, catalog: QueryCatalog) -> str:
    body = [_paragraph(_e(text)) for text in slide.text]
    body.append(_code(param_command(agent.id), f"The agent: {agent.name}"))
    body += [_code(query_text(catalog, query), query.caption) for query in slide.queries]
    return _slide(_e(slide.title), _e(slide.lead), body)


def _missing_demo_slide(catalog: QueryCatalog, guide_url: str) -> str:
    body = [
        _paragraph(
            f"No agent named <b>{_e(DEMO_AGENT_NAME)}</b> exists in this database yet. In the "
            "repository, run <code>credence demo</code> (or <code>make demo</code>): it builds "
            "an agent with a history in about a minute. Then open this guide again:"
        ),
        _code(f":guide {guide_url}", "Open the guide again"),
        _paragraph("Or pick an agent of your own with <code>?agent_id=</code>:"),
        _code(query_text(catalog, AGENTS), AGENTS.caption),
    ]
    return _slide("Run credence demo first", "The guide tells the demo agent's story.", body)


@cache
def _template(name: str) -> Template:
    return Template((TEMPLATES / name).read_text(encoding="utf-8"))


def _page(title: str, slides: list[str]) -> str:
    return _template("guide.html").substitute(title=_e(title), slides="\n".join(slides))


def _slide(title: str, lead: str, body: list[str]) -> str:
    return _template("slide.html").substitute(title=title, lead=lead, body="\n".join(body))


def _code(code: str, caption: str) -> str:
    return _template("code.html").substitute(code=_e(code), caption=_e(caption)).rstrip("\n")


def _paragraph(inner_html: str) -> str:
    return f"        <p>{inner_html}</p>"


def _e(text: str) -> str:
    return html.escape(text, quote=True)
