"""Where the demo's stories are played: the shared stage of scripted conversations
(:class:`app.scenarios.driver.Stage`: the runtime's loop services, the demo agent, and a clock
the demo moves itself), and the check that stops the demo when a story came out otherwise."""

from __future__ import annotations

from app.demo.models import DemoFailed, StoryReport
from app.scenarios.driver import Progress, Stage

DemoStage = Stage

__all__ = ["DemoStage", "Progress", "expect"]


def expect(story: StoryReport, condition: bool, what: str) -> None:
    """Stops the demo when a story did not come out as scripted.

    Raises:
        DemoFailed: ``condition`` is false.
    """
    if not condition:
        raise DemoFailed(story.key, what)
