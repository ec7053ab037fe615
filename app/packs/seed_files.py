"""Models of the agent's own seed files (DESIGN §1, §5): ``seeds/creed.yaml``,
``seeds/self.yaml``, ``seeds/frames.yaml`` and ``seeds/censors.yaml``."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from app.beliefs.formulas import Category
from app.packs.schema import FrameSpec, Key, PackCensor, Text, Unit


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class SeedBelief(_Strict):
    key: Key
    statement: Text
    category: Category
    domain: Annotated[str | None, Field(max_length=200)] = None
    strength: Unit
    importance: Unit = 0.8
    is_core: bool = True


class CreedFile(_Strict):
    """The terminal creed (immutable values, stored on the Agent and as immutable beliefs) and the
    ethical core beliefs every agent is born with."""

    terminal_creed: list[Text] = Field(min_length=1)
    ethical_core: list[SeedBelief] = Field(min_length=1)


class SeedCapability(_Strict):
    domain: Annotated[str, Field(min_length=1, max_length=120)]
    proficiency: Unit = 0.3


class SelfFile(_Strict):
    """The agent's initial self-model: identity goal, self-beliefs, starting capabilities and the
    knowledge gaps it knows it has."""

    identity_goal: Text
    self_beliefs: list[SeedBelief] = Field(min_length=1)
    capabilities: list[SeedCapability] = Field(default_factory=list)
    knowledge_gaps: list[Text] = Field(default_factory=list)


class FramesFile(_Strict):
    frames: list[FrameSpec] = Field(min_length=1)


class CensorsFile(_Strict):
    censors: list[PackCensor] = Field(min_length=1)
