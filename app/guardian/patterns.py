"""Censor patterns: validation of new ones, a compile cache, and the shipped defaults.

Patterns run on the ``regex`` engine (Python's ``re`` syntax), never on ``re``: every search
takes a timeout and releases the GIL, so a pattern that backtracks cannot stall a check or the
event loop (:mod:`app.guardian.check`). A new pattern is screened as a pack's censor is
(``app/seeds/censor_patterns.py``): refused when it would fire on everything or backtracks on a
set of adversarial probes built from its own literals (``(a+)+$`` on ``"a" * 2000 + "!"``).

The shipped defaults (``seeds/censors.yaml``) are applied in-process to every agent, born or
not, so the blocklist of destructive commands cannot be lost with a graph copy. Birth also writes
them as ``Censor`` nodes (pack ``default``); those copies are read for listing only, the file is
the authority (a newer file version wins over an older copy).
"""

from __future__ import annotations

import logging
from functools import cache, lru_cache

import regex

from app.guardian.errors import CensorPatternInvalid
from app.guardian.models import CensorRule
from app.seeds.censor_patterns import (
    PROBE_LIMIT_SECONDS,
    adversarial_probes,
    normalise_pattern,
    pattern_problems,
    slowest_probe,
    timed_search,
)
from app.seeds.files import read_censors, shipped_censor_keys

__all__ = [
    "DEFAULT_ID_PREFIX",
    "PROBE_LIMIT_SECONDS",
    "adversarial_probes",
    "compiled",
    "normalise_pattern",
    "shipped_censors",
    "shipped_keys",
    "slowest_probe",
    "timed_search",
    "validate_pattern",
]

log = logging.getLogger(__name__)

DEFAULT_ID_PREFIX = "default:"


def validate_pattern(pattern: str, *, probe_limit_seconds: float = PROBE_LIMIT_SECONDS) -> str:
    """Checks a new censor pattern and returns its normalised form.

    Args:
        probe_limit_seconds: the most one adversarial probe may take.

    Raises:
        CensorPatternInvalid: empty, too long, not a regular expression, it would match
            everything (it matches the empty string, or every ordinary probe text), or it
            backtracks: a probe built from its literals took longer than the limit.
    """
    normalised, problems = pattern_problems(pattern, probe_limit_seconds=probe_limit_seconds)
    if problems:
        raise CensorPatternInvalid(pattern, problems)
    return normalised


@lru_cache(maxsize=4096)
def compiled(pattern: str) -> regex.Pattern[str] | None:
    """The compiled pattern, cached; None (logged once) when a stored pattern does not compile."""
    try:
        return regex.compile(pattern)
    except (regex.error, RecursionError, OverflowError) as error:
        log.warning("censor pattern %r does not compile and is skipped: %s", pattern, error)
        return None


@cache
def shipped_censors() -> tuple[CensorRule, ...]:
    """The default censors of ``seeds/censors.yaml`` (read once per process)."""
    return tuple(
        CensorRule(
            id=f"{DEFAULT_ID_PREFIX}{censor.key}",
            key=censor.key,
            pattern=censor.pattern,
            reason=censor.reason,
            action=censor.action,
            source="default",
        )
        for censor in read_censors().censors
    )


def shipped_keys() -> frozenset[str]:
    """The keys of the shipped default censors (read once per process)."""
    return shipped_censor_keys()
