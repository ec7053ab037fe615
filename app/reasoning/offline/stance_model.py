"""The learned stance judge's weights: loaded from the package with numpy alone, checked against
their manifest's SHA-256, and evaluated as a multinomial logistic regression.

The weights (``weights/stance_judge.npz``) and their manifest (``weights/stance_judge.json``:
version, checksum, features, training figures) ship inside the package; ``tools/stance/train.py``
writes both (``make train-stance``), from the data named in ``weights/SOURCE.md``. Nothing is
downloaded. When the file is missing, unreadable or does not match its checksum, the judge is
unavailable with the reason, and the offline reasoner decides with the cue judge alone (its
behaviour before the model); ``/health`` says which judge runs.
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
MODEL_VERSION = "stance-judge-1"
# The order of the model's outputs.
CLASSES: tuple[Stance, ...] = ("reinforcing", "contradicting", "neutral")

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class StanceModel:
    """Standardisation and the coefficients of a multinomial logistic regression."""

    mean: FloatArray
    scale: FloatArray
    coef: FloatArray  # classes × features
    intercept: FloatArray  # classes

    @property
    def features(self) -> int:
        return int(self.mean.shape[0])

    def probabilities(self, features: FloatArray) -> FloatArray:
        """Rows of features → rows of class probabilities (in :data:`CLASSES` order)."""
        x = (np.atleast_2d(features) - self.mean) / self.scale
        logits = x @ self.coef.T + self.intercept
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        probabilities: FloatArray = weights / weights.sum(axis=1, keepdims=True)
        return probabilities

    def to_bytes(self) -> bytes:
        """An ``.npz`` with fixed entry dates, so the same weights give the same bytes."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in ("mean", "scale", "coef", "intercept"):
                array = io.BytesIO()
                np.save(array, np.ascontiguousarray(getattr(self, name), dtype="<f8"))
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, array.getvalue())
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, payload: bytes) -> StanceModel:
        with np.load(io.BytesIO(payload), allow_pickle=False) as arrays:
            model = cls(
                mean=np.asarray(arrays["mean"], dtype=np.float64),
                scale=np.asarray(arrays["scale"], dtype=np.float64),
                coef=np.asarray(arrays["coef"], dtype=np.float64),
                intercept=np.asarray(arrays["intercept"], dtype=np.float64),
            )
        rows, columns = model.coef.shape
        if rows != len(CLASSES) or model.intercept.shape != (rows,):
            raise ValueError(f"expected {len(CLASSES)} classes, found {rows}")
        if model.scale.shape != (columns,) or model.mean.shape != (columns,):
            raise ValueError("standardisation and coefficients disagree on the feature count")
        return model


@dataclass(frozen=True)
class LoadedJudge:
    """The model, or why there is none (the cue judge then decides alone)."""

    model: StanceModel | None
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
        model = StanceModel.from_bytes(payload)
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
