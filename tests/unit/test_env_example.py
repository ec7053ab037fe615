""".env.example is generated from the settings models (``tools/settings/env_example.py``): the
file is exactly what the generator writes, every setting has a help line, every variable it
names is one pydantic-settings reads, and every default it shows reads back as the default."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from pydantic_settings import SettingsError

from app.config import Settings

ROOT = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = ROOT / ".env.example"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "env_example", ROOT / "tools" / "settings" / "env_example.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


def _settings_entries() -> list[Any]:
    return [entry for section in TOOL.settings_sections() for entry in section.entries]


def _leaf_paths(model: type[BaseModel], path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths: list[tuple[str, ...]] = []
    for name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            paths += _leaf_paths(annotation, (*path, name))
        else:
            paths.append((*path, name))
    return paths


def _value_at(settings: Settings, path: tuple[str, ...]) -> Any:
    value: Any = settings
    for name in path:
        value = getattr(value, name)
    return value


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No CREDENCE_ variable of the test process leaks into the settings read here."""
    import os

    for name in list(os.environ):
        if name.upper().startswith("CREDENCE_"):
            monkeypatch.delenv(name)
    return monkeypatch


def test_the_file_is_what_the_generator_writes() -> None:
    assert ENV_EXAMPLE.read_text() == TOOL.render(), (
        ".env.example is out of date: run `make env-example`"
    )
    assert TOOL.main(["--check"]) == 0


def test_every_setting_has_a_help_line_and_one_variable() -> None:
    entries = _settings_entries()
    names = [entry.name for entry in entries]
    assert len(names) == len(set(names))
    assert len(entries) == len(_leaf_paths(Settings))
    for path in _leaf_paths(Settings):
        model: type[BaseModel] = Settings
        for name in path[:-1]:
            nested = model.model_fields[name].annotation
            assert isinstance(nested, type) and issubclass(nested, BaseModel), nested
            model = nested
        description = model.model_fields[path[-1]].description or ""
        assert description.strip(), f"{'.'.join(path)} has no description"
    for entry in entries:
        assert entry.help.strip() and entry.name in ENV_EXAMPLE.read_text()


def test_a_nested_and_a_top_level_variable_are_read_by_that_name(
    clean_env: pytest.MonkeyPatch,
) -> None:
    clean_env.setenv("CREDENCE_LOOP__EPISODE_VECTOR_SHARE", "0.25")
    clean_env.setenv("CREDENCE_LOOP__IDLE_SWEEP_INTERVAL_SECONDS", "5")
    clean_env.setenv("CREDENCE_NEO4J_MAX_POOL_SIZE", "7")
    clean_env.setenv("CREDENCE_API__MAX_BODY_BYTES", "4096")
    clean_env.setenv("CREDENCE_LOOP__SEVERITY_BY_ISSUE", '{"low": 0.1}')

    settings = Settings(_env_file=None)

    assert settings.loop.episode_vector_share == 0.25
    assert settings.loop.idle_sweep_interval_seconds == 5.0
    assert settings.neo4j_max_pool_size == 7
    assert settings.api.max_body_bytes == 4096
    assert settings.loop.severity_by_issue == {"low": 0.1}


def test_every_variable_named_is_read(clean_env: pytest.MonkeyPatch) -> None:
    """A wrong name would be ignored silently (extra="ignore"): each variable, set to a value
    unlike its default, must change that setting or be refused naming it."""
    defaults = Settings(_env_file=None)
    for entry, path in zip(_settings_entries(), _leaf_paths(Settings), strict=True):
        clean_env.setenv(entry.name, "credence-sentinel")
        try:
            settings = Settings(_env_file=None)
        except ValidationError as error:
            locations = [tuple(str(part) for part in e["loc"]) for e in error.errors()]
            assert any(loc[: len(path)] == path for loc in locations), (entry.name, locations)
        except SettingsError as error:
            # Not JSON, for a list or map: only the field the name reaches is parsed as JSON.
            assert f'field "{path[0]}"' in str(error), (entry.name, error)
        else:
            assert _value_at(settings, path) != _value_at(defaults, path), entry.name
        clean_env.delenv(entry.name)


def test_every_default_shown_reads_back_as_the_default(clean_env: pytest.MonkeyPatch) -> None:
    shown = 0
    for entry in _settings_entries():
        if entry.is_default:
            clean_env.setenv(entry.name, entry.value)
            shown += 1
    assert shown > 200

    assert Settings(_env_file=None).model_dump() == Settings().model_dump()


def test_the_examples_are_valid_values(clean_env: pytest.MonkeyPatch) -> None:
    examples = [entry for entry in _settings_entries() if not entry.is_default]
    assert {entry.name for entry in examples} >= {"CREDENCE_CLOCK_START", "CREDENCE_API_KEYS"}
    for entry in examples:
        clean_env.setenv(entry.name, entry.value)
    settings = Settings(_env_file=None)
    assert settings.api_keys["change-me-admin-key"] == ["*"]
    assert settings.clock_start is not None


def test_the_errors_of_the_hand_written_file_are_gone() -> None:
    text = ENV_EXAMPLE.read_text()
    assert "# CREDENCE_LOOP__EPISODE_VECTOR_SHARE=1.0\n" in text
    assert "# CREDENCE_LOOP__IDLE_SWEEP_INTERVAL_SECONDS=60.0\n" in text
    assert "# CREDENCE_MECHANICS__BIRTH_STRENGTH_CAP=0.5\n" in text
    assert "# CREDENCE_RESEARCH__OFFLINE_CONTRADICTION_FLOOR=0.7\n" in text
    for path in re.findall(r"\b(?:app|tools|bench)/[\w/.-]+\.py\b", text):
        assert (ROOT / path).is_file(), path


def test_the_launcher_variables_are_the_launchers() -> None:
    launcher = (ROOT / "tools" / "neo4j" / "neo4j-local").read_text()
    entries = TOOL.launcher_section().entries
    assert {entry.name for entry in entries} >= {
        "CREDENCE_NEO4J_BOLT_PORT",
        "CREDENCE_NEO4J_HTTP_PORT",
        "CREDENCE_NEO4J_HEAP",
        "CREDENCE_NEO4J_JAVA_HOME",
    }
    for entry in entries:
        assert re.search(r"\$\{" + entry.name + r":[-+]", launcher), entry.name


def test_no_secret_is_shown_but_the_development_password() -> None:
    lines = [line for line in ENV_EXAMPLE.read_text().splitlines() if "=" in line]
    assert all(line.startswith("#") for line in lines), "every setting is commented out"
    assert "# CREDENCE_REASONER__API_KEY=<your Anthropic API key>" in lines
