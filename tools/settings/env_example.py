"""Writes ``.env.example`` from the settings models, the one source of truth: every field of
``app.config.Settings`` and of each model it holds (mechanics, embeddings, retrieval, memory,
reasoner, loop, guardian, reflection, research, tools, API limits), named as pydantic-settings
reads it, with its default and its description (the field's docstring); then the variables of
the local Neo4j launcher, read from the header of ``tools/neo4j/neo4j-local``.

``tests/unit/test_env_example.py`` fails when the file differs from what this writes, so a
setting added without regenerating (``make env-example``) is caught.

    .venv/bin/python tools/settings/env_example.py          # rewrite .env.example
    .venv/bin/python tools/settings/env_example.py --check  # exit 1 when it is out of date
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from app.config import Settings

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / ".env.example"
LAUNCHER = ROOT / "tools" / "neo4j" / "neo4j-local"
WIDTH = 100

HEADER = """\
# Credence settings: every setting, its default and what it does.
#
# GENERATED from the settings models (app/config.py and the models it holds) by
# tools/settings/env_example.py; `make env-example` rewrites it. To change a default or a help
# line, edit the model's field and its docstring, then regenerate.
#
# Copy to .env (read by `credence`, `make run` and docker compose) and uncomment what you change.
# Every setting is optional: each commented line shows the default, or an example where its help
# says "For example". Nested settings are named with `__` (CREDENCE_LOOP__APPROVAL_TTL_HOURS=72);
# lists and maps are JSON.
"""

# The flat fields of Settings, grouped by the start of their names (in the order they come).
FLAT_SECTIONS: tuple[tuple[str, str], ...] = (
    ("neo4j_", "Neo4j"),
    ("api_", "The API"),
    ("migrat", "Schema migrations"),
    ("log_", "Logging and metrics"),
    ("metrics_", "Logging and metrics"),
    ("default_agent", "The default agent"),
    ("clock_", "The clock"),
)
OTHER_SECTION = "Other settings"

# "#   CREDENCE_NEO4J_HEAP        JVM heap, initial = max                 (default: 4g)"
_LAUNCHER_LINE = re.compile(r"^#\s+(CREDENCE_[A-Z0-9_]+)\s+(.+?)\s*(?:\(default: (.+)\))?$")


@dataclass(frozen=True, slots=True)
class Entry:
    """One variable: its name, the value shown and its help; the value is the default unless
    the field gives an example (then the help says what the default is)."""

    name: str
    value: str
    help: str
    is_default: bool = True


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    entries: tuple[Entry, ...]


def settings_sections() -> list[Section]:
    """The sections of ``Settings``: the flat fields grouped by name, then one per nested model,
    in the order of the fields."""
    config = Settings.model_config
    prefix = str(config.get("env_prefix", "")).upper()
    delimiter = str(config.get("env_nested_delimiter") or "__")
    sections: list[Section] = []
    for name, field in Settings.model_fields.items():
        nested = _nested_model(field)
        if nested is not None:
            env = f"{prefix}{name.upper()}{delimiter}"
            title = f"{_help(field, name).rstrip('.')} [{env}*]"
            sections.append(Section(title, tuple(_model_entries(nested, env, delimiter))))
            continue
        entry = _entry(f"{prefix}{name.upper()}", field, name)
        title = _flat_title(name)
        if sections and sections[-1].title == title:
            sections[-1] = Section(title, (*sections[-1].entries, entry))
        else:
            sections.append(Section(title, (entry,)))
    return sections


def launcher_section() -> Section:
    """The local launcher's variables from its header comment, less those Credence itself reads
    (the Neo4j user and password are settings)."""
    read_by_settings = {entry.name for section in settings_sections() for entry in section.entries}
    entries = []
    for line in LAUNCHER.read_text().splitlines():
        if not line.startswith("#"):
            break
        match = _LAUNCHER_LINE.match(line)
        if match is None or match.group(1) in read_by_settings:
            continue
        name, text, default = match.groups()
        literal = default is not None and " " not in default
        help_text = text if default is None or literal else f"{text} (default: {default})"
        entries.append(Entry(name, default if literal else "", _sentence(help_text)))
    return Section(
        "The local Neo4j launcher (tools/neo4j/neo4j-local, `make neo4j-up`)", tuple(entries)
    )


def sections() -> list[Section]:
    found = settings_sections()
    neo4j_end = next(i for i, section in enumerate(found) if section.title == "Neo4j") + 1
    return [*found[:neo4j_end], launcher_section(), *found[neo4j_end:]]


def render() -> str:
    """The whole file."""
    parts = [HEADER]
    for section in sections():
        heading = f"# --- {section.title} "
        lines = [heading + "-" * max(3, WIDTH - len(heading))]
        for entry in section.entries:
            lines += textwrap.wrap(
                entry.help,
                WIDTH,
                initial_indent="# ",
                subsequent_indent="# ",
                break_long_words=False,
                break_on_hyphens=False,
            )
            lines.append(f"# {entry.name}={entry.value}")
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def _model_entries(model: type[BaseModel], env: str, delimiter: str) -> Iterator[Entry]:
    for name, field in model.model_fields.items():
        nested = _nested_model(field)
        if nested is not None:
            yield from _model_entries(nested, f"{env}{name.upper()}{delimiter}", delimiter)
        else:
            yield _entry(f"{env}{name.upper()}", field, name)


def _entry(env: str, field: FieldInfo, name: str) -> Entry:
    if field.alias or field.validation_alias:
        raise SystemExit(f"{name}: an alias changes its variable's name; teach the generator")
    default = field.get_default(call_default_factory=True)
    if field.examples:
        shown = "unset" if default is None else _value(default)
        example = f"{_help(field, name)} Default: {shown}. For example:"
        return Entry(env, _value(field.examples[0]), example, is_default=False)
    if default is None:
        raise SystemExit(f"{env}: unset by default and no example (Field(examples=[...]))")
    return Entry(env, _value(default), _help(field, name))


def _value(value: Any) -> str:
    """The value as pydantic-settings reads it back: JSON for lists and maps, plain otherwise."""
    if isinstance(value, SecretStr):
        return value.get_secret_value()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list | tuple):
        return json.dumps(value, ensure_ascii=False)
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    return str(value)


def _help(field: FieldInfo, name: str) -> str:
    text = " ".join((field.description or "").split())
    if not text:
        raise SystemExit(f"{name}: no description (write a docstring under the field)")
    return _sentence(text)


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


def _nested_model(field: FieldInfo) -> type[BaseModel] | None:
    annotation = field.annotation
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _flat_title(name: str) -> str:
    return next((title for start, title in FLAT_SECTIONS if name.startswith(start)), OTHER_SECTION)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args(argv)
    text = render()
    current = TARGET.read_text() if TARGET.exists() else ""
    if args.check:
        if current != text:
            print(f"{TARGET.name} is out of date: run `make env-example`", file=sys.stderr)
            return 1
        return 0
    if current != text:
        TARGET.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
