"""make_reasoner: Claude when a key is set and the provider allows it, offline otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr

from app.embeddings.embedder import UnavailableEmbedder
from app.errors import CredenceError, InvalidInput
from app.reasoning.claude.reasoner import ClaudeReasoner
from app.reasoning.factory import ReasonerNotConfigured, make_reasoner
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.settings import ReasonerSettings


@pytest.fixture(autouse=True)
def no_key_in_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)


def test_auto_without_a_key_is_offline_with_the_embedder() -> None:
    embedder = UnavailableEmbedder()
    settings = ReasonerSettings()
    reasoner = make_reasoner(settings, embedder)
    assert isinstance(reasoner, OfflineReasoner)
    assert reasoner.embedder is embedder
    assert reasoner.settings is settings


def test_a_blank_key_counts_as_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "  ")
    assert isinstance(make_reasoner(ReasonerSettings(api_key=SecretStr(""))), OfflineReasoner)


async def test_auto_with_the_env_key_is_claude_with_an_offline_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env")
    embedder = UnavailableEmbedder()
    settings = ReasonerSettings(
        timeout_s=12.5, max_retries=4, base_url="https://claude.example.test"
    )
    reasoner = make_reasoner(settings, embedder)
    assert isinstance(reasoner, ClaudeReasoner)
    assert reasoner.name == "claude"
    assert isinstance(reasoner.fallback, OfflineReasoner)
    assert reasoner.fallback.embedder is embedder
    client = reasoner.client
    assert client.api_key == "sk-ant-env"
    assert client.max_retries == 4
    assert client.timeout == 12.5
    assert str(client.base_url).startswith("https://claude.example.test")
    await reasoner.aclose()


async def test_the_settings_key_wins_over_the_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env")
    reasoner = make_reasoner(ReasonerSettings(api_key=SecretStr("sk-ant-settings")))
    assert isinstance(reasoner, ClaudeReasoner)
    assert reasoner.client.api_key == "sk-ant-settings"
    await reasoner.aclose()


def test_provider_offline_never_uses_claude(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env")
    settings = ReasonerSettings(provider="offline", api_key=SecretStr("sk-ant-settings"))
    assert isinstance(make_reasoner(settings), OfflineReasoner)


async def test_provider_claude_with_a_key_is_claude() -> None:
    reasoner = make_reasoner(ReasonerSettings(provider="claude", api_key=SecretStr("sk-ant-x")))
    assert isinstance(reasoner, ClaudeReasoner)
    await reasoner.aclose()


def test_provider_claude_without_a_key_is_a_clear_error() -> None:
    with pytest.raises(ReasonerNotConfigured) as raised:
        make_reasoner(ReasonerSettings(provider="claude"))
    error = raised.value
    assert isinstance(error, InvalidInput) and isinstance(error, CredenceError)
    assert error.code == "reasoner_not_configured"
    assert "ANTHROPIC_API_KEY" in error.message
    assert "CREDENCE_REASONER__PROVIDER=offline" in error.message


def test_claude_reasoner_without_a_client_or_key_refuses_to_start() -> None:
    with pytest.raises(ReasonerNotConfigured, match="needs an API key"):
        ClaudeReasoner(ReasonerSettings(), fallback=OfflineReasoner())


# Builds a runtime's reasoner without a key, then says whether Anthropic's SDK was imported.
OFFLINE_PROCESS = """
import os, sys
os.environ.pop("ANTHROPIC_API_KEY", None)
from app.runtime import Runtime
from app.reasoning.factory import make_reasoner, offline_judge
from app.reasoning.settings import ReasonerSettings
offline_judge(make_reasoner(ReasonerSettings(provider="auto", api_key=None)))
print("anthropic" in sys.modules)
"""


def test_a_process_that_never_calls_claude_does_not_import_its_sdk() -> None:
    # `credence status` and the other commands on the runtime, without a key: the SDK's import
    # was about a second of CPU of each (bench/README.md "CLI start").
    done = subprocess.run(
        [sys.executable, "-c", OFFLINE_PROCESS],
        cwd=Path(__file__).resolve().parents[3],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert done.stdout.split() == ["False"], done.stderr
