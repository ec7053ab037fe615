"""Candidate stance judges for research's verdicts, on the validation pages only (issue 23, fifth
session): each is fitted on the train pages (the tuning half less the validation pages, as
``tools/stance/train.py`` splits them), scored on the validation rows through the package's
decision, counted where research looks (REFUTES / SUPPORTS rows read as such with probability
≥ 0.8, and other rows read so), and, with a research recording of validation pages, scored on
research verdicts by re-judging its passages (``bench/research_rejudge.py``) at the configured
offline settings. Nothing is written into the package; held-out pages are not read.

    PYTHONPATH=. .venv/bin/python tools/stance/candidates.py
    PYTHONPATH=. .venv/bin/python tools/stance/candidates.py --recording /tmp/val-balanced.json

The candidates (bench/README.md, "A better per-sentence judge?", has the figures):

- ``shipped``: stance-judge-2's settings (the baseline);
- ``capacity``: learning rate 0.1; 0.05 with 200 iterations and 15 leaves;
- ``weights``: the REFUTES class weighed 1.3, or the classes balanced;
- ``edits``: twelve features of the token-level edit between the two texts (difflib's opcodes:
  replaced / inserted / deleted shares, one-for-one substitutions of numbers or words, the
  longest shared run), appended to the 42;
- ``embedding``: the first 4 principal components (fitted on the train rows) of ``|u - v|``;
- ``distractors``: each train claim also paired with one other sentence of its page (not a
  revision of its own: content-word Jaccard < 0.5), labelled NOT_ENOUGH_INFO, as research
  meets a page's other sentences;
- ``swapped``: every REFUTES pair also with its two texts swapped;
- ``claim pairs``: two claims of one sentence, one it supports and one it refutes, as a
  contradicting pair (both orders).

Then (``confidence_ranking``) whether a second model ranks the judge's right and wrong
judgements apart better than its own probability does: trained on out-of-fold predictions of
the train rows (5 folds by page), it predicts whether the judge's most probable class is right;
the AUROC of each score on the validation rows (with their titled copies) is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import difflib
import json
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import numpy.typing as npt

# The bench scripts import each other by bare name (they run as `python bench/x.py`).
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

from research_rejudge import line, rejudge

from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.reasoning.offline import stance_features
from app.reasoning.offline.stance import StanceDecision
from app.reasoning.offline.stance_model import LoadedJudge, TreeEnsemble
from app.reasoning.settings import ReasonerSettings
from app.research.settings import ResearchSettings
from app.text.words import content_words, tokens
from tools.stance.train import (
    CHOSEN,
    DEFAULT_DATA,
    SEED,
    Fitted,
    Matrix,
    Row,
    Trees,
    decide,
    export,
    featurise,
    figures,
    load,
    training_pairs,
)
from tools.stance.train import fit as fit_trees

Pairs = list[tuple[str, str]]
EDIT_FEATURES = 12


def edit_features(claim: str, statement: str) -> list[float]:
    """The token-level edit that turns the claim into the statement, in twelve numbers."""
    a, b = tokens(claim), tokens(statement)
    opcodes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    replaced = [(a[i1:i2], b[j1:j2]) for op, i1, i2, j1, j2 in opcodes if op == "replace"]
    inserted = sum(j2 - j1 for op, _, _, j1, j2 in opcodes if op == "insert")
    deleted = sum(i2 - i1 for op, i1, i2, _, _ in opcodes if op == "delete")
    equal = [i2 - i1 for op, i1, i2, _, _ in opcodes if op == "equal"]
    small = [(x, y) for x, y in replaced if len(x) <= 3 and len(y) <= 3]

    def numeric(words: list[str]) -> bool:
        return any(any(c.isdigit() for c in word) for word in words)

    replaced_b = sum(len(y) for _, y in replaced)
    moved = sum(1 for _, y in replaced for word in y if word in set(a))
    return [
        float(len(replaced)),
        sum(len(x) for x, _ in replaced) / max(len(a), 1),
        replaced_b / max(len(b), 1),
        inserted / max(len(b), 1),
        deleted / max(len(a), 1),
        sum(equal) / max(len(b), 1),
        float(len(small)),
        float(sum(1 for x, y in small if numeric(x) and numeric(y))),
        float(sum(1 for x, y in small if not numeric(x + y))),
        moved / max(replaced_b, 1),
        max(equal, default=0) / max(len(b), 1),
        float(len(replaced) == 1 and inserted == 0 and len(small) == 1),
    ]


def with_edits(claim: str, statement: str, cosine: float, cue: StanceDecision) -> list[float]:
    return [*_TEXT_FEATURES(claim, statement, cosine, cue), *edit_features(claim, statement)]


_TEXT_FEATURES = stance_features.text_features


@contextmanager
def edits_in_use() -> Iterator[None]:
    """The package's stance judge (and the training featuriser) read the edit features too."""
    with (
        mock.patch("app.reasoning.offline.stance_judge.text_features", with_edits),
        mock.patch("tools.stance.train.text_features", with_edits),
    ):
        yield


@dataclass
class Candidate:
    name: str
    trees: Trees = CHOSEN
    class_weight: dict[int, float] | str | None = None
    extra_pairs: Callable[[list[Row]], tuple[Pairs, list[int]]] | None = None
    edits: bool = False
    embedding_components: int = 0


def distractors(rows: list[Row]) -> tuple[Pairs, list[int]]:
    """Each claim with one other sentence of its page that is no revision of its own (NEI)."""
    generator = random.Random(SEED)  # noqa: S311 - a fixed sample, not a secret
    by_page: dict[str, list[Row]] = {}
    for row in rows:
        by_page.setdefault(row.page, []).append(row)

    def jaccard(x: str, y: str) -> float:
        a, b = set(content_words(x)), set(content_words(y))
        return len(a & b) / max(len(a | b), 1)

    pairs: Pairs = []
    for page in sorted(by_page):
        group = by_page[page]
        for claim in sorted({row.claim for row in group}):
            own = [row.evidence for row in group if row.claim == claim]
            others = sorted({row.evidence for row in group if row.claim != claim} - set(own))
            others = [o for o in others if all(jaccard(o, mine) < 0.5 for mine in own)]
            for sentence in generator.sample(others, min(1, len(others))):
                titled = sentence if page.lower() in sentence.lower() else f"{page}: {sentence}"
                pairs.append((titled, claim))
    return pairs, [2] * len(pairs)


def swapped(rows: list[Row]) -> tuple[Pairs, list[int]]:
    pairs = [(row.claim, row.evidence) for row in rows if row.label == "REFUTES"]
    return pairs, [1] * len(pairs)


def claim_pairs(rows: list[Row]) -> tuple[Pairs, list[int]]:
    by_sentence: dict[str, list[Row]] = {}
    for row in rows:
        by_sentence.setdefault(row.evidence, []).append(row)
    pairs: Pairs = []
    for sentence in sorted(by_sentence):
        group = by_sentence[sentence]
        supported = sorted({row.claim for row in group if row.label == "SUPPORTS"})
        refuted = sorted({row.claim for row in group if row.label == "REFUTES"})
        for a in supported:
            for b in refuted:
                pairs += [(a, b), (b, a)]
    return pairs, [1] * len(pairs)


CANDIDATES = [
    Candidate("shipped"),
    Candidate("capacity: learning rate 0.1", Trees(0.1, 100, 7, 50, 0.0)),
    Candidate("capacity: lr 0.05, 200 it., 15 leaves", Trees(0.05, 200, 15, 50, 0.0)),
    Candidate("weights: REFUTES 1.3", class_weight={0: 1.0, 1: 1.3, 2: 1.0}),
    Candidate("weights: balanced", class_weight="balanced"),
    Candidate("edits: + 12 edit features", edits=True),
    Candidate("embedding: + 4 components of |u - v|", embedding_components=4),
    Candidate("distractors: + one other sentence of the page as NEI", extra_pairs=distractors),
    Candidate("swapped: + REFUTES pairs swapped", extra_pairs=swapped),
    Candidate("claim pairs: + supported / refuted claims of one sentence", extra_pairs=claim_pairs),
]


def fit(candidate: Candidate, x: Matrix, y: npt.NDArray[np.int64]) -> Any:
    return fit_trees(x, y, candidate.trees, candidate.class_weight)


def read_as(truth: npt.NDArray[np.int64], probabilities: Matrix, k: int) -> str:
    sure = probabilities[:, k] >= 0.8
    return f"{int(np.sum(sure & (truth == k)))} right / {int(np.sum(sure & (truth != k)))} wrong"


def evaluate(
    candidate: Candidate,
    train: list[Row],
    validation: list[Row],
    vectors: dict[str, list[float]],
    recording: list[dict[str, Any]] | None,
) -> None:
    pairs, labels = training_pairs(train, titled=True)
    if candidate.extra_pairs is not None:
        extra, extra_labels = candidate.extra_pairs(train)
        pairs, labels = pairs + extra, labels + extra_labels
    missing = sorted({text for pair in pairs for text in pair} - vectors.keys())
    if missing:
        embedded = shared_embedder(
            EmbeddingSettings(model=ReasonerSettings().offline_stance_embedding_model)
        ).embed_sync(missing)
        if embedded is None:
            raise SystemExit("the embedder returned no vectors")
        vectors.update(zip(missing, embedded, strict=True))
    val_pairs, val_labels = training_pairs(validation, titled=False)
    x, xv = featurise(pairs, vectors), featurise(val_pairs, vectors)
    y, yv = np.asarray(labels), np.asarray(val_labels)
    if candidate.embedding_components:
        x, xv = with_components(candidate.embedding_components, pairs, val_pairs, x, xv, vectors)
    estimator = fit(candidate, x, y)
    probabilities = estimator.predict_proba(xv)
    scored = figures(yv, decide(Fitted(estimator), xv))
    print(
        f"{candidate.name}: validation {scored.line()}; REFUTES read as contradicting ≥ 0.8 "
        f"{read_as(yv, probabilities, 1)}, SUPPORTS as reinforcing ≥ 0.8 "
        f"{read_as(yv, probabilities, 0)}",
        flush=True,
    )
    if recording is None or candidate.embedding_components:
        return  # the package's judge cannot compute principal components
    model: TreeEnsemble = export(estimator)
    records = copy.deepcopy(recording)
    changed, judged = asyncio.run(rejudge(records, LoadedJudge(model, candidate.name)))
    print(f"    research, {changed} of {judged} judgements changed: "
          f"{line(records, ResearchSettings())}", flush=True)  # fmt: skip


def with_components(
    k: int, pairs: Pairs, val_pairs: Pairs, x: Matrix, xv: Matrix, vectors: dict[str, list[float]]
) -> tuple[Matrix, Matrix]:
    from sklearn.decomposition import PCA

    def gaps(rows: Pairs) -> Matrix:
        return np.vstack([np.abs(np.subtract(vectors[a], vectors[b])) for a, b in rows])

    pca = PCA(k, random_state=SEED).fit(gaps(pairs))
    return (
        np.hstack([x, pca.transform(gaps(pairs))]),
        np.hstack([xv, pca.transform(gaps(val_pairs))]),
    )


def confidence_ranking(
    train: list[Row], validation: list[Row], vectors: dict[str, list[float]]
) -> None:
    """AUROC (right vs wrong most probable class, validation rows) of the judge's probability
    and of a second model trained on the train rows' out-of-fold predictions."""
    import hashlib

    from sklearn.metrics import roc_auc_score

    pairs, labels = training_pairs(train, titled=True)
    pages = [row.page for row in train for _ in range(1 + (row.titled_evidence is not None))]
    folds = np.asarray([hashlib.sha256(page.encode()).digest()[2] % 5 for page in pages])
    x, y = featurise(pairs, vectors), np.asarray(labels)
    val_pairs, val_labels = training_pairs(validation, titled=True)
    xv, yv = featurise(val_pairs, vectors), np.asarray(val_labels)
    shipped = Candidate("shipped")
    out_of_fold = np.zeros((len(y), 3))
    for fold in range(5):
        held = folds == fold
        out_of_fold[held] = fit(shipped, x[~held], y[~held]).predict_proba(x[held])
    probabilities = fit(shipped, x, y).predict_proba(xv)

    def second(features: Matrix, p: Matrix) -> Matrix:
        return np.hstack([features, p, np.eye(3)[np.argmax(p, axis=1)]])

    right = (np.argmax(out_of_fold, axis=1) == y).astype(np.int64)
    ranker = fit(shipped, second(x, out_of_fold), right)
    right_val = (np.argmax(probabilities, axis=1) == yv).astype(np.int64)
    own = roc_auc_score(right_val, probabilities.max(axis=1))
    ranked = roc_auc_score(right_val, ranker.predict_proba(second(xv, probabilities))[:, 1])
    print(
        f"confidence ranking, validation rows ({len(yv)}, {right_val.mean():.3f} right): AUROC "
        f"of the judge's probability {own:.3f}, of a second model {ranked:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--recording", type=Path, help="research recording of validation pages")
    args = parser.parse_args()
    rows = load(args.data)
    tuning = [row for row in rows if row.tuning]
    train = [row for row in tuning if not row.validation]
    validation = [row for row in tuning if row.validation]
    texts = sorted(
        {row.claim for row in tuning}
        | {row.evidence for row in tuning}
        | {row.titled_evidence for row in tuning if row.titled_evidence is not None}
    )
    embedded = shared_embedder(
        EmbeddingSettings(model=ReasonerSettings().offline_stance_embedding_model)
    ).embed_sync(texts)
    if embedded is None:
        raise SystemExit("the embedder returned no vectors")
    vectors = dict(zip(texts, embedded, strict=True))
    recording = None
    if args.recording is not None:
        recording = json.loads(args.recording.read_text(encoding="utf-8"))
        if any(record["held_out"] for record in recording):
            raise SystemExit("the recording holds held-out claims: record validation pages only")
    for candidate in CANDIDATES:
        if candidate.edits:
            with edits_in_use():
                evaluate(candidate, train, validation, vectors, recording)
        else:
            evaluate(candidate, train, validation, vectors, recording)
    confidence_ranking(train, validation, vectors)


if __name__ == "__main__":
    main()
