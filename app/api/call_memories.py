"""Read-your-writes for a tool call's memory in this process: a request about an agent
(``/v1/agents/{id}/...``) starts once the memories of that agent's calls that this process is
still writing are written (a call's episode and what its outcome teaches are written right after
its answer: app/loop/call_memory.py), so a ``GET`` of a belief right after ``POST /actions`` sees
what the call taught it. A plain ASGI middleware; a request about an agent without such work
pays one dictionary look-up."""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Receive, Scope, Send

_AGENT_PATH = re.compile(r"^/v1/agents/([^/]+)")


class AwaitCallMemories:
    """Waits for the agent's pending call memories (``runtime.call_memories``) first."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            match = _AGENT_PATH.match(scope["path"])
            runtime = getattr(scope["app"].state, "runtime", None)
            if match is not None and runtime is not None:
                await runtime.call_memories.settled(match.group(1))
        await self.app(scope, receive, send)
