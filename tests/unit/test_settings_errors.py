"""Invalid settings stop the process at start with an error naming the environment variable
(not a traceback naming a Python field), and the values that would misbehave later are refused
or normalised when the settings are read."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from app.cli.main import main
from app.config import Settings, get_settings
from app.errors import InvalidSettings


def _settings(**overrides: Any) -> Settings:
    """Settings from ``overrides`` alone (no .env): any value, as pydantic validates them."""
    return Settings(_env_file=None, **overrides)


@pytest.fixture
def fresh_settings() -> Iterator[None]:
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.parametrize("written", ["debug", "Debug", " DEBUG "])
def test_a_log_level_in_any_case_is_read_as_loggings_name(written: str) -> None:
    """``CREDENCE_LOG_LEVEL=debug`` made `credence serve` die in logging.basicConfig
    (``ValueError: Unknown level: 'debug'``), after the settings had been accepted."""
    assert _settings(log_level=written).log_level == "DEBUG"


def test_an_unknown_log_level_is_refused_naming_the_levels() -> None:
    with pytest.raises(ValidationError, match="log_level") as raised:
        _settings(log_level="verbose")

    assert "WARNING" in str(raised.value)


@pytest.mark.parametrize("key", ["", "   ", " admin-key", "admin-key\n"])
def test_an_api_key_that_is_blank_or_padded_is_refused(key: str) -> None:
    """A blank key let in every client sending an empty ``X-API-Key`` (a template whose key
    variable was unset wrote ``{"": ["*"]}``); a padded one can never match a header (HTTP
    strips the spaces), so its client is locked out with no word why."""
    with pytest.raises(ValidationError, match="api_keys"):
        _settings(api_keys={key: ["*"]})


@pytest.mark.parametrize(
    ("variable", "value", "named"),
    [
        ("CREDENCE_API__MAX_BODY_BYTES", "5", "CREDENCE_API__MAX_BODY_BYTES"),
        ("CREDENCE_LOG_LEVEL", "verbose", "CREDENCE_LOG_LEVEL"),
        ("CREDENCE_API_KEYS", "not json", "CREDENCE_API_KEYS"),
        ("CREDENCE_API_KEYS", '{"admin": "*"}', "CREDENCE_API_KEYS"),
        ("CREDENCE_LOOP__APPROVAL_TTL_HOURS", "soon", "CREDENCE_LOOP__APPROVAL_TTL_HOURS"),
    ],
)
def test_invalid_settings_name_the_environment_variable(
    variable: str, value: str, named: str, monkeypatch: pytest.MonkeyPatch, fresh_settings: None
) -> None:
    monkeypatch.setenv(variable, value)
    monkeypatch.chdir("/")  # no .env file

    with pytest.raises(InvalidSettings) as raised:
        get_settings()

    assert raised.value.message.startswith("invalid settings: ")
    assert named in raised.value.message
    assert raised.value.details["variables"] == [named]


def test_credence_serve_with_invalid_settings_says_which_and_exits_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fresh_settings: None
) -> None:
    monkeypatch.setenv("CREDENCE_API__MAX_BODY_BYTES", "5")
    monkeypatch.chdir("/")
    monkeypatch.setattr(sys, "argv", ["credence", "serve"])

    with pytest.raises(SystemExit) as exited:
        main()

    assert exited.value.code == 1
    error = capsys.readouterr().err
    assert "invalid_settings" in error and "CREDENCE_API__MAX_BODY_BYTES" in error
    assert "Traceback" not in error
