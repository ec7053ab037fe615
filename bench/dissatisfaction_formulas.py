"""Dissatisfaction: seed 001's formula against Credence's, on the same graphs (issue 40).

Seed 001 defines ``D = Σ(tension · importance · connection_density) / N`` over the N active
beliefs; Credence computes a weighted mean ``D = Σ tension·w / Σ w`` with
``w = importance · (0.5 + 0.5 · degree / max_degree)`` (docs/beliefs.md §7). Both read the same
beliefs; the seed's connection density is taken as ``degree / max_degree`` (its most generous
reading: 1 for the best-connected belief). For each scenario this prints both values and the band
each falls in (low < 0.3 ≤ medium < 0.6 ≤ high, the seed's bands), through the real API on the
real Neo4j:

- ``two beliefs``: the seed's own uncertainty test (two beliefs contradicted 0, 3 and 4 times);
- ``born agent``: a full birth (every shipped pack) with the k most important beliefs contradicted
  up to just below the revision threshold (k = 1, 10, 30, 100).

    .venv/bin/python bench/dissatisfaction_formulas.py

Every agent it creates is deleted at the end. The test suite never runs it.
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings, get_settings
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient

BENCH_CYPHER = Path(__file__).resolve().parent / "cypher"
MEDIUM_FROM, HIGH_FROM = 0.3, 0.6


@dataclass(frozen=True)
class Figures:
    scenario: str
    beliefs: int
    credence: float
    seed: float


def band(value: float) -> str:
    return "high" if value >= HIGH_FROM else "medium" if value >= MEDIUM_FROM else "low"


def seed_formula(rows: list[dict[str, Any]]) -> float:
    """Σ(tension · importance · degree / max_degree) / N."""
    if not rows:
        return 0.0
    max_degree = max(row["degree"] for row in rows)
    density = [row["degree"] / max_degree if max_degree else 0.0 for row in rows]
    total: float = sum(
        row["tension"] * row["importance"] * d for row, d in zip(rows, density, strict=True)
    )
    return total / len(rows)


def contradict(client: TestClient, agent_id: str, belief_id: str, times: int, last: float) -> None:
    for confidence in [1.0] * times + ([last] if last else []):
        response = client.post(
            f"/v1/agents/{agent_id}/beliefs/{belief_id}/evidence",
            json={"text": "not so", "stance": "contradicting", "confidence": confidence},
        )
        if response.status_code == 409:  # revised (inactive) by an earlier one's propagation
            return
        response.raise_for_status()


async def terms(settings: Settings, agent_id: str) -> list[dict[str, Any]]:
    graph = GraphClient.from_settings(settings.neo4j, QueryCatalog(BENCH_CYPHER))
    try:
        return await graph.read("probe/dissatisfaction_terms", agent_id=agent_id)
    finally:
        await graph.close()


def measure(client: TestClient, settings: Settings, scenario: str, agent_id: str) -> Figures:
    credence = client.get(f"/v1/agents/{agent_id}/dissatisfaction").json()["value"]
    rows = asyncio.run(terms(settings, agent_id))
    return Figures(scenario, len(rows), float(credence), seed_formula(rows))


def two_beliefs(client: TestClient, settings: Settings, made: list[str]) -> list[Figures]:
    figures = []
    for contradictions, last in ((0, 0.0), (3, 0.0), (4, 0.4)):
        agent_id = client.post("/v1/agents", json={"name": "bench dissatisfaction"}).json()["id"]
        made.append(agent_id)
        for statement in ("Revenue is recognised at delivery", "Expenses follow revenue"):
            created = client.post(
                f"/v1/agents/{agent_id}/beliefs",
                json={"statement": statement, "strength": 0.8, "category": "contextual"},
            )
            created.raise_for_status()
            contradict(client, agent_id, created.json()["id"], contradictions, last)
        label = f"two beliefs, {contradictions}{'+1' if last else ''} contradictions each"
        figures.append(measure(client, settings, label, agent_id))
    return figures


def born_agent(client: TestClient, settings: Settings, made: list[str]) -> list[Figures]:
    body = {"name": "bench dissatisfaction born", "profile": {"name": "Ada Controller"}}
    agent_id = client.post("/v1/agents", json=body).json()["id"]
    made.append(agent_id)
    listed = client.get(f"/v1/agents/{agent_id}/beliefs", params={"limit": 500}).json()["data"]
    mutable = [b for b in listed if not b.get("is_immutable")]
    ranked = sorted(mutable, key=lambda b: (-b.get("importance", 0.5), b["id"]))
    figures = [measure(client, settings, "born agent, nothing contradicted", agent_id)]
    done = 0
    for k in (1, 10, 30, 100):
        for belief in ranked[done:k]:
            contradict(client, agent_id, belief["id"], 4, 0.4)
        done = k
        figures.append(measure(client, settings, f"born agent, {k} beliefs at ~0.65", agent_id))
    return figures


def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    settings = get_settings().model_copy(update={"default_agent": ""})
    made: list[str] = []
    with TestClient(create_app(settings)) as client:
        try:
            figures = two_beliefs(client, settings, made) + born_agent(client, settings, made)
        finally:
            for agent_id in made:
                client.delete(f"/v1/agents/{agent_id}", params={"force": "true"})
    print(f"{'scenario':48} {'N':>4}  {'Credence D':>10} band    {'seed D':>7} band")
    for f in figures:
        print(
            f"{f.scenario:48} {f.beliefs:>4}  {f.credence:>10.3f} {band(f.credence):7}"
            f" {f.seed:>7.3f} {band(f.seed)}"
        )


if __name__ == "__main__":
    main()
