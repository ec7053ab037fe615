"""Settings of the guardian (``CREDENCE_GUARDIAN__*``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field


class GuardianSettings(BaseModel):
    # Auto-created (learned) censors per session at most.
    max_learned_per_session: Annotated[int, Field(ge=0, le=100)] = 3
    # Request kinds that get the tier-3 audit against the creed, with the words that mark them.
    high_risk_kinds: dict[str, list[str]] = Field(
        default_factory=lambda: {
            # With the seed's (003) risk keywords: truncate, format, send money, purchase,
            # withdraw, broadcast.
            "delete": [
                "delete",
                "remove",
                "erase",
                "purge",
                "wipe",
                "drop",
                "destroy",
                "truncate",
                "format",
            ],
            "payment": [
                "pay",
                "payment",
                "wire",
                "transfer funds",
                "refund",
                "disburse",
                "send money",
                "purchase",
                "withdraw",
            ],
            "credentials": ["password", "credential", "api key", "secret", "token", "ssh key"],
            "external_communication": [
                "email",
                "send to",
                "post to",
                "publish",
                "tweet",
                "broadcast",
            ],
        }
    )
