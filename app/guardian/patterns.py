"""Censor patterns: validation of new ones, a compile cache, and the shipped defaults.

The shipped defaults (``seeds/censors.yaml``) are applied in-process to every agent, born or
not, so the blocklist of destructive commands cannot be lost with a graph copy. Birth also writes
them as ``Censor`` nodes (pack ``default``); those copies are read for listing only, the file is
the authority (a newer file version wins over an older copy).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from functools import cache, lru_cache

from app.guardian.errors import CensorPatternInvalid
from app.guardian.models import PATTERN_MAX_LENGTH, CensorRule
from app.seeds.files import read_censors

log = logging.getLogger(__name__)

DEFAULT_ID_PREFIX = "default:"

# Ordinary, unrelated texts: a pattern that fires on all of them would fire on everything.
_PROBES = (
    "hello",
    "What is the weather like in Lisbon today?",
    "Please summarise the quarterly report for Maria.",
    "42",
    "ok",
)


def normalise_pattern(pattern: str) -> str:
    """The form two patterns are compared in to find duplicates (trimmed, Unicode NFC)."""
    return unicodedata.normalize("NFC", pattern).strip()


def validate_pattern(pattern: str) -> str:
    """Checks a new censor pattern and returns its normalised form.

    Raises:
        CensorPatternInvalid: empty, too long, not a regular expression, or it would match
            everything (it matches the empty string, or every ordinary probe text).
    """
    normalised = normalise_pattern(pattern)
    problems: list[str] = []
    if not normalised:
        problems.append("the pattern is empty")
    elif len(normalised) > PATTERN_MAX_LENGTH:
        problems.append(f"the pattern is longer than {PATTERN_MAX_LENGTH} characters")
    else:
        try:
            expression = re.compile(normalised)
        except re.error as error:
            problems.append(f"not a valid regular expression: {error}")
        else:
            if expression.search("") is not None:
                problems.append("it matches the empty string, so it would fire on every text")
            elif all(expression.search(probe) for probe in _PROBES):
                problems.append(
                    "it matches every ordinary text tried (e.g. 'hello', '42'), so it would "
                    "fire on everything"
                )
    if problems:
        raise CensorPatternInvalid(pattern, problems)
    return normalised


@lru_cache(maxsize=4096)
def compiled(pattern: str) -> re.Pattern[str] | None:
    """The compiled pattern, cached; None (logged once) when a stored pattern does not compile."""
    try:
        return re.compile(pattern)
    except (re.error, RecursionError, OverflowError) as error:
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


@cache
def shipped_keys() -> frozenset[str]:
    return frozenset(censor.key for censor in shipped_censors() if censor.key is not None)
