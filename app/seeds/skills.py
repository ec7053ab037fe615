"""Domain skills as data (``seeds/skills/<name>.yaml``, docs/scenarios.md §2): the domain prompt
the reasoners work under, the closed vocabulary of work-unit verbs (with the request words the
offline reasoner maps to each) and the criteria a result is verified against.

The shipped skill is ``accounting``; another domain brings its own file of the same shape.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import Field

from app.common import StrictModel
from app.errors import SeedFileInvalid
from app.resources import resource_dir
from app.seeds.files import read_seed_model
from app.seeds.pack_schema import Text

DEFAULT_SKILL = "accounting"

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
    """One domain's skill file."""

    name: VerbName
    version: Annotated[int, Field(ge=1)]
    domain_prompt: Text
    vocabulary: list[VocabularyVerb] = Field(min_length=1)
    criteria: list[Criterion] = Field(min_length=1)

    @property
    def verbs(self) -> list[str]:
        return [entry.verb for entry in self.vocabulary]

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


def skills_dir() -> Path:
    return resource_dir("seeds") / "skills"


def read_skill(path: Path) -> DomainSkill:
    """Parses and validates one skill file.

    Raises:
        SeedFileInvalid: naming the file and each field that is wrong (verbs must be unique).
    """
    skill = read_seed_model(DomainSkill, path)
    seen: set[str] = set()
    for index, entry in enumerate(skill.vocabulary):
        if entry.verb in seen:
            where = f"vocabulary[{index}].verb"
            raise SeedFileInvalid(str(path), [{"path": where, "reason": "verb listed twice"}])
        seen.add(entry.verb)
    return skill


@lru_cache(maxsize=8)
def load_skill(name: str = DEFAULT_SKILL) -> DomainSkill:
    """The shipped skill called ``name`` (``seeds/skills/<name>.yaml``), read once per process.

    Raises:
        SeedFileInvalid: the file is missing or invalid.
    """
    path = skills_dir() / f"{name}.yaml"
    if not path.exists():
        raise SeedFileInvalid(str(path), [{"path": "", "reason": f"no skill called {name!r}"}])
    return read_skill(path)
