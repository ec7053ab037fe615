"""Builds an ONNX copy of a sentence-transformers model from its local weights, once, into a cache.

The ONNX graph holds the transformer, the pooling (mean or CLS, as the model's ``1_Pooling``
config says) and the L2 normalisation, so ONNX Runtime returns finished sentence vectors equal to
sentence-transformers' (fp32: cosine 1.0). With ``quantize`` a dynamically quantised int8 copy is
made beside it (faster, vectors differ slightly: cosine ≈ 0.99). Building needs torch and
transformers (already there: sentence-transformers brings them) and the ``onnx`` package; it reads
only the local folder, never the network. The result lives in
``<cache_root>/<folder name>-<hash of the weights>/`` and is reused by every later process; the
build is atomic (written to a temporary folder, then renamed) and serialised by a lock file, so
processes starting together build it once.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FP32_FILE = "model.onnx"
INT8_FILE = "model_int8.onnx"
TOKENIZER_FILE = "tokenizer.json"
SPEC_FILE = "credence_onnx.json"
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")


class UnsupportedModel(ValueError):
    """The model's sentence-transformers pipeline is not one this builder can reproduce."""


@dataclass(frozen=True)
class OnnxSpec:
    """What the runtime needs besides the graph: the pooling baked in and the input limits."""

    pooling: str  # "mean" or "cls"
    max_seq_length: int
    uses_token_types: bool


def read_spec(model_dir: Path) -> OnnxSpec:
    """The pipeline of a sentence-transformers folder: Transformer → Pooling (mean or CLS) →
    optional Normalize; anything else is refused with the reason."""
    modules_file = model_dir / "modules.json"
    if not modules_file.is_file():
        raise UnsupportedModel(f"{model_dir} has no modules.json (no sentence-transformers model)")
    modules = json.loads(modules_file.read_text())
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
    if kinds not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"]):
        raise UnsupportedModel(f"pipeline {kinds} is not Transformer → Pooling [→ Normalize]")
    pooling_dir = next(
        model_dir / m["path"] for m in modules if str(m.get("type", "")).endswith("Pooling")
    )
    pooling_config = json.loads((pooling_dir / "config.json").read_text())
    modes = [key for key, on in pooling_config.items() if key.startswith("pooling_mode") and on]
    if modes == ["pooling_mode_mean_tokens"]:
        pooling = "mean"
    elif modes == ["pooling_mode_cls_token"]:
        pooling = "cls"
    else:
        raise UnsupportedModel(f"pooling {modes} is neither mean nor CLS alone")
    st_config_file = model_dir / "sentence_bert_config.json"
    st_config = json.loads(st_config_file.read_text()) if st_config_file.is_file() else {}
    model_config = json.loads((model_dir / "config.json").read_text())
    max_seq = int(
        st_config.get("max_seq_length") or model_config.get("max_position_embeddings", 512)
    )
    if not (model_dir / TOKENIZER_FILE).is_file():
        raise UnsupportedModel(f"{model_dir} has no {TOKENIZER_FILE} (a fast tokenizer is needed)")
    return OnnxSpec(
        pooling=pooling,
        max_seq_length=max_seq,
        uses_token_types=int(model_config.get("type_vocab_size", 0)) > 0,
    )


def weights_hash(model_dir: Path) -> str:
    for name in WEIGHT_FILES:
        path = model_dir / name
        if path.is_file():
            digest = hashlib.sha256()
            with path.open("rb") as stream:
                for block in iter(lambda: stream.read(1 << 20), b""):
                    digest.update(block)
            return digest.hexdigest()[:12]
    raise UnsupportedModel(f"{model_dir} has none of {', '.join(WEIGHT_FILES)}")


def ensure_onnx_model(model_dir: Path, cache_root: Path, quantize: bool) -> tuple[Path, OnnxSpec]:
    """The cached ONNX folder for ``model_dir`` (built now if missing) and its spec."""
    spec = read_spec(model_dir)
    target = cache_root / f"{model_dir.name}-{weights_hash(model_dir)}"
    wanted = INT8_FILE if quantize else FP32_FILE
    if (target / wanted).is_file() and (target / SPEC_FILE).is_file():
        return target, spec
    cache_root.mkdir(parents=True, exist_ok=True)
    with (cache_root / ".build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building the same model
        if not (target / wanted).is_file() or not (target / SPEC_FILE).is_file():
            _build(model_dir, spec, target, quantize)
    return target, spec


def _build(model_dir: Path, spec: OnnxSpec, target: Path, quantize: bool) -> None:
    """Makes what is missing. A new folder is filled aside and renamed into place; a folder
    that exists (other processes may be reading it) only gains files, each renamed into place
    whole, so nothing a reader found ever disappears or shows half-written."""
    started = time.perf_counter()
    if not (target / SPEC_FILE).is_file():
        work = Path(tempfile.mkdtemp(dir=target.parent, prefix=".build-"))
        try:
            _export(model_dir, spec, work / FP32_FILE)
            shutil.copy(model_dir / TOKENIZER_FILE, work / TOKENIZER_FILE)
            (work / SPEC_FILE).write_text(json.dumps(spec.__dict__))
            if target.exists():  # a folder left without its spec: never complete, never used
                shutil.rmtree(target)
            work.replace(target)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    if quantize and not (target / INT8_FILE).is_file():
        partial = target / f".{INT8_FILE}.partial"
        try:
            _quantize(target / FP32_FILE, partial)
            partial.replace(target / INT8_FILE)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
    log.info("ONNX model ready in %s (%.1f s)", target, time.perf_counter() - started)


def _export(model_dir: Path, spec: OnnxSpec, out: Path) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch
    from transformers import AutoModel

    class SentenceEncoder(torch.nn.Module):  # type: ignore[misc,unused-ignore]
        """Transformer + pooling + L2 normalisation, as the sentence-transformers pipeline."""

        def __init__(self) -> None:
            super().__init__()
            self.transformer = AutoModel.from_pretrained(
                str(model_dir), attn_implementation="eager", local_files_only=True
            ).eval()

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            extra = {"token_type_ids": torch.zeros_like(input_ids)} if spec.uses_token_types else {}
            hidden = self.transformer(
                input_ids=input_ids, attention_mask=attention_mask, **extra
            ).last_hidden_state
            if spec.pooling == "cls":
                pooled = hidden[:, 0]
            else:
                mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2.0, dim=-1)

    example = torch.ones(2, 16, dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    # The exporter warns about tracing details that do not apply to these fixed pipelines.
    with torch.inference_mode(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            SentenceEncoder(),
            (example, example),
            str(out),
            dynamo=False,
            opset_version=17,
            input_names=["input_ids", "attention_mask"],
            output_names=["sentence_embedding"],
            dynamic_axes={
                "input_ids": axes,
                "attention_mask": axes,
                "sentence_embedding": {0: "batch"},
            },
        )


def _quantize(source: Path, out: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # it advises pre-processing on the root logger, every time
    try:
        quantize_dynamic(str(source), str(out), weight_type=QuantType.QInt8, per_channel=True)
    finally:
        root.setLevel(level)
