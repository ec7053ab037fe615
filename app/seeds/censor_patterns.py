"""Screening a censor pattern before it is stored: one check for every way a censor comes in
(a pack's or seed file's censor here, ``app/seeds/pack_schema.py``; a censor added by a person or
learned in a turn, ``app/guardian/patterns.py``).

Patterns run on the ``regex`` engine (Python's ``re`` syntax). A pattern is refused when it is
empty or too long, does not compile, would fire on everything (it matches the empty string, or
every ordinary probe text), or backtracks on a set of adversarial probes built from its own
literals (``(a+)+$`` on ``"a" * 2000 + "!"``). The seeds layer holds it so that the pack schema,
below the guardian, can apply it.
"""

from __future__ import annotations

import re
import time
import unicodedata

import regex

PATTERN_MAX_LENGTH = 500

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
# A probe is timed by the CPU its thread spends (a busy machine's waits are not backtracking:
# with wall time, a bounded pattern taking 7 ms alone was refused at 22 ms on two loaded cores);
# the engine's wall-clock timeout, this many limits, still stops a runaway search.
_PROBE_WALL_FACTOR = 10
_PROBE_LENGTH = 2048
_PROBES_MAX = 48
# The characters and words every probe set starts from: runs of letters, digits, blanks and
# the punctuation that separates shell and SQL tokens.
_BASE_UNITS = ("a", "0", " ", "-", "/", ".", "a ", "a-", "0.", "ab", "\t", "\n")


def normalise_pattern(pattern: str) -> str:
    """The form two patterns are compared in to find duplicates (trimmed, Unicode NFC)."""
    return unicodedata.normalize("NFC", pattern).strip()


def pattern_problems(
    pattern: str, *, probe_limit_seconds: float = PROBE_LIMIT_SECONDS
) -> tuple[str, list[str]]:
    """Screens a censor pattern: its normalised form and every reason to refuse it (none when it
    may be stored).

    Args:
        probe_limit_seconds: the most one adversarial probe may take.
    """
    normalised = normalise_pattern(pattern)
    if not normalised:
        return normalised, ["the pattern is empty"]
    if len(normalised) > PATTERN_MAX_LENGTH:
        return normalised, [f"the pattern is longer than {PATTERN_MAX_LENGTH} characters"]
    try:
        expression = regex.compile(normalised)
    except (regex.error, RecursionError, OverflowError) as error:
        return normalised, [f"not a valid regular expression: {error}"]
    return normalised, _match_problems(expression, probe_limit_seconds)


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
    """The first adversarial probe whose search takes more than ``limit`` seconds of its
    thread's CPU (the better of two tries), with that time; None when all are fast."""
    for probe in adversarial_probes(expression.pattern):
        seconds = min(probe_cpu_seconds(expression, probe, limit) for _ in range(2))
        if seconds >= limit:
            return probe, seconds
    return None


def probe_cpu_seconds(expression: regex.Pattern[str], text: str, limit: float) -> float:
    """CPU seconds of this thread that one ``search`` of ``text`` takes (the engine runs in the
    calling thread), or ``limit`` when it is still running after ``_PROBE_WALL_FACTOR`` limits of
    wall time (so a capped figure reads "at least")."""
    started = time.thread_time()
    try:
        expression.search(text, timeout=limit * _PROBE_WALL_FACTOR)
    except TimeoutError:
        return limit
    return max(time.thread_time() - started, 0.0)


def timed_search(expression: regex.Pattern[str], text: str, limit: float) -> float:
    """Seconds one ``search`` of ``text`` takes, or ``limit`` when the engine's timeout stops it
    there (so a capped figure reads "at least")."""
    started = time.perf_counter()
    try:
        expression.search(text, timeout=limit)
    except TimeoutError:
        return limit
    return time.perf_counter() - started
