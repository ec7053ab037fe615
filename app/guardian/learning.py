"""The pattern of the censor a rejection teaches (docs/chat.md: a rejection saying "never …"
teaches the guardian a ``warn`` censor for that action).

It must fire on the same proposal again, as the guardian reads one: the message, then the work
unit's description, verb and each entity on lines of their own (:func:`app.guardian.audit.
work_unit_text`). So the verb and the entity it acted on may sit on different lines (the pattern
spans lines, a bounded gap apart), and an entity is delimited by what is not a word character
around it, not by a word boundary (``$500`` or ``#42`` have none before them).
"""

from __future__ import annotations

import re

from app.reasoning.protocol import WorkUnit

# The most characters between the verb and the entity (a bounded gap keeps the search linear).
ENTITY_GAP = 300
# A censor's reason holds at most this many characters (app/guardian/models.py).
REASON_MAX_CHARS = 2000


def rejected_action_pattern(unit: WorkUnit) -> str:
    """The censor pattern for the action ``unit`` proposes: a tool call by its qualified name
    ("call ledger.write_query"), else the verb's words, followed within ``ENTITY_GAP``
    characters by the first entity when it has one; case-insensitive."""
    if unit.call is not None:
        return rf"(?i)\bcall\s+{re.escape(unit.call.qualified_name)}(?!\w)"
    verb = rf"\b{re.escape(unit.verb.replace('_', ' ').strip())}\b"
    entity = next((e.strip() for e in unit.entities if e.strip()), "")
    if not entity:
        return f"(?i){verb}"
    return rf"(?is){verb}.{{0,{ENTITY_GAP}}}?(?<!\w){re.escape(entity)}(?!\w)"


def rejection_reason(text: str) -> str:
    """The learned censor's reason: the rejection quoted, cut to fit a censor's reason (a long
    rejection still teaches the censor)."""
    reason = f"learned from a rejection: {' '.join(text.split())}"
    if len(reason) <= REASON_MAX_CHARS:
        return reason
    return reason[: REASON_MAX_CHARS - 1].rstrip() + "…"
