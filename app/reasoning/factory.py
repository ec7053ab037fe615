"""Which reasoner a process uses: Claude when it can, the offline reasoner otherwise."""

from __future__ import annotations

import logging

from app.embeddings.embedder import Embedder
from app.reasoning.claude.key import ReasonerNotConfigured, api_key
from app.reasoning.offline.reasoner import OfflineReasoner
from app.reasoning.offline.stance_model import LoadedJudge
from app.reasoning.protocol import Reasoner
from app.reasoning.settings import ReasonerSettings

__all__ = ["ReasonerNotConfigured", "make_reasoner", "offline_judge"]

log = logging.getLogger(__name__)


def make_reasoner(settings: ReasonerSettings, embedder: Embedder | None = None) -> Reasoner:
    """The reasoner the settings ask for.

    ``provider="offline"`` → the offline reasoner; ``"auto"`` → Claude when an API key is set
    (``CREDENCE_REASONER__API_KEY``, else ``ANTHROPIC_API_KEY``), else offline; ``"claude"`` →
    Claude, and a missing key is an error rather than a silent downgrade. Claude's fallback
    for a failed call is the offline reasoner built on the same embedder.

    Args:
        settings: the reasoner settings.
        embedder: sentence embeddings for the offline reasoner's stance (token overlap without).

    Returns:
        A ``ClaudeReasoner`` (with the offline reasoner as its fallback) or an ``OfflineReasoner``.

    Raises:
        ReasonerNotConfigured: ``provider="claude"`` and no API key is set.
    """
    offline = OfflineReasoner(embedder, settings)
    if settings.provider == "offline":
        log.info("reasoner: offline (provider=offline)")
        return offline
    if api_key(settings) is None:
        if settings.provider == "claude":
            raise ReasonerNotConfigured(
                "reasoner provider 'claude' needs an API key: set ANTHROPIC_API_KEY or "
                "CREDENCE_REASONER__API_KEY, or set CREDENCE_REASONER__PROVIDER=offline"
            )
        log.info("reasoner: offline (no ANTHROPIC_API_KEY)")
        return offline
    log.info(
        "reasoner: claude (fast %s, strong %s), offline fallback",
        settings.fast_model,
        settings.strong_model,
    )
    # Anthropic's SDK is imported by the processes that call Claude, not by every one.
    from app.reasoning.claude.reasoner import ClaudeReasoner

    return ClaudeReasoner(settings, fallback=offline)


def offline_judge(reasoner: Reasoner) -> LoadedJudge:
    """The stance judge of the offline reasoner behind ``reasoner`` (itself, or Claude's
    fallback): the learned model, or the reason the cue judge decides alone."""
    if isinstance(reasoner, OfflineReasoner):
        return reasoner.judge
    # Anthropic's SDK is imported already wherever a Claude reasoner exists.
    from app.reasoning.claude.reasoner import ClaudeReasoner

    fallback = reasoner.fallback if isinstance(reasoner, ClaudeReasoner) else None
    if isinstance(fallback, OfflineReasoner):
        return fallback.judge
    return LoadedJudge(None, None, f"no offline reasoner behind {type(reasoner).__name__}")
