"""Knowledge packs of an agent: which are loaded, loading (or upgrading) a shipped one or one
sent in the body, and the domain skills the agent's packs brought."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body

from app.api.deps import AgentIdDep, EmbedderDep, GraphDep, NamePath, SettingsDep
from app.packs.loader import (
    AgentSkill,
    PackLoadReport,
    PackSummary,
    list_agent_skills,
    list_loaded_packs,
    load_pack,
)
from app.seeds.files import find_pack, parse_pack

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["packs"])

PackDocument = Annotated[
    dict[str, Any],
    Body(
        description="A knowledge pack in the format of seeds/packs/*.yaml (as JSON): the schema "
        "`credence packs schema` prints, a `skill` included.",
    ),
]


@router.get("/packs")
async def list_packs(graph: GraphDep, agent_id: AgentIdDep) -> list[PackSummary]:
    """The packs loaded into the agent, with their active, superseded and otherwise inactive
    beliefs and the skill each brought."""
    return await list_loaded_packs(graph, agent_id)


_LOAD: dict[int | str, dict[str, Any]] = {
    409: {
        "description": "censor_key_taken: a censor key of the pack is another censor's (a "
        "shipped default's, another pack's, a manual one's); frame_key_taken: a frame key of "
        "the pack is a shipped default frame's or another pack's frame's; pack_version_older: "
        "the agent holds a later version of the pack; conflict: the pack's beliefs kept "
        "changing under the load (other loads of it, five times running); nothing written"
    },
    422: {
        "description": "the pack is invalid (seed_file_invalid, each field named) or named as "
        "a birth's own pack (invalid_input, its entry of type pack_name_reserved); nothing written"
    },
}


@router.post("/packs", responses=_LOAD)
async def load_document(
    graph: GraphDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    agent_id: AgentIdDep,
    document: PackDocument,
) -> PackLoadReport:
    """Load a pack sent in the body: validated whole first (422 `seed_file_invalid` naming each
    field, nothing written), then loaded as a shipped one is (idempotent; a newer version
    upgrades)."""
    # Off the event loop: screening the censors' patterns times adversarial probes
    # (app/seeds/censor_patterns.py), up to a few hundred milliseconds for a bad one.
    pack = await asyncio.to_thread(parse_pack, document, "request body", ["body"])
    return await load_pack(graph, embedder, settings.mechanics, agent_id, pack)


@router.post("/packs/{name}/load", responses=_LOAD)
async def load(
    graph: GraphDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    agent_id: AgentIdDep,
    name: NamePath,
) -> PackLoadReport:
    """Load a shipped pack (validated whole first; idempotent; a newer version upgrades)."""
    pack = find_pack(name)
    return await load_pack(graph, embedder, settings.mechanics, agent_id, pack)


@router.get("/skills")
async def list_skills(graph: GraphDep, agent_id: AgentIdDep) -> list[AgentSkill]:
    """The agent's domain skills, the one its turns work under first (`in_force`): those its
    packs brought (the pack loaded last wins), then the shipped accounting skill."""
    return await list_agent_skills(graph, agent_id)
