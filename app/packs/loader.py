"""Loading a knowledge pack into an agent (docs/packs.md §2).

The pack was validated whole before this runs (``app/seeds/files.py``). Loading is one
transaction under the agent's lock, written in batches (UNWIND), and idempotent: beliefs are
matched on (pack, key). A newer version keeps the learned strength and tension of every belief
whose statement did not change and supersedes each changed one through the revision engine
(mode ``pack_upgrade``, with lineage); a key the new version dropped is deactivated (never
deleted), as a manual deactivation is, and so is a censor or a rule whose key it dropped; an
edge it dropped between beliefs it keeps is retired (a SUPPORTS edge removed with an event, a
CONTRADICTS edge resolved) and what it supported re-derived. What a person or the agent changed
of the pack's beliefs (deactivated, revised, re-worded) is left as it is and reported as
withheld; an older version is refused; a load that another write to the pack overtook between
its read and its transaction is worked out again.
Beliefs new to the agent start at the pack's strength, except that a belief with supporters in
the pack gets its strength from them (docs/beliefs.md §6 cascade), so the stored graph keeps the
engine's invariant.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from pydantic import BaseModel

from app.beliefs.cascade import cascade_from
from app.beliefs.contexts import all_context_parents
from app.beliefs.dissatisfaction import recompute_sums_in
from app.beliefs.formulas import Edge, cascade
from app.beliefs.mechanics import Mechanics
from app.beliefs.revision import apply_revision_in
from app.beliefs.store import deactivate_belief_in
from app.embeddings.embedder import Embedder
from app.errors import (
    Conflict,
    InvalidInput,
    PackVersionOlder,
    error_entry,
)
from app.graph.agent_scope import lock_agent, require_agent
from app.graph.client import GraphClient, Transaction
from app.graph.vectors import vector_param
from app.memory.frames import install_frames_in
from app.metrics import count_revisions
from app.packs.held_keys import refuse_held_censor_keys, refuse_held_frame_keys
from app.seeds.pack_schema import KnowledgePack, PackBelief
from app.seeds.skill_schema import DomainSkill
from app.seeds.skills import DEFAULT_SKILL, load_skill, skill_json, stored_skill
from app.text.lexical import scored_words

Vector = list[float]
Progress = Callable[[str, int, int], None]
BATCH = 2000
# How many times a load is worked out again when another write to the pack's beliefs overtook it.
LOAD_ATTEMPTS = 5


class PackStateMoved(Conflict):
    """What the agent holds of a pack changed between a load's read of it and its transaction
    (another load of the pack, or a change to one of its beliefs, came in between): the load is
    worked out again; after :data:`LOAD_ATTEMPTS` tries, a 409."""

    code = "conflict"

    def __init__(self, pack: str, agent_id: str, attempts: int) -> None:
        super().__init__(
            f"pack {pack!r} of agent {agent_id!r} changed while it was being loaded, "
            f"{attempts} times running (other writes to its beliefs); nothing of this load "
            "written: load it again",
            pack=pack,
            agent_id=agent_id,
        )


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
    # Keys of the version whose belief a person or the agent changed since the pack gave it
    # (deactivated, revised, or its statement edited where the version changes it too): left as
    # they are, neither given again nor superseded (docs/packs.md §3).
    withheld: list[str] = []
    # Keys of the pack's censors the new version no longer has: deactivated (never deleted).
    retired_censors: list[str]
    # Keys of the pack's rules the new version no longer has: deactivated (never deleted).
    retired_rules: list[str]
    # Keys of the frames the pack installed that the new version no longer has: deactivated.
    retired_frames: list[str]
    # The pack's SUPPORTS edges ("source key -> target key") between beliefs it keeps that the
    # new version no longer has: deleted, each recorded by an event on its target.
    retired_supports: list[str] = []
    # Its CONTRADICTS edges the new version no longer has: resolved (kept in the register).
    retired_contradicts: list[str] = []
    supports_created: int
    # CONTRADICTS edges created, or retired by an earlier version and opened again.
    contradicts_created: int
    rules: int
    censors: int
    frames: int
    embedded: bool
    degraded: str | None = None
    # The skill the pack brings (now the agent's skill: docs/packs.md §5), or None.
    skill: str | None = None


class PackSummary(BaseModel):
    name: str
    version: int | None
    industry: str | None
    description: str | None
    loaded_at: Any = None
    beliefs: int
    # Its beliefs a revision replaced (a version restating them, or the agent).
    superseded: int
    # Its other inactive beliefs: dropped by a version, deactivated by a person.
    inactive: int = 0
    # The skill the pack brought (its name), or None.
    skill: str | None = None


class AgentSkill(BaseModel):
    """A domain skill of an agent (docs/packs.md §5): one its packs brought, or the shipped
    default (``pack`` None), and whether its turns work under it."""

    name: str
    version: int
    pack: str | None
    in_force: bool
    domain_prompt: str
    verbs: list[str]
    criteria: list[str]

    @classmethod
    def of(cls, skill: DomainSkill, pack: str | None, in_force: bool) -> AgentSkill:
        return cls(
            name=skill.name,
            version=skill.version,
            pack=pack,
            in_force=in_force,
            domain_prompt=skill.domain_prompt,
            verbs=skill.verbs,
            criteria=[item.key for item in skill.criteria],
        )


# The packs a full birth makes from its own seed files and profile (app/agents/birth.py): a pack
# of the same name loaded after them would take them over (supersede the terminal creed, retire
# the ethical core), so no other pack may bear their names.
BIRTH_PACK_NAMES = ("creed", "self", "role")


def refuse_birth_pack_name(pack: KnowledgePack, location: list[str | int]) -> None:
    """Refuses a pack named as one of a birth's own packs (:data:`BIRTH_PACK_NAMES`).

    Raises:
        InvalidInput: a 422 ``pack_name_reserved`` at ``location`` (nothing written).
    """
    if pack.name not in BIRTH_PACK_NAMES:
        return
    problem = (
        f"pack name {pack.name!r} is reserved: {', '.join(BIRTH_PACK_NAMES)} name the packs a "
        "birth makes from its seed files and profile"
    )
    raise InvalidInput(
        f"invalid pack: {problem}",
        errors=[error_entry(location, problem, "pack_name_reserved")],
    )


def pack_checksum(pack: KnowledgePack) -> str:
    canonical = json.dumps(pack.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def initial_strengths(
    pack: KnowledgePack,
    fixed: dict[str, float],
    cap: float | None = None,
    left_out: frozenset[str] = frozenset(),
) -> dict[str, float]:
    """Pack strengths with every supported belief derived from its supporters (dependency
    order); ``fixed`` holds the learned strengths of beliefs the agent already has; ``cap``
    (the birth strength policy) bounds the others before the derivation; ``left_out`` names
    keys the load does not give (withheld: docs/packs.md §3), which support nothing."""
    beliefs = [b for b in pack.beliefs if b.key not in left_out]
    strengths = {
        b.key: fixed.get(b.key, b.strength if cap is None else min(b.strength, cap))
        for b in beliefs
    }
    edges = [
        Edge(b.key, link.key, link.weight)
        for b in beliefs
        for link in b.supports
        if link.key not in left_out
    ]
    cascade([b.key for b in beliefs], strengths, edges)
    return strengths


def _chunks(rows: Sequence[dict[str, Any]], size: int) -> list[Sequence[dict[str, Any]]]:
    return [rows[i : i + size] for i in range(0, len(rows), size)]


@dataclass(frozen=True)
class _Diff:
    """The pack against what the agent holds of it (matched on key)."""

    # key -> the agent's belief of this pack: id, statement, strength.
    held: dict[str, dict[str, Any]]
    # The pack as last loaded (version, checksum); None on a first load.
    previous: dict[str, Any] | None
    new: list[PackBelief]
    changed: list[PackBelief]
    kept: list[PackBelief]
    gone: list[str]
    # Keys of the version a person or the agent took out of the pack's hands: key -> the belief
    # (inactive: deactivated or revised) or None (active, its statement edited by hand where
    # the version changes it too). Left as they are.
    withheld: dict[str, str | None]

    @property
    def left_out(self) -> frozenset[str]:
        """Keys with no active belief of the pack: their links are not made."""
        return frozenset(key for key, belief_id in self.withheld.items() if belief_id)


@dataclass(frozen=True)
class _Load:
    """Everything the loading transaction writes, worked out before it opens."""

    agent_id: str
    pack: KnowledgePack
    checksum: str
    # What the agent held of the pack when the load was worked out (_state_print).
    state: list[Any]
    diff: _Diff
    vectors: dict[str, Vector]
    strengths: dict[str, float]
    # Belief id by key; superseding a belief puts its successor's id here, so links reach it.
    ids: dict[str, str]
    embedded: bool
    degraded: str | None
    mechanics: Mechanics
    progress: Progress | None
    immutable_keys: frozenset[str]
    source: str
    strength_cap: float | None = None
    # The model the vectors were made with (app/embeddings/embedder.py model_id).
    embedding_model: str | None = None

    @property
    def total(self) -> int:
        """The steps progress counts: beliefs created or superseded, and rules."""
        return len(self.diff.new) + len(self.diff.changed) + len(self.pack.rules)


async def load_pack(
    graph: GraphClient,
    embedder: Embedder | None,
    mechanics: Mechanics,
    agent_id: str,
    pack: KnowledgePack,
    *,
    vectors: dict[str, Vector] | None = None,
    vectors_model: str | None = None,
    progress: Progress | None = None,
    immutable_keys: frozenset[str] = frozenset(),
    source: str = "pack",
    strength_cap: float | Literal["policy"] | None = "policy",
) -> PackLoadReport:
    """Loads (or upgrades) ``pack`` into the agent; all or nothing.

    ``vectors`` maps belief key (and ``rule:<key>``) to precomputed embeddings (made by
    ``vectors_model``, else by ``embedder``'s model); missing ones are computed with ``embedder``
    (batched) when it works, else the nodes are marked pending.
    ``immutable_keys`` names beliefs created immutable (the terminal creed at birth); ``source``
    is the beliefs' source (``pack``, or ``birth`` for the birth packs). ``strength_cap`` bounds
    the strength new beliefs start at; each keeps the pack's figure as ``prior_strength``. By
    default it is the birth strength policy (``mechanics.birth_strength_cap``), for a pack loaded
    at birth and for one loaded any time after: a pack's knowledge starts uncertain and earns its
    strength (and the autonomy it gives) from outcomes. None loads the pack's own figures (the
    birth's own packs: creed, ethical core, self, role).

    Raises:
        AgentNotFound: no such agent.
        InvalidInput: a pack (``source`` ``pack``) named as a birth's own (nothing written).
        PackCensorKeyTaken: a censor key of the pack is another censor's (nothing written).
        PackFrameKeyTaken: a frame key of the pack is a shipped default frame's or another
            pack's frame's (nothing written).
        PackVersionOlder: the agent holds a later version of the pack (nothing written).
    """
    if source == "pack":
        refuse_birth_pack_name(pack, ["pack", pack.name, "name"])
    if strength_cap == "policy":
        strength_cap = mechanics.birth_strength_cap
    prepare = partial(
        _prepare,
        graph,
        embedder,
        mechanics,
        agent_id,
        pack,
        vectors=vectors or {},
        vectors_model=vectors_model,
        progress=progress,
        immutable_keys=immutable_keys,
        source=source,
        strength_cap=strength_cap,
    )
    for attempt in range(1, LOAD_ATTEMPTS + 1):
        load = await prepare()
        try:
            report = await graph.write_transaction(partial(_write_pack, load))
        except PackStateMoved:
            if attempt == LOAD_ATTEMPTS:
                raise
            continue
        # Counted once committed: each superseded belief is a pack_upgrade revision.
        count_revisions(["pack_upgrade"] * report.superseded)
        return report
    raise AssertionError("unreachable: the last attempt returns or raises")


async def _prepare(
    graph: GraphClient,
    embedder: Embedder | None,
    mechanics: Mechanics,
    agent_id: str,
    pack: KnowledgePack,
    *,
    vectors: dict[str, Vector],
    vectors_model: str | None,
    progress: Progress | None,
    immutable_keys: frozenset[str],
    source: str,
    strength_cap: float | None,
) -> _Load:
    """Works the load out from what the agent holds of the pack (read outside the transaction,
    since the vectors are made outside it: the transaction checks the state is still that)."""
    state = await graph.read("packs/loader/get_pack_state", agent_id=agent_id, pack_name=pack.name)
    diff = _diff(state, pack)
    if diff.previous is None:
        await require_agent(graph, agent_id)
    elif int(diff.previous.get("version") or 0) > pack.version:
        loaded = int(diff.previous["version"])
        raise PackVersionOlder(pack.name, agent_id, pack.version, loaded)
    vectors = dict(vectors)
    embedded, degraded = await _embed_missing(embedder, pack, diff.new + diff.changed, vectors)
    learned = {b.key: float(diff.held[b.key]["strength"]) for b in diff.kept}
    ids = {key: row["id"] for key, row in diff.held.items()}
    ids.update({belief.key: str(uuid.uuid4()) for belief in diff.new})
    return _Load(
        agent_id=agent_id,
        pack=pack,
        checksum=pack_checksum(pack),
        state=_state_print(state),
        diff=diff,
        vectors=vectors,
        strengths=initial_strengths(pack, learned, strength_cap, diff.left_out),
        ids=ids,
        embedded=embedded,
        degraded=degraded,
        mechanics=mechanics,
        progress=progress,
        immutable_keys=immutable_keys,
        source=source,
        strength_cap=strength_cap,
        embedding_model=embedder.model_id if embedder is not None else vectors_model,
    )


def _state_print(state: list[dict[str, Any]]) -> list[Any]:
    """What the agent holds of the pack in a form two reads compare by (the lists sorted)."""
    if not state:
        return []
    row = state[0]
    return [
        row["pack"],
        sorted(row["beliefs"], key=lambda belief: str(belief["id"])),
        sorted(row["withheld"], key=lambda belief: str(belief["id"])),
    ]


async def _check_state(tx: Transaction, load: _Load) -> None:
    """Raises :class:`PackStateMoved` when what the agent holds of the pack, read again under
    the agent's lock, is not what the load was worked out from (another load, or a change to
    one of the pack's beliefs, came in between)."""
    state = await tx.run(
        "packs/loader/get_pack_state", agent_id=load.agent_id, pack_name=load.pack.name
    )
    if _state_print(state) != load.state:
        raise PackStateMoved(load.pack.name, load.agent_id, LOAD_ATTEMPTS)


def _diff(state: list[dict[str, Any]], pack: KnowledgePack) -> _Diff:
    held = {row["key"]: row for row in state[0]["beliefs"]} if state else {}
    inactive = {row["key"]: row["id"] for row in state[0]["withheld"]} if state else {}
    withheld: dict[str, str | None] = {}
    new, changed, kept = [], [], []
    for belief in pack.beliefs:
        row = held.get(belief.key)
        if row is None and belief.key in inactive:
            withheld[belief.key] = inactive[belief.key]
        elif row is None:
            new.append(belief)
        elif belief.statement in (row["statement"], row["pack_statement"]):
            kept.append(belief)  # unchanged by the version (a person's edit, if any, stands)
        elif row["statement"] == row["pack_statement"]:
            changed.append(belief)
        else:  # edited by hand, and the version changes it too: the person's text stands
            withheld[belief.key] = None
            kept.append(belief)
    return _Diff(
        held=held,
        previous=state[0]["pack"] if state and state[0]["pack"] else None,
        new=new,
        changed=changed,
        kept=kept,
        gone=sorted(set(held) - {b.key for b in pack.beliefs}),
        withheld=withheld,
    )


async def _write_pack(load: _Load, tx: Transaction) -> PackLoadReport:
    """The loading transaction, in its order of writes: the pack node, new beliefs, superseded
    and retired ones, the edges linked then those the version dropped retired (then the cascade
    above every belief whose supporters changed), rules, censors, frames, the skill, the
    dissatisfaction sums, and the pack marked finished."""
    agent_id, pack = load.agent_id, load.pack
    await lock_agent(tx, agent_id)
    await _check_state(tx, load)
    await refuse_held_censor_keys(tx, load.agent_id, load.pack)
    await refuse_held_frame_keys(tx, load.agent_id, load.pack)
    pack_params = _pack_params(pack, load.checksum)
    reserved = await tx.run(
        "packs/loader/upsert_pack", agent_id=agent_id, pack=pack_params, events=len(load.diff.new)
    )
    done = await _create_beliefs(tx, load, first_seq=int(reserved[0]["first_seq"]))
    superseded = await _supersede(tx, load)
    await _update_figures(tx, load)
    await _retire_beliefs(tx, load)
    done += len(load.diff.changed)
    if load.progress and load.diff.changed:
        load.progress("beliefs", done, load.total)
    linked = await _link_beliefs(tx, load)
    retired_edges = await _retire_edges(tx, load)
    await _rederive(tx, load, superseded, linked, retired_edges)
    retired_rules = await _upsert_rules(tx, load)
    retired_censors = await _upsert_censors(tx, load)
    retired_frames = await _install_frames(tx, load)
    await _store_skill(tx, load)
    await recompute_sums_in(tx, agent_id)
    await tx.run("packs/loader/finish_pack", agent_id=agent_id, pack=pack_params)
    return _report(
        load,
        superseded=len(superseded),
        linked=linked,
        retired_edges=retired_edges,
        retired_censors=retired_censors,
        retired_rules=retired_rules,
        retired_frames=retired_frames,
    )


async def _retire_beliefs(tx: Transaction, load: _Load) -> None:
    """Deactivates the beliefs whose keys the version dropped, marked as retired by the pack (a
    later version bringing the key back gives it again), and records on every belief the version
    gives the statement it gives (``pack_statement``: a later edit by hand is told apart)."""
    gone = [load.diff.held[key]["id"] for key in load.diff.gone]
    for belief_id in gone:
        await deactivate_belief_in(tx, load.mechanics, load.agent_id, belief_id)
    if gone:
        await tx.run(
            "packs/loader/mark_retired_beliefs",
            agent_id=load.agent_id,
            pack_name=load.pack.name,
            version=load.pack.version,
            ids=gone,
        )
    given = [
        {"id": load.ids[b.key], "statement": b.statement, "importance": b.importance}
        for b in load.pack.beliefs
        if b.key not in load.diff.left_out
    ]
    await tx.run("packs/loader/set_pack_given", agent_id=load.agent_id, rows=given)


async def _update_figures(tx: Transaction, load: _Load) -> None:
    """Gives each belief the agent held of the pack the category, domain, core flag and
    importance the version gives it, where they differ (an importance a person set stays until
    the pack's figure changes), each change an event noting what changed."""
    rows = []
    for belief in load.diff.kept + load.diff.changed:
        held = load.diff.held[belief.key]
        importance = (
            belief.importance
            if belief.importance != held["pack_importance"]
            else float(held["importance"])
        )
        figures = {
            "category": belief.category,
            "domain": belief.domain,
            "importance": importance,
            "is_core": belief.is_core,
        }
        changes = [
            f"{name} {held[name]} -> {value}"
            for name, value in figures.items()
            if held[name] != value
        ]
        if changes:
            version = f"pack {load.pack.name} v{load.pack.version}"
            note = f"{version}: " + "; ".join(changes)
            rows.append({"id": load.ids[belief.key], **figures, "note": note})
    if rows:
        await tx.run(
            "packs/loader/update_pack_beliefs",
            agent_id=load.agent_id,
            m=load.mechanics.as_params(),
            rows=rows,
        )


async def _create_beliefs(tx: Transaction, load: _Load, first_seq: int) -> int:
    """Creates the beliefs new to the agent in batches; returns how many."""
    rows = [
        {
            **_belief_row(
                b,
                load.ids[b.key],
                load.strengths[b.key],
                first_seq + i,
                load.vectors.get(b.key),
                load.strength_cap,
            ),
            "is_immutable": b.key in load.immutable_keys,
            "source": load.source,
            **scored_words(b.statement),
        }
        for i, b in enumerate(load.diff.new)
    ]
    done = 0
    for chunk in _chunks(rows, BATCH):
        await tx.run(
            "packs/loader/create_pack_beliefs",
            agent_id=load.agent_id,
            pack_name=load.pack.name,
            m=load.mechanics.as_params(),
            rows=list(chunk),
            embedding_model=load.embedding_model,
        )
        done += len(chunk)
        if load.progress:
            load.progress("beliefs", done, load.total)
    return done


async def _link_beliefs(tx: Transaction, load: _Load) -> dict[str, Any]:
    """Creates the pack's SUPPORTS and CONTRADICTS edges, each new or changed one recorded by an
    event (kind ``pack``) on its target, or on both beliefs of a pair; returns how many of each
    are new."""
    beliefs, ids = _given(load), load.ids
    supports = [
        {"source_id": ids[b.key], "target_id": ids[link.key], "weight": link.weight}
        for b in beliefs
        for link in b.supports
        if link.key in ids
    ]
    contradicts = [
        {"source_id": ids[b.key], "target_id": ids[link.key], "strength": link.strength}
        for b in beliefs
        for link in b.contradicts
        if link.key in ids
    ]
    linked = await tx.run(
        "packs/loader/link_pack_beliefs",
        agent_id=load.agent_id,
        pack_name=load.pack.name,
        version=load.pack.version,
        supports=supports,
        contradicts=contradicts,
    )
    return linked[0]


def _given(load: _Load) -> list[PackBelief]:
    """The version's beliefs the agent holds of the pack after the load: those withheld
    inactive (deactivated or revised by a person or the agent) are left out, their links too."""
    return [b for b in load.pack.beliefs if b.key not in load.diff.left_out]


async def _retire_edges(tx: Transaction, load: _Load) -> dict[str, Any]:
    """Retires the pack's edges between active beliefs that this version no longer has (a
    SUPPORTS edge deleted with an event on its target, a CONTRADICTS edge resolved); returns the
    query's row: supports, contradicts (each a list of {source_id, target_id}) and
    resupport_ids (the supporters left to the beliefs that lost one)."""
    beliefs, ids = _given(load), load.ids
    rows = await tx.run(
        "packs/loader/retire_pack_edges",
        agent_id=load.agent_id,
        pack_name=load.pack.name,
        version=load.pack.version,
        supports=[
            f"{ids[b.key]} {ids[link.key]}"
            for b in beliefs
            for link in b.supports
            if link.key in ids
        ],
        contradicts=[
            f"{ids[b.key]} {ids[link.key]}"
            for b in beliefs
            for link in b.contradicts
            if link.key in ids
        ],
    )
    return rows[0]


async def _rederive(
    tx: Transaction,
    load: _Load,
    superseded: dict[str, str],
    linked: dict[str, Any],
    retired_edges: dict[str, Any],
) -> None:
    """Re-derives (the cascade, docs/beliefs.md §6) every belief whose supporters changed: those
    above a superseding belief, the target of each SUPPORTS edge created or re-weighed (unless
    both its ends are new: their strengths were derived from the pack before writing), and each
    belief that lost a supporter, from the supporters it has left (one left with none keeps its
    strength)."""
    new_ids = {load.ids[belief.key] for belief in load.diff.new}
    changed = list(superseded.values())
    changed += [
        edge["source_id"]
        for edge in linked["moved"]
        if not (edge["source_id"] in new_ids and edge["target_id"] in new_ids)
    ]
    changed += retired_edges["resupport_ids"]
    if changed:
        await cascade_from(
            tx,
            load.mechanics,
            load.agent_id,
            sorted(set(changed)),
            f"pack {load.pack.name} v{load.pack.version}",
        )


async def _upsert_rules(tx: Transaction, load: _Load) -> list[str]:
    """Retires the rules whose keys this version dropped, then creates or updates (and brings
    back, when the pack had retired them) those it has; returns the keys retired."""
    retired = await tx.run(
        "packs/loader/retire_pack_rules",
        agent_id=load.agent_id,
        pack_name=load.pack.name,
        version=load.pack.version,
        keys=[rule.key for rule in load.pack.rules],
    )
    rows = [
        {
            **rule.model_dump(exclude={"key"}),
            "key": rule.key,
            "embedding": vector_param(load.vectors.get(f"rule:{rule.key}")),
            **scored_words(rule.content),
        }
        for rule in load.pack.rules
    ]
    if rows:
        await tx.run(
            "packs/loader/upsert_pack_rules",
            agent_id=load.agent_id,
            pack_name=load.pack.name,
            rows=rows,
            embedding_model=load.embedding_model,
        )
    if load.progress and load.pack.rules:
        load.progress("rules", load.total, load.total)
    return list(retired[0]["keys"])


async def install_censors(
    graph: GraphClient, agent_id: str, pack_name: str, rows: list[dict[str, Any]]
) -> None:
    """Creates or updates the censors of a pack (rows: dumps of the censors) in their own
    transaction, under the agent's lock; for a writer that loads censors without a whole pack
    (an agent's birth).

    Raises:
        AgentNotFound: no such agent, or one being deleted (nothing written).
    """

    async def work(tx: Transaction) -> None:
        await lock_agent(tx, agent_id)
        await tx.run(
            "packs/loader/upsert_pack_censors", agent_id=agent_id, pack_name=pack_name, rows=rows
        )

    await graph.write_transaction(work, action=f"installing the {pack_name} censors")


async def _upsert_censors(tx: Transaction, load: _Load) -> list[str]:
    """Retires the censors whose keys this version dropped, then creates or updates (and brings
    back, when the pack had retired them) those it has; returns the keys retired."""
    rows = [censor.model_dump() for censor in load.pack.censors]
    retired = await tx.run(
        "packs/loader/retire_pack_censors",
        agent_id=load.agent_id,
        pack_name=load.pack.name,
        version=load.pack.version,
        keys=[row["key"] for row in rows],
    )
    if rows:
        await tx.run(
            "packs/loader/upsert_pack_censors",
            agent_id=load.agent_id,
            pack_name=load.pack.name,
            rows=rows,
        )
    return list(retired[0]["keys"])


async def _install_frames(tx: Transaction, load: _Load) -> list[str]:
    """Retires the frames the pack installed whose keys this version dropped, then installs
    (active, updated in place) those it has; returns the keys retired."""
    retired = await tx.run(
        "packs/loader/retire_pack_frames",
        agent_id=load.agent_id,
        pack_name=load.pack.name,
        version=load.pack.version,
        keys=[frame.key for frame in load.pack.frames],
    )
    if load.pack.frames:
        await install_frames_in(
            tx, load.agent_id, load.pack.frames, source=f"pack:{load.pack.name}"
        )
    return list(retired[0]["keys"])


async def _store_skill(tx: Transaction, load: _Load) -> None:
    """The pack's skill on its node, in force for the agent from now on (the pack loaded last
    that brings a skill wins); a version without one removes the one an earlier version stored."""
    skill = load.pack.skill
    await tx.run(
        "packs/loader/set_pack_skill",
        agent_id=load.agent_id,
        pack_name=load.pack.name,
        skill=skill_json(skill) if skill is not None else None,
        skill_name=skill.name if skill is not None else None,
        skill_version=skill.version if skill is not None else None,
    )


def _report(
    load: _Load,
    *,
    superseded: int,
    linked: dict[str, Any],
    retired_edges: dict[str, Any],
    retired_censors: list[str],
    retired_rules: list[str],
    retired_frames: list[str],
) -> PackLoadReport:
    diff, pack = load.diff, load.pack
    keys = {belief_id: key for key, belief_id in load.ids.items()}

    def named(edges: list[dict[str, str]]) -> list[str]:
        ends = [
            (keys.get(e["source_id"], e["source_id"]), keys.get(e["target_id"], e["target_id"]))
            for e in edges
        ]
        return sorted(f"{source} -> {target}" for source, target in ends)

    status: Literal["loaded", "upgraded", "unchanged"] = (
        "loaded"
        if diff.previous is None
        else "unchanged"
        if not diff.new and not diff.changed and diff.previous.get("checksum") == load.checksum
        else "upgraded"
    )
    return PackLoadReport(
        pack=pack.name,
        version=pack.version,
        previous_version=diff.previous.get("version") if diff.previous else None,
        status=status,
        created=len(diff.new),
        kept=len(diff.kept),
        superseded=superseded,
        retired=diff.gone,
        withheld=sorted(diff.withheld),
        retired_censors=retired_censors,
        retired_rules=retired_rules,
        retired_frames=retired_frames,
        retired_supports=named(retired_edges["supports"]),
        retired_contradicts=named(retired_edges["contradicts"]),
        supports_created=int(linked["supports"]),
        contradicts_created=int(linked["contradicts"]),
        rules=len(pack.rules),
        censors=len(pack.censors),
        frames=len(pack.frames),
        skill=pack.skill.name if pack.skill is not None else None,
        embedded=load.embedded,
        degraded=load.degraded,
    )


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
    belief: PackBelief,
    belief_id: str,
    strength: float,
    seq: int,
    vector: Vector | None,
    cap: float | None = None,
) -> dict[str, Any]:
    contexts = [
        {"name": name, "strength": value if cap is None else min(value, cap)}
        for name, value in belief.contexts.items()
    ]
    return {
        "id": belief_id,
        "key": belief.key,
        "statement": belief.statement,
        "category": belief.category,
        "domain": belief.domain,
        "strength": strength,
        "prior_strength": belief.strength,
        "importance": belief.importance,
        "is_core": belief.is_core,
        "seq": seq,
        "embedding": vector_param(vector),
        "contexts": contexts,
        "context_parents": all_context_parents(list(belief.contexts)),
    }


async def _supersede(tx: Transaction, load: _Load) -> dict[str, str]:
    """Supersedes each belief whose statement changed; returns key → new belief id.

    A superseding belief takes the pack strength under the birth strength cap (the pack's figure
    kept as its ``prior_strength``) or its supporters' (the engine's rule), not the strength the
    old one had learned.
    """
    pack = load.pack
    new_ids: dict[str, str] = {}
    figures = {belief.key: belief.strength for belief in load.diff.changed}
    for belief in load.diff.changed:
        old = load.diff.held[belief.key]
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
            # Under the birth strength cap, as every belief a pack gives starts (derived from
            # its supporters instead when it has some: the revision re-attaches them).
            "initial_strength": load.strengths[belief.key],
        }
        rows = await apply_revision_in(tx, load.mechanics, load.agent_id, params)
        if rows:
            new_ids[belief.key] = params["new_id"]
            load.ids[belief.key] = params["new_id"]
    if new_ids:
        await tx.run(
            "packs/loader/adopt_superseding_belief",
            agent_id=load.agent_id,
            pack_name=pack.name,
            rows=[
                {"id": new_id, "key": key, "prior_strength": figures[key]}
                for key, new_id in new_ids.items()
            ],
        )
    return new_ids


async def list_loaded_packs(graph: GraphClient, agent_id: str) -> list[PackSummary]:
    rows = await graph.read("packs/loader/list_packs", agent_id=agent_id)
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
            inactive=row["inactive"],
            skill=row["pack"].get("skill_name"),
        )
        for row in rows
    ]


async def list_agent_skills(graph: GraphClient, agent_id: str) -> list[AgentSkill]:
    """The agent's skills, the one in force first: those its packs brought (the pack loaded last
    that brings one wins), then the shipped default, in force when no pack brings one.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read("packs/loader/list_pack_skills", agent_id=agent_id)
    if not rows:
        await require_agent(graph, agent_id)
    skills = [
        AgentSkill.of(parsed, row["pack"], in_force=index == 0)
        for index, row in enumerate(rows)
        if (parsed := stored_skill(row["skill"])) is not None
    ]
    skills.append(AgentSkill.of(load_skill(DEFAULT_SKILL), None, in_force=not skills))
    return skills
