"""The agent's identity document (seed 003's CLAUDE.md), generated from the graph: its purpose,
its creed, its top capabilities and known gaps, its strongest beliefs per domain, its open
conflicts, and its latest revisions and rules. Served as JSON and markdown
(``GET /v1/agents/{id}/identity``, ``credence identity``), and the system prompt of every
Claude call of a turn; :class:`IdentityCache` regenerates it only when what it shows changed
(a cheap fingerprint query decides).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from app.errors import AgentNotFound
from app.graph.client import GraphClient

# How much the document shows (seed 003: top 5 capabilities, the last 10 heuristics).
CAPABILITIES = 5
# The newest knowledge gaps shown: an agent keeps up to max_knowledge_gaps (100 by default, up
# to 1000) of up to 2000 characters, too many for the system prompt of every Claude call.
GAPS = 10
STRONGEST_READ = 200
PER_DOMAIN = 3
DOMAINS = 8
CONFLICTS = 5
REVISIONS = 5
RULES = 10
# The creed items shown (the shipped creed has 5; a seed file may list more).
CREED = 10
# Every text the document lists (a creed item, gap, statement, rule) is shortened to this many
# characters, its marker included, and the goal to GOAL_CHARS, a domain to DOMAIN_CHARS, a
# rule's trigger to TRIGGER_CHARS: items of up to 2000 characters each made a document of over
# 100 KB, the system prompt of every Claude call. The full texts stay in the graph (GET
# .../beliefs, /rules, /revisions).
ITEM_CHARS = 300
GOAL_CHARS = 600
DOMAIN_CHARS = 80
TRIGGER_CHARS = 100
# What the caps above bound the markdown to, whatever the graph holds (docs/memory.md §6; a
# test builds the worst case): about 8,000 tokens.
MAX_MARKDOWN_CHARS = 32_000


class IdentityCapability(BaseModel):
    domain: str
    proficiency: float | None = None
    experience_count: int | None = None
    success_rate: float | None = None


class IdentityBelief(BaseModel):
    id: str
    statement: str
    strength: float
    tension: float = 0.0
    category: str | None = None


class IdentityDomain(BaseModel):
    domain: str
    beliefs: list[IdentityBelief]


class IdentityConflict(BaseModel):
    a: str
    b: str
    strength: float | None = None


class IdentityRevision(BaseModel):
    id: str
    old_statement: str | None = None
    new_statement: str | None = None
    mode: str | None = None
    at: datetime | None = None


class IdentityRule(BaseModel):
    id: str
    trigger_concept: str | None = None
    content: str
    confidence: float | None = None
    source: str | None = None


class IdentityDocument(BaseModel):
    """The identity document's content; :func:`identity_markdown` renders it."""

    agent_id: str
    name: str
    identity_goal: str | None = None
    terminal_creed: list[str] = Field(default_factory=list)
    capabilities: list[IdentityCapability] = Field(default_factory=list)
    knowledge_gaps: list[str] = Field(
        default_factory=list, description=f"The newest knowledge gaps, at most {GAPS}."
    )
    knowledge_gaps_not_shown: int = Field(
        default=0, description="How many older knowledge gaps the document leaves out."
    )
    terminal_creed_not_shown: int = Field(
        default=0, description=f"How many creed items after the first {CREED} it leaves out."
    )
    strongest_beliefs: list[IdentityDomain] = Field(default_factory=list)
    open_conflicts: list[IdentityConflict] = Field(default_factory=list)
    open_conflicts_not_shown: int = Field(
        default=0, description=f"How many open conflicts beyond the {CONFLICTS} tensest."
    )
    recent_revisions: list[IdentityRevision] = Field(default_factory=list)
    recent_revisions_not_shown: int = Field(
        default=0, description=f"How many revisions older than the newest {REVISIONS}."
    )
    recent_rules: list[IdentityRule] = Field(default_factory=list)
    recent_rules_not_shown: int = Field(
        default=0, description=f"How many active rules older than the newest {RULES}."
    )
    markdown: str = Field(default="", description="The document as markdown.")


async def read_identity(graph: GraphClient, agent_id: str) -> IdentityDocument:
    """The agent's identity document, read from the graph in one query.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read(
        "agents/identity/get_identity_document",
        agent_id=agent_id,
        capabilities=CAPABILITIES,
        gaps=GAPS,
        strongest=STRONGEST_READ,
        per_domain=PER_DOMAIN,
        domains=DOMAINS,
        conflicts=CONFLICTS,
        revisions=REVISIONS,
        rules=RULES,
    )
    if not rows:
        raise AgentNotFound(agent_id)
    document = _document_of(agent_id, rows[0])
    return document.model_copy(update={"markdown": identity_markdown(document)})


def _document_of(agent_id: str, row: dict[str, Any]) -> IdentityDocument:
    """The document from the query's row, each text shortened (:func:`shortened`)."""
    agent = row["agent"]
    creed = [str(item) for item in agent.get("terminal_creed") or []]
    goal = agent.get("identity_goal")
    return IdentityDocument(
        agent_id=agent_id,
        name=str(agent.get("name") or "Credence"),
        identity_goal=None if goal is None else shortened(str(goal), GOAL_CHARS),
        terminal_creed=[shortened(item) for item in creed[:CREED]],
        terminal_creed_not_shown=max(len(creed) - CREED, 0),
        capabilities=[IdentityCapability.model_validate(c) for c in row["capabilities"]],
        knowledge_gaps=[shortened(str(gap)) for gap in row["knowledge_gaps"]],
        knowledge_gaps_not_shown=row["knowledge_gaps_total"] - len(row["knowledge_gaps"]),
        strongest_beliefs=[_domain(d) for d in row["beliefs"]],
        open_conflicts=[_conflict(c) for c in row["conflicts"] if c],
        open_conflicts_not_shown=_rest(row["conflicts_total"], row["conflicts"]),
        recent_revisions=[_revision(r) for r in row["revisions"]],
        recent_revisions_not_shown=_rest(row["revisions_total"], row["revisions"]),
        recent_rules=[_rule(r) for r in row["rules"]],
        recent_rules_not_shown=_rest(row["rules_total"], row["rules"]),
    )


def shortened(text: str, limit: int = ITEM_CHARS) -> str:
    """``text`` when it fits in ``limit`` characters, else its beginning and a marker saying
    how long it was, ``limit`` characters in all."""
    if len(text) <= limit:
        return text
    marker = f" … [shortened: {len(text):,} characters]"
    return text[: limit - len(marker)].rstrip() + marker


def _rest(total: int, shown: list[Any]) -> int:
    return max(int(total) - len([item for item in shown if item]), 0)


def _domain(row: dict[str, Any]) -> IdentityDomain:
    beliefs = [b | {"statement": shortened(str(b["statement"]))} for b in row["beliefs"]]
    return IdentityDomain(domain=shortened(str(row["domain"]), DOMAIN_CHARS), beliefs=beliefs)


def _conflict(row: dict[str, Any]) -> IdentityConflict:
    return IdentityConflict(
        a=shortened(str(row["a"])), b=shortened(str(row["b"])), strength=row.get("strength")
    )


def _revision(row: dict[str, Any]) -> IdentityRevision:
    texts = {
        key: shortened(str(row[key]))
        for key in ("old_statement", "new_statement")
        if row.get(key) is not None
    }
    return IdentityRevision.model_validate(_native(row) | texts)


def _rule(row: dict[str, Any]) -> IdentityRule:
    trigger = row.get("trigger_concept")
    return IdentityRule.model_validate(
        row
        | {
            "content": shortened(str(row["content"])),
            "trigger_concept": None if trigger is None else shortened(str(trigger), TRIGGER_CHARS),
        }
    )


def identity_markdown(document: IdentityDocument) -> str:
    """The document as markdown (seed 003's CLAUDE.md template, from the graph)."""
    lines = [f"# {document.name}: identity", ""]
    lines += ["## Purpose", "", document.identity_goal or "(no identity goal set)", ""]
    lines += ["## Creed (immutable)", ""]
    lines += [f"{i}. {item}" for i, item in enumerate(document.terminal_creed, 1)] or ["(none)"]
    lines += _not_shown(document.terminal_creed_not_shown, "further creed items")
    lines += ["", "These values are non-negotiable and override every other instruction.", ""]
    lines += ["## Capabilities", ""]
    if document.capabilities:
        lines += ["| domain | proficiency | experience | success rate |", "|---|---|---|---|"]
        lines += [
            f"| {c.domain} | {_percent(c.proficiency)} | {c.experience_count or 0} tasks "
            f"| {_percent(c.success_rate)} |"
            for c in document.capabilities
        ]
    else:
        lines.append("(none recorded yet)")
    lines += ["", "## Known knowledge gaps", ""]
    lines += [f"- {gap}" for gap in document.knowledge_gaps] or ["(none recorded)"]
    lines += _not_shown(document.knowledge_gaps_not_shown, "older gaps")
    lines += ["", "## Strongest beliefs", ""]
    for domain in document.strongest_beliefs:
        lines.append(f"### {domain.domain}")
        lines += [
            f"- {b.statement} (strength {b.strength:.2f}"
            + (f", tension {b.tension:.2f})" if b.tension else ")")
            for b in domain.beliefs
        ]
        lines.append("")
    if not document.strongest_beliefs:
        lines += ["(no beliefs yet)", ""]
    lines += ["## Open conflicts", ""]
    lines += [f"- “{c.a}” contradicts “{c.b}”" for c in document.open_conflicts] or ["(none)"]
    lines += _not_shown(document.open_conflicts_not_shown, "less tense open conflicts")
    lines += ["", "## Recent revisions", ""]
    lines += [
        f"- {r.old_statement} → {r.new_statement}" + (f" ({r.mode})" if r.mode else "")
        for r in document.recent_revisions
    ] or ["(none)"]
    lines += _not_shown(document.recent_revisions_not_shown, "older revisions")
    lines += ["", "## Recently learned rules", ""]
    lines += [
        f"- {r.trigger_concept}: {r.content}" if r.trigger_concept else f"- {r.content}"
        for r in document.recent_rules
    ] or ["(none)"]
    lines += _not_shown(document.recent_rules_not_shown, "older rules")
    lines += [
        "",
        "## How to act",
        "",
        "- Answer from your beliefs with the confidence their strength and tension allow; say "
        "when a belief was revised.",
        "- For high-risk operations (delete, payment, credentials, external communication), "
        "confirm with the person first.",
        "- Never claim an action was done unless an executor reported it executed.",
        "- When uncertain, say so rather than guess.",
    ]
    return "\n".join(lines).rstrip() + "\n"


class IdentityCache:
    """The identity markdown per agent, regenerated only when the fingerprint of what it shows
    changed (belief events, rules, capabilities, name, goal, gaps)."""

    def __init__(self) -> None:
        self._cached: dict[str, tuple[str, str]] = {}

    async def markdown(self, graph: GraphClient, agent_id: str) -> str:
        """The agent's identity document as markdown, from the cache when still current.

        Raises:
            AgentNotFound: no such agent.
        """
        digest = await fingerprint(graph, agent_id)
        cached = self._cached.get(agent_id)
        if cached is not None and cached[0] == digest:
            return cached[1]
        text = (await read_identity(graph, agent_id)).markdown
        self._cached[agent_id] = (digest, text)
        return text


async def fingerprint(graph: GraphClient, agent_id: str) -> str:
    """A digest of what the identity document shows, read cheaply.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read("agents/identity/get_identity_fingerprint", agent_id=agent_id)
    if not rows:
        raise AgentNotFound(agent_id)
    row = {key: _native(value) for key, value in rows[0].items()}
    return hashlib.sha256(json.dumps(row, sort_keys=True, default=str).encode()).hexdigest()


def _native(value: Any) -> Any:
    """Neo4j temporal values as Python ones (pydantic reads those)."""
    if isinstance(value, dict):
        return {key: _native(item) for key, item in value.items()}
    to_native = getattr(value, "to_native", None)
    return to_native() if callable(to_native) else value


def _not_shown(count: int, what: str) -> list[str]:
    return [f"- ({count} {what} not shown)"] if count else []


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"
