"""Knowledge packs of an agent: which are loaded, and loading (or upgrading) a shipped one."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import AgentIdDep, EmbedderDep, GraphDep, NamePath, SettingsDep
from app.packs.loader import PackLoadReport, PackSummary, list_loaded_packs, load_pack
from app.seeds.files import find_pack

router = APIRouter(prefix="/v1/agents/{agent_id}", tags=["packs"])


@router.get("/packs")
async def list_packs(graph: GraphDep, agent_id: AgentIdDep) -> list[PackSummary]:
    """The packs loaded into the agent, with their active and superseded beliefs."""
    return await list_loaded_packs(graph, agent_id)


@router.post("/packs/{name}/load")
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
