"""Chooses the offline reasoner's research floors on recorded judgements: replays research mode's
rules (what counts as evidence, conflicts and their offline resolution, when a hypothesis is
decided, when a second search runs) for every pair of floors on a grid, without a database.

The judgements come from ``bench/research_vitaminc.py --record FILE``: one pass in which nothing
reaches a floor, so every investigation searches twice and judges every passage it finds. The
replay follows the supervisor: the first search's passages are judged; conflicts are raised and
resolved one at a time by the offline rules (:func:`app.reasoning.offline.research.
resolve_conflict`), exactly as the resolve step asks; when the hypothesis is still open, the
second search's passages are judged the same way; then it is decided or undecided
(:func:`app.research.assessment.assess`). ``--check`` replays the floors the recording's
bench run used for its "after" pass to compare with the verdicts of a real run.

The rule, fixed before the grid was run: the highest mean of the accuracies on the recordings
given (the contested sample and the one-sided ``--drop-side`` sample of the same pages), then the
floors closest to the old 0.7 (the smaller change).

    PYTHONPATH=. .venv/bin/python bench/research_floors.py rec-contested.json rec-one-sided.json
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app.reasoning.offline.research import resolve_conflict
from app.reasoning.protocol import ConflictRequest, ConflictSide
from app.research.assessment import assess, counted_evidence, new_conflicts
from app.research.models import (
    FoundSource,
    Hypothesis,
    Investigation,
    ResearchEvidence,
    ResearchState,
    SourceConflict,
)
from app.research.settings import ResearchSettings

GRID = [round(0.40 + 0.05 * step, 2) for step in range(12)]  # 0.40 … 0.95


def _side(state: ResearchState, evidence: ResearchEvidence) -> ConflictSide:
    source = state.source(evidence.source_id)
    return ConflictSide(
        source_id=source.id,
        stance=evidence.stance,
        confidence=evidence.confidence,
        text=source.text,
        title=source.title,
        origin=source.origin,
        kind=source.kind,
        published=source.published,
    )


def _settle(state: ResearchState, settings: ResearchSettings) -> ResearchState:
    """Raises and resolves conflicts until none is open (the judge and resolve steps)."""
    for _ in range(50):
        found = new_conflicts(state, settings)
        if not found:
            return state
        new = found[0]
        first, second = new.supporting, new.contradicting
        others = [
            _side(state, e)
            for e in counted_evidence(state, new.hypothesis_id, settings)
            if e.source_id not in (first.source_id, second.source_id)
        ]
        answer = resolve_conflict(
            ConflictRequest(
                hypothesis=state.hypotheses[0].statement,
                first=_side(state, first),
                second=_side(state, second),
                others=others,
            )
        )
        winner = {"first": first, "second": second}.get(answer.outcome)
        conflict = SourceConflict(
            id=f"c{len(state.conflicts)}",
            hypothesis_id=new.hypothesis_id,
            status="unresolvable" if winner is None else "resolved",
            first_source_id=first.source_id,
            second_source_id=second.source_id,
            winner_source_id=winner.source_id if winner else None,
        )
        state = state.model_copy(update={"conflicts": [*state.conflicts, conflict]})
    raise RuntimeError("conflicts did not settle")


def replay(record: dict[str, Any], settings: ResearchSettings) -> str:
    """The verdict research mode reaches on the recorded judgements with these settings."""
    sources = [FoundSource.model_validate(s) for s in record["sources"]]
    evidence = [ResearchEvidence.model_validate(e) for e in record["evidence"]]
    hypothesis = Hypothesis.model_validate(record["hypothesis"])
    investigation = Investigation(
        id="replay", agent_id="replay", question=record["claim"], status="running", iteration=0,
        iteration_cap=100, started_by="replay", started_at=datetime(2026, 1, 1, tzinfo=UTC),
    )  # fmt: skip
    first_round = {s.id for s in sources[: record["first_round"]]}
    status = "undecided"
    state = ResearchState(investigation=investigation)
    for searches, shown in ((1, first_round), (2, {s.id for s in sources})):
        state = state.model_copy(
            update={
                "hypotheses": [hypothesis.model_copy(update={"searches": searches})],
                "sources": [s for s in sources if s.id in shown],
                "evidence": [e for e in evidence if e.source_id in shown],
            }
        )
        state = _settle(state, settings)
        status = assess(state, settings)[0].status
        if status not in ("proposed", "validating"):
            break
        if searches >= settings.searches_per_hypothesis:
            break
    return status if status in ("confirmed", "refuted") else "undecided"


def right(expected: str, verdict: str) -> bool:
    return verdict == ("undecided" if expected == "contested" else expected)


def accuracy(records: list[dict[str, Any]], settings: ResearchSettings) -> float:
    return sum(right(r["expected"], replay(r, settings)) for r in records) / len(records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("recordings", type=Path, nargs="+")
    parser.add_argument(
        "--check",
        nargs=2,
        type=float,
        metavar=("SUPPORT", "CONTRADICTION"),
        help="replay these offline floors only, with the confusion per recording",
    )
    args = parser.parse_args()
    recordings = [json.loads(path.read_text(encoding="utf-8")) for path in args.recordings]
    base = ResearchSettings()
    if args.check:
        floors = {"offline_support_floor": args.check[0],
                  "offline_contradiction_floor": args.check[1]}  # fmt: skip
        settings = base.model_copy(update=floors)
        for path, records in zip(args.recordings, recordings, strict=True):
            confusion = Counter((r["expected"], replay(r, settings)) for r in records)
            print(f"{path.name}: accuracy {accuracy(records, settings):.3f} ({len(records)})")
            for (expected, verdict), n in sorted(confusion.items()):
                print(f"  {expected:>10} → {verdict:<10} {n}")
        return
    scored = []
    for support, contradiction in itertools.product(GRID, GRID):
        settings = base.model_copy(
            update={"offline_support_floor": support, "offline_contradiction_floor": contradiction}
        )
        accuracies = [accuracy(records, settings) for records in recordings]
        mean = sum(accuracies) / len(accuracies)
        distance = abs(support - 0.7) + abs(contradiction - 0.7)
        scored.append((mean, -distance, support, contradiction, accuracies))
    scored.sort(reverse=True)
    names = " / ".join(path.stem for path in args.recordings)
    print(f"support floor, contradiction floor: mean accuracy ({names})")
    for mean, _, support, contradiction, accuracies in scored[:15]:
        shown = " / ".join(f"{a:.3f}" for a in accuracies)
        print(f"  {support:.2f} {contradiction:.2f}: {mean:.3f} ({shown})")
    old = next(s for s in scored if (s[2], s[3]) == (0.7, 0.7))
    print(f"  0.70 0.70 (before): {old[0]:.3f} ({' / '.join(f'{a:.3f}' for a in old[4])})")
    print(f"chosen: support floor {scored[0][2]:.2f}, contradiction floor {scored[0][3]:.2f}")


if __name__ == "__main__":
    main()
