"""Settings of the reasoners (``CREDENCE_REASONER__*``).

With no API key (``ANTHROPIC_API_KEY`` or ``CREDENCE_REASONER__API_KEY``) the offline reasoner
answers every judgement; with one, Claude does, and the offline reasoner answers any call Claude
fails (timeout, refusal, malformed answer).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr


class ReasonerSettings(BaseModel):
    """Which reasoner judges, and how Claude is called (``CREDENCE_REASONER__*``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    provider: Literal["auto", "offline", "claude"] = "auto"
    """auto: Claude when a key is set, else offline; offline: never Claude; claude: key required."""
    api_key: SecretStr | None = Field(default=None, examples=["<your Anthropic API key>"])
    """The Anthropic API key (ANTHROPIC_API_KEY is read too); unset: the offline reasoner."""
    fast_model: str = "claude-haiku-4-5"
    """The model of routine judgements (appraise, stance, evidence, work units, verify, respond)."""
    strong_model: str = "claude-sonnet-4-6"
    """The model of revision, audit and rule abstraction: fewer, weightier calls."""
    max_tokens: Annotated[int, Field(ge=64, le=32000)] = 1024
    """The most tokens one Claude answer may take."""
    timeout_s: Annotated[float, Field(gt=0)] = 30.0
    """Seconds one judgement waits for Claude (retries included) before the offline reasoner
    answers it."""
    max_retries: Annotated[int, Field(ge=0, le=10)] = 2
    """Retries on 429 / 5xx / overloaded (the SDK backs off between them)."""
    base_url: str | None = Field(default=None, examples=["https://api.anthropic.com"])
    """Another address of the Anthropic API (unset: the SDK's own)."""
    offline_topic_similarity: Annotated[float, Field(ge=0.0, le=1.0)] = 0.45
    """Offline stance: a claim this close to a belief (cosine) is about it."""
    offline_stance_model: bool = True
    """Offline stance: the learned judge shipped in app/reasoning/offline/weights decides pairs
    about the topic when embeddings are on; false: the cue judge alone."""
    offline_stance_embedding_model: str = "all-minilm-l6-v2"
    """Offline stance: the embedding model whose cosine the judge reads, the one it was trained
    on (tools/stance/train.py): trained on e5-small-v2's it judged VitaminC's held-out half
    worse (accuracy 0.56 against 0.61, bench/README.md). Empty: the running model's."""
