"""Research mode on the VitaminC development slice: how often an investigation's verdict matches
the label, and how long an investigation takes offline.

A fixed, seeded sample of claims (``--claims``, seed ``--seed``) is drawn from the dev slice
(``../shared/eval-data/vitaminc-dev``), by default from the pages of its held-out half only
(``--pages held-out``: the page split of ``bench/stance_vitaminc.py``; the stance judge and every
research setting were chosen on the other half). The corpus of one bench agent holds the evidence
sentences the sample keeps (one document per distinct sentence; the sentences of the other
sampled claims are the distractors, many from the same Wikipedia page). Each claim is then
investigated with the offline reasoner and the real embedder, searching that corpus only
(``sources=["corpus"]``, so beliefs written by earlier investigations are not searched), and its
verdict is compared with what the labels of its sentences in the corpus say:

- only SUPPORTS rows → ``confirmed``; only REFUTES rows → ``refuted``;
- SUPPORTS and REFUTES rows (VitaminC's contrastive revisions: a real source conflict) →
  ``contested``: the honest end is ``undecided`` after recording the conflict (the sentences
  carry no dates, so neither revision can be preferred); a confirmed/refuted verdict counts as a
  miss, and the share of these claims where the conflict was recorded is printed;
- only NOT_ENOUGH_INFO rows → ``undecided``.

Every SUPPORTS/REFUTES claim of the dev slice's pages comes with both sides (VitaminC is
contrastive: 908 contested and 382 NOT_ENOUGH_INFO claims on the held-out pages, none one-sided),
so the slice as it is expects ``undecided`` only: a judge that decides nothing would score 1.0. The
default sample (``--sample balanced``) is therefore built: **a quarter each of confirmed, refuted,
contested and NOT_ENOUGH_INFO claims** (``--claims`` rounded down to a multiple of 4). The claims
of the chosen pages are shuffled by the seeded generator and taken in that order; a NOT_ENOUGH_INFO
claim fills the not-enough-info quarter (a one-sided claim, its own); a contested claim fills the
quarter of confirmed, refuted or contested claims that has the fewest so far (ties in that order),
by leaving its REFUTES sentences out of the corpus (confirmed), its SUPPORTS sentences (refuted),
or neither (contested). A sentence one claim keeps is never one another claim leaves out (a claim
whose sentences fit no open quarter is skipped), so each claim's expected verdict is exactly its
quarter's. Abstaining on everything scores 0.5 on this sample, deciding every one-sided claim right
and abstaining on the rest 1.0. ``--sample contested`` draws the claims as the slice has them (the
sample of the earlier runs); ``--sample one-sided`` (or ``--drop-side``) leaves one side of each
claim out, chosen by the generator, unless another claim keeps the sentence (the expected verdict
then follows from the labels still in the corpus). The sampler is
``balanced_sample`` in ``tools/eval_data/vitaminc.py`` (tests/unit/tools).

Up to three passes in one run, on the same corpus and claims: the cue judge alone (as before
issue 23, and the fallback without the model's weights, which keeps the 0.7 floors and counts
every passage), then the learned stance judge shipped in the package with the research settings
before the relevance margin (offline floors 0.8 / 0.8, every passage counting: **before**) and
with the configured ones (``CREDENCE_RESEARCH__OFFLINE_SUPPORT_FLOOR`` /
``..._CONTRADICTION_FLOOR`` / ``..._OFFLINE_RELEVANCE_MARGIN``, **after**).
``--skip-cues`` / ``--cues-only`` leave passes out;
``--weights`` runs another model's weights (e.g. the one ``tools/stance/train.py
--validation-weights`` fits without the validation pages). ``--record FILE`` instead makes one
pass in which no floor is reached, so every investigation searches twice and judges everything it
finds, and writes those judgements for ``bench/research_floors.py``, which replays the rules for
a grid of floors and chose the configured ones (on ``--pages validation``). The accuracy is also
printed for the claims of held-out pages alone (all of them with the default ``--pages``).

Printed, per judge: the confusion matrix (expected × verdict), accuracy per expected class and
overall, conflicts recorded / resolved / unresolvable on contested claims, steps per
investigation, and the wall time of one investigation p50 / p95 (start to finish, the runner's
steps, as ``credence research start`` runs it), plus the corpus load time.

    PYTHONPATH=. .venv/bin/python bench/research_vitaminc.py   # 300 held-out claims, balanced
    PYTHONPATH=. .venv/bin/python bench/research_vitaminc.py --sample contested --skip-cues
    PYTHONPATH=. .venv/bin/python bench/research_vitaminc.py --pages validation --claims 400 \
        --weights /tmp/validation.npz --record /tmp/val-contested.json
    PYTHONPATH=. .venv/bin/python bench/research_vitaminc.py --claims 50 --keep

Neo4j from ``CREDENCE_NEO4J_*`` (migrated); the bench agent is deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import statistics
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.config import Settings
from app.embeddings.embedder import Embedder, shared_embedder
from app.graph.catalog import QueryCatalog
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.offline.stance_model import LoadedJudge, TreeEnsemble
from app.research import investigations, store
from app.research.models import InvestigationDetail
from app.research.runner import run_investigation
from app.research.services import ResearchServices
from app.research.settings import ResearchSettings, for_offline_judge
from app.research.sources.corpus import load_corpus_files
from app.research.sources.documents import CorpusFile
from app.research.sources.registry import build_source_registry
from tools.eval_data.vitaminc import (
    VitaminCRow,
    balanced_sample,
    corpus_jsonl,
    expected_verdict,
    find_vitaminc,
    read_rows,
)

BENCH_CYPHER = Path(__file__).parent / "cypher"
VERDICTS = ("confirmed", "refuted", "undecided")
# The research settings that decide what counts as evidence and what decides a hypothesis.
FLOOR_SETTINGS = ("evidence_floor", "decision_floor", "offline_support_floor",
                  "offline_contradiction_floor")  # fmt: skip
SHOWN_SETTINGS = (*FLOOR_SETTINGS, "offline_relevance_margin")
# Before this change: the offline floors 0.8 / 0.8 the previous choice made, every passage
# counting (no relevance margin).
BEFORE = {"offline_support_floor": 0.8, "offline_contradiction_floor": 0.8,
          "offline_relevance_margin": None}  # fmt: skip


def right(expected: str, verdict: str) -> bool:
    return verdict == ("undecided" if expected == "contested" else expected)


def held_out_page(page: str) -> bool:
    """Not in the tuning half (the split of bench/stance_vitaminc.py and tools/stance)."""
    return hashlib.sha256(page.encode("utf-8")).digest()[0] % 2 == 1


def in_pages(page: str, pages: str) -> bool:
    """Whether the page is in the named part of the dev slice: ``held-out`` (the half no choice
    was made on), ``tuning`` (the half the stance judge was fitted on), ``validation`` (the
    tuning pages the stance judge's ``--validation-weights`` model did not see), or ``all``."""
    digest = hashlib.sha256(page.encode("utf-8")).digest()
    if pages == "held-out":
        return digest[0] % 2 == 1
    if pages == "tuning":
        return digest[0] % 2 == 0
    if pages == "validation":
        return digest[0] % 2 == 0 and digest[1] % 4 == 0
    return True


Sentences = dict[tuple[str, str], VitaminCRow]


def natural_sample(
    by_claim: dict[str, list[VitaminCRow]],
    pool: list[str],
    count: int,
    generator: random.Random,
    drop_side: bool,
) -> tuple[list[str], Sentences]:
    """``--sample contested`` (the claims as the slice has them) or ``one-sided`` (one side of
    each claim, chosen by the generator, left out unless another claim keeps the sentence)."""
    claims = generator.sample(pool, min(count, len(pool)))
    sentences: Sentences = {}
    for claim in claims:
        dropped = generator.choice(("SUPPORTS", "REFUTES")) if drop_side else None
        for row in by_claim[claim]:
            if row.label != dropped:
                sentences.setdefault((row.page, row.evidence), row)
    return claims, sentences


def passes(
    args: argparse.Namespace, embedder: Embedder, settings: Settings
) -> list[tuple[str, OfflineReasoner, ResearchSettings]]:
    """The judges and research settings to run, in order, on the same corpus and claims."""
    if args.weights is not None:
        model = TreeEnsemble.from_bytes(args.weights.read_bytes())
        learned = OfflineReasoner(
            embedder, settings.reasoner, LoadedJudge(model, args.weights.stem)
        )
    else:
        learned = OfflineReasoner(embedder, settings.reasoner)
    if not args.cues_only and learned.judge.model is None:
        raise SystemExit(f"no learned judge: {learned.judge.reason}; try --cues-only")
    research = settings.research
    if args.record is not None:
        # Nothing counts as evidence, so every investigation searches as often as it may and
        # judges every passage: bench/research_floors.py replays the rules on the judgements.
        unreached = research.model_copy(update={name: 1.0 for name in FLOOR_SETTINGS})
        return [(f"learned judge {learned.judge.version}, recording", learned, unreached)]
    cues = OfflineReasoner(embedder, settings.reasoner, LoadedJudge(None, None, "bench: cues"))
    before = research.model_copy(update=BEFORE)
    # The cue judge runs with the settings research gives it (the 0.7 floors: for_offline_judge).
    alone = for_offline_judge(research, learned=False)
    runs = [] if args.skip_cues else [
        (f"cue judge alone (before issue 23; the fallback): {floors_line(alone)}", cues, alone),
    ]  # fmt: skip
    if args.cues_only:
        return runs
    version = learned.judge.version
    return [
        *runs,
        (f"learned judge {version}, before: {floors_line(before)}", learned, before),
        (f"learned judge {version}, configured (after): {floors_line(research)}",
         learned, research),
    ]  # fmt: skip


def floors_line(research: ResearchSettings) -> str:
    return ", ".join(f"{name} {getattr(research, name)}" for name in SHOWN_SETTINGS)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def main(args: argparse.Namespace) -> None:
    path = find_vitaminc()
    if path is None:
        raise SystemExit("the VitaminC dev slice is not there (../shared/eval-data/vitaminc-dev)")
    rows = read_rows(path)
    by_claim: dict[str, list[VitaminCRow]] = defaultdict(list)
    for row in rows:
        by_claim[row.claim].append(row)
    generator = random.Random(args.seed)
    pool = sorted(claim for claim in by_claim if in_pages(by_claim[claim][0].page, args.pages))
    if args.sample == "balanced":
        claims, sentences = balanced_sample(by_claim, pool, args.claims, generator)
    else:
        claims, sentences = natural_sample(
            by_claim, pool, args.claims, generator, args.sample == "one-sided"
        )

    settings = Settings()
    graph = GraphClient.from_settings(settings.neo4j)
    bench = GraphClient.from_settings(settings.neo4j, QueryCatalog(BENCH_CYPHER))
    if not args.no_migrate:
        await MigrationRunner(graph).migrate()
    embedder = shared_embedder(settings.embeddings)
    agent = await create_agent(graph, AgentCreate(name=f"bench-research-{uuid.uuid4().hex[:8]}"))
    runs = passes(args, embedder, settings)
    try:
        begun = time.perf_counter()
        content = corpus_jsonl(sentences.values())
        await load_corpus_files(
            graph, embedder, agent.id, [CorpusFile(name="vitaminc.jsonl", format="jsonl",
                                                   content=content)]
        )  # fmt: skip
        load_s = time.perf_counter() - begun
        mode = {"balanced": ", balanced", "contested": "", "one-sided": ", one side dropped"}[
            args.sample
        ]
        held = sum(1 for claim in claims if held_out_page(by_claim[claim][0].page))
        print(
            f"{len(claims)} claims from {args.pages} pages (seed {args.seed}{mode}; {held} from "
            f"held-out pages), corpus of {len(sentences)} sentences loaded in {load_s:.1f} s"
        )
        for title, reasoner, research in runs:
            services = ResearchServices(
                graph=graph,
                reasoner=reasoner,
                embedder=embedder,
                mechanics=settings.mechanics,
                loop=settings.loop,
                retrieval=settings.retrieval,
                research=research,
                sources=build_source_registry(graph, embedder, settings.retrieval),
            )
            print(f"\n## {title}")
            records = await investigate_all(services, graph, agent.id, claims, by_claim, sentences)
            if args.record is not None:
                args.record.write_text(json.dumps(records) + "\n", encoding="utf-8")
                print(f"recorded {len(records)} investigations in {args.record}")
    finally:
        if not args.keep:
            await bench.run_autocommit(
                bench.catalog.get("cleanup/delete_research_agent").text,
                "deleting the bench agent",
                agent_id=agent.id,
            )
        await bench.close()
        await graph.close()


async def investigate_all(
    services: ResearchServices,
    graph: GraphClient,
    agent_id: str,
    claims: list[str],
    by_claim: dict[str, list[VitaminCRow]],
    sentences: dict[tuple[str, str], VitaminCRow],
) -> list[dict[str, object]]:
    confusion: Counter[tuple[str, str]] = Counter()
    held_out: Counter[tuple[str, str]] = Counter()
    times: list[float] = []
    steps: list[int] = []
    conflicts: Counter[str] = Counter()
    records: list[dict[str, object]] = []
    for number, claim in enumerate(claims, 1):
        expected = expected_verdict(
            {row.label for row in by_claim[claim] if (row.page, row.evidence) in sentences}
        )
        begun = time.perf_counter()
        started = await investigations.start_investigation(
            services, None, agent_id, claim, sources=["corpus"], started_by="bench"
        )
        end = await run_investigation(services, agent_id, started.id)
        times.append((time.perf_counter() - begun) * 1000)
        detail = await store.load_detail(graph, agent_id, started.id)
        steps.append(len(detail.steps))
        verdict = end.verdict or end.status
        records.append(record_of(detail, claim, expected, held_out_page(by_claim[claim][0].page)))
        confusion[(expected, verdict)] += 1
        if held_out_page(by_claim[claim][0].page):
            held_out[(expected, verdict)] += 1
        if expected == "contested":
            statuses = {c.status for c in detail.conflicts}
            conflicts["contested"] += 1
            conflicts["recorded"] += bool(detail.conflicts)
            conflicts["resolved"] += "resolved" in statuses
            conflicts["unresolvable"] += "unresolvable" in statuses
        else:
            conflicts["other_with_conflict"] += bool(detail.conflicts)
        if number % 50 == 0:
            print(f"  {number} investigations, p50 {statistics.median(times):.0f} ms")
    report(confusion, conflicts, times, steps)
    hits = sum(n for (expected, verdict), n in held_out.items() if right(expected, verdict))
    total = sum(n for (_, verdict), n in held_out.items() if verdict in VERDICTS)
    if total:
        print(f"claims of held-out pages only: accuracy {hits / total:.3f} ({total})")
    return records


def record_of(
    detail: InvestigationDetail, claim: str, expected: str, held_out: bool
) -> dict[str, object]:
    """What bench/research_floors.py replays: the first hypothesis' judgements, by search round
    (the sources the first judge step judged, then the rest), and the sources themselves."""
    hypothesis = detail.hypotheses[0]
    first_judge = next((step for step in detail.steps if step.kind == "judge"), None)
    first_round = int(first_judge.details.get("judged", 0)) if first_judge else 0
    first_round //= max(1, len(detail.hypotheses))
    return {
        "claim": claim,
        "expected": expected,
        "held_out": held_out,
        "verdict": detail.investigation.verdict,
        "first_round": first_round,
        "hypothesis": hypothesis.model_dump(mode="json"),
        "sources": [
            s.model_dump(mode="json") for s in sorted(detail.sources, key=lambda s: s.number)
        ],
        "evidence": [e.model_dump(mode="json") for e in detail.evidence_on(hypothesis.id)],
    }


def report(
    confusion: Counter[tuple[str, str]],
    conflicts: Counter[str],
    times: list[float],
    steps: list[int],
) -> None:
    expected_classes = ("confirmed", "refuted", "contested", "undecided")
    print("\nexpected \\ verdict " + " ".join(f"{v:>10}" for v in VERDICTS) + "   accuracy")
    total = hits = 0
    for expected in expected_classes:
        counts = [confusion[(expected, verdict)] for verdict in VERDICTS]
        n = sum(counts)
        if not n:
            continue
        good = sum(c for v, c in zip(VERDICTS, counts, strict=True) if right(expected, v))
        total, hits = total + n, hits + good
        print(
            f"{expected:>18} " + " ".join(f"{c:>10}" for c in counts) + f"   {good / n:.3f} ({n})"
        )
    print(f"{'overall':>18} {'':>32}   {hits / total:.3f} ({total})")
    failed = sum(n for (_, verdict), n in confusion.items() if verdict not in VERDICTS)
    if failed:
        print(f"not finished (failed or cut): {failed}, left out of the table above")
    if conflicts["contested"]:
        n = conflicts["contested"]
        print(
            f"contested claims: conflict recorded {conflicts['recorded']}/{n}, resolved "
            f"{conflicts['resolved']}, unresolvable {conflicts['unresolvable']}; other claims "
            f"with a conflict: {conflicts['other_with_conflict']}"
        )
    print(
        f"investigation wall time: p50 {percentile(times, 0.5):.0f} ms, p95 "
        f"{percentile(times, 0.95):.0f} ms, max {max(times):.0f} ms; steps p50 "
        f"{statistics.median(steps):.0f}, max {max(steps)}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=300)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument(
        "--sample",
        choices=("balanced", "contested", "one-sided"),
        default="balanced",
        help="a quarter each of confirmed, refuted, contested and not-enough-info claims "
        "(default); the claims as the slice has them; or one side of each left out",
    )
    parser.add_argument(
        "--drop-side",
        dest="sample",
        action="store_const",
        const="one-sided",
        help="the same as --sample one-sided",
    )
    parser.add_argument("--keep", action="store_true", help="leave the bench agent in the graph")
    parser.add_argument("--cues-only", action="store_true", help="only the cue judge")
    parser.add_argument("--skip-cues", action="store_true", help="only the learned judge")
    parser.add_argument(
        "--pages",
        choices=("held-out", "tuning", "validation", "all"),
        default="held-out",
        help="the part of the dev slice the claims are drawn from (default: the held-out half, "
        "on which nothing was chosen)",
    )
    parser.add_argument(
        "--weights", type=Path, help="the learned judge from this .npz instead of the shipped one"
    )
    parser.add_argument(
        "--record",
        type=Path,
        help="one pass with no evidence floor reached, every judgement written to this JSON file "
        "(for bench/research_floors.py)",
    )
    parser.add_argument(
        "--no-migrate",
        action="store_true",
        help="the database is migrated already (e.g. by a newer branch sharing it)",
    )
    asyncio.run(main(parser.parse_args()))
