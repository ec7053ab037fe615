"""What building the demo reports: each story with the names and ids a person will meet."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.errors import CredenceError


class StoryReport(BaseModel):
    """One story of the demo as it ran."""

    key: str = Field(description="The story's short name (docs/demo.md has one section each).")
    title: str
    lines: list[str] = Field(
        default_factory=list, description="What happened, one line each, as printed."
    )
    ids: dict[str, str] = Field(
        default_factory=dict, description="Ids worth looking at (belief, revision, session...)."
    )


class DemoReport(BaseModel):
    """The demo agent and how it came to be (built now, or found complete)."""

    agent_id: str
    agent_name: str
    reused: bool = Field(description="True: a complete demo agent existed and was kept.")
    replaced: list[str] = Field(
        default_factory=list, description="Earlier demo agents deleted first (--rebuild)."
    )
    ledger_path: str | None = None
    stories: list[StoryReport] = Field(default_factory=list)
    turns: int = 0
    seconds: float = 0.0


class DemoFailed(CredenceError):
    """A story of the demo did not come out as scripted (the loop behaved otherwise); the
    half-built agent is rebuilt by the next run."""

    code = "demo_failed"

    def __init__(self, story: str, what: str) -> None:
        super().__init__(f"demo story {story!r}: {what}", story=story)
