"""The agent status's API model (``GET /v1/agents/{id}/status``, ``credence status``, the MCP
resource ``credence://agents/{id}/status``)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from app.beliefs.formulas import Band
from app.scheduler.models import JobState

# reflecting: the scheduler is consolidating its memory now (its reflection or idle-session job
# holds a lease); error: the latest scheduler run for it failed or timed out; active: a session
# open and last active within the idle timeout; idle: none of these.
AgentState = Literal["active", "idle", "reflecting", "error"]


class SessionCounts(BaseModel):
    open: int = Field(description="Sessions not closed yet.")
    active: int = Field(description="Open sessions last active within the idle timeout.")
    closed: int
    total: int


class EpisodeCounts(BaseModel):
    total: int
    since_reflection: int = Field(description="Episodes written since the last reflection.")


class SessionUsage(BaseModel):
    """One session: when, how it closed, its turns, model calls and tokens (summed over its
    episodes: the calls and tokens of Claude; the offline reasoner counts none)."""

    key: str
    started_at: datetime | None = None
    last_active: datetime | None = Field(default=None, description="Its last turn's completion.")
    closed_at: datetime | None = None
    close_trigger: str | None = Field(
        default=None, description="explicit, end_of_turn or idle_timeout; null while open."
    )
    summary: str | None = None
    turns: int
    model_calls: int
    input_tokens: int
    output_tokens: int


class StatusDissatisfaction(BaseModel):
    value: float
    band: Band


class AgentStatus(BaseModel):
    """What the agent is doing and how it stands (docs/loop.md §15)."""

    agent_id: str
    name: str | None = None
    at: datetime = Field(description="The clock's time the status was read at.")
    state: AgentState
    state_reason: str = Field(description="Why the state is what it is.")
    sessions: SessionCounts
    episodes: EpisodeCounts
    last_session: SessionUsage | None = Field(
        default=None, description="The session with the latest turn."
    )
    recent_sessions: list[SessionUsage] = Field(
        description="The latest sessions, newest first: tokens and calls per session."
    )
    last_reflection_at: datetime | None = None
    dissatisfaction: StatusDissatisfaction
    open_conflicts: int = Field(description="Open contradictions between active beliefs.")
    pending_approvals: int = Field(description="Approvals waiting, not past their expiry.")
    scheduler: list[JobState] = Field(
        description="The scheduler's jobs for the agent and for every agent: last run, lease."
    )
