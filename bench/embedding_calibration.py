"""The cosine scale of each bundled model against all-MiniLM-L6-v2's
(app/embeddings/calibration.py), and the exact-cosine Recall@10 of each model on the LoCoMo dev
turns.

Pairs: 600 LoCoMo dev turns (``speaker: text``) and 300 of its questions, 400 VitaminC dev
(claim, evidence) rows, sampled with fixed seeds. Passage pairs: turn × turn (300 × 300) and
claim × evidence (400 × 400, and each claim with its own evidence once more) as passages; query
pairs: question × turn and claim (as a query) × evidence (likewise). The knots pair the same
quantiles of the two models' cosines over those pairs, with -1 and 1 at the ends; ``--write``
rewrites the knots of app/embeddings/calibration.py. (The shipped knots came from a first version
of this script that embedded in batches of 32; below the 99.9th percentile its knots and this
one's differ by at most 0.001.)

Recall@10: every LoCoMo dev question with evidence against its own conversation's turns embedded
as ``speaker: text`` (no previous turn), exact cosine top 10 (what the vector half of the episode
search would rank on its own, without fusion).

    .venv/bin/python bench/embedding_calibration.py            # knots and recall, printed
    .venv/bin/python bench/embedding_calibration.py --write    # also rewrite the knots
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from pathlib import Path

import numpy as np

from app.embeddings.embedder import Embedder
from app.embeddings.settings import EmbeddingSettings

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "eval-data"
QUANTILES = [0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995]
QUANTILES += [0.998, 0.999, 0.9995, 0.9999]
MODELS = ("all-minilm-l6-v2", "e5-small-v2-q", "e5-small-v2")
KNOTS = {"e5-small-v2-q": "E5_Q_CALIBRATION", "e5-small-v2": "E5_CALIBRATION"}


def _turns(conversation: dict[str, object]) -> list[dict[str, str]]:
    return [
        turn
        for key, value in conversation.items()
        if key.startswith("session_") and isinstance(value, list)
        for turn in value
    ]


def _samples() -> tuple[list[str], list[str], list[dict[str, str]]]:
    locomo = json.loads((DATA / "locomo-dev" / "locomo_dev.json").read_text())
    turns = [f"{t['speaker']}: {t['text']}" for c in locomo for t in _turns(c["conversation"])]
    questions = [q["question"] for c in locomo for q in c["qa"]]
    lines = (DATA / "vitaminc-dev" / "vitaminc_dev.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    random.seed(2)
    return random.sample(turns, 600), random.sample(questions, 300), random.sample(rows, 400)


def _pairs(embedder: Embedder) -> dict[str, np.ndarray]:
    turns, questions, rows = _samples()
    p = np.array(embedder.embed_sync(turns))
    q = np.array(embedder.embed_sync(questions, "query"))
    claims = np.array(embedder.embed_sync([r["claim"] for r in rows]))
    claims_q = np.array(embedder.embed_sync([r["claim"] for r in rows], "query"))
    evidence = np.array(embedder.embed_sync([r["evidence"] for r in rows]))
    # Every claim against every evidence, and once more each claim against its own evidence
    # (the pairs that make the upper tail).
    passage = np.concatenate(
        [
            (p[:300] @ p[300:].T).ravel(),
            (claims @ evidence.T).ravel(),
            (claims * evidence).sum(axis=1),
        ]
    )
    query = np.concatenate(
        [(q @ p.T).ravel(), (claims_q @ evidence.T).ravel(), (claims_q * evidence).sum(axis=1)]
    )
    return {"passage": np.sort(passage), "query": np.sort(query)}


def _recall(embedder: Embedder) -> tuple[float, int]:
    locomo = json.loads((DATA / "locomo-dev" / "locomo_dev.json").read_text())
    scores: list[float] = []
    for conversation in locomo:
        turns = _turns(conversation["conversation"])
        vectors = np.array(embedder.embed_sync([f"{t['speaker']}: {t['text']}" for t in turns]))
        asked = [q for q in conversation["qa"] if q.get("evidence")]
        questions = np.array(embedder.embed_sync([q["question"] for q in asked], "query"))
        top = np.argsort(-(questions @ vectors.T), axis=1)[:, :10]
        for row, question in enumerate(asked):
            found = {turns[j]["dia_id"] for j in top[row]}
            gold = set(question["evidence"])
            scores.append(len(gold & found) / len(gold))
    return float(np.mean(scores)), len(scores)


def _knots(
    reference: dict[str, np.ndarray], model: dict[str, np.ndarray]
) -> dict[str, list[float]]:
    ref_passage = np.quantile(reference["passage"], QUANTILES)
    axis = [-1.0, *ref_passage, 1.0]
    out = {"reference": axis}
    for kind in ("passage", "query"):
        ref = [-1.0, *np.quantile(reference[kind], QUANTILES), 1.0]
        own = [-1.0, *np.quantile(model[kind], QUANTILES), 1.0]
        out[kind] = list(np.interp(axis, ref, own))
    return out


def _literal(name: str, knots: dict[str, list[float]]) -> str:
    def row(values: list[float]) -> str:
        return "(" + ", ".join(f"{v:.4f}" for v in values) + ")"

    fields = "".join(f"    {k}={row(v)},\n" for k, v in knots.items())
    return f"{name} = Calibration(\n{fields})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the knots in the package")
    args = parser.parse_args()
    pairs, literals = {}, []
    for model in MODELS:
        embedder = Embedder(EmbeddingSettings(model=model, cache_path=""))
        started = time.perf_counter()
        pairs[model] = _pairs(embedder)
        recall, asked = _recall(embedder)
        print(f"{model}: LoCoMo dev exact-cosine R@10 {recall:.3f} ({asked} questions), "
              f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    for model, name in KNOTS.items():
        literals.append(_literal(name, _knots(pairs[MODELS[0]], pairs[model])))
        print(literals[-1])
    if args.write:
        path = ROOT / "app" / "embeddings" / "calibration.py"
        text = path.read_text()
        head = re.split(r"^E5_Q_CALIBRATION = ", text, flags=re.MULTILINE)[0]
        path.write_text(head + "\n".join(literals) + "\n")


if __name__ == "__main__":
    main()
