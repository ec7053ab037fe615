"""Questions whose answer is several things said at different moments ("What activities does
Melanie partake in?", "Which cities has Jon visited?", "How many times has she been to the
beach?"), told apart by their wording alone: a plural thing asked for by "what" / "which"
before a verb, "how many", "in what ways", "what has X done / made / read ...", "where / who
has". Deterministic and offline; the episode search gives such a question a final selection of
its own (``app/retrieval/searches.py``)."""

from __future__ import annotations

import re

_SEVERAL = re.compile(
    r"""^(?:
      (?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?:[a-z+/-]+\s+){0,2}?
        [a-z+/-]*[a-z]s\b(?<!ss)\s+(?:has|have|does|do|did|is|are|was|were)\b
    | how\s+many\b
    | in\s+what\s+ways\b
    | what\s+(?:has|have)\s+\S+(?:\s+and\s+\S+)?\s+
        (?:done|made|painted|bought|read|seen|visited|tried|taken|written|cooked|baked)\b
    | (?:where|who)\s+(?:has|have)\b
    )""",
    re.IGNORECASE | re.VERBOSE,
)


def asks_for_several(question: str) -> bool:
    """Whether ``question`` asks for several things (by its wording; see the module)."""
    return bool(_SEVERAL.search(question.strip()))
