"""A pack's censor and frame keys checked against the keys the agent's censors and frames hold
(docs/packs.md §2): a key names one censor and one frame of an agent, so a pack bringing a key
another holds is refused whole, inside the load's transaction, before anything is written."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.errors import PackCensorKeyTaken, PackFrameKeyTaken
from app.graph.client import Transaction
from app.seeds.files import shipped_censor_keys, shipped_frame_keys
from app.seeds.pack_schema import KnowledgePack


async def refuse_held_censor_keys(tx: Transaction, agent_id: str, pack: KnowledgePack) -> None:
    """Refuses the pack when a censor key it brings is held by a shipped default
    (seeds/censors.yaml) or another censor of the agent (another pack's, a manual or learned
    one, removed ones included): a key names one censor, and the guardian would otherwise check
    two censors under one name.

    Raises:
        PackCensorKeyTaken: naming each key and its holder (the transaction rolls back).
    """

    def holder(row: Mapping[str, Any]) -> str:
        origin = f"pack {row['pack_name']}" if row["pack_name"] else f"a {row['source']} censor"
        return f"censor {row['id']} of {origin}{'' if row['is_active'] else ', removed'}"

    keys = [censor.key for censor in pack.censors]
    shipped = (shipped_censor_keys(), "the shipped default censor (seeds/censors.yaml)")
    query = "packs/loader/find_censor_key_holders"
    if holders := await _held(tx, agent_id, pack, keys, shipped, query, holder):
        raise PackCensorKeyTaken(pack.name, agent_id, holders)


async def refuse_held_frame_keys(tx: Transaction, agent_id: str, pack: KnowledgePack) -> None:
    """Refuses the pack when a frame key it brings is a shipped default frame's
    (seeds/frames.yaml) or another pack's frame's, a retired one included: frames are merged on
    the agent and key, so the pack would otherwise replace that frame's content and take its
    source without a word.

    Raises:
        PackFrameKeyTaken: naming each key and its holder (the transaction rolls back).
    """

    def holder(row: Mapping[str, Any]) -> str:
        source = str(row["source"])
        origin = f"pack {source.removeprefix('pack:')}" if source.startswith("pack:") else source
        return f"frame {row['id']} of {origin}{'' if row['is_active'] else ', retired'}"

    keys = [frame.key for frame in pack.frames]
    shipped = (shipped_frame_keys(), "the shipped default frame (seeds/frames.yaml)")
    query = "packs/loader/find_frame_key_holders"
    if holders := await _held(tx, agent_id, pack, keys, shipped, query, holder):
        raise PackFrameKeyTaken(pack.name, agent_id, holders)


async def _held(
    tx: Transaction,
    agent_id: str,
    pack: KnowledgePack,
    keys: list[str],
    shipped: tuple[frozenset[str], str],
    query: str,
    holder: Callable[[Mapping[str, Any]], str],
) -> dict[str, str]:
    """Each of ``keys`` held by a shipped default (named ``shipped[1]``) or, per ``query``'s rows
    (key, id, is_active, and what ``holder`` reads), by something of the agent's other than this
    pack; the shipped default named first."""
    if not keys:
        return {}
    held = {key: shipped[1] for key in keys if key in shipped[0]}
    rows = await tx.run(query, agent_id=agent_id, pack_name=pack.name, keys=keys)
    for row in rows:
        held.setdefault(row["key"], holder(row))
    return held
