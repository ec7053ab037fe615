"""The knowledge-pack file format (docs/packs.md §1): a pydantic model, a JSON Schema exported for
pack authors (``credence packs schema``).

A pack is YAML in ``seeds/packs/``. Beliefs are addressed by a ``key`` that is stable across
versions: loading a newer version keeps the learned strength of a belief whose statement did not
change and supersedes one whose statement did. ``supports`` and ``contradicts`` name keys in the
same pack; ``supports`` points from the specific belief to the more general one it backs, so the
general belief's strength is derived from its supporters (cascade: docs/beliefs.md §6). A pack
may bring its own domain skill (``skill``: the model of ``app/seeds/skill_schema.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StrictBool, StrictInt, ValidationInfo, field_validator

from app.common import Category, StrictModel, StrictNumber, StrictUnit
from app.errors import ErrorEntry, error_entry
from app.seeds.censor_patterns import PATTERN_MAX_LENGTH, pattern_problems
from app.seeds.fields import Text, Version
from app.seeds.skill_schema import DomainSkill, skill_problems

Key = Annotated[str, Field(min_length=1, max_length=120, pattern=r"^[a-z0-9][a-z0-9_\-]*$")]


def _not_reserved(name: str) -> str:
    if name == "default":
        raise ValueError("'default' is taken: it names the shipped censors (seeds/censors.yaml)")
    return name


PackName = Annotated[
    str,
    Field(min_length=1, max_length=80, pattern=r"^[a-z0-9][a-z0-9\-]*$"),
    AfterValidator(_not_reserved),
]
ContextName = Annotated[
    str, Field(min_length=1, max_length=200, pattern=r"^[a-z0-9_]+(/[a-z0-9_]+)*$")
]
Stakes = Literal["low", "medium", "high"]
CensorAction = Literal["warn", "block", "absolute"]


class SupportLink(StrictModel):
    """This belief SUPPORTS the belief ``key`` with ``weight``."""

    key: Key
    weight: Annotated[StrictNumber, Field(gt=0.0, le=1.0)] = 1.0


class ContradictLink(StrictModel):
    """This belief CONTRADICTS the belief ``key`` (an open entry in the conflict register)."""

    key: Key
    strength: StrictUnit = 0.5


class PackBelief(StrictModel):
    key: Key
    statement: Text
    category: Category
    domain: Annotated[str | None, Field(max_length=200)] = None
    strength: StrictUnit = 0.6
    importance: StrictUnit = 0.5
    is_core: StrictBool = False
    contexts: dict[ContextName, StrictUnit] = Field(
        default_factory=dict,
        description="Context-conditional strengths, e.g. {month_end: 0.9}.",
    )
    supports: list[SupportLink] = Field(default_factory=list)
    contradicts: list[ContradictLink] = Field(default_factory=list)


class PackRule(StrictModel):
    key: Key
    trigger_concept: Annotated[str, Field(min_length=1, max_length=200)]
    content: Text
    confidence: StrictUnit = 0.7


class PackCensor(StrictModel):
    """A censor of a pack (or of ``seeds/censors.yaml``). Its pattern is screened as a censor
    added through the API is (``app/seeds/censor_patterns.py``: no pattern that fires on every
    text or backtracks) and kept in its normalised form."""

    key: Key
    pattern: Annotated[str, Field(min_length=1, max_length=PATTERN_MAX_LENGTH)]
    reason: Text
    action: CensorAction = "warn"

    @field_validator("pattern")
    @classmethod
    def _screened(cls, value: str, info: ValidationInfo) -> str:
        normalised, problems = pattern_problems(value)
        if problems:
            key = info.data.get("key")
            censor = f"censor {key!r}: " if key else ""
            raise ValueError(f"{censor}pattern refused: {'; '.join(problems)}")
        return normalised


class FrameSpec(StrictModel):
    """A frame (docs/memory.md §3): shared by ``seeds/frames.yaml`` and packs that add frames."""

    key: Key
    name: Annotated[str, Field(min_length=1, max_length=120)]
    description: Annotated[str, Field(max_length=1000)] = ""
    activation_patterns: list[Annotated[str, Field(min_length=1, max_length=100)]] = Field(
        min_length=1
    )
    default_category: Category
    default_stakes: Stakes
    questions_to_ask: list[Text] = Field(default_factory=list)
    context_budget: Annotated[StrictInt, Field(ge=200, le=32000)] = 2000


class KnowledgePack(StrictModel):
    name: PackName
    version: Version
    industry: Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[a-z0-9_]+$")]
    industries: list[Annotated[str, Field(pattern=r"^[a-z0-9_]+$")]] = Field(
        default_factory=list,
        description="Further profile industries whose birth loads this pack.",
    )
    base: StrictBool = Field(
        default=False, description="Loaded at every full birth, whatever the industry."
    )
    description: Text
    beliefs: list[PackBelief] = Field(min_length=1)
    rules: list[PackRule] = Field(default_factory=list)
    censors: list[PackCensor] = Field(default_factory=list)
    frames: list[FrameSpec] = Field(default_factory=list)
    skill: DomainSkill | None = Field(
        default=None,
        description="The pack's domain skill (the shape of seeds/skills/*.yaml): an agent works "
        "under the skill of the pack it loaded last that brings one.",
    )

    def serves(self, industry: str) -> bool:
        return self.base or industry == self.industry or industry in self.industries


def reference_problems(pack: KnowledgePack) -> list[ErrorEntry]:
    """What the field types cannot check: unique keys, links that resolve, each link named
    once, no SUPPORTS cycle, and the skill's verbs and criteria each listed once.

    Returns entries located in the pack, e.g. ``["beliefs", 3, "supports", 0, "key"]``.
    """
    problems: list[ErrorEntry] = []
    groups: list[tuple[str, list[str]]] = [
        ("beliefs", [item.key for item in pack.beliefs]),
        ("rules", [item.key for item in pack.rules]),
        ("censors", [item.key for item in pack.censors]),
        ("frames", [item.key for item in pack.frames]),
    ]
    for kind, item_keys in groups:
        seen: set[str] = set()
        for index, key in enumerate(item_keys):
            if key in seen:
                problems.append(
                    error_entry([kind, index, "key"], f"duplicate key {key!r}", "duplicate_key")
                )
            seen.add(key)
    keys = {belief.key for belief in pack.beliefs}
    for index, belief in enumerate(pack.beliefs):
        links: list[tuple[str, list[str]]] = [
            ("supports", [link.key for link in belief.supports]),
            ("contradicts", [link.key for link in belief.contradicts]),
        ]
        for link_kind, targets in links:
            for link_index, target in enumerate(targets):
                where: list[str | int] = ["beliefs", index, link_kind, link_index, "key"]
                if target not in keys:
                    message = f"no belief with key {target!r} in this pack"
                    problems.append(error_entry(where, message, "unknown_key"))
                elif target == belief.key:
                    message = f"a belief cannot {link_kind[:-1]} itself"
                    problems.append(error_entry(where, message, "self_link"))
    problems.extend(_repeated_links(pack.beliefs))
    cycle = _support_cycle(pack.beliefs)
    if cycle:
        message = "SUPPORTS cycle " + " -> ".join(cycle)
        problems.append(error_entry(["beliefs"], message, "supports_cycle"))
    if pack.skill is not None:
        problems.extend(skill_problems(pack.skill, prefix=("skill",)))
    return problems


def _repeated_links(beliefs: list[PackBelief]) -> list[ErrorEntry]:
    """Links naming an edge another link of the pack names already: a SUPPORTS edge is one per
    (supporter, target), a CONTRADICTS edge one per pair whichever way it is named (the graph
    keeps one edge, so a second figure would silently replace the first, and the pack's derived
    strengths would count a supporter twice)."""
    problems: list[ErrorEntry] = []
    first: dict[tuple[str, ...], str] = {}
    for index, belief in enumerate(beliefs):
        named = (
            ("supports", [link.key for link in belief.supports]),
            ("contradicts", [link.key for link in belief.contradicts]),
        )
        for kind, targets in named:
            for link_index, target in enumerate(targets):
                pair = [belief.key, target] if kind == "supports" else sorted([belief.key, target])
                edge = (kind, *pair)
                if edge not in first:
                    first[edge] = f"beliefs[{index}].{kind}[{link_index}]"
                    continue
                message = f"the {kind} link {belief.key} -> {target} is named at {first[edge]}"
                where: list[str | int] = ["beliefs", index, kind, link_index, "key"]
                problems.append(error_entry(where, message, "duplicate_link"))
    return problems


def _support_cycle(beliefs: list[PackBelief]) -> list[str]:
    """A SUPPORTS cycle among the pack's beliefs, as keys (its first key again at the end), or an
    empty list. A depth-first search with a stack of its own, not Python's: a chain thousands of
    beliefs deep is checked as a short one is."""
    edges = {b.key: [link.key for link in b.supports] for b in beliefs}
    # 1: on the current path; 2: done, no cycle through it.
    state: dict[str, int] = {}
    for root in edges:
        if root in state:
            continue
        state[root] = 1
        path = [root]
        targets: list[Iterator[str]] = [iter(edges[root])]
        while targets:
            target = next(targets[-1], None)
            if target is None:
                state[path.pop()] = 2
                targets.pop()
            elif state.get(target) == 1:
                return [*path[path.index(target) :], target]
            elif target not in state:
                state[target] = 1
                path.append(target)
                targets.append(iter(edges.get(target, [])))
    return []
