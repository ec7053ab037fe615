"""Runs one investigation in its own process (for the crash test: the test kills it with
SIGKILL mid-step). Usage: python -m tests.support.run_investigation AGENT_ID INVESTIGATION_ID
ROWS DELAY_S — ROWS: comma-separated VitaminC dev rows forming the corpus; DELAY_S: how long each
search takes. Neo4j from the CREDENCE_NEO4J_* environment; offline reasoner."""

from __future__ import annotations

import asyncio
import sys

from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from app.reasoning.offline.reasoner import OfflineReasoner
from app.research.runner import run_investigation
from tests.support.research import ListSource, passage_of, services_for, vitaminc_rows


async def main(agent_id: str, investigation_id: str, rows: list[int], delay_s: float) -> None:
    settings = Settings(_env_file=None)
    graph = GraphClient.from_settings(settings.neo4j)
    embedder = shared_embedder(settings.embeddings)
    data = vitaminc_rows()
    source = ListSource([passage_of(data[n], n) for n in rows], name="vitaminc", delay_s=delay_s)
    services = services_for(
        graph, settings, OfflineReasoner(embedder, settings.reasoner), embedder, [source]
    )
    try:
        await run_investigation(services, agent_id, investigation_id)
    finally:
        await graph.close()


if __name__ == "__main__":
    agent, investigation, rows, delay = sys.argv[1:5]
    asyncio.run(main(agent, investigation, [int(n) for n in rows.split(",")], float(delay)))
