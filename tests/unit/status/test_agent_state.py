"""An agent's state (app/status/agent_status.py): reflecting, error, active, idle, first that
applies."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.scheduler.models import JobState
from app.status.agent_status import agent_state
from app.status.models import SessionCounts

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)
AGENT = "a-1"


def _sessions(open_: int = 0, active: int = 0) -> SessionCounts:
    return SessionCounts(open=open_, active=active, closed=0, total=open_)


def _job(job: str, **fields: object) -> JobState:
    return JobState.model_validate(
        {"key": f"{job}:{AGENT}", "job": job, "agent_id": AGENT, **fields}
    )


def test_a_consolidating_job_holding_its_lease_means_reflecting() -> None:
    running = _job("reflection", lease_owner="host:1:ab", lease_until=NOW + timedelta(minutes=5))
    state, reason = agent_state(AGENT, _sessions(1, 1), [running], NOW)
    assert state == "reflecting" and "reflection" in reason
    # A lease that ended (its process stopped) is not a reflection in progress.
    ended = _job("reflection", lease_owner="host:1:ab", lease_until=NOW - timedelta(seconds=1))
    assert agent_state(AGENT, _sessions(1, 1), [ended], NOW)[0] == "active"
    # Embedding is not consolidating.
    embedding = _job("embeddings", lease_owner="h", lease_until=NOW + timedelta(minutes=5))
    assert agent_state(AGENT, _sessions(), [embedding], NOW)[0] == "idle"


def test_the_latest_run_failing_or_timing_out_means_error_until_a_later_run_succeeds() -> None:
    failed = _job(
        "embeddings",
        last_run_at=NOW - timedelta(minutes=1),
        last_outcome="timed_out",
        last_detail="cancelled after 120 s",
    )
    earlier_ok = _job("idle_sessions", last_run_at=NOW - timedelta(minutes=9), last_outcome="ok")
    state, reason = agent_state(AGENT, _sessions(1, 1), [failed, earlier_ok], NOW)
    assert (
        state == "error"
        and reason == "the scheduler's embeddings job timed_out: cancelled after 120 s"
    )
    later_ok = _job("idle_sessions", last_run_at=NOW, last_outcome="ok")
    assert agent_state(AGENT, _sessions(1, 1), [failed, later_ok], NOW)[0] == "active"
    # The jobs of every agent (no agent id) do not make one agent's state.
    process = JobState(
        key="interrupted_actions", job="interrupted_actions", last_run_at=NOW, last_outcome="failed"
    )
    assert agent_state(AGENT, _sessions(), [process], NOW)[0] == "idle"


def test_an_open_recent_session_means_active_else_idle() -> None:
    assert agent_state(AGENT, _sessions(2, 1), [], NOW)[0] == "active"
    assert agent_state(AGENT, _sessions(2, 0), [], NOW) == (
        "idle",
        "2 session(s) open, none active within the idle timeout",
    )
    assert agent_state(AGENT, _sessions(), [], NOW) == ("idle", "no open session")
