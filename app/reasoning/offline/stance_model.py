"""The learned stance judge's weights: loaded from the package with numpy alone, checked against
their manifest's SHA-256, and evaluated as an ensemble of gradient-boosted trees.

The weights (``weights/stance_judge.npz``) and their manifest (``weights/stance_judge.json``:
version, checksum, features, training figures) ship inside the package; ``tools/stance/train.py``
writes both (``make train-stance``), from the data named in ``weights/SOURCE.md``. The trees were
grown by scikit-learn's ``HistGradientBoostingClassifier`` and exported into plain arrays (one
entry per node: feature, threshold, left and right child, leaf value, where a missing value
goes); :class:`TreeEnsemble` walks them with a few vectorised numpy steps, so the run time needs
neither scikit-learn nor pickle. Nothing is downloaded. When the file is missing, unreadable or
does not match its checksum, the judge is unavailable with the reason, and the offline reasoner
decides with the cue judge alone (its behaviour before the model); ``/health`` says which judge
runs.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.reasoning.protocol import Stance

log = logging.getLogger(__name__)

WEIGHTS_DIR = Path(__file__).parent / "weights"
WEIGHTS_PATH = WEIGHTS_DIR / "stance_judge.npz"
MANIFEST_PATH = WEIGHTS_DIR / "stance_judge.json"
MODEL_VERSION = "stance-judge-2"
# The order of the model's outputs.
CLASSES: tuple[Stance, ...] = ("reinforcing", "contradicting", "neutral")

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int32]
FlagArray = npt.NDArray[np.uint8]

# The arrays of the .npz, in the order they are written (and their dtypes).
_ARRAYS: tuple[tuple[str, str], ...] = (
    ("baseline", "<f8"),
    ("roots", "<i4"),
    ("feature", "<i4"),
    ("threshold", "<f8"),
    ("left", "<i4"),
    ("right", "<i4"),
    ("value", "<f8"),
    ("missing_left", "u1"),
    ("shape", "<i4"),
)


@dataclass(frozen=True)
class TreeEnsemble:
    """Gradient-boosted trees for :data:`CLASSES`, as flat node arrays.

    The nodes of every tree lie in one set of arrays; ``roots[i, k]`` is where the tree of
    boosting iteration ``i`` for class ``k`` starts. An inner node sends a row to ``left`` when
    its ``feature`` is at most ``threshold`` (or, for a missing value, when ``missing_left``),
    else to ``right``; a leaf points at itself on both sides and holds its ``value`` (learning
    rate applied). A class's score is ``baseline[k]`` plus the values of the leaves its trees
    reach; the probabilities are the scores' softmax, as scikit-learn computes them.
    """

    baseline: FloatArray  # classes
    roots: IntArray  # iterations × classes
    feature: IntArray  # nodes
    threshold: FloatArray  # nodes
    left: IntArray  # nodes
    right: IntArray  # nodes
    value: FloatArray  # nodes
    missing_left: FlagArray  # nodes
    shape: IntArray  # [features the model reads, the deepest leaf's depth]

    @property
    def features(self) -> int:
        return int(self.shape[0])

    @property
    def depth(self) -> int:
        return int(self.shape[1])

    @property
    def trees(self) -> int:
        return int(self.roots.size)

    def probabilities(self, features: FloatArray) -> FloatArray:
        """Rows of features → rows of class probabilities (in :data:`CLASSES` order)."""
        x = np.atleast_2d(np.asarray(features, dtype=np.float64))
        rows, width = x.shape
        flat = x.ravel()
        offsets = np.arange(0, rows * width, width)[:, None]  # where each row starts in flat
        node = np.tile(self.roots.reshape(-1), (rows, 1))
        missing = bool(np.isnan(flat).any())
        for _ in range(self.depth):  # every row in every tree steps down one level
            values = flat[offsets + self.feature[node]]
            left = values <= self.threshold[node]  # false for a missing value, then:
            if missing:
                left |= np.isnan(values) & (self.missing_left[node] == 1)
            node = np.where(left, self.left[node], self.right[node])
        leaves = self.value[node].reshape(rows, -1, len(CLASSES))
        scores = self.baseline + leaves.sum(axis=1)
        scores -= scores.max(axis=1, keepdims=True)
        weights = np.exp(scores)
        probabilities: FloatArray = weights / weights.sum(axis=1, keepdims=True)
        return probabilities

    def to_bytes(self) -> bytes:
        """An ``.npz`` with fixed entry dates, so the same trees give the same bytes."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, dtype in _ARRAYS:
                array = io.BytesIO()
                np.save(array, np.ascontiguousarray(getattr(self, name), dtype=dtype))
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, array.getvalue())
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, payload: bytes) -> TreeEnsemble:
        with np.load(io.BytesIO(payload), allow_pickle=False) as arrays:
            loaded = {name: np.asarray(arrays[name], dtype=dtype) for name, dtype in _ARRAYS}
        model = cls(**loaded)
        model.check()
        return model

    def check(self) -> None:
        """Raises ValueError unless the arrays form trees the evaluator can walk."""
        nodes = self.feature.shape[0]
        if self.baseline.shape != (len(CLASSES),):
            raise ValueError(f"expected {len(CLASSES)} classes, found {self.baseline.shape}")
        if self.roots.ndim != 2 or self.roots.shape[1] != len(CLASSES):
            raise ValueError(f"roots must be iterations × {len(CLASSES)}")
        if self.shape.shape != (2,) or self.features < 1 or self.depth < 0:
            raise ValueError("shape must hold the feature count and the depth")
        for name in ("threshold", "left", "right", "value", "missing_left"):
            if getattr(self, name).shape != (nodes,):
                raise ValueError(f"{name} has {getattr(self, name).shape}, not ({nodes},)")
        for name in ("roots", "left", "right"):
            index = getattr(self, name)
            if index.size and (index.min() < 0 or index.max() >= nodes):
                raise ValueError(f"{name} points outside the {nodes} nodes")
        if nodes and (self.feature.min() < 0 or self.feature.max() >= self.features):
            raise ValueError(f"a node reads a feature outside the {self.features} features")

    @classmethod
    def constant(cls, scores: FloatArray, features: int) -> TreeEnsemble:
        """No trees, only the baseline scores (a model whose answer is fixed)."""
        empty = np.zeros(0, dtype=np.int32)
        return cls(
            baseline=np.asarray(scores, dtype=np.float64),
            roots=np.zeros((0, len(CLASSES)), dtype=np.int32),
            feature=empty,
            threshold=np.zeros(0),
            left=empty,
            right=empty,
            value=np.zeros(0),
            missing_left=np.zeros(0, dtype=np.uint8),
            shape=np.asarray([features, 0], dtype=np.int32),
        )


@dataclass(frozen=True)
class LoadedJudge:
    """The model, or why there is none (the cue judge then decides alone)."""

    model: TreeEnsemble | None
    version: str | None
    reason: str | None = None

    @property
    def kind(self) -> str:
        return "learned" if self.model is not None else "cues"


def load_judge(weights: Path = WEIGHTS_PATH, manifest: Path = MANIFEST_PATH) -> LoadedJudge:
    """Reads and checks the weights; never raises (a failure is the reason of a cue judge)."""
    try:
        described = json.loads(manifest.read_text(encoding="utf-8"))
        expected = str(described["sha256"])
        version = str(described.get("version", "unknown"))
    except (OSError, ValueError, KeyError) as error:
        return LoadedJudge(None, None, f"no stance model manifest ({type(error).__name__}: "
                                       f"{error})")  # fmt: skip
    try:
        payload = weights.read_bytes()
    except OSError as error:
        return LoadedJudge(None, version, f"stance model weights missing ({error})")
    found = hashlib.sha256(payload).hexdigest()
    if found != expected:
        return LoadedJudge(
            None,
            version,
            f"stance model checksum mismatch: {weights.name} has sha256 {found[:12]}…, "
            f"the manifest expects {expected[:12]}…",
        )
    try:
        model = TreeEnsemble.from_bytes(payload)
    except (OSError, ValueError, KeyError) as error:
        return LoadedJudge(None, version, f"stance model unreadable ({error})")
    return LoadedJudge(model, version)


_shared: dict[tuple[Path, Path], LoadedJudge] = {}
_shared_lock = threading.Lock()


def shared_judge(weights: Path = WEIGHTS_PATH, manifest: Path = MANIFEST_PATH) -> LoadedJudge:
    """The judge for these files, loaded once per process (logged when it falls back)."""
    key = (weights, manifest)
    with _shared_lock:
        judge = _shared.get(key)
        if judge is None:
            judge = load_judge(weights, manifest)
            if judge.model is None:
                log.warning("offline stance: cue judge only, %s", judge.reason)
            _shared[key] = judge
        return judge
