"""Settings of the guardian (``CREDENCE_GUARDIAN__*``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field


class GuardianSettings(BaseModel):
    """The guardian's censors and its tier-3 audit (``CREDENCE_GUARDIAN__*``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    max_learned_per_session: Annotated[int, Field(ge=0, le=100)] = 3
    """Censors the guardian may learn (create by itself) in one session at most."""
    # The shipped censors need a few milliseconds on an ordinary message and well under this on
    # 100 kB of adversarial text.
    check_timeout_seconds: Annotated[float, Field(gt=0.0, le=60.0)] = 2.0
    """The most one tier-1 check (every censor against one text) may take; a censor still
    running then is stopped and the verdict becomes at least warn."""
    # A pattern that slow backtracks.
    pattern_probe_seconds: Annotated[float, Field(gt=0.0, le=1.0)] = 0.02
    """A new censor pattern is refused when one adversarial probe (2 kB runs of its own
    literals) takes longer than this."""
    creed_violation_coherence_penalty: Annotated[float, Field(ge=0.0, le=1.0)] = Field(
        default=0.5,
        description="What a turn whose tier-3 audit fails costs in coherence (seed 003: -0.5), "
        "recorded on its guardian report and its episode (coherence_penalty).",
    )
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
                # The seed's risk keywords: a transfer of anything is audited, not only "funds".
                "transfer",
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
    """Request kinds that get the tier-3 audit against the creed, with the words that mark them."""
