"""The seeds' values against Credence's, through the real code on the real Neo4j (docs/origins.md).

The differences docs/origins.md keeps, each run both ways in this process (the seed's variant
monkeypatched in, as other benches do):

- ``valence``: every shipped validation scenario (``seeds/scenarios/``) run through the real loop
  offline, as written and with the speaker's cues added (the second message turn ends "This is
  frustrating.", the last one "Thanks, that is great."), under Credence's emotional valence
  (+0.2 / −0.4 plus frustration −0.3, praise +0.2) and under seed 000's (1.0 success, −0.5
  failure, 0 otherwise; no cues). Each session is then ended (peak-end salience, the real query)
  and the bench prints which episode became the peak, and whether it is simply the session's
  first success that carries a valence.
- ``urgent``: agents of 3 and 10 beliefs at tension ~0.65 (D high), two chat turns under
  Credence's urgent-revision rule, the seed's read literally (tension ≥ 0.7, no cap) and every
  belief from 0.5: turn time, urgent revisions, D after.
- ``demo``: the demo's story (``credence demo``, built under its own name in this process) under
  each valence; every session ended and its peak printed the same way.
- ``ethical``: the same scenarios on agents born with seed 000's ethical strengths (0.85
  confidentiality and accuracy, 0.80 segregation of duties and authorization boundaries, the
  other six ethical-core beliefs at 0.85) against Credence's 0.95–0.98: the ethical beliefs
  invalidated at birth, and every turn's route (relevant strength, invalidated, mode).
- ``listing``: a born agent (every shipped pack): how many beliefs it holds invalidated at
  birth, the tokens listing all of them would cost against the beliefs' share of the frame's
  budget (``app.retrieval.budget``), and which of ``GET /context``'s beliefs for a question
  would no longer fit if that list came first.

    .venv/bin/python bench/seed_differences.py                 # all five
    .venv/bin/python bench/seed_differences.py --only urgent   # or valence, demo, ethical, listing

Agents are deleted at the end. The test suite never runs it. Needs the SQLite MCP server (as
``credence scenario run`` does).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import app.agents.birth as birth
import app.loop.call_memory as call_memory
import app.loop.planning as planning
import app.loop.write_phase as write_phase
from app.agents.store import delete_agent
from app.api.app import create_app
from app.config import Settings, get_settings
from app.demo.runner import DemoOptions, build_demo
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.loop.episode_rows import emotional_valence
from app.loop.routing import Route, route
from app.memory.episodes import end_sessions_with_episodes
from app.retrieval.budget import estimate_tokens, fit_to_budget, section_budgets
from app.scenarios.models import Scenario
from app.scenarios.runner import RunOptions, read_scenario, run_scenario, scenario_files
from app.seeds.file_schemas import CreedFile
from app.seeds.files import read_creed

BENCH_CYPHER = Path(__file__).resolve().parent / "cypher"
FRUSTRATED, PRAISING = " This is frustrating.", " Thanks, that is great."
SEED_ETHICAL = {
    "client_data_confidentiality": 0.85,
    "records_must_be_accurate": 0.85,
    "segregation_of_duties": 0.80,
    "respect_authorization_boundaries": 0.80,
}
SEED_ETHICAL_OTHERS = 0.85


def seed_valence(outcome: str, frustrated: bool, praised: bool) -> float:
    """Seed 000: 1.0 for a success, −0.5 for a failure, 0 otherwise; the person plays no part."""
    del frustrated, praised
    return {"success": 1.0, "failure": -0.5}.get(outcome, 0.0)


def seed_creed() -> CreedFile:
    """The shipped creed with the ethical core at seed 000's birth strengths."""
    creed = read_creed()
    core = [
        belief.model_copy(update={"strength": SEED_ETHICAL.get(belief.key, SEED_ETHICAL_OTHERS)})
        for belief in creed.ethical_core
    ]
    return creed.model_copy(update={"ethical_core": core})


@contextmanager
def patched(target: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(target, name)
    setattr(target, name, value)
    try:
        yield
    finally:
        setattr(target, name, old)


@dataclass
class Run:
    scenario: str
    episodes: list[dict[str, Any]] = field(default_factory=list)
    routes: list[tuple[float | None, bool, str]] = field(default_factory=list)
    invalidated_ethical: int = 0


def with_cues(scenario: Scenario) -> Scenario:
    """The second message turn frustrated, the last one praising."""
    messages = [i for i, turn in enumerate(scenario.turns) if turn.message is not None]
    turns = list(scenario.turns)
    for index, cue in ((messages[1:2], FRUSTRATED), (messages[-1:], PRAISING)):
        for i in index:
            turns[i] = turns[i].model_copy(update={"message": f"{turns[i].message}{cue}"})
    return scenario.model_copy(update={"turns": turns})


async def _read_kept(settings: Settings, agent_id: str) -> tuple[list[dict[str, Any]], int]:
    app_graph = GraphClient.from_settings(settings.neo4j)
    graph = GraphClient.from_settings(settings.neo4j, QueryCatalog(BENCH_CYPHER))
    try:
        keys = [row["key"] for row in await graph.read("probe/session_keys", agent_id=agent_id)]
        await end_sessions_with_episodes(app_graph, settings.retrieval, agent_id, keys)
        episodes = await graph.read("probe/session_peaks", agent_id=agent_id)
        ethical = await graph.read("probe/invalidated_ethical", agent_id=agent_id)
        return episodes, int(ethical[0]["invalidated"])
    finally:
        await delete_agent(
            app_graph, agent_id, default_agent_name=settings.default_agent, force=True
        )
        await graph.close()
        await app_graph.close()


def run_one(settings: Settings, scenario: Scenario) -> Run:
    run = Run(scenario.name)

    def recording(strength: float | None, **kwargs: Any) -> Route:
        routed = route(strength, **kwargs)
        run.routes.append((strength, bool(kwargs.get("invalidated")), routed.mode))
        return routed

    with patched(planning, "route", recording):
        report = asyncio.run(run_scenario(settings, scenario, RunOptions(keep=True)))
    run.episodes, run.invalidated_ethical = asyncio.run(_read_kept(settings, report.agent_id))
    return run


def run_all(settings: Settings, cues: bool, valence: Callable[..., float] | None) -> list[Run]:
    scenarios = [read_scenario(path) for path in scenario_files()]
    runs = []
    for scenario in scenarios:
        played = with_cues(scenario) if cues else scenario
        if valence is None:
            runs.append(run_one(settings, played))
            continue
        with (
            patched(write_phase, "emotional_valence", valence),
            patched(call_memory, "emotional_valence", valence),
        ):
            runs.append(run_one(settings, played))
    return runs


def peak_line(run: Run) -> str:
    """The session's turns as outcome:valence (``-``: none recorded; F, P: a frustrated or
    praising message), the peak starred, and whether it is the first success with a valence."""
    parts, first_success, peak = [], None, None
    for i, e in enumerate(run.episodes):
        if e["outcome"] == "success" and e["valence"] is not None and first_success is None:
            first_success = i
        if e["is_peak"]:
            peak = i
        cue = (
            "F" if FRUSTRATED.strip() in e["text"] else "P" if PRAISING.strip() in e["text"] else ""
        )
        mark = "*" if e["is_peak"] else ""
        valence = "-" if e["valence"] is None else f"{e['valence']:+.1f}"
        parts.append(f"{mark}{(e['outcome'] or 'none')[:4]}{cue}:{valence}")
    tail = "no peak" if peak is None else f"peak turn {peak + 1}"
    if peak is not None and peak == first_success:
        tail += " = first success"
    return f"{' '.join(parts)}  → {tail}"


def valence_report(settings: Settings) -> None:
    for cues in (False, True):
        for label, valence in (("Credence", None), ("seed 000", seed_valence)):
            runs = run_all(settings, cues, valence)
            firsts = sum("= first success" in peak_line(r) for r in runs)
            print(
                f"\n{label}, {'with the cues' if cues else 'as written'}: peak is the first "
                f"success in {firsts} of {len(runs)} sessions"
            )
            for r in runs:
                print(f"  {r.scenario:28} {peak_line(r)}")


def demo_report(settings: Settings) -> None:
    """The demo's story (``credence demo``), built under each valence; every session ended."""
    for label, valence in (("Credence", None), ("seed 000", seed_valence)):
        with tempfile.TemporaryDirectory() as folder:
            options = DemoOptions(
                name="bench seed demo", rebuild=True, ledger=Path(folder) / "ledger.db"
            )
            real = valence or emotional_valence
            with (
                patched(write_phase, "emotional_valence", real),
                patched(call_memory, "emotional_valence", real),
            ):
                built = asyncio.run(build_demo(settings, options))
        episodes, _ = asyncio.run(_read_kept(settings, built.agent_id))
        sessions: dict[str, list[dict[str, Any]]] = {}
        for episode in episodes:
            sessions.setdefault(episode["session"], []).append(episode)
        runs = [Run(key, rows) for key, rows in sessions.items()]
        firsts = sum("= first success" in peak_line(r) for r in runs)
        print(f"\ndemo, {label}: peak is the first success in {firsts} of {len(runs)} sessions")
        for run in runs:
            print(f"  {run.scenario:28} {peak_line(run)}")


URGENT_VARIANTS: tuple[tuple[str, dict[str, float]], ...] = (
    ("Credence: from 0.5, at most 2, 20 s", {}),
    (
        "seed 001 literal: above the threshold 0.7, no cap",
        {
            "urgent_revision_min_tension": 0.7,
            "urgent_revision_beliefs": 10,
            "urgent_revision_seconds": 300.0,
        },
    ),
    (
        "every belief from 0.5, no cap (10), 300 s",
        {"urgent_revision_beliefs": 10, "urgent_revision_seconds": 300.0},
    ),
)


def tense_agent(client: TestClient, count: int) -> str:
    """An agent of ``count`` beliefs, each contradicted 4 + 1 (0.4) times: tension ~0.65."""
    agent_id: str = client.post("/v1/agents", json={"name": "bench seed urgent"}).json()["id"]
    for n in range(count):
        created = client.post(
            f"/v1/agents/{agent_id}/beliefs",
            json={
                "statement": f"Ledger batch {n} is posted before the close of its period",
                "strength": 0.8,
                "category": "contextual",
            },
        )
        created.raise_for_status()
        for confidence in (1.0, 1.0, 1.0, 1.0, 0.4):
            client.post(
                f"/v1/agents/{agent_id}/beliefs/{created.json()['id']}/evidence",
                json={"text": "not so", "stance": "contradicting", "confidence": confidence},
            ).raise_for_status()
    return agent_id


def urgent_report(settings: Settings) -> None:
    print(
        f"\n{'urgent rule':50} {'N':>3} {'D before':>8} {'turn ms':>8} {'revised':>7}"
        f" {'next D':>7} {'band':>6} {'2nd ms':>7} {'revised':>7}"
    )
    for label, update in URGENT_VARIANTS:
        mechanics = settings.mechanics.model_copy(update=update)
        app = create_app(settings.model_copy(update={"mechanics": mechanics}))
        with TestClient(app, raise_server_exceptions=False) as c:
            warm = c.post("/v1/agents", json={"name": "bench seed warm-up"}).json()["id"]
            c.post(f"/v1/agents/{warm}/chat", json={"message": "Is batch 1 posted?"})
            c.delete(f"/v1/agents/{warm}", params={"force": "true"})
            for count in (3, 10):
                agent_id = tense_agent(c, count)
                try:
                    before = c.get(f"/v1/agents/{agent_id}/dissatisfaction").json()["value"]
                    figures = []
                    for message in ("What is posted before the close?", "Is batch 1 posted?"):
                        started = time.perf_counter()
                        turn = c.post(
                            f"/v1/agents/{agent_id}/chat",
                            json={"message": message, "speaker": "Ada", "session": "s"},
                        )
                        ms = (time.perf_counter() - started) * 1000
                        if turn.status_code != 200:  # printed, not raised: a finding
                            figures.append((ms, f"HTTP {turn.status_code}"))
                            continue
                        urgent = [r for r in turn.json()["revisions"] if r["mode"] == "urgent"]
                        figures.append((ms, str(len(urgent))))
                    after = c.get(f"/v1/agents/{agent_id}/dissatisfaction").json()
                finally:
                    c.delete(f"/v1/agents/{agent_id}", params={"force": "true"})
                (first_ms, first_n), (second_ms, second_n) = figures
                print(
                    f"{label:50} {count:>3} {before:>8.3f} {first_ms:>8.0f} {first_n:>7}"
                    f" {after['value']:>7.3f} {after['band']:>6} {second_ms:>7.0f} {second_n:>7}"
                )


def route_summary(runs: list[Run]) -> tuple[int, int, int, int]:
    routes = [route for run in runs for route in run.routes]
    autonomous = sum(mode == "autonomous" for _, _, mode in routes)
    capped = sum(inv and s is not None and s >= 0.7 for s, inv, _ in routes)
    return len(routes), autonomous, capped, runs[0].invalidated_ethical if runs else 0


def ethical_report(settings: Settings) -> None:
    print(
        f"\n{'ethical core':14} {'invalidated at birth':>20} {'turns':>6} {'autonomous':>10}"
        f" {'strong but invalidated':>22}"
    )
    for label, creed in (("Credence", read_creed), ("seed 000", seed_creed)):
        with patched(birth, "read_creed", creed):
            runs = run_all(settings, cues=False, valence=None)
        turns, autonomous, capped, born = route_summary(runs)
        print(f"{label:14} {born:>20} {turns:>6} {autonomous:>10} {capped:>22}")
        for run in runs:
            print(
                f"  {run.scenario:28} routes (strength, invalidated, mode): "
                + ", ".join(
                    f"({'-' if s is None else f'{s:.2f}'}, {int(i)}, {m})" for s, i, m in run.routes
                )
            )


QUESTIONS = (
    "When is revenue recognised under a contract change?",
    "How do we accrue expenses at month end?",
    "What do we check before changing a vendor's bank details?",
)


def listing_report(settings: Settings) -> None:
    retrieval = settings.retrieval
    budget = section_budgets(
        retrieval,
        retrieval.default_budget_tokens,
        ["beliefs", "episodes", "rules", "people", "working_memory"],
    )
    share = budget["beliefs"]
    with TestClient(create_app(settings)) as client:
        body = {"name": "bench seed listing", "profile": {"name": "Ada Controller"}}
        agent_id = client.post("/v1/agents", json=body).json()["id"]
        try:
            every = client.get(f"/v1/agents/{agent_id}/beliefs", params={"limit": 500}).json()
            invalid = client.get(
                f"/v1/agents/{agent_id}/beliefs", params={"limit": 500, "invalidated": "true"}
            ).json()["data"]
            cost = sum(estimate_tokens(b, retrieval.chars_per_token) for b in invalid)
            print(
                f"\nborn agent: {len(every['data'])} beliefs, {len(invalid)} invalidated at birth"
                f" (categories: {sorted({b['category'] for b in invalid})}); listing them all:"
                f" {cost} tokens; the beliefs' share of the default budget: {share}"
            )
            for question in QUESTIONS:
                context = client.get(
                    f"/v1/agents/{agent_id}/context", params={"q": question}
                ).json()
                section = context["sections"]["beliefs"]
                relevant, share = section["items"], section["budget_tokens"]
                ids = {b["id"] for b in invalid}
                listed = invalid + [b for b in relevant if b["id"] not in ids]
                kept, _, _ = fit_to_budget(listed, share, retrieval.chars_per_token)
                kept_ids = {b["id"] for b in kept}
                out = [b for b in relevant if b["id"] not in kept_ids]
                print(
                    f"  {question!r} (beliefs' budget {share}): /context gives"
                    f" {len(relevant)} beliefs; with every"
                    f" invalidated one listed first, {len(out)} of them no longer fit"
                )
                for b in out[:3]:
                    print(f"    pushed out: {b['statement'][:90]}")
        finally:
            client.delete(f"/v1/agents/{agent_id}", params={"force": "true"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", choices=("valence", "demo", "ethical", "listing", "urgent"))
    only = parser.parse_args().only
    logging.disable(logging.INFO)
    settings = get_settings().model_copy(update={"default_agent": ""})
    if only in (None, "listing"):
        listing_report(settings)
    if only in (None, "ethical"):
        ethical_report(settings)
    if only in (None, "valence"):
        valence_report(settings)
    if only in (None, "demo"):
        demo_report(settings)
    if only in (None, "urgent"):
        urgent_report(settings)


if __name__ == "__main__":
    main()
