"""Memory performance (docs/performance.md §2): context latency, episode import, pack loading.

1. Context latency. One agent holds N beliefs (a SUPPORTS hierarchy shaped like the one of
   ``bench/belief_updates.py``: 6 levels, fan-in 1-10, plus open CONTRADICTS between ~2 % of
   them), N episodes (sentences composed from word lists, 15-30 words, with speakers, sessions
   and outcomes), a few rules and the shipped frames; other agents hold smaller graphs of the
   same shape, so every index holds other agents' data. Every belief, episode and rule carries a
   384-d unit vector stored with ``db.create.setNodeVectorProperty`` (float32, as the app stores
   them): random vectors for the bulk (embedding 200k+ texts on the CPU would take hours),
   realistic words for the fulltext indexes. The real API runs in a
   subprocess (uvicorn, the app's factory) with an empty vector cache of its own; after a
   warm-up, ``GET /v1/agents/{id}/context?q=...&k=10`` is timed over HTTP for distinct realistic
   queries (each embedded by the real model), with the server's own ``timings_ms`` and the API
   process's memory (VmRSS, VmHWM).
2. Episode import. Episodes with new texts through ``POST /v1/agents/{id}/episodes`` in batches
   (the embedding model runs on every text), then the same texts into a second agent (every
   vector comes from the cache: the graph writes alone).
3. Pack loading. A generated, valid ``KnowledgePack`` of 20,000 beliefs (SUPPORTS hierarchy,
   contexts, contradicts) through ``app.packs.loader.load_pack`` with every vector precomputed
   (random unit vectors); and a 1,000-belief pack whose vectors the real model computes (no
   vector cache).

    .venv/bin/python bench/memory_performance.py            # 100k + 100k, 10 others x 10k + 10k
    .venv/bin/python bench/memory_performance.py --small    # 10k + 10k, 2 others x 2k + 2k
    .venv/bin/python bench/memory_performance.py --keep     # leave the data; the next run reuses it
    .venv/bin/python bench/memory_performance.py --clean    # delete every bench-memory- agent

Neo4j is the one the settings name (``CREDENCE_NEO4J_URI`` ..., default the local launcher's),
migrated. Every agent this creates has an id starting with ``bench-memory-``; all of them are
deleted at the end unless ``--keep``. The generated graph of the context part is named by its
sizes (``bench-memory-main-b100000-e100000`` ...) and marked complete once written, so a run after
``--keep`` with the same sizes reuses it instead of generating it again.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, LiteralString

import httpx
import numpy as np
from neo4j import AsyncDriver, AsyncGraphDatabase
from neo4j.vector import Vector

from app.beliefs.mechanics import Mechanics
from app.config import Settings, get_settings
from app.embeddings.bundled import Pair
from app.embeddings.embedder import Embedder
from app.embeddings.settings import EmbeddingSettings
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner
from app.memory.frames import install_frames
from app.memory.people.micro_birth import micro_birth_properties
from app.memory.settings import MemoryMechanics
from app.packs.loader import initial_strengths, load_pack, pack_checksum
from app.retrieval.context_inputs import assemble_context
from app.retrieval.models import ALL_SECTIONS, ContextRequest
from app.seeds.pack_schema import KnowledgePack, reference_problems
from app.text.lucene import agent_clause, lucene_terms

PREFIX = "bench-memory-"
REPO = Path(__file__).resolve().parent.parent
DIMENSIONS = 384
DEPTH = 6
MAX_FAN_IN = 10
GROWTH = 5.5
CONTRADICT_SHARE = 0.02
CATEGORIES = ("aesthetic", "contextual", "relational", "ethical")
OUTCOMES = (None, None, "success", "failure", "partial", "neutral")
WRITE_BATCH = 5_000
EDGE_BATCH = 10_000
EPISODES_PER_SESSION = 20

TARGET_CONTEXT_P50_MS = 20.0
TARGET_CONTEXT_P95_MS = 50.0
TARGET_IMPORT_PER_S = 500.0
TARGET_PACK_PER_S = 20_000.0
TARGET_PACK_EMBED_PER_S = 500.0

# ---------------------------------------------------------------------------------------------
# Words: statements, episode texts and queries are composed from these, so the fulltext indexes
# see a realistic vocabulary (a few hundred business words with realistic repetition).

SUBJECTS = (
    "Finance teams", "The controller", "A careful accountant", "External auditors",
    "The sales team", "Project managers", "New hires", "The CFO", "Support engineers",
    "The board", "Procurement", "Legal counsel", "Account managers", "The payroll team",
    "Team leads", "The operations manager", "Regional directors", "The treasury desk",
    "Data analysts", "The compliance officer", "Customer success", "The tax team",
    "Department heads", "The billing team", "Senior partners", "Junior analysts",
    "The hiring manager", "Internal audit", "The product owner", "Everyone on the team",
)  # fmt: skip
MODALS = (
    "should", "must", "are expected to", "can safely", "ought to", "usually",
    "rarely need to", "always", "never", "are trusted to",
)  # fmt: skip
VERBS = (
    "reconcile", "review", "approve", "document", "escalate", "forecast", "audit",
    "negotiate", "track", "verify", "prioritise", "automate", "report on", "archive",
    "double-check", "sign off", "challenge", "summarise", "flag", "reject", "schedule",
    "estimate", "renegotiate", "consolidate", "present", "investigate", "standardise",
    "benchmark", "allocate", "follow up on",
)  # fmt: skip
OBJECTS = (
    "vendor invoices", "the general ledger", "expense reports", "customer contracts",
    "payroll changes", "quarterly forecasts", "bank statements", "purchase orders",
    "tax filings", "revenue recognition", "the cash position", "travel expenses",
    "credit notes", "the budget variance", "intercompany transfers", "accrual entries",
    "the audit trail", "supplier onboarding", "discount requests", "the sales pipeline",
    "renewal quotes", "late payments", "the board deck", "capital expenditure",
    "headcount plans", "the month-end checklist", "refund requests", "currency exposure",
    "the fixed asset register", "inventory counts", "pricing exceptions", "the VAT return",
    "commission statements", "the cost allocation", "service level reports",
    "overdue receivables", "the chart of accounts", "contract amendments",
    "security incidents", "the hiring budget",
)  # fmt: skip
QUALIFIERS = (
    "before the month-end close", "within two business days", "when the amount exceeds the "
    "approval limit", "for every new client", "during the annual audit", "before anything is "
    "paid", "at the end of each quarter", "when a customer complains", "whenever the numbers "
    "look unusual", "before the board meeting", "as soon as the contract is signed",
    "in writing", "with a second pair of eyes", "when the deadline is tight",
    "for anything above ten thousand euros", "every Monday morning", "before the auditors "
    "arrive", "when the forecast slips", "for strategic accounts", "without waiting for "
    "approval", "after every incident", "in the shared tracker", "with the client in copy",
    "before the fiscal year ends", "when two sources disagree", "once the invoice is "
    "matched", "during onboarding", "for recurring vendors", "under time pressure",
    "even when it is inconvenient",
)  # fmt: skip
DOMAINS = (
    "accounting", "sales", "legal", "operations", "hr", "treasury", "tax", "audit",
    "procurement", "support",
)  # fmt: skip
PEOPLE = (
    ("Maria Lopez", "controller"), ("James Chen", "cfo"), ("Priya Natarajan", "accountant"),
    ("Tom Becker", "auditor"), ("Aisha Okafor", "sales lead"), ("Lukas Schmidt", "analyst"),
    ("Sofia Rossi", "payroll"), ("Daniel Kim", "procurement"), ("Emma Dubois", "legal"),
    ("Noah Williams", "operations"), ("Hannah Berg", "treasury"), ("Omar Haddad", "tax"),
    ("Chloe Martin", "billing"), ("Ravi Patel", "engineering"), ("Julia Novak", "hr"),
    ("Kenji Sato", "support"), ("Laura Fischer", "account manager"),
    ("Mateo Garcia", "project manager"), ("Ingrid Larsen", "compliance"),
    ("Samuel Adeyemi", "board member"),
)  # fmt: skip
CLIENTS = (
    "Acme Logistics", "Northwind Traders", "Globex", "Initech", "Umbrella Foods",
    "Stark Components", "Wayne Shipping", "Hooli", "Vandelay Imports", "Pied Piper",
    "Soylent Retail", "Cyberdyne Health", "Tyrell Energy", "Wonka Confectionery",
    "Oscorp Labs", "Massive Dynamic", "Gringotts Bank", "Monarch Travel", "Aperture Science",
    "Blue Sun Media", "Duff Beverages", "Krusty Catering", "Nakatomi Trading", "Zorg Industries",
    "Sirius Cybernetics", "Virtucon", "Bluth Homes", "Dunder Paper", "Prestige Worldwide",
    "Los Pollos Supplies",
)  # fmt: skip
OPENERS = (
    "I just finished reviewing", "We still need to approve", "Can you double-check",
    "I escalated", "The client asked about", "Finance flagged a problem with",
    "We agreed to postpone", "I sent a reminder about", "Nobody has looked at",
    "I reconciled", "We found duplicates in", "Please prepare", "I am worried about",
    "The auditors want to see", "Good news on", "We renegotiated", "I updated",
    "There is a delay with", "Let's automate", "I rejected",
)  # fmt: skip
TIMES = (
    "ahead of Friday's deadline", "before the quarter closes", "last Tuesday",
    "this morning", "for the third time this month", "before the board meeting next week",
    "since the system migration", "at the end of the fiscal year", "yesterday afternoon",
    "during the month-end close", "over the weekend", "right after the holidays",
    "before the audit starts", "for next month's forecast", "two weeks ago",
)  # fmt: skip
COMMENTS = (
    "the totals did not match the purchase orders and I flagged two duplicates",
    "everything reconciled on the first pass so we can close early",
    "the vendor disputes the discount and wants a call with legal",
    "we are missing three signatures from the regional directors",
    "the numbers look unusual compared with last year",
    "the controller wants a short summary before anything is paid",
    "the bank statement shows a transfer nobody can explain yet",
    "the client is happy with the new payment terms",
    "two invoices were booked to the wrong cost centre",
    "we should tighten the approval limit for this supplier",
    "the forecast slipped because of the delayed shipment",
    "the auditors accepted our explanation without further questions",
    "the contract renewal needs a second pair of eyes",
    "I think the exchange rate caused the variance",
    "payroll changes arrived late again and broke the schedule",
    "the sales team promised a discount that was never approved",
    "the tax adviser recommends filing the return early this time",
    "the shared tracker was out of date so people duplicated work",
    "the board asked for a clearer view of the cash position",
    "we lost a day waiting for the customer to confirm the order",
    "the credit note was issued without a matching refund request",
    "the inventory count differs from the ledger by a few units",
    "our new hire handled the escalation very well",
    "I would rather wait for the final figures before we commit",
    "the supplier finally sent the corrected invoice",
)  # fmt: skip
FOLLOW_UPS = (
    "Let me know what you think.", "I will follow up tomorrow.", "Can we discuss it on Monday?",
    "Please keep legal in copy.", "This is urgent.", "No action needed for now.",
    "I logged it in the tracker.", "We need a decision this week.",
)  # fmt: skip
QUESTION_FORMS = (
    "what did we decide about {object} for {client}",
    "how should we handle {object} {qualifier}",
    "who was dealing with {object} {time}",
    "any problems with {object} at {client}",
    "should {subject} {verb} {object} {qualifier}",
    "what did {person} say about {object}",
    "summarise the latest on {client} and {object}",
    "is it ok to {verb} {object} for {client} {time}",
)  # fmt: skip


class TextMaker:
    """Statements, episode texts (15-30 words) and queries from the word lists."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def statement(self) -> str:
        r = self.rng
        return (
            f"{r.choice(SUBJECTS)} {r.choice(MODALS)} {r.choice(VERBS)} "
            f"{r.choice(OBJECTS)} {r.choice(QUALIFIERS)}."
        )

    def episode_text(self) -> str:
        r = self.rng
        text = (
            f"{r.choice(OPENERS)} {r.choice(OBJECTS)} for {r.choice(CLIENTS)} "
            f"{r.choice(TIMES)}; {r.choice(COMMENTS)}."
        )
        if r.random() < 0.5:
            text += " " + r.choice(FOLLOW_UPS)
        return text

    def query(self) -> str:
        r = self.rng
        return r.choice(QUESTION_FORMS).format(
            object=r.choice(OBJECTS),
            client=r.choice(CLIENTS),
            qualifier=r.choice(QUALIFIERS),
            time=r.choice(TIMES),
            subject=r.choice(SUBJECTS).lower(),
            verb=r.choice(VERBS),
            person=r.choice(PEOPLE)[0].split()[0],
        )

    def distinct(self, count: int, make: str, avoid: set[str] | None = None) -> list[str]:
        """``count`` different texts of one kind (``statement``, ``episode_text``, ``query``)."""
        seen = set(avoid or ())
        out: list[str] = []
        maker = getattr(self, make)
        while len(out) < count:
            text = maker()
            if text not in seen:
                seen.add(text)
                out.append(text)
        return out


# ---------------------------------------------------------------------------------------------
# Bench-only Cypher (generation and clean-up). Vectors travel as Bolt vectors (neo4j.vector.Vector:
# 384 float32 in one byte string, ~10x cheaper to send than a list of floats) and are stored with
# db.create.setNodeVectorProperty(toFloatList(...)): a float32 array property, as the app stores
# them (this Neo4j's aligned store format cannot hold VECTOR-typed properties).

CREATE_AGENTS: LiteralString = """
UNWIND $agents AS agent
CREATE (a:Agent {id: agent.id, agent_id: agent.id})
SET a.name = agent.name, a.identity_goal = null, a.terminal_creed = [],
    a.birth_source = 'bench', a.industry = null, a.event_seq = 0,
    a.high_dissatisfaction_streak = 0,
    a.d_imp = 0.0, a.d_imp_deg = 0.0, a.d_t_imp = 0.0, a.d_t_imp_deg = 0.0, a.d_max_degree = 0,
    a.created_at = datetime(), a.bench_complete = false
RETURN count(a) AS created
"""

CREATE_PEOPLE: LiteralString = """
UNWIND $people AS person
CREATE (p:Person {id: randomUUID(), agent_id: $agent_id})
SET p += person, p.created_at = datetime()
RETURN count(p) AS created
"""

CREATE_BELIEFS: LiteralString = """
CYPHER 25
UNWIND $rows AS row
CREATE (b:Belief {id: row.id, agent_id: $agent_id})
SET b.statement = row.statement, b.category = row.category, b.domain = row.domain,
    b.strength = row.strength, b.tension = 0.0, b.importance = row.importance,
    b.is_core = row.is_core, b.is_immutable = false, b.is_active = true,
    b.is_distrusted = false, b.is_invalidated = false, b.reinforcement_count = 0, b.degree = 0,
    b.source = 'pack', b.pack_name = 'bench', b.pack_key = row.key, b.created_at = datetime()
WITH b, row
CALL (b, row) {
  CALL db.create.setNodeVectorProperty(b, 'embedding', toFloatList(row.embedding))
}
RETURN count(*) AS created
"""

CREATE_SUPPORTS: LiteralString = """
UNWIND $edges AS edge
MATCH (s:Belief {id: edge.source_id}), (t:Belief {id: edge.target_id})
CREATE (s)-[r:SUPPORTS {weight: edge.weight, pack: 'bench', created_at: datetime()}]->(t)
RETURN count(r) AS created
"""

CREATE_CONTRADICTS: LiteralString = """
UNWIND $edges AS edge
MATCH (s:Belief {id: edge.source_id}), (t:Belief {id: edge.target_id})
CREATE (s)-[r:CONTRADICTS {strength: edge.strength, status: 'open', pack: 'bench',
                           created_at: datetime()}]->(t)
RETURN count(r) AS created
"""

CREATE_EPISODES: LiteralString = """
CYPHER 25
UNWIND $rows AS row
CREATE (e:Episode {id: row.id, agent_id: $agent_id})
SET e.external_id = null, e.speaker = row.speaker, e.text = row.text, e.user_message = null,
    e.response = null, e.occurred_at = row.occurred_at, e.created_at = datetime(),
    e.outcome = row.outcome, e.emotional_valence = null, e.surprise = null, e.frame = null,
    e.actions = row.actions, e.trivial = row.actions < 2, e.interference = 0, e.salience = 1.0,
    e.is_peak = false, e.is_end = false, e.consolidated = false, e.revision_triggered = false,
    e.session_key = row.session, e.seq = row.seq, e.embedding_scheme = 2,
    e.search_text = CASE WHEN row.person IS NULL THEN row.text
                         ELSE row.speaker + ': ' + row.text END
WITH e, row
CALL (e, row) {
  CALL db.create.setNodeVectorProperty(e, 'embedding', toFloatList(row.embedding))
}
CALL (e, row) {
  WITH e, row WHERE row.previous IS NOT NULL
  MATCH (before:Episode {id: row.previous})
  CREATE (before)-[:NEXT]->(e)
}
CALL (e, row) {
  MERGE (s:Session {agent_id: $agent_id, key: row.session})
    ON CREATE SET s.id = randomUUID(), s.started_at = row.occurred_at
  SET s.started_at = CASE WHEN row.occurred_at < s.started_at THEN row.occurred_at
                          ELSE s.started_at END
  CREATE (e)-[:IN_SESSION]->(s)
}
CALL (e, row) {
  WITH e, row WHERE row.person IS NOT NULL
  MATCH (p:Person {agent_id: $agent_id, name_key: toLower(row.person)})
  CREATE (e)-[:WITH {role: 'speaker'}]->(p)
}
RETURN count(*) AS created
"""

CREATE_RULES: LiteralString = """
CYPHER 25
UNWIND $rows AS row
CREATE (r:Rule {id: randomUUID(), agent_id: $agent_id})
SET r.pack_name = 'bench', r.pack_key = row.key, r.created_at = datetime(), r.source = 'pack',
    r.confidence = row.confidence, r.validation_count = 0,
    r.trigger_concept = row.trigger_concept, r.content = row.content
WITH r, row
CALL (r, row) {
  CALL db.create.setNodeVectorProperty(r, 'embedding', toFloatList(row.embedding))
}
RETURN count(*) AS created
"""

MARK_COMPLETE: LiteralString = """
MATCH (a:Agent {id: $agent_id})
SET a.bench_complete = true, a.bench_beliefs = $beliefs, a.bench_episodes = $episodes
"""

FIND_AGENT: LiteralString = """
MATCH (a:Agent {id: $agent_id})
RETURN coalesce(a.bench_complete, false) AS complete
"""

LIST_BENCH_AGENTS: LiteralString = """
MATCH (a:Agent) WHERE a.id STARTS WITH 'bench-memory-' RETURN a.id AS id ORDER BY id
"""

# Everything an agent owns, label by label (each branch uses its label's agent_id index).
DELETE_AGENT: LiteralString = """
CALL () {
  MATCH (n:Episode {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Session {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:BeliefEvent {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Evidence {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Revision {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Belief {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Context {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Rule {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Censor {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Person {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Frame {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:KnowledgePack {agent_id: $agent_id}) RETURN n
  UNION ALL MATCH (n:Agent {id: $agent_id}) RETURN n
}
WITH n WHERE $agent_id STARTS WITH 'bench-memory-'
CALL (n) {
  DETACH DELETE n
} IN TRANSACTIONS OF 5000 ROWS
"""

VECTOR_INDEXES: LiteralString = "SHOW VECTOR INDEXES YIELD name, state, populationPercent"


# ---------------------------------------------------------------------------------------------
# The generated graph


@dataclass(frozen=True)
class Shape:
    beliefs: int
    episodes: int

    @property
    def rules(self) -> int:
        return max(10, self.beliefs // 500)


def level_sizes(n: int) -> list[int]:
    """Sizes of the 6 levels (top first), growing by GROWTH, summing to ``n`` (as in
    bench/belief_updates.py)."""
    total = sum(GROWTH**k for k in range(DEPTH))
    sizes = [max(1, round(n * GROWTH**k / total)) for k in range(DEPTH - 1)]
    sizes.append(n - sum(sizes))
    for upper, lower in itertools.pairwise(sizes):
        if not upper <= lower <= MAX_FAN_IN * upper:
            raise ValueError(f"{n} beliefs cannot make {DEPTH} levels with fan-in 1..{MAX_FAN_IN}")
    return sizes


def hierarchy(n: int, rng: random.Random) -> tuple[list[int], list[int]]:
    """(level, parent) per belief index: each belief below the top SUPPORTS one parent one level
    up; every parent has 1..MAX_FAN_IN supporters."""
    sizes = level_sizes(n)
    level = [lvl for lvl, size in enumerate(sizes) for _ in range(size)]
    parent = [-1] * n
    start = 0
    for lvl in range(1, DEPTH):
        upper_start, upper = start, sizes[lvl - 1]
        start += upper
        counts = [1] * upper
        open_parents = list(range(upper))
        for _ in range(sizes[lvl] - upper):
            slot = rng.randrange(len(open_parents))
            p = open_parents[slot]
            counts[p] += 1
            if counts[p] == MAX_FAN_IN:
                open_parents[slot] = open_parents[-1]
                open_parents.pop()
        slots = [upper_start + p for p, count in enumerate(counts) for _ in range(count)]
        rng.shuffle(slots)
        for offset, p in enumerate(slots):
            parent[start + offset] = p
    return level, parent


def contradiction_pairs(level: Sequence[int], rng: random.Random) -> list[tuple[int, int]]:
    """~CONTRADICT_SHARE of the beliefs below the top two levels, each against another belief
    of its own level."""
    by_level: dict[int, list[int]] = {}
    for i, lvl in enumerate(level):
        by_level.setdefault(lvl, []).append(i)
    pairs: list[tuple[int, int]] = []
    for lvl, members in by_level.items():
        if lvl < 2 or len(members) < 2:
            continue
        for a in rng.sample(members, max(1, round(len(members) * CONTRADICT_SHARE))):
            b = rng.choice(members)
            if b != a:
                pairs.append((a, b))
    return pairs


def progress(text: str) -> None:
    """A progress line, overwritten in place on a terminal (left out of logs)."""
    if sys.stdout.isatty():
        print(f"   {text}\033[K", end="\r", flush=True)


def unit_vectors(generator: np.random.Generator, count: int) -> np.ndarray[Any, Any]:
    """``count`` random 384-d unit vectors (float32), one per row."""
    matrix = generator.standard_normal((count, DIMENSIONS)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix


def add_vectors(rows: list[dict[str, Any]], generator: np.random.Generator) -> None:
    """Gives each row an ``embedding``: a random unit vector as a Bolt vector (big-endian)."""
    for row, vector in zip(rows, unit_vectors(generator, len(rows)), strict=True):
        row["embedding"] = Vector(vector.astype(">f4"))


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f}"


async def settle(quiet_load: float = 1.0, limit_s: float = 180.0) -> str:
    """After bulk writes: wait (at most ``limit_s``) until the one-minute load average is below
    ``quiet_load`` — Neo4j keeps merging index segments and flushing pages for a while, and a
    measurement started at once reads that background work (a turn benchmark right after
    generating its agent: p95 166 ms at load 3.0, 135 ms on the same graph later)."""
    started = time.perf_counter()
    for _ in range(int(limit_s // 5)):  # polling the load average: there is no event to await
        if os.getloadavg()[0] < quiet_load:
            break
        await asyncio.sleep(5)
    return f"settled in {time.perf_counter() - started:.0f} s (load average {load_average()})"


def driver_for(settings: Settings) -> AsyncDriver:
    return AsyncGraphDatabase.driver(
        settings.neo4j_uri,
        auth=(settings.neo4j_user, settings.neo4j_password.get_secret_value()),
        notifications_min_severity="OFF",
    )


async def run_write(
    driver: AsyncDriver, database: str, query: LiteralString, **params: Any
) -> list[dict[str, Any]]:
    async with driver.session(database=database) as session:

        async def work(tx: Any) -> list[dict[str, Any]]:
            result = await tx.run(query, params)
            return [record.data() async for record in result]

        rows: list[dict[str, Any]] = await session.execute_write(work)
        return rows


async def run_autocommit(
    driver: AsyncDriver, database: str, query: LiteralString, **params: Any
) -> list[dict[str, Any]]:
    async with driver.session(database=database) as session:
        result = await session.run(query, params)
        return [record.data() async for record in result]


async def create_agents(driver: AsyncDriver, database: str, ids: Sequence[str]) -> None:
    agents = [{"id": agent_id, "name": f"{agent_id} (benchmark)"} for agent_id in ids]
    await run_write(driver, database, CREATE_AGENTS, agents=agents)


async def generate_agent(
    driver: AsyncDriver,
    graph: GraphClient,
    database: str,
    agent_id: str,
    shape: Shape,
    rng: random.Random,
    label: str,
    memory: MemoryMechanics,
) -> None:
    """Writes one agent's beliefs (hierarchy + contradictions), episodes, people and rules."""
    texts = TextMaker(rng)
    vectors = np.random.default_rng(rng.randrange(2**32))
    await create_agents(driver, database, [agent_id])
    # Speakers as the episode import micro-births them, then known a little better.
    people = [
        {
            **micro_birth_properties(agent_id, name, memory, datetime.now(UTC)),
            "role": role,
            "interaction_count": rng.randrange(5, 200),
            "relationship_value": round(rng.uniform(0.2, 0.9), 2),
        }
        for name, role in PEOPLE
    ]
    await run_write(driver, database, CREATE_PEOPLE, agent_id=agent_id, people=people)
    # The shipped frames, as a full birth installs them (the context reads the agent's frames).
    await install_frames(graph, agent_id)

    started = time.perf_counter()
    level, parent = hierarchy(shape.beliefs, rng)
    ids = [str(uuid.uuid4()) for _ in range(shape.beliefs)]
    for at in range(0, shape.beliefs, WRITE_BATCH):
        rows = [
            {
                "id": ids[i],
                "key": f"b{i:06d}",
                "statement": texts.statement(),
                "category": rng.choice(CATEGORIES),
                "domain": rng.choice(DOMAINS),
                "strength": round(rng.uniform(0.3, 0.95), 4),
                "importance": round(rng.uniform(0.2, 1.0), 3),
                "is_core": level[i] == 0,
            }
            for i in range(at, min(at + WRITE_BATCH, shape.beliefs))
        ]
        add_vectors(rows, vectors)
        await run_write(driver, database, CREATE_BELIEFS, agent_id=agent_id, rows=rows)
        progress(f"{label}: beliefs {at + len(rows):,}/{shape.beliefs:,}")
    nodes_s = time.perf_counter() - started
    supports = [
        {"source_id": ids[i], "target_id": ids[p], "weight": round(rng.uniform(0.1, 1.0), 3)}
        for i, p in enumerate(parent)
        if p >= 0
    ]
    for at in range(0, len(supports), EDGE_BATCH):
        await run_write(driver, database, CREATE_SUPPORTS, edges=supports[at : at + EDGE_BATCH])
    contradicts = [
        {"source_id": ids[a], "target_id": ids[b], "strength": round(rng.uniform(0.2, 0.9), 2)}
        for a, b in contradiction_pairs(level, rng)
    ]
    for at in range(0, len(contradicts), EDGE_BATCH):
        await run_write(
            driver, database, CREATE_CONTRADICTS, edges=contradicts[at : at + EDGE_BATCH]
        )
    edges_s = time.perf_counter() - started - nodes_s
    # Degrees and dissatisfaction sums, the way a bulk loader must (the app's own query).
    await graph.write("beliefs/dissatisfaction/recompute_sums", agent_id=agent_id)
    beliefs_s = time.perf_counter() - started

    started = time.perf_counter()
    now = datetime.now(UTC)
    previous: str | None = None
    for at in range(0, shape.episodes, WRITE_BATCH):
        rows = []
        for i in range(at, min(at + WRITE_BATCH, shape.episodes)):
            person = rng.choice(PEOPLE)[0] if rng.random() < 0.6 else None
            episode_id = str(uuid.uuid4())
            seq = i % EPISODES_PER_SESSION
            # Sessions of EPISODES_PER_SESSION turns chained by NEXT, as the import links them.
            previous = previous if seq else None
            rows.append(
                {
                    "id": episode_id,
                    "seq": seq,
                    "previous": previous,
                    "text": texts.episode_text(),
                    "speaker": person or "assistant",
                    "person": person,
                    "occurred_at": now - timedelta(seconds=rng.uniform(0, 400 * 86_400)),
                    "outcome": rng.choice(OUTCOMES),
                    "actions": rng.randrange(0, 5),
                    "session": f"s{i // EPISODES_PER_SESSION:06d}",
                }
            )
            previous = episode_id
        add_vectors(rows, vectors)
        await run_write(driver, database, CREATE_EPISODES, agent_id=agent_id, rows=rows)
        progress(f"{label}: episodes {at + len(rows):,}/{shape.episodes:,}")
    episodes_s = time.perf_counter() - started

    rules = [
        {
            "key": f"r{i:04d}",
            "trigger_concept": rng.choice(OBJECTS),
            "content": f"When handling {rng.choice(OBJECTS)}, {rng.choice(VERBS)} it "
            f"{rng.choice(QUALIFIERS)}.",
            "confidence": round(rng.uniform(0.5, 0.9), 2),
        }
        for i in range(shape.rules)
    ]
    add_vectors(rules, vectors)
    await run_write(driver, database, CREATE_RULES, agent_id=agent_id, rows=rules)
    await run_write(
        driver,
        database,
        MARK_COMPLETE,
        agent_id=agent_id,
        beliefs=shape.beliefs,
        episodes=shape.episodes,
    )
    print(
        f"   {label}: {shape.beliefs:,} beliefs ({len(supports):,} SUPPORTS, "
        f"{len(contradicts):,} CONTRADICTS) in {beliefs_s:.1f} s (nodes {nodes_s:.1f}, edges "
        f"{edges_s:.1f}, sums {beliefs_s - nodes_s - edges_s:.1f}), {shape.episodes:,} episodes in "
        f"{episodes_s:.1f} s ({shape.episodes / max(episodes_s, 1e-9):,.0f}/s), "
        f"{shape.rules} rules"
    )


async def delete_agent(driver: AsyncDriver, database: str, agent_id: str) -> None:
    if not agent_id.startswith(PREFIX):
        raise ValueError(f"refusing to delete {agent_id!r}: not a {PREFIX} agent")
    await run_autocommit(driver, database, DELETE_AGENT, agent_id=agent_id)


VECTOR_INDEX_LABELS: tuple[tuple[LiteralString, LiteralString], ...] = (
    ("belief_embedding", "Belief"),
    ("episode_embedding", "Episode"),
    ("rule_embedding", "Rule"),
)


async def rebuild_vector_indexes(driver: AsyncDriver, database: str) -> None:
    """Drops and recreates the vector indexes (definitions as in schema/V0004). Neo4j 2026.08.1's
    filtered vector search failed (Lucene FixedBitSet out of bounds) after bulk deletes of this
    size until the index was rebuilt (docs/known-problems.md), so every bulk delete ends here."""
    for name, label in VECTOR_INDEX_LABELS:
        await run_autocommit(driver, database, "DROP INDEX " + name + " IF EXISTS")
        await run_autocommit(
            driver,
            database,
            "CYPHER 25 CREATE VECTOR INDEX "
            + name
            + " IF NOT EXISTS FOR (n:"
            + label
            + ") ON n.embedding WITH [n.agent_id] OPTIONS {indexConfig: "
            "{`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}",
        )
    await run_autocommit(driver, database, "CALL db.awaitIndexes(3600)")


async def wait_for_vector_indexes(driver: AsyncDriver, database: str, timeout_s: float) -> float:
    started = time.perf_counter()
    while True:
        rows = await run_autocommit(driver, database, VECTOR_INDEXES)
        pending = [r for r in rows if r["state"] != "ONLINE" or r["populationPercent"] < 100.0]
        if not pending:
            return time.perf_counter() - started
        if time.perf_counter() - started > timeout_s:
            raise SystemExit(f"vector indexes not ONLINE after {timeout_s:.0f} s: {pending}")
        await asyncio.sleep(1.0)


@dataclass
class Prepared:
    main: str
    others: list[str]
    created: list[str]
    reused: list[str]
    seconds: float
    index_wait_s: float


async def prepare(settings: Settings, args: argparse.Namespace) -> Prepared:
    """The context part's graph: reused when a complete one of the same sizes is there."""
    driver = driver_for(settings)
    graph = GraphClient.from_settings(settings.neo4j)
    database = settings.neo4j_database
    started = time.perf_counter()
    main_shape = Shape(args.beliefs, args.episodes)
    other_shape = Shape(args.other_beliefs, args.other_episodes)
    # v2: episodes carry search_text, seq and NEXT edges (migration V0018).
    main = f"{PREFIX}main-v2-b{main_shape.beliefs}-e{main_shape.episodes}"
    others = [
        f"{PREFIX}other-v2-{k:02d}-b{other_shape.beliefs}-e{other_shape.episodes}"
        for k in range(args.other_agents)
    ]
    created: list[str] = []
    reused: list[str] = []
    try:
        for n, (agent_id, shape) in enumerate(
            [(main, main_shape), *((other, other_shape) for other in others)]
        ):
            found = await run_autocommit(driver, database, FIND_AGENT, agent_id=agent_id)
            if found and found[0]["complete"]:
                reused.append(agent_id)
                continue
            if found:
                print(f"   {agent_id}: incomplete (an interrupted run); deleting it")
                await delete_agent(driver, database, agent_id)
            # Per-agent seed: the same sizes give the same graph, whichever agents are reused.
            rng = random.Random(f"{args.seed}-{agent_id}")
            await generate_agent(
                driver,
                graph,
                database,
                agent_id,
                shape,
                rng,
                "main" if n == 0 else agent_id,
                settings.memory,
            )
            created.append(agent_id)
        index_wait_s = await wait_for_vector_indexes(driver, database, args.index_timeout)
    finally:
        await graph.close()
        await driver.close()
    return Prepared(
        main, others, created, reused, time.perf_counter() - started, index_wait_s=index_wait_s
    )


async def delete_agents(settings: Settings, ids: Sequence[str]) -> float:
    driver = driver_for(settings)
    started = time.perf_counter()
    try:
        for agent_id in ids:
            await delete_agent(driver, settings.neo4j_database, agent_id)
        if ids:
            await rebuild_vector_indexes(driver, settings.neo4j_database)
    finally:
        await driver.close()
    return time.perf_counter() - started


async def delete_all_bench_agents(settings: Settings) -> list[str]:
    driver = driver_for(settings)
    try:
        rows = await run_autocommit(driver, settings.neo4j_database, LIST_BENCH_AGENTS)
        ids = [row["id"] for row in rows]
        for agent_id in ids:
            await delete_agent(driver, settings.neo4j_database, agent_id)
        if ids:
            await rebuild_vector_indexes(driver, settings.neo4j_database)
    finally:
        await driver.close()
    return ids


async def create_agents_now(settings: Settings, ids: Sequence[str]) -> None:
    driver = driver_for(settings)
    try:
        await create_agents(driver, settings.neo4j_database, ids)
    finally:
        await driver.close()


# ---------------------------------------------------------------------------------------------
# Figures


@dataclass(frozen=True)
class Latency:
    samples: int
    p50: float
    p95: float
    p99: float
    max: float

    @classmethod
    def of(cls, ms: Sequence[float]) -> Latency:
        ordered = sorted(ms)
        if len(ordered) > 1:
            cuts = statistics.quantiles(ordered, n=100, method="inclusive")
            p95, p99 = cuts[94], cuts[98]
        else:
            p95 = p99 = ordered[0]
        return cls(len(ordered), statistics.median(ordered), p95, p99, ordered[-1])

    def line(self) -> str:
        return (
            f"p50 {self.p50:7.1f}  p95 {self.p95:7.1f}  p99 {self.p99:7.1f}  "
            f"max {self.max:7.1f} ms  (n={self.samples})"
        )


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


# ---------------------------------------------------------------------------------------------
# The API in a subprocess


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def memory_of(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in MiB."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) // 1024
    return out


@dataclass
class ApiServer:
    """``uvicorn app.api.app:create_app --factory`` on a free port, with its own empty vector
    cache (so no query or episode text is answered from an earlier run's cache); ``repo`` is
    the code base it runs (another checkout's, e.g. an older commit's worktree, for a paired
    comparison: it is the working directory and the head of PYTHONPATH)."""

    workdir: Path
    env_extra: dict[str, str] = field(default_factory=dict)
    repo: Path = REPO
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    start_s: float = 0.0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.workdir / "api.log"

    def start(self, timeout_s: float = 180.0) -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "CREDENCE_MIGRATE_ON_START": "true",
            "CREDENCE_EMBEDDINGS__CACHE_PATH": str(self.workdir / "vectors.sqlite3"),
            "CREDENCE_EMBEDDINGS__PRELOAD": "true",
            "CREDENCE_LOG_LEVEL": "WARNING",
            # No default agent born at start-up: the bench writes only bench-memory- agents.
            "CREDENCE_DEFAULT_AGENT": "",
            **self.env_extra,
        }
        if self.repo != REPO:
            env["PYTHONPATH"] = os.pathsep.join(
                [str(self.repo), *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]]
            )
        command = [
            sys.executable, "-m", "uvicorn", "app.api.app:create_app", "--factory",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--log-level", "warning", "--no-access-log",
        ]  # fmt: skip
        started = time.perf_counter()
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command, cwd=self.repo, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = started + timeout_s
        while time.perf_counter() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the API exited ({self.process.returncode}):\n{self.log_tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base_url}/ready", timeout=2.0).status_code == 200:
                    self.start_s = time.perf_counter() - started
                    return
            time.sleep(0.25)
        raise SystemExit(f"the API was not ready after {timeout_s:.0f} s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def memory(self) -> dict[str, int]:
        assert self.process is not None
        return memory_of(self.process.pid)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


@contextlib.contextmanager
def api_server(env_extra: dict[str, str] | None = None, repo: Path = REPO) -> Iterator[ApiServer]:
    with tempfile.TemporaryDirectory(prefix="bench-memory-api-") as workdir:
        server = ApiServer(Path(workdir), env_extra or {}, repo)
        try:
            server.start()
            yield server
        finally:
            server.stop()


# ---------------------------------------------------------------------------------------------
# 1. Context latency


@dataclass
class ContextFigures:
    latency: Latency
    server_medians: dict[str, float]
    server_p95: dict[str, float]
    items: dict[str, float]
    degraded: int
    section_errors: dict[str, int]
    rss_mib: dict[str, int]
    load: str


def context_params(q: str, k: int, sections: Sequence[str]) -> dict[str, Any]:
    """The query string of ``GET /context`` (``sections``: those wanted, empty: all)."""
    return {"q": q, "k": k, **({"section": list(sections)} if sections else {})}


def measure_context(
    server: ApiServer,
    agent_id: str,
    warmup: Sequence[str],
    queries: Sequence[str],
    k: int,
    sections: Sequence[str] = (),
) -> ContextFigures:
    url = f"{server.base_url}/v1/agents/{agent_id}/context"
    timings: dict[str, list[float]] = {}
    items: dict[str, list[int]] = {}
    errors: dict[str, int] = {}
    degraded = 0
    ms: list[float] = []
    with httpx.Client(timeout=60.0) as client:
        for q in warmup:
            client.get(url, params=context_params(q, k, sections)).raise_for_status()
        for q in queries:
            started = time.perf_counter()
            response = client.get(url, params=context_params(q, k, sections))
            elapsed = (time.perf_counter() - started) * 1000.0
            response.raise_for_status()
            ms.append(elapsed)
            body = response.json()
            degraded += bool(body["degraded"])
            for name, value in body["timings_ms"].items():
                timings.setdefault(name, []).append(float(value))
            for name, section in body["sections"].items():
                items.setdefault(name, []).append(len(section["items"]))
                if section.get("error"):
                    errors[name] = errors.get(name, 0) + 1
    return ContextFigures(
        latency=Latency.of(ms),
        server_medians={name: statistics.median(v) for name, v in timings.items()},
        server_p95={name: Latency.of(v).p95 for name, v in timings.items()},
        items={name: statistics.mean(v) for name, v in items.items()},
        degraded=degraded,
        section_errors=errors,
        rss_mib=server.memory(),
        load=load_average(),
    )


# ---------------------------------------------------------------------------------------------
# 2. Episode import


@dataclass
class ImportFigures:
    label: str
    episodes: int
    seconds: float
    batch_ms: Latency
    load: str

    @property
    def per_s(self) -> float:
        return self.episodes / self.seconds


def episode_batches(
    texts: Sequence[str], batch: int, rng: random.Random, tag: str
) -> list[dict[str, Any]]:
    now = datetime.now(UTC)
    items = []
    for i, text in enumerate(texts):
        person = rng.choice(PEOPLE)[0] if rng.random() < 0.6 else None
        items.append(
            {
                "external_id": f"{tag}-{i:06d}",
                "speaker": person or "assistant",
                "text": text,
                "occurred_at": (now - timedelta(seconds=(len(texts) - i) * 60)).isoformat(),
                "session": f"{tag}-s{i // EPISODES_PER_SESSION:05d}",
                "outcome": rng.choice(OUTCOMES),
            }
        )
    return [{"episodes": items[at : at + batch]} for at in range(0, len(items), batch)]


def measure_import(
    server: ApiServer, agent_id: str, bodies: Sequence[dict[str, Any]], label: str
) -> ImportFigures:
    url = f"{server.base_url}/v1/agents/{agent_id}/episodes"
    batch_ms: list[float] = []
    total = 0
    with httpx.Client(timeout=600.0) as client:
        started = time.perf_counter()
        for body in bodies:
            begun = time.perf_counter()
            response = client.post(url, json=body)
            batch_ms.append((time.perf_counter() - begun) * 1000.0)
            if response.status_code != 201:
                raise SystemExit(f"import failed ({response.status_code}): {response.text[:500]}")
            report = response.json()
            if report["created"] != len(body["episodes"]) or not report["embedded"]:
                raise SystemExit(f"import did not create and embed every episode: {report}")
            total += report["created"]
            progress(f"{label}: {total:,} episodes")
        seconds = time.perf_counter() - started
    return ImportFigures(label, total, seconds, Latency.of(batch_ms), load_average())


# ---------------------------------------------------------------------------------------------
# 3. Pack loading


@dataclass
class PackFigures:
    label: str
    beliefs: int
    seconds: float
    supports: int
    contradicts: int
    prep_s: dict[str, float]
    load: str

    @property
    def per_s(self) -> float:
        return self.beliefs / self.seconds


class TimedEmbedder(Embedder):
    """The real model, adding up the seconds spent embedding (to split a load's time)."""

    def __init__(self, settings: EmbeddingSettings) -> None:
        super().__init__(settings)
        self.seconds = 0.0

    async def embed(self, texts: Sequence[str], kind: Pair = "passage") -> list[list[float]] | None:
        started = time.perf_counter()
        try:
            return await super().embed(texts, kind)
        finally:
            self.seconds += time.perf_counter() - started


def make_pack(name: str, n: int, rng: random.Random) -> KnowledgePack:
    """A valid pack: SUPPORTS hierarchy (child -> parent), ~10 % with contexts, ~1 % contradicts."""
    texts = TextMaker(rng).distinct(n, "statement")
    level, parent = hierarchy(n, rng)
    contexts = ("month_end", "acme/month_end", "audit", "year_end", "sales/renewals")
    beliefs: list[dict[str, Any]] = []
    for i in range(n):
        belief: dict[str, Any] = {
            "key": f"b{i:06d}",
            "statement": texts[i],
            "category": rng.choice(CATEGORIES),
            "domain": rng.choice(DOMAINS),
            "strength": round(rng.uniform(0.3, 0.95), 3),
            "importance": round(rng.uniform(0.2, 1.0), 3),
            "is_core": level[i] == 0,
        }
        if parent[i] >= 0:
            belief["supports"] = [
                {"key": f"b{parent[i]:06d}", "weight": round(rng.uniform(0.1, 1.0), 3)}
            ]
        if rng.random() < 0.1:
            belief["contexts"] = {rng.choice(contexts): round(rng.uniform(0.3, 0.95), 2)}
        beliefs.append(belief)
    for a, b in contradiction_pairs(level, rng)[: max(1, n // 100)]:
        beliefs[a].setdefault("contradicts", []).append(
            {"key": f"b{b:06d}", "strength": round(rng.uniform(0.2, 0.9), 2)}
        )
    pack = KnowledgePack.model_validate(
        {
            "name": name,
            "version": 1,
            "industry": "bench",
            "description": f"Generated benchmark pack of {n:,} beliefs.",
            "beliefs": beliefs,
        }
    )
    problems = reference_problems(pack)
    if problems:
        raise SystemExit(f"generated pack is invalid: {problems[:5]}")
    return pack


def random_unit_vectors(keys: Sequence[str], seed: int) -> dict[str, list[float]]:
    """Vectors as the loader takes them (lists of floats)."""
    matrix = unit_vectors(np.random.default_rng(seed), len(keys))
    return {key: row.tolist() for key, row in zip(keys, matrix, strict=True)}


async def measure_packs(
    settings: Settings, run: str, args: argparse.Namespace, agents: list[str]
) -> list[PackFigures]:
    m: Mechanics = settings.mechanics
    rng = random.Random(f"{args.seed}-packs")
    graph = GraphClient.from_settings(settings.neo4j)
    figures: list[PackFigures] = []
    try:
        # Precomputed vectors.
        agent_id = f"{PREFIX}{run}-pack-{args.pack_beliefs}"
        agents.append(agent_id)
        await create_agents_now(settings, [agent_id])
        pack = make_pack("bench-memory-pack", args.pack_beliefs, rng)
        vectors = random_unit_vectors([b.key for b in pack.beliefs], args.seed)
        prep: dict[str, float] = {}
        started = time.perf_counter()
        pack_checksum(pack)
        prep["checksum"] = time.perf_counter() - started
        started = time.perf_counter()
        initial_strengths(pack, {})
        prep["strengths"] = time.perf_counter() - started
        started = time.perf_counter()
        report = await load_pack(graph, None, m, agent_id, pack, vectors=vectors)
        seconds = time.perf_counter() - started
        if report.created != args.pack_beliefs or not report.embedded:
            raise SystemExit(f"pack load incomplete: {report}")
        figures.append(
            PackFigures(
                "precomputed vectors",
                report.created,
                seconds,
                report.supports_created,
                report.contradicts_created,
                prep,
                load_average(),
            )
        )
        print(f"   pack ({args.pack_beliefs:,}, vectors precomputed): {seconds:.2f} s")

        # Vectors computed by the model (no cache), model loaded before the clock starts.
        embedder = TimedEmbedder(EmbeddingSettings(cache_path=""))
        status = await asyncio.to_thread(embedder.status)
        if not status.available:
            raise SystemExit(f"embeddings unavailable: {status.reason}")
        await embedder.embed(["warm-up sentence for the embedding model"])
        agent_id = f"{PREFIX}{run}-pack-embed-{args.pack_embed_beliefs}"
        agents.append(agent_id)
        await create_agents_now(settings, [agent_id])
        small = make_pack("bench-memory-pack-embed", args.pack_embed_beliefs, rng)
        started = time.perf_counter()
        await embedder.embed([b.statement for b in small.beliefs])
        embed_only = time.perf_counter() - started
        embedder.seconds = 0.0
        started = time.perf_counter()
        report = await load_pack(graph, embedder, m, agent_id, small)
        seconds = time.perf_counter() - started
        if report.created != args.pack_embed_beliefs or not report.embedded:
            raise SystemExit(f"pack load incomplete: {report}")
        figures.append(
            PackFigures(
                "vectors computed (CPU, no cache)",
                report.created,
                seconds,
                report.supports_created,
                report.contradicts_created,
                {
                    "of which embedding": embedder.seconds,
                    "the same texts embedded alone before": embed_only,
                },
                load_average(),
            )
        )
        print(f"   pack ({args.pack_embed_beliefs:,}, embedded on the CPU): {seconds:.2f} s")
    finally:
        await graph.close()
    return figures


# ---------------------------------------------------------------------------------------------
# Where the time of a context goes (optional, --profile): each section alone through the app's
# own code with the query vector computed beforehand, then the PROFILE of the two big queries.


class FixedEmbedder(Embedder):
    """Answers every text with vectors computed beforehand (no model time in the figures)."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        super().__init__(EmbeddingSettings(cache_path=""))
        self.vectors = vectors

    async def embed(self, texts: Sequence[str], kind: Pair = "passage") -> list[list[float]] | None:
        return [self.vectors[text] for text in texts]


async def profile_retrieval(settings: Settings, agent_id: str, queries: Sequence[str]) -> None:
    model = Embedder(EmbeddingSettings(cache_path=""))
    found = await model.embed(list(queries), "query")
    if found is None:
        raise SystemExit(f"embeddings unavailable: {model.status().reason}")
    vectors = dict(zip(queries, found, strict=True))
    embedder = FixedEmbedder(vectors)
    graph = GraphClient.from_settings(settings.neo4j)
    driver = driver_for(settings)
    try:
        print("\n-- each section alone, query vector given (bench process, sequential), ms:")
        for sections in [[name] for name in ALL_SECTIONS] + [list(ALL_SECTIONS)]:
            walls: list[float] = []
            for q in [*queries[:5], *queries]:  # the first five warm the plans
                request = ContextRequest(q=q, k=10, sections=sections)
                started = time.perf_counter()
                await assemble_context(graph, embedder, settings.retrieval, agent_id, request)
                walls.append((time.perf_counter() - started) * 1000)
            label = "all sections together" if len(sections) > 1 else sections[0]
            print(f"   {label:<24} {Latency.of(walls[5:]).line()}")

        r = settings.retrieval
        weights = {
            "rrf_k": r.rrf_k,
            "vector_weight": r.vector_weight,
            "fulltext_weight": r.fulltext_weight,
        }
        now = datetime.now(UTC)
        params: dict[str, dict[str, Any]] = {
            "retrieval/search_beliefs": {
                "w": {
                    **weights,
                    "strength_floor": r.belief_strength_floor,
                    "expand_top": r.expand_top,
                    "expansion_factor": r.expansion_factor,
                },
            },
            "retrieval/search_episodes": {
                "w": {
                    **weights,
                    "interference_penalty": r.interference_penalty,
                    "success_multiplier": r.success_multiplier,
                    "recency_bonus_7d": r.recency_bonus_7d,
                    "recency_bonus_30d": r.recency_bonus_30d,
                },
                "since_7d": (now - timedelta(days=7)).isoformat(),
                "since_30d": (now - timedelta(days=30)).isoformat(),
            },
        }
        query = queries[-1]
        common = {
            "agent_id": agent_id,
            "agent_clause": agent_clause(agent_id),
            "embedding": vectors[query],
            "terms": lucene_terms(query),
            "candidates": max(r.candidates, 10),
            "k": 10,
        }
        for name, extra in params.items():
            text = graph.catalog.get(name).text
            profiled: LiteralString = "PROFILE " + text
            async with driver.session(database=settings.neo4j_database) as session:
                started = time.perf_counter()
                result = await session.run(profiled, {**common, **extra})
                summary = await result.consume()
                elapsed = (time.perf_counter() - started) * 1000
            print(f"\n-- PROFILE {name} ({elapsed:.1f} ms with profiling)")
            if summary.profile:
                print_plan(summary.profile, 0)
    finally:
        await driver.close()
        await graph.close()


def print_plan(plan: dict[str, Any], depth: int) -> None:
    args = plan.get("args", {})
    time_ns = plan.get("time", args.get("Time"))
    timing = f"  {time_ns / 1e6:7.2f} ms" if isinstance(time_ns, int | float) else ""
    print(
        f"   {'  ' * depth}{plan.get('operatorType', '?'):<40} rows {plan.get('rows', 0):>7} "
        f"db hits {plan.get('dbHits', 0):>8}{timing}"
    )
    for child in plan.get("children", []):
        print_plan(child, depth + 1)


# ---------------------------------------------------------------------------------------------
# Report


def report(
    args: argparse.Namespace,
    prepared: Prepared | None,
    context: ContextFigures | None,
    rss_idle: dict[str, int],
    rss_after: dict[str, int],
    imports: list[ImportFigures],
    packs: list[PackFigures],
) -> None:
    print()
    if context is not None and prepared is not None:
        print(
            f"== 1. Context latency: {args.beliefs:,} beliefs + {args.episodes:,} episodes in "
            f"the agent, {args.other_agents} other agents x {args.other_beliefs:,} + "
            f"{args.other_episodes:,} =="
        )
        print(f"   GET /context?k={args.k} over HTTP  {context.latency.line()}")
        server = "  ".join(f"{name} {value:.1f}" for name, value in context.server_medians.items())
        print(f"   server timings_ms, medians: {server}")
        server95 = "  ".join(f"{name} {value:.1f}" for name, value in context.server_p95.items())
        print(f"   server timings_ms, p95:     {server95}")
        found = "  ".join(f"{name} {value:.1f}" for name, value in context.items.items())
        print(f"   items per section (mean): {found}")
        print(
            f"   degraded responses {context.degraded}, section errors "
            f"{context.section_errors or 'none'}; load average {context.load}"
        )
        print(
            f"   API process: VmRSS {rss_idle.get('VmRSS', 0)} MiB after start-up and warm-up "
            f"(model loaded), {context.rss_mib.get('VmRSS', 0)} MiB after the queries; VmHWM "
            f"{context.rss_mib.get('VmHWM', 0)} MiB"
        )
    if imports:
        print()
        print(f"== 2. Episode import, batches of {args.import_batch} ==")
        for figures in imports:
            print(
                f"   {figures.label:<38} {figures.episodes:,} in {figures.seconds:6.1f} s = "
                f"{figures.per_s:7.0f} episodes/s; per batch {figures.batch_ms.line()}; "
                f"load {figures.load}"
            )
        if rss_after:
            print(
                f"   API process after the imports: VmRSS {rss_after.get('VmRSS', 0)} MiB, "
                f"VmHWM {rss_after.get('VmHWM', 0)} MiB"
            )
    if packs:
        print()
        print("== 3. Pack loading (app.packs.loader.load_pack, in this process) ==")
        for p in packs:
            prep = ", ".join(f"{name} {s:.2f} s" for name, s in p.prep_s.items())
            print(
                f"   {p.label:<34} {p.beliefs:,} beliefs ({p.supports:,} SUPPORTS, "
                f"{p.contradicts:,} CONTRADICTS) in {p.seconds:6.2f} s = {p.per_s:7.0f} "
                f"beliefs/s  [{prep}]; load {p.load}"
            )
    print()
    print("== Targets (docs/performance.md §2 / the memory issue) ==")
    if context is not None:
        lat = context.latency
        print(
            f"   context p50 <= {TARGET_CONTEXT_P50_MS:.0f} ms: {lat.p50:.1f} ms -> "
            f"{verdict(lat.p50 <= TARGET_CONTEXT_P50_MS)}"
        )
        print(
            f"   context p95 <= {TARGET_CONTEXT_P95_MS:.0f} ms: {lat.p95:.1f} ms -> "
            f"{verdict(lat.p95 <= TARGET_CONTEXT_P95_MS)}"
        )
    if imports:
        cold = imports[0]
        print(
            f"   import >= {TARGET_IMPORT_PER_S:.0f} episodes/s with embeddings: "
            f"{cold.per_s:.0f}/s -> {verdict(cold.per_s >= TARGET_IMPORT_PER_S)}"
        )
    if packs:
        fast = packs[0]
        print(
            f"   pack load >= {TARGET_PACK_PER_S:,.0f} beliefs/s, vectors precomputed: "
            f"{fast.per_s:,.0f}/s -> {verdict(fast.per_s >= TARGET_PACK_PER_S)}"
        )
        if len(packs) > 1:
            slow = packs[1]
            print(
                f"   pack load >= {TARGET_PACK_EMBED_PER_S:.0f} beliefs/s, embedding on the "
                f"CPU: {slow.per_s:,.0f}/s -> {verdict(slow.per_s >= TARGET_PACK_EMBED_PER_S)}"
            )


# ---------------------------------------------------------------------------------------------


async def check_database(settings: Settings) -> str:
    graph = GraphClient.from_settings(settings.neo4j)
    try:
        info = await graph.server_info()
        pending = [s for s in await MigrationRunner(graph).status() if s.state != "applied"]
        if pending:
            raise SystemExit(
                f"migrations not applied ({pending[0].file}): run `credence db migrate`"
            )
        return f"Neo4j {info.version} {info.edition} at {info.address}"
    finally:
        await graph.close()


# The retrieval settings before issue 12: reciprocal-rank fusion (rrf_k 10, vector 2 : fulltext
# 1), no neighbour step, interference penalty 0.5.
BEFORE_ISSUE_12 = {
    "CREDENCE_RETRIEVAL__FUSION": "rrf",
    "CREDENCE_RETRIEVAL__NEIGHBOUR_WEIGHT": "0",
    "CREDENCE_RETRIEVAL__INTERFERENCE_PENALTY": "0.5",
}


def compare_with_before(
    args: argparse.Namespace, agent_id: str, warmup: Sequence[str], queries: Sequence[str]
) -> None:
    """The same queries through two API processes side by side, one with the current ranking and
    one with the ranking of before issue 12 (the same query files, its RRF path): each query is
    sent to both, in alternating order, so both see the same load and the ratio is measured in
    one run on one graph."""
    # --compare-repo: the other process runs another checkout (e.g. the commit before a
    # change) with the same settings, instead of the ranking of before issue 12.
    before_env = dict(args.server_env) if args.compare_repo else {
        **dict(args.server_env), **BEFORE_ISSUE_12
    }  # fmt: skip
    with (
        api_server(dict(args.server_env)) as current,
        api_server(before_env, args.compare_repo or REPO) as before,
    ):
        servers = {"current": current, "before": before}
        ms: dict[str, list[float]] = {name: [] for name in servers}
        sections: dict[str, dict[str, list[float]]] = {name: {} for name in servers}
        with httpx.Client(timeout=60.0) as client:
            for q in warmup:
                for server in servers.values():
                    url = f"{server.base_url}/v1/agents/{agent_id}/context"
                    params = context_params(q, args.k, args.section)
                    client.get(url, params=params).raise_for_status()
            for i, q in enumerate(queries):
                order = list(servers) if i % 2 == 0 else list(reversed(servers))
                for name in order:
                    url = f"{servers[name].base_url}/v1/agents/{agent_id}/context"
                    started = time.perf_counter()
                    response = client.get(url, params=context_params(q, args.k, args.section))
                    ms[name].append((time.perf_counter() - started) * 1000.0)
                    response.raise_for_status()
                    for section, value in response.json()["timings_ms"].items():
                        sections[name].setdefault(section, []).append(float(value))
    now, old = Latency.of(ms["current"]), Latency.of(ms["before"])
    print(f"[context] paired, current ranking:            {now.line()}", flush=True)
    label = str(args.compare_repo) if args.compare_repo else "before issue 12 (rrf, no neighbours)"
    print(f"[context] paired, {label}: {old.line()}", flush=True)
    print(
        f"[context] current / before: p50 {now.p50 / old.p50:.2f}x, p95 {now.p95 / old.p95:.2f}x; "
        + ", ".join(
            f"{name} p50 {statistics.median(sections['current'][name]):.1f} vs "
            f"{statistics.median(sections['before'][name]):.1f} ms, p95 "
            f"{Latency.of(sections['current'][name]).p95:.1f} vs "
            f"{Latency.of(sections['before'][name]).p95:.1f} ms"
            for name in ("episodes", "beliefs", "rules", "total")
            if name in sections["current"] and name in sections["before"]
        ),
        flush=True,
    )


def main(args: argparse.Namespace) -> None:
    settings = get_settings()
    if args.clean:
        deleted = asyncio.run(delete_all_bench_agents(settings))
        print(f"deleted {len(deleted)} bench-memory agents: {', '.join(deleted) or '-'}")
        return
    parts = set(args.parts)
    database = asyncio.run(check_database(settings))
    run = uuid.uuid4().hex[:8]
    print(
        f"{database}; {os.cpu_count()} cores; Python {platform.python_version()}; run {run}; "
        f"load average {load_average()}"
    )
    rng = random.Random(args.seed)
    texts = TextMaker(rng)
    per_run: list[str] = []
    prepared: Prepared | None = None
    context: ContextFigures | None = None
    rss_idle: dict[str, int] = {}
    rss_after: dict[str, int] = {}
    imports: list[ImportFigures] = []
    packs: list[PackFigures] = []
    try:
        if "context" in parts:
            print(
                f"[context] graph: {args.beliefs:,} beliefs + {args.episodes:,} episodes, "
                f"{args.other_agents} other agents x {args.other_beliefs:,} + "
                f"{args.other_episodes:,} ...",
                flush=True,
            )
            prepared = asyncio.run(prepare(settings, args))
            print(
                f"[context] graph ready in {prepared.seconds:.1f} s (generated "
                f"{len(prepared.created)}, reused {len(prepared.reused)} agents; vector "
                f"indexes ONLINE after {prepared.index_wait_s:.1f} s more)"
            )
            if prepared.created:
                print(f"[context] {asyncio.run(settle())}", flush=True)
        if parts & {"context", "import"}:
            with api_server(dict(args.server_env)) as server:
                rss_idle = server.memory()
                extra = " ".join(f"{name}={value}" for name, value in args.server_env)
                print(
                    f"[api] ready in {server.start_s:.1f} s on :{server.port}; VmRSS "
                    f"{rss_idle.get('VmRSS', 0)} MiB (model loaded); extra env: {extra or '-'}",
                    flush=True,
                )
                if prepared is not None:
                    queries = texts.distinct(args.warmup + args.queries, "query")
                    print(
                        f"[context] {args.warmup} warm-up + {args.queries} measured queries; "
                        f"load average {load_average()} ...",
                        flush=True,
                    )
                    context = measure_context(
                        server,
                        prepared.main,
                        queries[: args.warmup],
                        queries[args.warmup :],
                        args.k,
                        args.section,
                    )
                    print(f"[context] {context.latency.line()}", flush=True)
                    if args.compare_before:
                        compare_with_before(
                            args, prepared.main, queries[: args.warmup], queries[args.warmup :]
                        )
                    if args.profile:
                        asyncio.run(profile_retrieval(settings, prepared.main, queries[-20:]))
                if "import" in parts:
                    cold_agent = f"{PREFIX}{run}-import-new-texts"
                    warm_agent = f"{PREFIX}{run}-import-cached-texts"
                    per_run += [cold_agent, warm_agent]
                    asyncio.run(create_agents_now(settings, [cold_agent, warm_agent]))
                    episode_texts = texts.distinct(args.import_episodes, "episode_text")
                    # Each run draws the same speakers: an episode's vector embeds its speaker
                    # and the turn before it, so only identical turns find their vectors cached.
                    seed = f"{args.seed}-import"
                    print(
                        f"[import] {args.import_episodes:,} episodes, batches of "
                        f"{args.import_batch}; load average {load_average()} ...",
                        flush=True,
                    )
                    imports.append(
                        measure_import(
                            server,
                            cold_agent,
                            episode_batches(
                                episode_texts, args.import_batch, random.Random(seed), "new"
                            ),
                            "new texts (model runs)",
                        )
                    )
                    print(f"[import] new texts: {imports[-1].per_s:.0f} episodes/s")
                    imports.append(
                        measure_import(
                            server,
                            warm_agent,
                            episode_batches(
                                episode_texts, args.import_batch, random.Random(seed), "cached"
                            ),
                            "same texts (vector cache warm)",
                        )
                    )
                    print(f"[import] cached texts: {imports[-1].per_s:.0f} episodes/s")
                    rss_after = server.memory()
        if "pack" in parts:
            print(f"[pack] load average {load_average()} ...", flush=True)
            packs = asyncio.run(measure_packs(settings, run, args, per_run))
        report(args, prepared, context, rss_idle, rss_after, imports, packs)
    finally:
        doomed = list(per_run)
        if prepared is not None and not args.keep:
            doomed += [prepared.main, *prepared.others]
        if args.keep:
            kept = len(doomed) + (1 + len(prepared.others) if prepared else 0)
            print(f"\n--keep: left {kept} bench agents (delete them with --clean)")
        elif doomed:
            seconds = asyncio.run(delete_agents(settings, doomed))
            print(f"\ndeleted {len(doomed)} bench agents in {seconds:.1f} s")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--beliefs", type=int, default=100_000, help="beliefs of the agent")
    parser.add_argument("--episodes", type=int, default=100_000, help="episodes of the agent")
    parser.add_argument("--other-agents", type=int, default=10, help="agents present besides")
    parser.add_argument("--other-beliefs", type=int, default=10_000, help="beliefs each")
    parser.add_argument("--other-episodes", type=int, default=10_000, help="episodes each")
    parser.add_argument("--queries", type=int, default=200, help="measured context queries")
    parser.add_argument("--warmup", type=int, default=30, help="warm-up queries (distinct)")
    parser.add_argument("--k", type=int, default=10, help="items per section")
    parser.add_argument("--import-episodes", type=int, default=10_000, help="episodes imported")
    parser.add_argument("--import-batch", type=int, default=500, help="episodes per request")
    parser.add_argument("--pack-beliefs", type=int, default=20_000, help="pack, vectors given")
    parser.add_argument(
        "--pack-embed-beliefs", type=int, default=1_000, help="pack, vectors computed"
    )
    parser.add_argument(
        "--parts",
        type=lambda text: [part for part in text.split(",") if part],
        default=["context", "import", "pack"],
        help="what to measure, comma-separated: context,import,pack",
    )
    parser.add_argument(
        "--small",
        action="store_true",
        help="quick run: 10k + 10k, 2 other agents x 2k + 2k, 2,000 episodes imported, "
        "packs of 5,000 and 500 (explicit sizes are overridden)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also time each context section alone and PROFILE the belief and episode queries",
    )
    parser.add_argument(
        "--server-env",
        action="append",
        type=lambda text: tuple(text.split("=", 1)),
        default=[],
        metavar="NAME=VALUE",
        help="environment of the API process (repeatable), e.g. OMP_WAIT_POLICY=PASSIVE",
    )
    parser.add_argument(
        "--section",
        action="append",
        default=[],
        metavar="NAME",
        help="context: time only these sections (repeatable, e.g. --section beliefs; default all)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--compare-before",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time /context with the ranking of before issue 12 (same queries, same graph)",
    )
    parser.add_argument(
        "--compare-repo",
        type=Path,
        help="with --compare-before: the other API process runs this checkout (same settings)",
    )
    parser.add_argument(
        "--index-timeout", type=float, default=1800.0, help="seconds to wait for vector indexes"
    )
    parser.add_argument("--keep", action="store_true", help="leave the data (reused next run)")
    parser.add_argument(
        "--clean", action="store_true", help="only delete every bench-memory- agent, then exit"
    )
    args = parser.parse_args(argv)
    unknown = set(args.parts) - {"context", "import", "pack"}
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    bad = [pair[0] for pair in args.server_env if len(pair) != 2]
    if bad:
        parser.error(f"--server-env takes NAME=VALUE, not {bad[0]!r}")
    if args.small:
        args.beliefs, args.episodes = 10_000, 10_000
        args.other_agents, args.other_beliefs, args.other_episodes = 2, 2_000, 2_000
        args.import_episodes, args.pack_beliefs, args.pack_embed_beliefs = 2_000, 5_000, 500
    return args


if __name__ == "__main__":
    main(parse_args())
