"""Questions whose answer is several things said at different moments ("What activities does
Melanie partake in?", "Which cities has Jon visited?", "How many times has she been to the
beach?"), told apart by their wording alone: a plural thing asked for by "what" / "which"
before a verb, "how many", "in what ways", "what has X done / made / read ...", "where / who
has". Deterministic and offline; the episode search gives such a question a final selection of
its own (``app/retrieval/searches.py``).

The broad reading (``asks_for_several(question, broad=True)``) adds the wordings that ask for a
set without that shape: kinds of a thing ("What types of yoga has Maria practiced?", a singular
kind with a perfect verb), "what are" before a plural ("What are Kate's hobbies?", "What are
the names of ..."), irregular plurals ("What people has ..."), and questions about two people
at once ("both", "in common"), whose answer comes from each of them."""

from __future__ import annotations

import re

_PLURAL_VERB = r"(?:has|have|does|do|did|is|are|was|were)\b"

_SEVERAL = re.compile(
    rf"""^(?:
      (?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?:[a-z+/-]+\s+){{0,2}}?
        [a-z+/-]*[a-z]s\b(?<!ss)\s+{_PLURAL_VERB}
    | how\s+many\b
    | in\s+what\s+ways\b
    | what\s+(?:has|have)\s+\S+(?:\s+and\s+\S+)?\s+
        (?:done|made|painted|bought|read|seen|visited|tried|taken|written|cooked|baked)\b
    | (?:where|who)\s+(?:has|have)\b
    )""",
    re.IGNORECASE | re.VERBOSE,
)

_BROAD = re.compile(
    rf"""(?:
      ^(?:what|which)\s+(?:kinds|types|sorts)\s+of\b
    | ^(?:what|which)\s+(?:kind|type|sort)\s+of\s+(?:[a-z+/-]+\s+){{1,2}}?(?:has|have)\b
    | ^what\s+are\s+(?:some\s+)?(?:the\s+)?(?:[\w'’+/-]+\s+){{0,3}}?[a-z'’]*[a-z]s\b(?<!ss)
    | ^(?:what|which)\s+(?:[a-z+/-]+\s+){{0,2}}?(?:people|children|men|women)\s+{_PLURAL_VERB}
    | \bboth\b
    | \bin\s+common\b
    )""",
    re.IGNORECASE | re.VERBOSE,
)


def asks_for_several(question: str, *, broad: bool = False) -> bool:
    """Whether ``question`` asks for several things (by its wording; ``broad``: the wider
    reading; see the module)."""
    text = question.strip()
    return bool(_SEVERAL.search(text)) or (broad and bool(_BROAD.search(text)))
