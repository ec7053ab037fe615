"""Reading and validating pack and seed files: every problem is collected (each an error entry
located ``["file", <file>, ...]``) before anything is written, so a bad file is rejected whole."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from app.errors import (
    ErrorEntry,
    PackNotFound,
    SeedFileInvalid,
    error_entry,
    file_location,
    validation_entries,
)
from app.resources import resource_dir
from app.seeds.file_schemas import CensorsFile, CreedFile, FramesFile, SelfFile
from app.seeds.pack_schema import KnowledgePack, reference_problems

ModelT = TypeVar("ModelT", bound=BaseModel)


def packs_dir() -> Path:
    return resource_dir("seeds") / "packs"


def _read_yaml(path: Path) -> Any:
    return _parse_yaml(_read_text(path), str(path))


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        unreadable = error_entry(file_location(str(path)), f"cannot read: {error}", "unreadable")
        raise SeedFileInvalid(str(path), [unreadable]) from None


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader refusing a mapping that names a key twice: the plain one keeps the
    last, so half of what an author wrote (a belief's first `statement`, a first `beliefs:`
    list) would vanish unseen."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Mark] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # `<<: *base`: the keys written beside it override the merged ones
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, str | int | float | bool) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"key {key!r} written twice in one mapping (first on line "
                    f"{seen[key].line + 1}): YAML keeps only the last",
                    key_node.start_mark,
                )
            seen.setdefault(key, key_node.start_mark)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_timestamp(self, node: yaml.ScalarNode) -> Any:
        """A plain scalar shaped as a date that is none (``2026-13-45``) is a YAML error at
        its line: the plain loader raised ``ValueError``, which no reader of a file caught."""
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError as error:
            raise yaml.constructor.ConstructorError(
                None, None, f"not a valid date or time: {error}", node.start_mark
            ) from None


_UniqueKeyLoader.add_constructor(
    "tag:yaml.org,2002:timestamp", _UniqueKeyLoader.construct_yaml_timestamp
)


def _parse_yaml(text: str, file: str) -> Any:
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        column = f" (column {mark.column + 1})" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        where = file_location(file, line=line)
        invalid = error_entry(where, f"not valid YAML: {problem}{column}", "yaml_invalid")
        raise SeedFileInvalid(file, [invalid]) from None


def _validate(
    model: type[ModelT], data: Any, file: str, root: Sequence[str | int] | None = None
) -> ModelT:
    """``data`` as ``model``; every problem located under ``root`` (the file by default)."""
    root = file_location(file) if root is None else root
    if not isinstance(data, dict):
        not_mapping = error_entry(root, "the file must hold a mapping", "dict_type")
        raise SeedFileInvalid(file, [not_mapping])
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise SeedFileInvalid(file, validation_entries(error.errors(), root)) from None


def _under(root: Sequence[str | int], entries: list[ErrorEntry]) -> list[ErrorEntry]:
    """``entries`` located in a document, located under where the document is (``root``)."""
    return [error_entry([*root, *e["location"]], e["message"], e["type"]) for e in entries]


def read_pack(path: Path) -> KnowledgePack:
    """Parses and validates one pack file completely; a text read before (the same file with the
    same content) is not parsed again in this process, as screening its censors' patterns takes a
    few milliseconds each. The pack returned is shared: read it, never change it.

    Raises:
        SeedFileInvalid: with every problem found (YAML, fields, keys, links, cycles, the skill).
    """
    return _parse_pack_text(_read_text(path), str(path))


@lru_cache(maxsize=32)
def _parse_pack_text(text: str, source: str) -> KnowledgePack:
    return parse_pack(_parse_yaml(text, source), source)


def parse_pack(data: Any, source: str, root: Sequence[str | int] | None = None) -> KnowledgePack:
    """Validates a pack document already parsed (a file's YAML, a request's JSON) completely.

    Args:
        source: where it came from, named by the error (a file's path, ``request body``).
        root: where the document is, the start of each problem's location (``["file",
            source]`` by default; ``["body"]`` for a request's body).

    Raises:
        SeedFileInvalid: with every problem found (fields, keys, links, cycles, the skill).
    """
    root = file_location(source) if root is None else root
    pack = _validate(KnowledgePack, data, source, root)
    problems = reference_problems(pack)
    if problems:
        raise SeedFileInvalid(source, _under(root, problems))
    return pack


def pack_files() -> list[Path]:
    return sorted(packs_dir().glob("*.yaml"))


def read_all_packs() -> list[KnowledgePack]:
    return [read_pack(path) for path in pack_files()]


def find_pack(name: str) -> KnowledgePack:
    """The shipped pack called ``name`` (its ``name`` field, or its file stem).

    Raises:
        PackNotFound: no such pack.
    """
    available: list[str] = []
    for path in pack_files():
        if path.stem == name:
            return read_pack(path)
        pack = read_pack(path)
        if pack.name == name:
            return pack
        available.append(pack.name)
    raise PackNotFound(name, available)


def read_creed() -> CreedFile:
    path = resource_dir("seeds") / "creed.yaml"
    return _validate(CreedFile, _read_yaml(path), str(path))


def read_self() -> SelfFile:
    path = resource_dir("seeds") / "self.yaml"
    return _validate(SelfFile, _read_yaml(path), str(path))


def read_frames() -> FramesFile:
    path = resource_dir("seeds") / "frames.yaml"
    return _validate(FramesFile, _read_yaml(path), str(path))


def read_censors() -> CensorsFile:
    path = resource_dir("seeds") / "censors.yaml"
    return _validate(CensorsFile, _read_yaml(path), str(path))


@lru_cache(maxsize=1)
def shipped_censor_keys() -> frozenset[str]:
    """The keys of the shipped default censors (``seeds/censors.yaml``), read once per process:
    the guardian's defaults, and the keys no pack or manual censor may take."""
    return frozenset(censor.key for censor in read_censors().censors)


@lru_cache(maxsize=1)
def shipped_frame_keys() -> frozenset[str]:
    """The keys of the shipped default frames (``seeds/frames.yaml``), read once per process:
    the keys no pack may take (docs/packs.md §2)."""
    return frozenset(frame.key for frame in read_frames().frames)


def read_seed_model(model: type[ModelT], path: Path) -> ModelT:
    """Reads and validates one YAML seed file against ``model``.

    Raises:
        SeedFileInvalid: naming the file and, for each problem, the field's path.
    """
    return _validate(model, _read_yaml(path), str(path))
