"""Keeping the scheduler off the demo agent while the demo builds it: the shared hold of
scripted agents (:mod:`app.scenarios.hold`)."""

from __future__ import annotations

from app.scenarios.hold import AGENT_JOBS, HOLD, PROCESS_JOBS, scheduler_held_off

__all__ = ["AGENT_JOBS", "HOLD", "PROCESS_JOBS", "scheduler_held_off"]
