"""The guide's slides: each tells one story of the agent's graph with the queries that show it.

A slide's queries are files of ``cypher/browser/guide/``, shown in Browser as runnable code
(their ``//`` header left out); each reads ``$agent_id``, which the guide's first block sets.
"""

from __future__ import annotations

from dataclasses import dataclass

GUIDE_QUERIES = "browser/guide"


@dataclass(frozen=True, slots=True)
class GuideQuery:
    """A runnable block: the query's name under ``browser/guide`` and what it shows."""

    name: str
    caption: str


@dataclass(frozen=True, slots=True)
class Slide:
    title: str
    lead: str
    text: tuple[str, ...]
    queries: tuple[GuideQuery, ...]


SLIDES: tuple[Slide, ...] = (
    Slide(
        title="What it holds most firmly",
        lead="The most firmly held beliefs that other beliefs support, and what holds each up.",
        text=(
            "A belief's strength is its default (0..1); where it holds in a context of its own "
            "(month_end, audit ...) that strength counts there, and it ranks by the higher of "
            "the two. SUPPORTS edges carry a weight: tension and revisions flow along them.",
        ),
        queries=(
            GuideQuery("list_strongest_beliefs", "Each belief, its strength and its supports"),
            GuideQuery("draw_strongest_beliefs", "Drawn: the five strongest and their supports"),
        ),
    ),
    Slide(
        title="The most contested belief",
        lead="The active belief with the most open contradictions, and what contradicts it.",
        text=(
            "A CONTRADICTS edge is one entry of the conflict register: its strength and whether "
            "it is open or resolved (and how). Challenging evidence raises the belief's tension; "
            "at 0.7 the belief is revised.",
            "The why is on both sides: who taught the contested belief (learned_from, with their "
            "authority) and whose words challenged the beliefs it contradicts (other_tension; "
            "drawn: the people and their evidence).",
        ),
        queries=(
            GuideQuery("list_contested_contradictions", "Its contradictions"),
            GuideQuery(
                "draw_contested_belief", "Drawn: contradictions and the people behind each side"
            ),
        ),
    ),
    Slide(
        title="A belief revised",
        lead="The latest revision: the belief it replaced, event by event, and who drove it.",
        text=(
            "Each correction is evidence from a person, weighed by their authority; the tension "
            "after each event climbs until the revision supersedes the belief "
            "(REVISED, PRODUCED, SUPERSEDED_BY).",
        ),
        queries=(
            GuideQuery("list_revision_lineage", "The old belief's events, oldest first"),
            GuideQuery("draw_revision_lineage", "Drawn: the lineage and the people behind it"),
        ),
    ),
    Slide(
        title="How a tool earned autonomy",
        lead="The calls of the most-used tool: asked for, approved, then run on its own.",
        text=(
            "A call a person approves and that succeeds strengthens the agent's belief that the "
            "tool does what is asked; a rejection weakens it; once strong enough, calls run "
            "without asking (mode autonomous). A destructive call can still be refused.",
        ),
        queries=(
            GuideQuery("list_tool_autonomy", "Each call and the tool belief's strength after it"),
            GuideQuery("draw_tool_autonomy", "Drawn: the calls, approvals and the belief"),
        ),
    ),
    Slide(
        title="An investigation's evidence",
        lead="The latest research investigation: each source, its stance, the conflicts.",
        text=(
            "Every source found is judged against the hypothesis (supports, contradicts, "
            "neutral); a conflict between sources is resolved on a stated basis (here, the "
            "newer source).",
        ),
        queries=(
            GuideQuery("list_research_evidence", "Sources and stances"),
            GuideQuery("draw_research_evidence", "Drawn: hypothesis, sources, conflict"),
        ),
    ),
    Slide(
        title="Dissatisfaction over time",
        lead="One sample per turn: how unsettled the agent's beliefs are, and when it revised.",
        text=(
            "Dissatisfaction D (0..1) sums the tension of important, well-connected beliefs; "
            "its band (low, medium, high) changes how a turn runs.",
            "On the demo agent D stays low: only a few of its beliefs carry tension, so the "
            "numbers are small. Look for where it rises (the corrections) and the turn with "
            "revisions 1, where it drops: the revision settled the tension.",
        ),
        queries=(GuideQuery("list_dissatisfaction", "The samples, oldest first"),),
    ),
)

OVERVIEW = GuideQuery("count_agent_graph", "What the agent's graph holds")
AGENTS = GuideQuery("list_agents", "The agents in this database")
