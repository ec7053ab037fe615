"""The stance judge's tree evaluator: the node arrays that ``tools/stance/train.py`` exports from
scikit-learn's gradient-boosted trees give scikit-learn's own probabilities (within 1e-6), with
the training script's hyper-parameters, on rows with missing values too, and survive the trip
through the ``.npz`` the package ships."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt
import pytest

from app.reasoning.offline.stance_features import TEXT_FEATURES
from app.reasoning.offline.stance_model import CLASSES, TreeEnsemble

TRAIN_SCRIPT = Path(__file__).resolve().parents[3] / "tools" / "stance" / "train.py"


def _train_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("stance_train", TRAIN_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def _rows(generator: np.random.Generator, count: int) -> np.ndarray:
    """Rows shaped like the judge's features: shares in [0, 1], small counts, 0/1 flags."""
    columns = len(TEXT_FEATURES)
    x = generator.random((count, columns))
    x[:, 10:20] = generator.integers(0, 4, (count, 10))
    x[:, 30:35] = generator.integers(0, 2, (count, 5))
    return x


def _labels(x: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    score: npt.NDArray[np.float64] = x[:, 0] - x[:, 2] + 0.3 * x[:, 12] - 0.5 * x[:, 31]
    return np.digitize(score, np.quantile(score, [1 / 3, 2 / 3])).astype(np.int64)


@pytest.fixture(scope="module")
def train() -> ModuleType:
    return _train_module()


@pytest.mark.parametrize("missing", [False, True])
def test_exported_trees_give_sklearns_probabilities(train: ModuleType, missing: bool) -> None:
    generator = np.random.default_rng(23)
    x = _rows(generator, 1200)
    y = _labels(x)
    if missing:  # some training rows lack a value: the trees learn where a missing one goes
        x[generator.random(x.shape) < 0.05] = np.nan
    classifier = train.fit(x, y, train.CHOSEN)
    model = train.export(classifier)
    fresh = _rows(np.random.default_rng(7), 500)
    fresh[np.random.default_rng(8).random(fresh.shape) < 0.05] = np.nan
    for rows in (x, fresh, fresh[:1]):
        expected = classifier.predict_proba(rows)
        found = model.probabilities(rows)
        assert found.shape == expected.shape
        assert np.max(np.abs(found - expected)) <= 1e-6
    assert model.trees == train.CHOSEN.max_iter * len(CLASSES)
    assert model.features == len(TEXT_FEATURES)
    # One row at a time (as the judge asks) gives the batch's answer.
    assert np.allclose(model.probabilities(fresh[3]), model.probabilities(fresh)[3], atol=1e-12)


def test_exported_trees_survive_the_npz(train: ModuleType) -> None:
    x = _rows(np.random.default_rng(1), 600)
    model = train.export(train.fit(x, _labels(x), train.Trees(0.1, 20, 7, 20, 0.0)))
    payload = model.to_bytes()
    again = TreeEnsemble.from_bytes(payload)
    assert again.to_bytes() == payload
    assert np.array_equal(again.probabilities(x), model.probabilities(x))


def test_malformed_trees_are_refused(train: ModuleType) -> None:
    x = _rows(np.random.default_rng(2), 300)
    model = train.export(train.fit(x, _labels(x), train.Trees(0.1, 5, 7, 20, 0.0)))
    broken = TreeEnsemble(**{**model.__dict__, "left": model.left + len(model.left)})
    with pytest.raises(ValueError, match="left points outside"):
        TreeEnsemble.from_bytes(broken.to_bytes())
    wide = TreeEnsemble(**{**model.__dict__, "shape": np.asarray([3, model.depth], np.int32)})
    with pytest.raises(ValueError, match="feature outside"):
        TreeEnsemble.from_bytes(wide.to_bytes())


def test_a_model_without_trees_answers_its_baseline() -> None:
    model = TreeEnsemble.constant(np.asarray([0.0, 5.0, 0.0]), len(TEXT_FEATURES))
    probabilities = model.probabilities(np.zeros((2, len(TEXT_FEATURES))))
    assert probabilities.shape == (2, 3)
    assert probabilities[0, 1] == pytest.approx(np.exp(5) / (np.exp(5) + 2))
