"""Settings of the reasoners (``CREDENCE_REASONER__*``).

With no API key (``ANTHROPIC_API_KEY`` or ``CREDENCE_REASONER__API_KEY``) the offline reasoner
answers every judgement; with one, Claude does, and the offline reasoner answers any call Claude
fails (timeout, refusal, malformed answer).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, SecretStr


class ReasonerSettings(BaseModel):
    # auto: Claude when a key is set, else offline; offline: never Claude; claude: key required.
    provider: Literal["auto", "offline", "claude"] = "auto"
    api_key: SecretStr | None = None
    # Routine judgements (appraise, stance, evidence, work units, verify, respond).
    fast_model: str = "claude-haiku-4-5"
    # Revision, audit and rule abstraction: fewer, weightier calls.
    strong_model: str = "claude-sonnet-4-6"
    max_tokens: Annotated[int, Field(ge=64, le=32000)] = 1024
    timeout_s: Annotated[float, Field(gt=0)] = 30.0
    # Retries on 429 / 5xx / overloaded (the SDK backs off between them).
    max_retries: Annotated[int, Field(ge=0, le=10)] = 2
    base_url: str | None = None
    # Offline stance: cosine at or above this between claim and belief counts as "about" it.
    offline_topic_similarity: Annotated[float, Field(ge=0.0, le=1.0)] = 0.45
    # Offline stance: the learned judge shipped in the package (app/reasoning/offline/weights)
    # decides pairs about the topic when embeddings are on; false = the cue judge alone.
    offline_stance_model: bool = True
    # Offline stance: the model whose cosine the judge reads (it was trained on its vectors,
    # tools/stance/train.py). all-MiniLM-L6-v2: e5-small-v2's cosine, trained on alike, judged
    # the VitaminC held-out half worse (accuracy 0.56 against 0.61, bench/README.md). Empty:
    # the running embedding model's.
    offline_stance_embedding_model: str = "all-minilm-l6-v2"
