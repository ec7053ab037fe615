"""Loading a knowledge pack into an agent (DESIGN §8).

The pack was validated whole before this runs (``app/seeds/files.py``). Loading is one
transaction under the agent's lock, written in batches (UNWIND), and idempotent: beliefs are
matched on (pack, key). A newer version keeps the learned strength and tension of every belief
whose statement did not change and supersedes each changed one through the revision engine
(mode ``pack_upgrade``, with lineage); a key the new version dropped is deactivated (never
deleted), as a manual deactivation is. Beliefs new to the agent start at the pack's strength,
except that a belief with supporters in the pack gets the strength derived from them (DESIGN §5
cascade), so the stored graph keeps the engine's invariant.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel

from app.beliefs.cascade import cascade_from
from app.beliefs.contexts import all_context_parents
from app.beliefs.formulas import Edge, cascade
from app.beliefs.mechanics import Mechanics
from app.embeddings.embedder import Embedder
from app.graph.agent_scope import lock_agent, require_agent
from app.graph.client import GraphClient, Transaction
from app.graph.vectors import vector_param
from app.seeds.pack_schema import KnowledgePack, PackBelief

Vector = list[float]
Progress = Callable[[str, int, int], None]
BATCH = 2000


class PackLoadReport(BaseModel):
    pack: str
    version: int
    previous_version: int | None
    status: Literal["loaded", "upgraded", "unchanged"]
    created: int
    kept: int
    superseded: int
    # Keys the agent held that the new version no longer has: deactivated (never deleted).
    retired: list[str]
    supports_created: int
    contradicts_created: int
    rules: int
    censors: int
    frames: int
    embedded: bool
    degraded: str | None = None


class PackSummary(BaseModel):
    name: str
    version: int | None
    industry: str | None
    description: str | None
    loaded_at: Any = None
    beliefs: int
    superseded: int


def pack_checksum(pack: KnowledgePack) -> str:
    canonical = json.dumps(pack.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def initial_strengths(pack: KnowledgePack, fixed: dict[str, float]) -> dict[str, float]:
    """Pack strengths with every supported belief derived from its supporters (dependency
    order); ``fixed`` holds the learned strengths of beliefs the agent already has."""
    strengths = {b.key: fixed.get(b.key, b.strength) for b in pack.beliefs}
    edges = [Edge(b.key, link.key, link.weight) for b in pack.beliefs for link in b.supports]
    cascade([b.key for b in pack.beliefs], strengths, edges)
    return strengths


def _chunks(rows: Sequence[dict[str, Any]], size: int) -> list[Sequence[dict[str, Any]]]:
    return [rows[i : i + size] for i in range(0, len(rows), size)]


async def load_pack(
    graph: GraphClient,
    embedder: Embedder | None,
    mechanics: Mechanics,
    agent_id: str,
    pack: KnowledgePack,
    *,
    vectors: dict[str, Vector] | None = None,
    progress: Progress | None = None,
    install_frames: Callable[[Transaction, str, KnowledgePack], Any] | None = None,
    immutable_keys: frozenset[str] = frozenset(),
    source: str = "pack",
) -> PackLoadReport:
    """Loads (or upgrades) ``pack`` into the agent; all or nothing.

    ``vectors`` maps belief key (and ``rule:<key>``) to precomputed embeddings; missing ones are
    computed with ``embedder`` (batched) when it works, else the nodes are marked pending.
    ``immutable_keys`` names beliefs created immutable (the terminal creed at birth); ``source``
    is the beliefs' source (``pack``, or ``birth`` for the birth packs).

    Raises:
        AgentNotFound: no such agent.
    """
    state = await graph.read("packs/get_pack_state", agent_id=agent_id, pack_name=pack.name)
    held = {row["key"]: row for row in state[0]["beliefs"]} if state else {}
    previous = state[0]["pack"] if state and state[0]["pack"] else None
    checksum = pack_checksum(pack)
    if previous is None:
        await require_agent(graph, agent_id)

    new_beliefs = [b for b in pack.beliefs if b.key not in held]
    changed = [b for b in pack.beliefs if b.key in held and held[b.key]["statement"] != b.statement]
    kept = [b for b in pack.beliefs if b.key in held and held[b.key]["statement"] == b.statement]
    gone = sorted(set(held) - {b.key for b in pack.beliefs})

    vectors = dict(vectors or {})
    embedded, degraded = await _embed_missing(embedder, pack, new_beliefs + changed, vectors)
    learned = {key: float(row["strength"]) for key, row in held.items() if key not in gone}
    strengths = initial_strengths(pack, {b.key: learned[b.key] for b in kept})
    ids = {key: row["id"] for key, row in held.items()}
    for belief in new_beliefs:
        ids[belief.key] = str(uuid.uuid4())

    total = len(new_beliefs) + len(changed) + len(pack.rules)

    async def work(tx: Transaction) -> PackLoadReport:
        await lock_agent(tx, agent_id)
        pack_params = _pack_params(pack, checksum)
        reserved = await tx.run(
            "packs/upsert_pack", agent_id=agent_id, pack=pack_params, events=len(new_beliefs)
        )
        first_seq = int(reserved[0]["first_seq"])
        rows = [
            {
                **_belief_row(b, ids[b.key], strengths[b.key], first_seq + i, vectors.get(b.key)),
                "is_immutable": b.key in immutable_keys,
                "source": source,
            }
            for i, b in enumerate(new_beliefs)
        ]
        done = 0
        for chunk in _chunks(rows, BATCH):
            await tx.run(
                "packs/create_pack_beliefs",
                agent_id=agent_id,
                pack_name=pack.name,
                m=mechanics.as_params(),
                rows=list(chunk),
            )
            done += len(chunk)
            if progress:
                progress("beliefs", done, total)
        superseded = await _supersede(tx, mechanics, agent_id, pack, changed, held, strengths, ids)
        for key in gone:
            await tx.run("beliefs/deactivate_belief", agent_id=agent_id, belief_id=held[key]["id"])
        done += len(changed)
        if progress and changed:
            progress("beliefs", done, total)
        supports = [
            {"source_id": ids[b.key], "target_id": ids[link.key], "weight": link.weight}
            for b in pack.beliefs
            for link in b.supports
        ]
        contradicts = [
            {"source_id": ids[b.key], "target_id": ids[link.key], "strength": link.strength}
            for b in pack.beliefs
            for link in b.contradicts
        ]
        linked = await tx.run(
            "packs/link_pack_beliefs",
            agent_id=agent_id,
            pack_name=pack.name,
            supports=supports,
            contradicts=contradicts,
        )
        if superseded:
            # Supporters may have changed: re-derive what sits above the new beliefs.
            await cascade_from(
                tx, mechanics, agent_id, list(superseded.values()), f"pack {pack.name} upgrade"
            )
        rule_rows = [
            {
                **rule.model_dump(exclude={"key"}),
                "key": rule.key,
                "embedding": vector_param(vectors.get(f"rule:{rule.key}")),
            }
            for rule in pack.rules
        ]
        if rule_rows:
            await tx.run(
                "packs/upsert_pack_rules", agent_id=agent_id, pack_name=pack.name, rows=rule_rows
            )
        if progress and pack.rules:
            progress("rules", total, total)
        censor_rows = [censor.model_dump() for censor in pack.censors]
        if censor_rows:
            await tx.run(
                "packs/upsert_pack_censors",
                agent_id=agent_id,
                pack_name=pack.name,
                rows=censor_rows,
            )
        frames = 0
        if pack.frames and install_frames is not None:
            await install_frames(tx, agent_id, pack)
            frames = len(pack.frames)
        await tx.run("dissatisfaction/recompute_sums", agent_id=agent_id)
        await tx.run("packs/finish_pack", agent_id=agent_id, pack=pack_params)
        status: Literal["loaded", "upgraded", "unchanged"] = (
            "loaded"
            if previous is None
            else "unchanged"
            if not new_beliefs and not changed and previous.get("checksum") == checksum
            else "upgraded"
        )
        return PackLoadReport(
            pack=pack.name,
            version=pack.version,
            previous_version=previous.get("version") if previous else None,
            status=status,
            created=len(new_beliefs),
            kept=len(kept),
            superseded=len(superseded),
            retired=gone,
            supports_created=int(linked[0]["supports"]),
            contradicts_created=int(linked[0]["contradicts"]),
            rules=len(pack.rules),
            censors=len(pack.censors),
            frames=frames,
            embedded=embedded,
            degraded=degraded,
        )

    return await graph.write_transaction(work)


async def _embed_missing(
    embedder: Embedder | None,
    pack: KnowledgePack,
    beliefs: list[PackBelief],
    vectors: dict[str, Vector],
) -> tuple[bool, str | None]:
    wanted: list[tuple[str, str]] = [(b.key, b.statement) for b in beliefs if b.key not in vectors]
    wanted += [(f"rule:{r.key}", r.content) for r in pack.rules if f"rule:{r.key}" not in vectors]
    if not wanted:
        return True, None
    if embedder is None:
        return False, "no embedder given: vectors are filled by `credence embed backfill`"
    found = await embedder.embed([text for _, text in wanted])
    if found is None:
        return False, embedder.status().reason
    vectors.update({key: vector for (key, _), vector in zip(wanted, found, strict=True)})
    return True, None


def _pack_params(pack: KnowledgePack, checksum: str) -> dict[str, Any]:
    return {
        "name": pack.name,
        "version": pack.version,
        "industry": pack.industry,
        "description": pack.description,
        "checksum": checksum,
    }


def _belief_row(
    belief: PackBelief, belief_id: str, strength: float, seq: int, vector: Vector | None
) -> dict[str, Any]:
    contexts = [{"name": name, "strength": value} for name, value in belief.contexts.items()]
    return {
        "id": belief_id,
        "key": belief.key,
        "statement": belief.statement,
        "category": belief.category,
        "domain": belief.domain,
        "strength": strength,
        "importance": belief.importance,
        "is_core": belief.is_core,
        "seq": seq,
        "embedding": vector_param(vector),
        "contexts": contexts,
        "context_parents": all_context_parents(list(belief.contexts)),
    }


async def _supersede(
    tx: Transaction,
    mechanics: Mechanics,
    agent_id: str,
    pack: KnowledgePack,
    changed: list[PackBelief],
    held: dict[str, dict[str, Any]],
    strengths: dict[str, float],
    ids: dict[str, str],
) -> dict[str, str]:
    """Supersedes each belief whose statement changed; returns key → new belief id."""
    new_ids: dict[str, str] = {}
    for belief in changed:
        old = held[belief.key]
        params = {
            "id": str(uuid.uuid4()),
            "old_id": old["id"],
            "new_id": str(uuid.uuid4()),
            "statement": belief.statement,
            "reasoning": f"knowledge pack {pack.name} version {pack.version} changed the statement",
            "evidence_summary": f"was: {old['statement']}",
            "behavioral_changes": [],
            "depth": 0,
            "mode": "pack_upgrade",
            "reasoner": "pack",
            "parent_revision_id": None,
            "initial_strength": belief.strength,
        }
        rows = await tx.run(
            "revisions/apply_revision", agent_id=agent_id, m=mechanics.as_params(), revision=params
        )
        if rows:
            new_ids[belief.key] = params["new_id"]
            ids[belief.key] = params["new_id"]
    if new_ids:
        await tx.run(
            "packs/adopt_superseding_belief",
            agent_id=agent_id,
            pack_name=pack.name,
            rows=[{"id": new_id, "key": key} for key, new_id in new_ids.items()],
        )
    del strengths  # superseded beliefs take the pack strength or their supporters' (engine rule)
    return new_ids


async def list_loaded_packs(graph: GraphClient, agent_id: str) -> list[PackSummary]:
    rows = await graph.read("packs/list_packs", agent_id=agent_id)
    if not rows:
        await require_agent(graph, agent_id)
    return [
        PackSummary(
            name=row["pack"]["name"],
            version=row["pack"].get("version"),
            industry=row["pack"].get("industry"),
            description=row["pack"].get("description"),
            loaded_at=row["pack"].get("loaded_at"),
            beliefs=row["beliefs"],
            superseded=row["superseded"],
        )
        for row in rows
    ]
