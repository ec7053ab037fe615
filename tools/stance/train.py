"""Trains the offline stance judge and writes its weights into the package.

    make train-stance                                   # = the line below
    PYTHONPATH=. .venv/bin/python tools/stance/train.py
    PYTHONPATH=. .venv/bin/python tools/stance/train.py --explore  # candidates, validation only
    PYTHONPATH=. .venv/bin/python tools/stance/train.py --check    # retrain, compare, no writing

Data: the VitaminC development slice (``../shared/eval-data/vitaminc-dev/vitaminc_dev.jsonl``,
CC BY-SA 3.0; see ``app/reasoning/offline/weights/SOURCE.md``), split by Wikipedia page exactly
as ``bench/stance_vitaminc.py`` splits it: the first byte of SHA-256 of the page title, even =
tuning half, odd = held-out half. Only the tuning half trains; within it, pages whose second
byte is divisible by 4 are the validation split on which the model family, regularisation and
decision rule were chosen (``--explore`` prints that comparison). The final model is refitted on
the whole tuning half with the chosen settings; the held-out half is scored once, at the end,
and its figures are written into the manifest (``bench/stance_vitaminc.py`` reproduces them
through the reasoner). The rest of VitaminC is not used at all.

Each row is a pair (claim = the evidence sentence, statement = the VitaminC claim), embedded with
the project's embedder (all-MiniLM-L6-v2, vectors cached in its usual cache), turned into
features by ``app.reasoning.offline.stance_features``, and labelled SUPPORTS → reinforcing,
REFUTES → contradicting, NOT_ENOUGH_INFO → neutral. Each training row is also seen in the form
the research judge reads a passage ("<page title>: <sentence>", when the sentence lacks the
title). The model is scikit-learn's multinomial logistic regression (``pip install -e
'.[train]'``); its standardisation and coefficients go to a small ``.npz`` that the package reads
with numpy alone, and a manifest beside it holds the SHA-256, the features and the figures.
Deterministic: fixed seed, fixed row order, lbfgs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.embeddings.embedder import shared_embedder
from app.embeddings.settings import EmbeddingSettings
from app.reasoning.offline.stance import NEUTRAL_MARGIN, decide_stance
from app.reasoning.offline.stance_features import (
    CONTRADICTION_FLOOR,
    TEXT_FEATURES,
    cue_stance,
    model_applies,
    pair_vector,
    rule_contradicts,
    text_features,
)
from app.reasoning.offline.stance_model import (
    CLASSES,
    MANIFEST_PATH,
    MODEL_VERSION,
    WEIGHTS_PATH,
    StanceModel,
)
from app.reasoning.settings import ReasonerSettings

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA = ROOT.parent / "shared" / "eval-data" / "vitaminc-dev" / "vitaminc_dev.jsonl"
LABEL_CLASS = {"SUPPORTS": 0, "REFUTES": 1, "NOT_ENOUGH_INFO": 2}  # index into CLASSES
SEED = 23
# Chosen on the validation split (``--explore``; bench/README.md "Offline stance judge").
C = 0.1

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Row:
    page: str
    claim: str
    evidence: str
    label: str

    @property
    def digest(self) -> bytes:
        return hashlib.sha256(self.page.encode("utf-8")).digest()

    @property
    def tuning(self) -> bool:
        return self.digest[0] % 2 == 0

    @property
    def validation(self) -> bool:
        return self.tuning and self.digest[1] % 4 == 0

    @property
    def titled_evidence(self) -> str | None:
        """The evidence as the research judge reads a passage: with its page title."""
        if self.page.lower() in self.evidence.lower():
            return None
        return f"{self.page}: {self.evidence}"


def load(path: Path) -> list[Row]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            rows.append(Row(record["page"], record["claim"], record["evidence"], record["label"]))
    return rows


def featurise(
    pairs: list[tuple[str, str]], vectors: dict[str, list[float]], embeddings: bool = False
) -> Matrix:
    """(claim, statement) pairs → the feature matrix the package computes at run time (with
    ``embeddings``, also ``|u - v|`` and ``u * v``: a candidate ``--explore`` compares)."""
    threshold = ReasonerSettings().offline_topic_similarity
    out = []
    for claim, statement in pairs:
        u, v = vectors[claim], vectors[statement]
        cosine = float(np.dot(u, v))
        cue = decide_stance(claim, statement, cosine, threshold, "cosine")
        features = text_features(claim, statement, cosine, cue)
        out.append(pair_vector(features, u, v) if embeddings else np.asarray(features))
    return np.vstack(out)


@dataclass
class Figures:
    rows: int
    accuracy: float
    contradiction_precision: float
    contradiction_recall: float
    contradiction_f1: float
    macro_f1: float

    def line(self) -> str:
        return (
            f"{self.rows} rows: accuracy {self.accuracy:.3f}, contradiction P/R/F1 "
            f"{self.contradiction_precision:.3f}/{self.contradiction_recall:.3f}/"
            f"{self.contradiction_f1:.3f}, macro-F1 {self.macro_f1:.3f}"
        )


def figures(truth: npt.NDArray[np.int64], predicted: npt.NDArray[np.int64]) -> Figures:
    f1s, contradiction = [], (0.0, 0.0, 0.0)
    for k in range(len(CLASSES)):
        tp = int(np.sum((predicted == k) & (truth == k)))
        precision = tp / max(int(np.sum(predicted == k)), 1)
        recall = tp / max(int(np.sum(truth == k)), 1)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        f1s.append(f1)
        if CLASSES[k] == "contradicting":
            contradiction = (precision, recall, f1)
    return Figures(
        rows=len(truth),
        accuracy=round(float(np.mean(truth == predicted)), 4),
        contradiction_precision=round(contradiction[0], 4),
        contradiction_recall=round(contradiction[1], 4),
        contradiction_f1=round(contradiction[2], 4),
        macro_f1=round(float(np.mean(f1s)), 4),
    )


def decide(model: StanceModel, x: Matrix) -> npt.NDArray[np.int64]:
    """The package's decision on each row, as ``app.reasoning.offline.stance_judge`` takes it:
    the model's most probable class where it applies and no rule says "contradicting", else
    the cue judge's stance (novel counts as NEI)."""
    proba = model.probabilities(x)
    predicted = np.argmax(proba, axis=1)
    threshold = ReasonerSettings().offline_topic_similarity
    columns = len(TEXT_FEATURES)
    cue_class = {"reinforcing": 0, "contradicting": 1, "neutral": 2, "novel": 2}
    for row in range(x.shape[0]):
        features = x[row, :columns]
        if not model_applies(features, threshold, NEUTRAL_MARGIN):
            predicted[row] = cue_class[cue_stance(features)]
        elif rule_contradicts(features):
            predicted[row] = LABEL_CLASS["REFUTES"]
        elif predicted[row] == LABEL_CLASS["REFUTES"] and proba[row, 1] < CONTRADICTION_FLOOR:
            predicted[row] = cue_class[cue_stance(features)]
    return predicted.astype(np.int64)


def fit(x: Matrix, y: npt.NDArray[np.int64], c: float) -> StanceModel:
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(x)
    classifier = LogisticRegression(C=c, max_iter=3000, random_state=SEED)
    classifier.fit(scaler.transform(x), y)
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    return StanceModel(
        mean=scaler.mean_.astype(np.float64),
        scale=scale.astype(np.float64),
        coef=classifier.coef_.astype(np.float64),
        intercept=classifier.intercept_.astype(np.float64),
    )


def training_pairs(rows: list[Row], titled: bool) -> tuple[list[tuple[str, str]], list[int]]:
    pairs, labels = [], []
    for row in rows:
        pairs.append((row.evidence, row.claim))
        labels.append(LABEL_CLASS[row.label])
        if titled and row.titled_evidence is not None:
            pairs.append((row.titled_evidence, row.claim))
            labels.append(LABEL_CLASS[row.label])
    return pairs, labels


def explore(
    train: list[Row], validation: list[Row], matrix: Callable[[list[tuple[str, str]], bool], Matrix]
) -> None:
    """Candidates on the validation split (the numbers behind the defaults above)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    val_pairs, val_labels = training_pairs(validation, titled=False)
    yv = np.asarray(val_labels)
    xv = matrix(val_pairs, True)
    columns = len(TEXT_FEATURES)
    for titled in (False, True):
        pairs, labels = training_pairs(train, titled)
        x, y = matrix(pairs, True), np.asarray(labels)
        for c in (0.03, 0.1, 0.3, 1.0, 3.0):
            model = fit(x[:, :columns], y, c)
            print(
                f"logistic, text features, C={c}, titled={titled}: "
                f"{figures(yv, decide(model, xv[:, :columns])).line()}"
            )
        for c in (0.01, 0.1):
            model = fit(x, y, c)
            print(
                f"logistic, text + |u-v| + u*v, C={c}, titled={titled}: "
                f"{figures(yv, decide(model, xv)).line()}"
            )
        for width, name in ((columns, "text features"), (x.shape[1], "text + |u-v| + u*v")):
            trees = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05,
                                                   random_state=SEED)  # fmt: skip
            trees.fit(x[:, :width], y)
            predicted = trees.predict(xv[:, :width]).astype(np.int64)
            print(f"gradient boosting, {name}, titled={titled}: {figures(yv, predicted).line()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--explore", action="store_true", help="compare candidates, write nothing")
    parser.add_argument("--check", action="store_true", help="retrain and compare, write nothing")
    args = parser.parse_args()
    if not args.data.is_file():
        raise SystemExit(f"no data at {args.data} (see ../shared/eval-data/vitaminc-dev/SOURCE.md)")
    started = time.perf_counter()
    rows = load(args.data)
    tuning = [row for row in rows if row.tuning]
    held_out = [row for row in rows if not row.tuning]
    train = [row for row in tuning if not row.validation]
    validation = [row for row in tuning if row.validation]
    embedder = shared_embedder(EmbeddingSettings())
    if not embedder.available:
        raise SystemExit(f"the embedder is unavailable: {embedder.status().reason}")
    texts = sorted(
        {row.claim for row in rows}
        | {row.evidence for row in rows}
        | {row.titled_evidence for row in tuning if row.titled_evidence is not None}
    )
    embedded = embedder.embed_sync(texts)
    if embedded is None:
        raise SystemExit("the embedder returned no vectors")
    vectors = dict(zip(texts, embedded, strict=True))
    print(
        f"{len(rows)} rows: tuning {len(tuning)} (train {len(train)}, validation "
        f"{len(validation)}), held-out {len(held_out)}; {len(texts)} texts embedded in "
        f"{time.perf_counter() - started:.0f} s"
    )

    def matrix(pairs: list[tuple[str, str]], embeddings: bool = False) -> Matrix:
        return featurise(pairs, vectors, embeddings)

    if args.explore:
        explore(train, validation, matrix)
        return
    # Validation figures of the chosen settings, then the final fit on the whole tuning half.
    pairs, labels = training_pairs(train, titled=True)
    chosen = fit(matrix(pairs), np.asarray(labels), C)
    val_pairs, val_labels = training_pairs(validation, titled=False)
    xv = matrix(val_pairs)
    val = figures(np.asarray(val_labels), decide(chosen, xv))
    print(f"validation (fit on train pages only) {val.line()}")
    pairs, labels = training_pairs(tuning, titled=True)
    model = fit(matrix(pairs), np.asarray(labels), C)
    test_pairs, test_labels = training_pairs(held_out, titled=False)
    xt = matrix(test_pairs)
    test = figures(np.asarray(test_labels), decide(model, xt))
    print(f"held-out half {test.line()}")
    payload = model.to_bytes()
    digest = hashlib.sha256(payload).hexdigest()
    manifest = {
        "version": MODEL_VERSION,
        "file": WEIGHTS_PATH.name,
        "sha256": digest,
        "classes": list(CLASSES),
        "text_features": list(TEXT_FEATURES),
        "model": f"multinomial logistic regression, C={C}, standardised text features (the "
        "embeddings enter through their cosine)",
        "seed": SEED,
        "data": "VitaminC dev slice (CC BY-SA 3.0), tuning half by page; see SOURCE.md",
        "training_rows": len(pairs),
        "validation": val.__dict__,
        "held_out": test.__dict__,
    }
    if args.check:
        # The figures must match; the bytes match too where the embedder's vectors are
        # bit-identical (same ONNX Runtime and CPU kind).
        shipped = json.loads(MANIFEST_PATH.read_text(encoding="utf-8"))
        same_figures = (
            shipped["held_out"] == test.__dict__ and shipped["validation"] == val.__dict__
        )
        same_bytes = shipped["sha256"] == digest
        print(
            f"figures {'match' if same_figures else 'DIFFER from'} the shipped manifest's; "
            f"weights sha256 {digest[:16]}… {'matches' if same_bytes else 'differs'}"
        )
        sys.exit(0 if same_figures else 1)
    WEIGHTS_PATH.write_bytes(payload)
    MANIFEST_PATH.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {WEIGHTS_PATH.relative_to(ROOT)} ({len(payload)} bytes, sha256 {digest[:16]}…)")
    print(f"took {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
