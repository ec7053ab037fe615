"""Scores a candidate stance judge on research verdicts in seconds, without a database: re-judges
every passage of a research recording with the candidate's weights, then replays research mode's
rules on the new judgements (``bench/research_floors.py``'s replay) at the configured offline
settings and any others asked for.

The recording comes from ``bench/research_vitaminc.py --pages validation --record FILE`` (every
investigation searches twice and judges every passage it finds); the searches do not depend on
the judge, so the passages stay valid for any judge. Each passage is judged as research judges
it (``OfflineReasoner.judge_passage``: the passage with its title, against the hypothesis), by
the weights given (``--weights``: e.g. ``tools/stance/train.py --validation-weights`` or a
candidate fitted on the train pages only), the shipped model, or the cue judge alone
(``--cues``). Re-judging a recording with the weights that made it changes no judgement (the
first line printed says how many changed), so its replay gives the recorded run's verdicts.

Use it on validation pages only: choosing a judge by its research verdicts on held-out pages
would spend them.

``--oracle own`` then sets every judgement of one of the claim's own VitaminC sentences to its
label (SUPPORTS → supports, REFUTES → contradicts, NOT_ENOUGH_INFO → neutral, confidence 0.95),
leaving the page's other sentences as judged: what a perfect per-sentence judge would give
research with the same searches and rules. ``--oracle refutes`` does so for the REFUTES
sentences only. ``--oracle confident`` keeps every stance as judged and sets the confidence of
the own sentences' judgements that are right to 0.95: a judge exactly as accurate, sure exactly
when it is right.

    PYTHONPATH=. .venv/bin/python tools/stance/train.py --validation-weights /tmp/val.npz
    PYTHONPATH=. .venv/bin/python bench/research_vitaminc.py --pages validation --claims 340 \
        --weights /tmp/val.npz --record /tmp/val-balanced.json
    PYTHONPATH=. .venv/bin/python bench/research_rejudge.py /tmp/val-balanced.json \
        --weights /tmp/candidate.npz --floors 0.8,0.8,0.02 --floors 0.7,0.7,off
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

from research_floors import accuracy, replay, right

from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.offline.stance_model import LoadedJudge, TreeEnsemble
from app.reasoning.protocol import PassageRequest
from app.research.settings import ResearchSettings

CLASSES = ("confirmed", "refuted", "contested", "undecided")
DEFAULT_DATA = (
    Path(__file__).resolve().parents[2] / "shared/eval-data/vitaminc-dev/vitaminc_dev.jsonl"
)
ORACLE_STANCE = {"SUPPORTS": "supports", "REFUTES": "contradicts", "NOT_ENOUGH_INFO": "neutral"}


def judge_of(weights: Path | None, cues: bool) -> LoadedJudge | None:
    """The judge to re-judge with (``None``: the shipped one, as the reasoner loads it)."""
    if cues:
        return LoadedJudge(None, None, "bench: cues")
    if weights is None:
        return None
    return LoadedJudge(TreeEnsemble.from_bytes(weights.read_bytes()), weights.stem)


async def rejudge(records: list[dict[str, Any]], judge: LoadedJudge | None) -> tuple[int, int]:
    """Replaces every recorded judgement by the judge's; (changed, judged)."""
    settings = Settings()
    embedder = shared_embedder(settings.embeddings)
    if judge is None:
        reasoner = OfflineReasoner(embedder, settings.reasoner)
    else:
        reasoner = OfflineReasoner(embedder, settings.reasoner, judge)
    changed = judged = 0
    for record in records:
        sources = {source["id"]: source for source in record["sources"]}
        for evidence in record["evidence"]:
            source = sources[evidence["source_id"]]
            request = PassageRequest(
                hypothesis=record["hypothesis"]["statement"],
                passage=source["text"],
                title=source.get("title") or "",
            )
            found = await reasoner.judge_passage(request)
            before = (evidence["stance"], round(float(evidence["confidence"]), 3))
            changed += before != (found.stance, round(found.confidence, 3))
            judged += 1
            evidence.update(
                stance=found.stance, confidence=found.confidence, similarity=found.similarity
            )
    return changed, judged


def apply_oracle(records: list[dict[str, Any]], data: Path, oracle: str) -> int:
    """Sets the judgements of each claim's own sentences as ``oracle`` says (module docstring);
    how many it set."""
    label_of: dict[tuple[str, str], str] = {}
    with data.open(encoding="utf-8") as handle:
        for text in handle:
            row = json.loads(text)
            label_of[(row["claim"], row["evidence"])] = row["label"]
    changed = 0
    for record in records:
        texts = {source["id"]: source["text"] for source in record["sources"]}
        for evidence in record["evidence"]:
            label = label_of.get((record["claim"], texts[evidence["source_id"]]))
            if label is None or (oracle == "refutes" and label != "REFUTES"):
                continue
            if oracle == "confident":
                if evidence["stance"] != ORACLE_STANCE[label]:
                    continue
                evidence.update(confidence=0.95)
            else:
                evidence.update(stance=ORACLE_STANCE[label], confidence=0.95)
            changed += 1
    return changed


def floors_of(text: str) -> tuple[float, float, float | None]:
    support, contradiction, margin = text.split(",")
    return float(support), float(contradiction), None if margin == "off" else float(margin)


def line(records: list[dict[str, Any]], settings: ResearchSettings) -> str:
    verdicts = Counter((r["expected"], replay(r, settings)) for r in records)
    shares = []
    for expected in CLASSES:
        n = sum(count for (e, _), count in verdicts.items() if e == expected)
        good = sum(count for (e, v), count in verdicts.items() if e == expected and right(e, v))
        shares.append(f"{expected} {good / n:.3f}" if n else f"{expected} -")
    margin = settings.offline_relevance_margin
    return (
        f"{settings.offline_support_floor:.2f} / {settings.offline_contradiction_floor:.2f}, "
        f"margin {'off' if margin is None else f'{margin:.2f}'}: {', '.join(shares)}; "
        f"overall {accuracy(records, settings):.3f} ({len(records)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("recording", type=Path)
    parser.add_argument("--weights", type=Path, help="the candidate's .npz (default: shipped)")
    parser.add_argument("--cues", action="store_true", help="the cue judge alone")
    parser.add_argument(
        "--floors",
        action="append",
        default=[],
        metavar="SUPPORT,CONTRADICTION,MARGIN",
        help="also replay these offline settings (MARGIN 'off' for none); repeatable",
    )
    parser.add_argument(
        "--oracle",
        choices=("own", "refutes", "confident"),
        help="then judge the claims' own sentences as labelled (module docstring)",
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="for --oracle")
    parser.add_argument("--write", type=Path, help="write the re-judged recording here")
    args = parser.parse_args()
    records = json.loads(args.recording.read_text(encoding="utf-8"))
    changed, judged = asyncio.run(rejudge(records, judge_of(args.weights, args.cues)))
    name = "the cue judge" if args.cues else args.weights or "the shipped judge"
    print(f"{args.recording.name}: {judged} judgements re-judged by {name}, {changed} changed")
    if args.oracle is not None:
        count = apply_oracle(records, args.data, args.oracle)
        print(f"oracle {args.oracle}: {count} judgements of the claims' own sentences set")
    base = ResearchSettings()
    print(f"  configured  {line(records, base)}")
    for text in args.floors:
        support, contradiction, margin = floors_of(text)
        settings = base.model_copy(
            update={"offline_support_floor": support,
                    "offline_contradiction_floor": contradiction,
                    "offline_relevance_margin": margin}
        )  # fmt: skip
        print(f"  asked       {line(records, settings)}")
    if args.write is not None:
        args.write.write_text(json.dumps(records) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
