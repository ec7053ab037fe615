"""The offline reasoner's stance classification on the VitaminC development slice.

Each row of ``../shared/eval-data/vitaminc-dev/vitaminc_dev.jsonl`` (see its SOURCE.md) holds a
claim, an evidence sentence from a Wikipedia revision and a label. As SOURCE.md suggests, the
claim plays the belief and the evidence the new claim: ``classify_stance(claim=evidence,
statement=claim)`` runs through the real ``OfflineReasoner`` with the real embedder
(all-MiniLM-L6-v2), and its stance is scored against the label:

- SUPPORTS → reinforcing, REFUTES → contradicting, NOT_ENOUGH_INFO → neutral or novel (both
  count as right for NEI; the matrix shows them apart).

Two judges are scored in one run, on the same vectors: **before**, the cue judge alone (topic
threshold and word cues: the offline reasoner before issue 23, and its fallback when the model's
weights are missing), and **after**, the learned judge shipped in the package
(``app/reasoning/offline/weights``, trained on the tuning half by ``make train-stance``).
Printed: for each, the confusion matrix (labels × stances), accuracy over the three classes,
precision / recall / F1 per class and for contradiction in particular, on the whole run and on
each half; then a before/after table and the judge's own cost per pair (features + model, the
embeddings excluded).
The halves split by Wikipedia page (the first byte of SHA-256 of the title, even = tuning half,
odd = held-out half), so the supporting and refuting rows of one claim stay together and both
halves hold every label (the file itself lists all NOT_ENOUGH_INFO rows last). The topic
threshold was chosen on the tuning half only; the learned judge was fitted on the tuning half
only, so its held-out figures are the ones to read (its tuning-half figures are training
figures).

``--sweep`` recomputes the three-class figures on the tuning half for topic thresholds 0.2–0.7
(pure re-decision from the same cosines and cues; a sensitivity table, not a search that the
defaults came from blindly).

    .venv/bin/python bench/stance_vitaminc.py                  # all 4,858 rows
    .venv/bin/python bench/stance_vitaminc.py --limit 500      # the first 500 rows
    .venv/bin/python bench/stance_vitaminc.py --sweep --markdown vitaminc.md
    .venv/bin/python bench/stance_vitaminc.py --token-overlap  # no embedder: the fallback
    .venv/bin/python bench/stance_vitaminc.py --cues-only      # only the cue judge (before)

Vectors are cached in the embedder's usual cache (``~/.cache/credence/vectors.sqlite3``)
unless ``--no-vector-cache``; the figures do not depend on the cache (every vector is the
model's), only the time does.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from app.embeddings.embedder import Embedder, shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.offline.stance import decide_stance
from app.reasoning.offline.stance_judge import judge_stance
from app.reasoning.offline.stance_model import LoadedJudge
from app.reasoning.protocol import StanceRequest
from app.reasoning.settings import ReasonerSettings
from app.text import stance_cues, words
from app.text.words import token_similarity

DEFAULT_DATA = (
    Path(__file__).resolve().parents[2]
    / "shared"
    / "eval-data"
    / "vitaminc-dev"
    / "vitaminc_dev.jsonl"
)
LABELS = ("SUPPORTS", "REFUTES", "NOT_ENOUGH_INFO")
STANCES = ("reinforcing", "contradicting", "neutral", "novel")
EXPECTED = {"SUPPORTS": "reinforcing", "REFUTES": "contradicting", "NOT_ENOUGH_INFO": "neutral"}


@dataclass(frozen=True)
class Row:
    index: int
    page: str
    claim: str
    evidence: str
    label: str

    @property
    def tuning(self) -> bool:
        """In the tuning half (by page, stable across runs and machines)."""
        return hashlib.sha256(self.page.encode("utf-8")).digest()[0] % 2 == 0


@dataclass(frozen=True)
class Scored:
    row: Row
    stance: str
    confidence: float
    similarity: float


def load(path: Path, limit: int | None) -> list[Row]:
    rows: list[Row] = []
    with path.open(encoding="utf-8") as handle:
        for index, line in enumerate(handle):
            if limit is not None and index >= limit:
                break
            record = json.loads(line)
            if record["label"] not in LABELS:
                raise SystemExit(f"{path}:{index + 1}: unknown label {record['label']!r}")
            rows.append(
                Row(index, record["page"], record["claim"], record["evidence"], record["label"])
            )
    return rows


def predicted_class(stance: str) -> str:
    """neutral and novel both answer NOT_ENOUGH_INFO."""
    return "neutral" if stance in ("neutral", "novel") else stance


def metrics(pairs: Iterable[tuple[str, str]]) -> dict[str, object]:
    """pairs of (label, stance) → confusion, accuracy and per-class precision/recall/F1."""
    pairs = list(pairs)
    confusion = Counter(pairs)
    total = len(pairs)
    correct = sum(1 for label, stance in pairs if EXPECTED[label] == predicted_class(stance))
    per_class: dict[str, tuple[float, float, float, int]] = {}
    for label, expected in EXPECTED.items():
        true_positive = sum(
            1 for lab, st in pairs if lab == label and predicted_class(st) == expected
        )
        predicted = sum(1 for _, st in pairs if predicted_class(st) == expected)
        actual = sum(1 for lab, _ in pairs if lab == label)
        precision = true_positive / predicted if predicted else 0.0
        recall = true_positive / actual if actual else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_class[label] = (precision, recall, f1, actual)
    macro_f1 = sum(values[2] for values in per_class.values()) / len(per_class)
    return {
        "total": total,
        "accuracy": correct / total if total else 0.0,
        "macro_f1": macro_f1,
        "per_class": per_class,
        "confusion": confusion,
    }


def report(title: str, pairs: list[tuple[str, str]]) -> list[str]:
    result = metrics(pairs)
    confusion: Counter[tuple[str, str]] = result["confusion"]  # type: ignore[assignment]
    per_class: dict[str, tuple[float, float, float, int]] = result["per_class"]  # type: ignore[assignment]
    lines = [f"### {title} ({result['total']} rows)", ""]
    lines.append("| label \\ stance | " + " | ".join(STANCES) + " |")
    lines.append("|---|" + "---:|" * len(STANCES))
    for label in LABELS:
        cells = " | ".join(str(confusion[(label, stance)]) for stance in STANCES)
        lines.append(f"| {label} | {cells} |")
    lines.append("")
    lines.append(
        f"accuracy (3 classes, neutral+novel = NEI) **{result['accuracy']:.3f}**, "
        f"macro-F1 {result['macro_f1']:.3f}"
    )
    lines.append("")
    lines.append("| class | precision | recall | F1 | rows |")
    lines.append("|---|---:|---:|---:|---:|")
    for label, (precision, recall, f1, actual) in per_class.items():
        name = f"{label} → {EXPECTED[label]}" + ("/novel" if label == "NOT_ENOUGH_INFO" else "")
        lines.append(f"| {name} | {precision:.3f} | {recall:.3f} | {f1:.3f} | {actual} |")
    lines.append("")
    return lines


async def embed_rows(rows: list[Row], embedder: Embedder | None) -> dict[str, list[float]]:
    vectors: dict[str, list[float]] = {}
    if embedder is not None:
        # One batched pass (cached when the cache is on); the sweep re-decides from these.
        texts = sorted({row.claim for row in rows} | {row.evidence for row in rows})
        embedded = await embedder.embed(texts)
        if embedded is None:
            raise SystemExit("the embedder returned no vectors")
        vectors = dict(zip(texts, embedded, strict=True))
    return vectors


async def classify(
    rows: list[Row], reasoner: OfflineReasoner, vectors: dict[str, list[float]]
) -> list[Scored]:
    scored: list[Scored] = []
    for row in rows:
        judgement = await reasoner.classify_stance(
            StanceRequest(claim=row.evidence, statement=row.claim)
        )
        if vectors:
            first, second = vectors[row.evidence], vectors[row.claim]
            similarity = sum(x * y for x, y in zip(first, second, strict=True))
        else:
            similarity = token_similarity(row.evidence, row.claim)
        scored.append(Scored(row, judgement.stance, judgement.confidence, similarity))
    return scored


def sweep(scored: list[Scored], measure: str) -> list[str]:
    lines = ["### Topic-threshold sweep (tuning half only)", ""]
    lines.append("| threshold | accuracy | contradiction P | R | F1 | macro-F1 |")
    lines.append("|---:|---:|---:|---:|---:|---:|")
    for step in range(1, 15):
        threshold = step * 0.05
        pairs = []
        for item in scored:
            decision = decide_stance(
                item.row.evidence, item.row.claim, item.similarity, threshold, measure
            )
            pairs.append((item.row.label, decision.stance))
        result = metrics(pairs)
        per_class: dict[str, tuple[float, float, float, int]] = result["per_class"]  # type: ignore[assignment]
        precision, recall, f1, _ = per_class["REFUTES"]
        lines.append(
            f"| {threshold:.2f} | {result['accuracy']:.3f} | {precision:.3f} | {recall:.3f} "
            f"| {f1:.3f} | {result['macro_f1']:.3f} |"
        )
    lines.append("")
    return lines


def judge_cost(
    rows: list[Row], vectors: dict[str, list[float]], judges: list[LoadedJudge], threshold: float
) -> list[tuple[float, float]]:
    """Milliseconds per pair of each judge alone (vectors given: cues + features + model), wall
    and this process's CPU time, each the best of three interleaved passes over the same 1,000
    pairs, each pass with the text caches emptied first (a turn meets new texts). On a shared
    machine the CPU time is the figure to read: the wall time grows with the other processes."""
    pairs = []
    for row in rows[:1000]:
        first, second = vectors[row.evidence], vectors[row.claim]
        similarity = sum(x * y for x, y in zip(first, second, strict=True))
        pairs.append((row, similarity, first, second))
    wall = [float("inf")] * len(judges)
    cpu = [float("inf")] * len(judges)
    for _ in range(3):
        for index, judge in enumerate(judges):
            words._tokens.cache_clear()
            words.stem.cache_clear()
            stance_cues._quantities.cache_clear()
            started, started_cpu = time.perf_counter(), time.process_time()
            for row, similarity, first, second in pairs:
                judge_stance(
                    row.evidence, row.claim, similarity, threshold, "cosine", judge, (first, second)
                )
            count = max(len(pairs), 1)
            wall[index] = min(wall[index], 1000 * (time.perf_counter() - started) / count)
            cpu[index] = min(cpu[index], 1000 * (time.process_time() - started_cpu) / count)
    return list(zip(wall, cpu, strict=True))


def summary(before: list[Scored], after: list[Scored]) -> list[str]:
    lines = ["### Before (cue judge) / after (learned judge)", ""]
    lines.append("| rows | judge | accuracy | contradiction P | R | F1 | macro-F1 | NEI F1 |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, keep in (
        ("held-out half", lambda item: not item.row.tuning),
        ("tuning half", lambda item: item.row.tuning),
        ("all", lambda item: True),
    ):
        for judge, scored in (("cues (before)", before), ("learned (after)", after)):
            pairs = [(item.row.label, item.stance) for item in scored if keep(item)]
            if not pairs:
                continue
            result = metrics(pairs)
            per_class: dict[str, tuple[float, float, float, int]] = result["per_class"]  # type: ignore[assignment]
            p, r, f1, _ = per_class["REFUTES"]
            lines.append(
                f"| {name} ({len(pairs)}) | {judge} | {result['accuracy']:.3f} | {p:.3f} | "
                f"{r:.3f} | {f1:.3f} | {result['macro_f1']:.3f} | "
                f"{per_class['NOT_ENOUGH_INFO'][2]:.3f} |"
            )
    lines.append("")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=None, help="only the first N rows")
    parser.add_argument("--token-overlap", action="store_true", help="no embedder (fallback)")
    parser.add_argument("--cues-only", action="store_true", help="only the cue judge (before)")
    parser.add_argument("--threshold", type=float, default=None, help="topic cosine threshold")
    parser.add_argument("--no-vector-cache", action="store_true")
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--markdown", type=Path, default=None, help="also write the tables here")
    args = parser.parse_args()
    if not args.data.is_file():
        raise SystemExit(f"no data at {args.data} (see ../shared/eval-data/vitaminc-dev/SOURCE.md)")
    rows = load(args.data, args.limit)
    if not rows:
        raise SystemExit("no rows to score")
    settings = ReasonerSettings()
    if args.threshold is not None:
        settings = settings.model_copy(update={"offline_topic_similarity": args.threshold})
    embedder: Embedder | None = None
    if not args.token_overlap:
        embedding_settings = EmbeddingSettings()
        if args.no_vector_cache:
            embedding_settings = embedding_settings.model_copy(update={"cache_path": ""})
        embedder = shared_embedder(embedding_settings)
        status = embedder.status()
        if not status.available:
            raise SystemExit(f"the embedder is unavailable ({status.reason}); try --token-overlap")
    cues = OfflineReasoner(embedder, settings, LoadedJudge(None, None, "the bench's cue judge"))
    learned = OfflineReasoner(embedder, settings)
    if learned.judge.model is None and not args.cues_only and embedder is not None:
        raise SystemExit(f"no learned judge: {learned.judge.reason}; try --cues-only")
    started = time.perf_counter()
    vectors = asyncio.run(embed_rows(rows, embedder))
    embed_s = time.perf_counter() - started
    judges = [("Cue judge (before)", cues)]
    if not args.cues_only and embedder is not None:
        judges.append((f"Learned judge {learned.judge.version} (after)", learned))
    measure = "token overlap" if embedder is None else "cosine"
    threshold = 0.3 if embedder is None else settings.offline_topic_similarity
    lines = [
        f"VitaminC dev slice: {args.data.name}, {len(rows)} rows; stance by the offline reasoner "
        f"({measure}, topic threshold {threshold:.2f}); embedding {embed_s:.1f} s",
        "",
    ]
    results: list[list[Scored]] = []
    for title, reasoner in judges:
        started = time.perf_counter()
        scored = asyncio.run(classify(rows, reasoner, vectors))
        elapsed = time.perf_counter() - started
        results.append(scored)
        first = [item for item in scored if item.row.tuning]
        second = [item for item in scored if not item.row.tuning]
        lines += [
            f"## {title}: {elapsed:.1f} s ({1000 * elapsed / len(rows):.2f} ms per row through "
            "classify_stance, vectors from the cache)",
            "",
        ]
        lines += report("All rows", [(item.row.label, item.stance) for item in scored])
        if first:
            lines += report("Tuning half", [(item.row.label, item.stance) for item in first])
        if second:
            lines += report("Held-out half", [(item.row.label, item.stance) for item in second])
    if len(results) == 2:
        lines += summary(results[0], results[1])
        cost, baseline = judge_cost(rows, vectors, [learned.judge, cues.judge], threshold)
        lines += [
            f"Judge cost per pair (vectors given, {min(len(rows), 1000)} pairs, best of 3): "
            f"learned {cost[0]:.3f} ms wall / {cost[1]:.3f} ms CPU, cue judge alone "
            f"{baseline[0]:.3f} ms wall / {baseline[1]:.3f} ms CPU (the model's own share: "
            f"{cost[1] - baseline[1]:.3f} ms CPU); load average {os.getloadavg()[0]:.1f}",
            "",
        ]
    if args.sweep:
        first = [item for item in results[0] if item.row.tuning]
        lines += sweep(first, measure)
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
