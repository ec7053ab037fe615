"""Errors of the guardian. They subclass the families of ``app/errors.py``, so the API maps them
to statuses without a new entry: invalid pattern 422, unknown censor 404, protected censor 409."""

from __future__ import annotations

from app.errors import Conflict, InvalidInput, NotFound, error_entry


class CensorPatternInvalid(InvalidInput):
    """A censor pattern was refused; ``details["errors"]`` lists every problem found."""

    code = "censor_pattern_invalid"

    def __init__(self, pattern: str, problems: list[str]) -> None:
        shown = pattern if len(pattern) <= 80 else pattern[:77] + "..."
        super().__init__(
            f"censor pattern {shown!r} refused: {'; '.join(problems)}",
            pattern=pattern,
            errors=[
                error_entry(["body", "pattern"], problem, "pattern_refused") for problem in problems
            ],
        )


class CensorNotFound(NotFound):
    """No such censor in this agent."""

    code = "censor_not_found"

    def __init__(self, censor_id: str, agent_id: str) -> None:
        super().__init__(
            f"censor {censor_id!r} does not exist for agent {agent_id!r}",
            censor_id=censor_id,
            agent_id=agent_id,
        )


class CensorProtected(Conflict):
    """Absolute censors and the shipped defaults can never be removed (nor deactivated)."""

    code = "censor_protected"

    def __init__(self, censor_id: str, why: str) -> None:
        super().__init__(
            f"censor {censor_id!r} cannot be removed: {why}", censor_id=censor_id, why=why
        )


class CensorKeyTaken(Conflict):
    """A censor added by hand names a key the agent already has (a shipped default's, a pack
    censor's or another stored censor's, removed ones included): keys name one censor each."""

    def __init__(self, key: str, agent_id: str, holder: str) -> None:
        super().__init__(
            f"agent {agent_id!r} already has a censor with key {key!r} ({holder}); "
            "choose another key; nothing written",
            key=key,
            agent_id=agent_id,
        )
