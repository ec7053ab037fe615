"""What an analytics file's header declares, and what listing and running one return."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

ParamType = Literal["STRING", "INTEGER", "FLOAT", "BOOLEAN"]
PARAM_TYPES: tuple[ParamType, ...] = ("STRING", "INTEGER", "FLOAT", "BOOLEAN")


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One declared ``$parameter`` of an analytics query."""

    name: str
    type: ParamType
    nullable: bool
    required: bool
    default: Any
    choices: tuple[str, ...]
    description: str


@dataclass(frozen=True, slots=True)
class AnalyticsSpec:
    """What an analytics file's header declares."""

    name: str
    description: str
    param_line: str
    params: tuple[ParamSpec, ...]
    columns: tuple[str, ...]

    def param(self, name: str) -> ParamSpec | None:
        """The declared parameter called ``name``, or None."""
        return next((p for p in self.params if p.name == name), None)


class ParamInfo(BaseModel):
    name: str
    type: ParamType
    nullable: bool
    required: bool
    default: Any = None
    choices: list[str]
    description: str


class AnalyticsInfo(BaseModel):
    name: str
    description: str
    param_line: str
    params: list[ParamInfo]
    columns: list[str]


class AnalyticsList(BaseModel):
    data: list[AnalyticsInfo]
    count: int


class AnalyticsResult(BaseModel):
    name: str
    description: str
    params: dict[str, Any]
    columns: list[str]
    rows: list[dict[str, Any]]
    count: int
