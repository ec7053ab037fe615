"""A fixed background vocabulary for the per-agent lexical statistics: how common a word is in
English at large (the ``wordfreq`` package's frequencies: subtitles, web text, chat, news, books),
the same for every agent and every database.

An agent's own document frequencies are noisy when it holds few episodes: with 160 short
memories, a chatty word that happens to appear in one of them gets a high idf and a spurious
match outranks the memory the query is about. The idf of a term is therefore computed as if the
agent's episodes were joined by ``background_docs`` documents of general English
(``app/text/lexical.py``); a large agent's own counts outweigh them, a small agent's lean on them.
Nothing here depends on what another agent holds, so one tenant still cannot move another's
ranking.
"""

from __future__ import annotations

import math
from functools import lru_cache

# The length, in tokens, of a background document: a chat turn or a short memory.
BACKGROUND_LENGTH = 20


@lru_cache(maxsize=65_536)
def english_frequency(term: str) -> float:
    """How often general English uses ``term``, per token (wordfreq's ``en`` list; 0.0 for a
    word it does not know). wordfreq is imported on the first call: its import (~0.3 s of CPU)
    is not paid by a process that reads no text, such as most ``credence`` commands."""
    from wordfreq import word_frequency

    return float(word_frequency(term, "en"))


@lru_cache(maxsize=65_536)
def background_rate(term: str) -> float:
    """The share of background documents (``BACKGROUND_LENGTH`` tokens of general English) that
    hold ``term``: 1 − (1 − frequency)^length; 0.0 for a word English text does not use."""
    frequency = english_frequency(term)
    if frequency <= 0.0:
        return 0.0
    return -math.expm1(BACKGROUND_LENGTH * math.log1p(-min(frequency, 0.5)))


def common_in_english(term: str, frequency: float) -> bool:
    """Whether general English uses ``term`` at least ``frequency`` times per token (0: never
    common)."""
    return frequency > 0.0 and english_frequency(term) >= frequency
