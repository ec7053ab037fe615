"""The model of a domain skill (docs/scenarios.md §2): the domain prompt the reasoners work
under, the closed vocabulary of work-unit verbs (with the request words the offline reasoner maps
to each) and the criteria a result is verified against.

One model for both homes of a skill: a shipped file (``seeds/skills/<name>.yaml``, read by
``app/seeds/skills.py``) and the ``skill`` of a knowledge pack (``app/seeds/pack_schema.py``,
docs/packs.md §1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import Field

from app.common import StrictModel
from app.errors import ErrorEntry, error_entry
from app.seeds.fields import Text, Version

Word = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z\-]*$")]
VerbName = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[a-z][a-z0-9_]*$")]


class RequestPattern(StrictModel):
    """Requests that map to a verb: the first word is one of ``words`` and, when ``objects`` is
    given, the object phrase holds one of them."""

    words: list[Word] = Field(min_length=1)
    objects: list[Word] = Field(default_factory=list)

    def matches(self, verb_word: str, object_words: set[str]) -> bool:
        if verb_word not in self.words:
            return False
        return not self.objects or bool(object_words & set(self.objects))


class VocabularyVerb(StrictModel):
    verb: VerbName
    group: VerbName
    description: Text
    requests: list[RequestPattern] = Field(default_factory=list)


class Criterion(StrictModel):
    key: VerbName
    question: Text


class DomainSkill(StrictModel):
    """One domain's skill."""

    name: VerbName
    version: Version
    domain_prompt: Text
    vocabulary: list[VocabularyVerb] = Field(min_length=1)
    criteria: list[Criterion] = Field(min_length=1)

    @property
    def verbs(self) -> list[str]:
        return [entry.verb for entry in self.vocabulary]

    @property
    def request_words(self) -> frozenset[str]:
        """Every first word some entry maps: a sentence opening with one is a request."""
        return frozenset(
            word
            for entry in self.vocabulary
            for pattern in entry.requests
            for word in pattern.words
        )

    def verb_for(self, verb_word: str, object_words: set[str]) -> str | None:
        """The vocabulary verb a request starting with ``verb_word`` maps to (the first entry
        that matches), or None when the word is outside the domain."""
        for entry in self.vocabulary:
            if any(pattern.matches(verb_word, object_words) for pattern in entry.requests):
                return entry.verb
        return None

    def vocabulary_text(self) -> str:
        """The verbs by group, one line each: ``record_keeping: create_record, ...``."""
        groups: dict[str, list[str]] = {}
        for entry in self.vocabulary:
            groups.setdefault(entry.group, []).append(entry.verb)
        return "\n".join(f"  {group}: {', '.join(verbs)}" for group, verbs in groups.items())

    def criteria_text(self) -> str:
        """The criteria, one numbered line each: ``1. COMPLETENESS: ...``."""
        return "\n".join(
            f"  {number}. {item.key.upper()}: {item.question}"
            for number, item in enumerate(self.criteria, start=1)
        )


def skill_problems(skill: DomainSkill, prefix: Sequence[str | int] = ()) -> list[ErrorEntry]:
    """What the field types cannot check: each verb and each criterion listed once.

    Returns entries located in the skill, each location after ``prefix`` (``("skill",)`` for a
    pack's skill): ``["skill", "vocabulary", 3, "verb"]``.
    """
    problems: list[ErrorEntry] = []
    for kind, field, names in (
        ("vocabulary", "verb", [entry.verb for entry in skill.vocabulary]),
        ("criteria", "key", [item.key for item in skill.criteria]),
    ):
        seen: set[str] = set()
        for index, name in enumerate(names):
            if name in seen:
                where = [*prefix, kind, index, field]
                problems.append(error_entry(where, f"{field} listed twice", "duplicate"))
            seen.add(name)
    return problems
