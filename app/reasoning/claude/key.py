"""Whether Claude can be called: the API key and the error of a provider "claude" without one.
Apart from app/reasoning/claude/reasoner.py, so that choosing the reasoner (app/reasoning/
factory.py) does not import Anthropic's SDK in a process that never calls Claude."""

from __future__ import annotations

import os

from app.errors import InvalidInput
from app.reasoning.settings import ReasonerSettings


class ReasonerNotConfigured(InvalidInput):
    """Claude was asked for (provider ``claude``) but no API key is set."""

    code = "reasoner_not_configured"

    def __init__(self, why: str) -> None:
        super().__init__(why, setting="reasoner.provider")


def api_key(settings: ReasonerSettings) -> str | None:
    """The Anthropic API key: the settings' (``CREDENCE_REASONER__API_KEY``), else
    ``ANTHROPIC_API_KEY``; None when neither is set (or both are blank)."""
    if settings.api_key is not None and settings.api_key.get_secret_value().strip():
        return settings.api_key.get_secret_value().strip()
    return os.environ.get("ANTHROPIC_API_KEY", "").strip() or None
