"""Models of the agent's own seed files (docs/packs.md §4): ``seeds/creed.yaml``,
``seeds/self.yaml``, ``seeds/frames.yaml`` and ``seeds/censors.yaml``."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictBool

from app.common import Category, StrictModel, StrictUnit
from app.seeds.fields import Text
from app.seeds.pack_schema import FrameSpec, Key, PackCensor


class SeedBelief(StrictModel):
    key: Key
    statement: Text
    category: Category
    domain: Annotated[str | None, Field(max_length=200)] = None
    strength: StrictUnit
    importance: StrictUnit = 0.8
    is_core: StrictBool = True


class CreedFile(StrictModel):
    """The terminal creed (immutable values, stored on the Agent and as immutable beliefs) and the
    ethical core beliefs every agent is born with."""

    terminal_creed: list[Text] = Field(min_length=1)
    ethical_core: list[SeedBelief] = Field(min_length=1)


class SeedCapability(StrictModel):
    domain: Annotated[str, Field(min_length=1, max_length=120)]
    proficiency: StrictUnit = 0.3


CapabilityName = Annotated[str, Field(min_length=1, max_length=120, pattern=r"^[a-z][a-z0-9_]*$")]


class CapabilityMap(StrictModel):
    """Which capability a turn's outcome exercises: by the work unit's verb, else by the frame
    (null: none)."""

    verbs: dict[CapabilityName, CapabilityName] = Field(default_factory=dict)
    frames: dict[CapabilityName, CapabilityName | None] = Field(default_factory=dict)


class SelfFile(StrictModel):
    """The agent's initial self-model: identity goal, self-beliefs, starting capabilities, the
    knowledge gaps it knows it has and the map from work to capabilities."""

    identity_goal: Text
    self_beliefs: list[SeedBelief] = Field(min_length=1)
    capabilities: list[SeedCapability] = Field(default_factory=list)
    knowledge_gaps: list[Text] = Field(default_factory=list)
    capability_map: CapabilityMap = Field(default_factory=CapabilityMap)


class FramesFile(StrictModel):
    frames: list[FrameSpec] = Field(min_length=1)


class CensorsFile(StrictModel):
    censors: list[PackCensor] = Field(min_length=1)
