"""Censor patterns: validation of new ones, a compile cache, and the shipped defaults.

Patterns run on the ``regex`` engine (Python's ``re`` syntax), never on ``re``: every search
takes a timeout and releases the GIL, so a pattern that backtracks cannot stall a check or the
event loop (:mod:`app.guardian.check`). A new pattern is also refused when it backtracks on a
set of adversarial probes built from its own literals (``(a+)+$`` on ``"a" * 2000 + "!"``).

The shipped defaults (``seeds/censors.yaml``) are applied in-process to every agent, born or
not, so the blocklist of destructive commands cannot be lost with a graph copy. Birth also writes
them as ``Censor`` nodes (pack ``default``); those copies are read for listing only, the file is
the authority (a newer file version wins over an older copy).
"""

from __future__ import annotations

import logging
import re
import time
import unicodedata
from functools import cache, lru_cache

import regex

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


# How long one adversarial probe of a new pattern may take (a linear pattern needs well under
# a millisecond on these 2 kB texts; a backtracking one runs into seconds or forever).
PROBE_LIMIT_SECONDS = 0.02
_PROBE_LENGTH = 2048
_PROBES_MAX = 48
# The characters and words every probe set starts from: runs of letters, digits, blanks and
# the punctuation that separates shell and SQL tokens.
_BASE_UNITS = ("a", "0", " ", "-", "/", ".", "a ", "a-", "0.", "ab", "\t", "\n")


def normalise_pattern(pattern: str) -> str:
    """The form two patterns are compared in to find duplicates (trimmed, Unicode NFC)."""
    return unicodedata.normalize("NFC", pattern).strip()


def validate_pattern(pattern: str, *, probe_limit_seconds: float = PROBE_LIMIT_SECONDS) -> str:
    """Checks a new censor pattern and returns its normalised form.

    Args:
        probe_limit_seconds: the most one adversarial probe may take.

    Raises:
        CensorPatternInvalid: empty, too long, not a regular expression, it would match
            everything (it matches the empty string, or every ordinary probe text), or it
            backtracks: a probe built from its literals took longer than the limit.
    """
    normalised = normalise_pattern(pattern)
    problems: list[str] = []
    if not normalised:
        problems.append("the pattern is empty")
    elif len(normalised) > PATTERN_MAX_LENGTH:
        problems.append(f"the pattern is longer than {PATTERN_MAX_LENGTH} characters")
    else:
        try:
            expression = regex.compile(normalised)
        except (regex.error, RecursionError, OverflowError) as error:
            problems.append(f"not a valid regular expression: {error}")
        else:
            problems.extend(_match_problems(expression, probe_limit_seconds))
    if problems:
        raise CensorPatternInvalid(pattern, problems)
    return normalised


def _match_problems(expression: regex.Pattern[str], limit: float) -> list[str]:
    if expression.search("") is not None:
        return ["it matches the empty string, so it would fire on every text"]
    if all(expression.search(probe) for probe in _PROBES):
        return [
            "it matches every ordinary text tried (e.g. 'hello', '42'), so it would fire on "
            "everything"
        ]
    slow = slowest_probe(expression, limit)
    if slow is None:
        return []
    probe, seconds = slow
    return [
        f"it backtracks: on a {len(probe)}-character text of repeated {probe[:12]!r} it took "
        f"{'over ' if seconds >= limit else ''}{seconds * 1000:.0f} ms (the limit is "
        f"{limit * 1000:.0f} ms); bound its repetitions (e.g. {{0,200}} instead of *) and "
        "avoid nested quantifiers such as (a+)+"
    ]


def adversarial_probes(pattern: str) -> list[str]:
    """Texts that make a backtracking pattern slow: long runs of the pattern's own literal
    characters and words (and of common separators), each ending in a character that makes
    the match fail at the very end."""
    words = re.findall(r"(?<!\\)[A-Za-z]{2,}", pattern)
    characters = [c for c in dict.fromkeys(pattern) if c.isalnum() or c in " -/.,:;=_@#%'\"`~"]
    units = list(dict.fromkeys([*_BASE_UNITS, *characters, *(f"{w} " for w in words)]))
    probes: list[str] = []
    for unit in units[: _PROBES_MAX // 2]:
        run = (unit * (_PROBE_LENGTH // len(unit) + 1))[:_PROBE_LENGTH]
        probes += [run + "\x00!", run]
    return probes[:_PROBES_MAX]


def slowest_probe(expression: regex.Pattern[str], limit: float) -> tuple[str, float] | None:
    """The first adversarial probe that takes longer than ``limit`` seconds (tried twice, so a
    busy machine's pause is not taken for backtracking), with its time; None when all are fast."""
    for probe in adversarial_probes(expression.pattern):
        seconds = min(timed_search(expression, probe, limit) for _ in range(2))
        if seconds >= limit:
            return probe, seconds
    return None


def timed_search(expression: regex.Pattern[str], text: str, limit: float) -> float:
    """Seconds one ``search`` of ``text`` takes, or ``limit`` when the engine's timeout stops it
    there (so a capped figure reads "at least")."""
    started = time.perf_counter()
    try:
        expression.search(text, timeout=limit)
    except TimeoutError:
        return limit
    return time.perf_counter() - started


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


@cache
def shipped_keys() -> frozenset[str]:
    return frozenset(censor.key for censor in shipped_censors() if censor.key is not None)
