"""Bind-host policy and settings parsing for API keys."""

from __future__ import annotations

from typing import Any

import pytest

from app.api.security import effective_bind_host
from app.config import Settings


def _settings(**overrides: Any) -> Settings:
    """Settings from ``overrides`` alone (no .env): any value, as pydantic validates them."""
    return Settings(_env_file=None, **overrides)


def test_without_keys_a_public_host_is_narrowed_to_loopback_with_a_warning() -> None:
    host, warning = effective_bind_host(_settings(), "0.0.0.0")

    assert host == "127.0.0.1"
    assert warning is not None and "CREDENCE_API_KEYS" in warning


def test_without_keys_loopback_is_kept_and_still_warned_about() -> None:
    host, warning = effective_bind_host(_settings(), "127.0.0.1")

    assert host == "127.0.0.1"
    assert warning is not None


def test_with_keys_any_host_is_allowed_silently() -> None:
    assert effective_bind_host(_settings(api_keys={"k": ["*"]}), "0.0.0.0") == ("0.0.0.0", None)


def test_explicit_open_bind_is_honoured_and_warned_about() -> None:
    host, warning = effective_bind_host(_settings(api_allow_open_bind_without_keys=True), "0.0.0.0")

    assert host == "0.0.0.0"
    assert warning is not None


def test_api_keys_are_read_as_json_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDENCE_API_KEYS", '{"k1": ["agent-a", "agent-b"], "k2": ["*"]}')

    assert _settings().api_keys == {"k1": ["agent-a", "agent-b"], "k2": ["*"]}


def test_a_bad_setting_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDENCE_API_PORT", "99999")

    with pytest.raises(ValueError, match="api_port"):
        _settings()
