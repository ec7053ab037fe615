"""Trains the offline stance judge and writes its weights into the package.

    make train-stance                                   # = the line below
    PYTHONPATH=. .venv/bin/python tools/stance/train.py
    PYTHONPATH=. .venv/bin/python tools/stance/train.py --explore  # candidates, validation only
    PYTHONPATH=. .venv/bin/python tools/stance/train.py --check    # retrain, compare, no writing
    PYTHONPATH=. .venv/bin/python tools/stance/train.py --check --validation-weights /tmp/v.npz
    make check-stance                                   # = --check

Data: the VitaminC development slice (``../shared/eval-data/vitaminc-dev/vitaminc_dev.jsonl``,
CC BY-SA 3.0; see ``app/reasoning/offline/weights/SOURCE.md``), split by Wikipedia page exactly
as ``bench/stance_vitaminc.py`` splits it: the first byte of SHA-256 of the page title, even =
tuning half, odd = held-out half. Only the tuning half trains; within it, pages whose second
byte is divisible by 4 are the validation split on which the model family and its
hyper-parameters were chosen (``--explore`` prints that comparison and names the choice; the
rule: the highest validation accuracy of the package's decision, then the higher contradiction
F1, then the fewer nodes). The final model is refitted on
the whole tuning half with the chosen settings; the held-out half is scored once, at the end,
and its figures are written into the manifest (``bench/stance_vitaminc.py`` reproduces them
through the reasoner). The rest of VitaminC is not used at all.

Each row is a pair (claim = the evidence sentence, statement = the VitaminC claim), embedded with
the project's embedder (the default model, vectors cached in its usual cache), turned into
features by ``app.reasoning.offline.stance_features``, and labelled SUPPORTS → reinforcing,
REFUTES → contradicting, NOT_ENOUGH_INFO → neutral. Each training row is also seen in the form
the research judge reads a passage ("<page title>: <sentence>", when the sentence lacks the
title). The model is scikit-learn's ``HistGradientBoostingClassifier`` (a dependency of the
package), fixed seed, no early stopping; its trees are exported into plain node arrays
(``app.reasoning.offline.stance_model.TreeEnsemble``) that the package walks with numpy alone,
after checking that they give scikit-learn's ``predict_proba`` within 1e-6 on every row scored
here. A manifest beside the ``.npz`` holds the SHA-256, the features, the hyper-parameters and
the figures. ``--check`` retrains and compares the figures with the manifest's (within
``--tolerance``), writing nothing.
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
from typing import Any, Protocol

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
    TreeEnsemble,
)
from app.reasoning.settings import ReasonerSettings

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA = ROOT.parent / "shared" / "eval-data" / "vitaminc-dev" / "vitaminc_dev.jsonl"
LABEL_CLASS = {"SUPPORTS": 0, "REFUTES": 1, "NOT_ENOUGH_INFO": 2}  # index into CLASSES
SEED = 23


@dataclass(frozen=True)
class Trees:
    """Hyper-parameters of the gradient-boosted trees."""

    learning_rate: float
    max_iter: int
    max_leaf_nodes: int
    min_samples_leaf: int
    l2_regularization: float

    def line(self) -> str:
        return (
            f"learning rate {self.learning_rate}, {self.max_iter} iterations, "
            f"{self.max_leaf_nodes} leaves, min {self.min_samples_leaf} rows a leaf, "
            f"L2 {self.l2_regularization}"
        )


# Chosen on the validation split by ``--explore`` (the grid below, the rule in the docstring;
# bench/README.md "Offline stance judge" lists the candidates' figures).
CHOSEN = Trees(0.03, 100, 7, 50, 0.0)
GRID = [
    Trees(rate, iterations, leaves, min_leaf, l2)
    for rate in (0.03, 0.1)
    for iterations in (50, 100, 200)
    for leaves in (4, 7, 15)
    for min_leaf in (20, 50)
    for l2 in (0.0, 1.0)
]
# The exported trees must give scikit-learn's probabilities within this.
EXPORT_TOLERANCE = 1e-6

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
    # On all-MiniLM-L6-v2's cosine scale, as the reasoner hands it to the judge.
    scale = shared_embedder(
        EmbeddingSettings(model=ReasonerSettings().offline_stance_embedding_model)
    ).reference_cosine
    out = []
    for claim, statement in pairs:
        u, v = vectors[claim], vectors[statement]
        cosine = scale(float(np.dot(u, v)))
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


class Scorer(Protocol):
    def probabilities(self, features: Matrix) -> Matrix: ...


@dataclass(frozen=True)
class Fitted:
    """A fitted scikit-learn estimator as a :class:`Scorer` (``--explore``'s comparisons)."""

    estimator: Any

    def probabilities(self, features: Matrix) -> Matrix:
        probabilities: Matrix = self.estimator.predict_proba(features)
        return probabilities


def decide(model: Scorer, x: Matrix) -> npt.NDArray[np.int64]:
    """The package's decision on each row, as ``app.reasoning.offline.stance_judge`` takes it:
    the model's most probable class where it applies and no rule says "contradicting", else
    the cue judge's stance (novel counts as NEI)."""
    proba = model.probabilities(x)
    predicted: npt.NDArray[np.intp] = np.argmax(proba, axis=1)
    threshold = ReasonerSettings().offline_topic_similarity
    columns = len(TEXT_FEATURES)
    cue_class = {"reinforcing": 0, "contradicting": 1, "neutral": 2, "novel": 2}
    for row in range(x.shape[0]):
        features: list[float] = x[row, :columns].tolist()
        if not model_applies(features, threshold, NEUTRAL_MARGIN):
            predicted[row] = cue_class[cue_stance(features)]
        elif rule_contradicts(features):
            predicted[row] = LABEL_CLASS["REFUTES"]
        elif predicted[row] == LABEL_CLASS["REFUTES"] and proba[row, 1] < CONTRADICTION_FLOOR:
            predicted[row] = cue_class[cue_stance(features)]
    return predicted.astype(np.int64)


def fit(
    x: Matrix,
    y: npt.NDArray[np.int64],
    trees: Trees,
    class_weight: dict[int, float] | str | None = None,
) -> Any:
    """scikit-learn's gradient-boosted trees (fixed seed, no early stopping: deterministic).

    Args:
        class_weight: scikit-learn's ``class_weight`` (a weight per class, or ``"balanced"``;
            None, the shipped judge's, weighs every row alike).
    """
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(
        learning_rate=trees.learning_rate,
        max_iter=trees.max_iter,
        max_leaf_nodes=trees.max_leaf_nodes,
        min_samples_leaf=trees.min_samples_leaf,
        l2_regularization=trees.l2_regularization,
        early_stopping=False,
        random_state=SEED,
        class_weight=class_weight,
    ).fit(x, y)


def export(classifier: Any) -> TreeEnsemble:
    """A fitted ``HistGradientBoostingClassifier`` (three classes, numeric features) → the
    package's node arrays. Reads scikit-learn's predictors here, at training time only."""
    if list(classifier.classes_) != list(range(len(CLASSES))):
        raise ValueError(f"expected classes 0..{len(CLASSES) - 1}, got {classifier.classes_}")
    columns: dict[str, list[npt.NDArray[Any]]] = {
        name: [] for name in ("feature", "threshold", "left", "right", "value", "missing_left")
    }
    roots: list[list[int]] = []
    offset, depth = 0, 0
    for iteration in classifier._predictors:
        if len(iteration) != len(CLASSES):
            raise ValueError("expected one tree per class and iteration")
        roots.append([])
        for predictor in iteration:
            nodes = predictor.nodes
            if np.any(nodes["is_categorical"]):
                raise ValueError("categorical splits are not exported")
            leaf = nodes["is_leaf"].astype(bool)
            index = np.arange(len(nodes), dtype=np.int64) + offset
            roots[-1].append(offset)
            columns["feature"].append(np.where(leaf, 0, nodes["feature_idx"]))
            columns["threshold"].append(np.where(leaf, 0.0, nodes["num_threshold"]))
            columns["left"].append(np.where(leaf, index, nodes["left"].astype(np.int64) + offset))
            columns["right"].append(np.where(leaf, index, nodes["right"].astype(np.int64) + offset))
            columns["value"].append(np.where(leaf, nodes["value"], 0.0))
            columns["missing_left"].append(np.where(leaf, 0, nodes["missing_go_to_left"]))
            depth = max(depth, int(nodes["depth"][leaf].max()))
            offset += len(nodes)
    model = TreeEnsemble(
        baseline=np.asarray(classifier._baseline_prediction, dtype=np.float64).reshape(-1),
        roots=np.asarray(roots, dtype=np.int32).reshape(-1, len(CLASSES)),
        feature=np.concatenate(columns["feature"]).astype(np.int32),
        threshold=np.concatenate(columns["threshold"]).astype(np.float64),
        left=np.concatenate(columns["left"]).astype(np.int32),
        right=np.concatenate(columns["right"]).astype(np.int32),
        value=np.concatenate(columns["value"]).astype(np.float64),
        missing_left=np.concatenate(columns["missing_left"]).astype(np.uint8),
        shape=np.asarray([classifier.n_features_in_, depth], dtype=np.int32),
    )
    model.check()
    return model


def export_error(classifier: Any, model: TreeEnsemble, x: Matrix) -> float:
    """The largest difference between the exported trees' and scikit-learn's probabilities."""
    return float(np.max(np.abs(model.probabilities(x) - classifier.predict_proba(x))))


def fit_exported(
    x: Matrix, y: npt.NDArray[np.int64], trees: Trees, *checks: Matrix
) -> TreeEnsemble:
    """Fits, exports and checks the export on the training rows and ``checks``."""
    classifier = fit(x, y, trees)
    model = export(classifier)
    for rows in (x, *checks):
        error = export_error(classifier, model, rows)
        if error > EXPORT_TOLERANCE:
            raise SystemExit(f"the exported trees differ from scikit-learn's by {error:.2e}")
    return model


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
    """Candidates on the validation split: the numbers behind :data:`CHOSEN`."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    val_pairs, val_labels = training_pairs(validation, titled=False)
    yv = np.asarray(val_labels)
    xv = matrix(val_pairs, True)
    columns = len(TEXT_FEATURES)
    pairs, labels = training_pairs(train, titled=True)
    x, y = matrix(pairs, True), np.asarray(labels)
    # For the record: the previous judge's family (stance-judge-1), on the same split.
    logistic = make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=3000))
    logistic.fit(x[:, :columns], y)
    predicted = logistic.predict(xv[:, :columns]).astype(np.int64)
    print(f"logistic regression C=0.1 (stance-judge-1), argmax: {figures(yv, predicted).line()}")
    decided = decide(Fitted(logistic), xv[:, :columns])
    print(f"logistic regression C=0.1 (stance-judge-1), the package's decision: "
          f"{figures(yv, decided).line()}")  # fmt: skip
    scored = []
    for trees in GRID:
        model = fit_exported(x[:, :columns], y, trees, xv[:, :columns])
        result = figures(yv, decide(model, xv[:, :columns]))
        nodes = int(model.feature.shape[0])
        scored.append((result.accuracy, result.contradiction_f1, -nodes, trees))
        print(f"trees, text features, {trees.line()} ({nodes} nodes): {result.line()}", flush=True)
    narrow = fit_exported(x[:, :columns], y, CHOSEN, xv[:, :columns])
    predicted = np.argmax(narrow.probabilities(xv[:, :columns]), axis=1).astype(np.int64)
    print(f"trees, {CHOSEN.line()}, argmax (no gates, rules or floor): "
          f"{figures(yv, predicted).line()}")  # fmt: skip
    wide = fit_exported(x, y, CHOSEN, xv)
    print(f"trees, text + |u-v| + u*v, {CHOSEN.line()}: {figures(yv, decide(wide, xv)).line()}")
    untitled_pairs, untitled_labels = training_pairs(train, titled=False)
    untitled = fit_exported(matrix(untitled_pairs, False), np.asarray(untitled_labels), CHOSEN)
    print(
        f"trees, text features, no titled copies, {CHOSEN.line()}: "
        f"{figures(yv, decide(untitled, xv[:, :columns])).line()}"
    )
    best = max(scored, key=lambda item: item[:3])
    print(f"chosen by the rule: {best[3].line()} (CHOSEN is {CHOSEN.line()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--explore", action="store_true", help="compare candidates, write nothing")
    parser.add_argument("--check", action="store_true", help="retrain and compare, write nothing")
    parser.add_argument(
        "--validation-weights",
        type=Path,
        help="also write the model fitted on the train pages only (validation pages unseen) to "
        "this .npz, for choosing research settings on the validation pages "
        "(bench/research_vitaminc.py --pages validation --weights PATH)",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=0.01,
        help="--check: how far each figure may be from the manifest's (embeddings computed on "
        "another CPU or ONNX Runtime can move a split by a row)",
    )
    args = parser.parse_args()
    if not args.data.is_file():
        raise SystemExit(f"no data at {args.data} (see ../shared/eval-data/vitaminc-dev/SOURCE.md)")
    started = time.perf_counter()
    rows = load(args.data)
    tuning = [row for row in rows if row.tuning]
    held_out = [row for row in rows if not row.tuning]
    train = [row for row in tuning if not row.validation]
    validation = [row for row in tuning if row.validation]
    embedder = shared_embedder(
        EmbeddingSettings(model=ReasonerSettings().offline_stance_embedding_model)
    )
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
    val_pairs, val_labels = training_pairs(validation, titled=False)
    xv = matrix(val_pairs)
    chosen = fit_exported(matrix(pairs), np.asarray(labels), CHOSEN, xv)
    val = figures(np.asarray(val_labels), decide(chosen, xv))
    print(f"validation (fit on train pages only) {val.line()}")
    if args.validation_weights is not None:
        args.validation_weights.write_bytes(chosen.to_bytes())
        print(f"wrote the train-pages-only model to {args.validation_weights}")
    pairs, labels = training_pairs(tuning, titled=True)
    test_pairs, test_labels = training_pairs(held_out, titled=False)
    xt = matrix(test_pairs)
    model = fit_exported(matrix(pairs), np.asarray(labels), CHOSEN, xt)
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
        "model": "gradient-boosted trees (scikit-learn HistGradientBoostingClassifier, "
        "exported to node arrays), text features (the embeddings enter through their cosine)",
        "hyper_parameters": CHOSEN.__dict__,
        "trees": model.trees,
        "nodes": int(model.feature.shape[0]),
        "depth": model.depth,
        "seed": SEED,
        "data": "VitaminC dev slice (CC BY-SA 3.0), tuning half by page; see SOURCE.md",
        "training_rows": len(pairs),
        "validation": val.__dict__,
        "held_out": test.__dict__,
    }
    if args.check:
        # The figures must match within the tolerance; the bytes match too where the embedder's
        # vectors are bit-identical (same ONNX Runtime and CPU kind).
        shipped = json.loads(MANIFEST_PATH.read_text(encoding="utf-8"))
        gaps = {
            f"{split} {name}": abs(float(shipped[split][name]) - float(value))
            for split, found in (("validation", val), ("held_out", test))
            for name, value in found.__dict__.items()
            if name != "rows"
        }
        worst = max(gaps, key=lambda name: gaps[name])
        same_rows = (shipped["validation"]["rows"], shipped["held_out"]["rows"]) == (
            val.rows,
            test.rows,
        )
        same_figures = same_rows and gaps[worst] <= args.tolerance
        same_bytes = shipped["sha256"] == digest
        print(
            f"figures {'match' if same_figures else 'DIFFER from'} the shipped manifest's "
            f"(largest gap {gaps[worst]:.4f}, {worst}; tolerance {args.tolerance}); "
            f"weights sha256 {digest[:16]}… {'matches' if same_bytes else 'differs'}"
        )
        sys.exit(0 if same_figures else 1)
    WEIGHTS_PATH.write_bytes(payload)
    MANIFEST_PATH.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {WEIGHTS_PATH.relative_to(ROOT)} ({len(payload)} bytes, sha256 {digest[:16]}…)")
    print(f"took {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
