"""The offline stance judge: the learned model over the cue judge, or the cue judge alone.

With embeddings and the shipped model (:mod:`app.reasoning.offline.stance_model`), a pair about
the topic (cosine at least the topic threshold less the neutral margin) is judged by the model
from the pair's features (:mod:`app.reasoning.offline.stance_features`, the cue judge's decision
among them): gradient-boosted trees say reinforcing, contradicting or neutral, with the model's
probability of that stance as the confidence. The embeddings enter the model through their
cosine (their element-wise difference and product were tried and overfit: see
bench/README.md). A pair further apart
stays ``novel`` (the model never saw unrelated pairs), a pair under the topic threshold that
shares no content word keeps the cue judge's stance, and a contradiction the cue judge finds
by a denial, a negation or an antonym stands, as does one text going up where the other goes
down ("grew" / "fell"), names another month for the fact, or differs from the other only in
its names ("chaired by Maria Lopez" / "chaired by John Smith"): the training data holds almost
none of these.
Without embeddings (token overlap) or without the model, the cue judge decides alone, exactly as
before the model existed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from app.reasoning.offline.stance import NEUTRAL_MARGIN, StanceDecision, decide_stance
from app.reasoning.offline.stance_features import (
    CONTRADICTION_FLOOR,
    direction_conflict,
    model_applies,
    month_conflict,
    name_swap,
    rule_contradicts,
    text_features,
)
from app.reasoning.offline.stance_model import CLASSES, LoadedJudge
from app.text.stance_cues import restated_after_denial


def judge_stance(
    claim: str,
    statement: str,
    similarity: float,
    threshold: float,
    measure: str,
    judge: LoadedJudge,
    vectors: tuple[Sequence[float], Sequence[float]] | None = None,
) -> StanceDecision:
    """The stance of ``claim`` towards ``statement``.

    Args:
        claim: the new text.
        statement: the belief (or hypothesis) it is judged against.
        similarity: the cosine of their embeddings, or token Jaccard (``measure`` says which).
        threshold: the topic threshold of that measure.
        measure: "cosine" or "token overlap".
        judge: the loaded model, or the reason there is none.
        vectors: the claim's and the statement's embeddings (the model needs them).

    Returns:
        The decision: stance, confidence, the cues that explain it, the similarity.
    """
    # "No: X" where X agrees with the statement: the "No" rejects something else said (an
    # earlier answer), so the pair is judged on X, features and all.
    claim = restated_after_denial(claim, statement) or claim
    cue = decide_stance(claim, statement, similarity, threshold, measure)
    model = judge.model
    if model is None or vectors is None or measure != "cosine" or cue.stance == "novel":
        return cue
    values = text_features(claim, statement, similarity, cue)
    if not model_applies(values, threshold, NEUTRAL_MARGIN):
        return cue
    if rule_contradicts(values):
        if cue.stance == "contradicting":
            return cue
        direction = direction_conflict(claim, statement)
        month = month_conflict(claim, statement)
        names = name_swap(claim, statement)
        reason = (
            f"direction: {direction[0]} / {direction[1]}"
            if direction
            else f"date: {month[0]} / {month[1]}"
            if month
            else f"name: {names[0]} / {names[1]}"
            if names
            else "contradiction rule"
        )
        closeness = max(0.0, (similarity - threshold) / max(1.0 - threshold, 1e-9))
        return StanceDecision(
            "contradicting",
            round(min(1.0, 0.63 + 0.25 * closeness), 3),  # the cue judge's antonym confidence
            [f"related: cosine {similarity:.2f}", reason],
            similarity,
        )
    features = np.asarray(values, dtype=np.float64)
    if features.shape[0] != model.features:
        return cue  # weights for another feature set: the cue judge rather than a wrong answer
    probabilities = model.probabilities(features)[0]
    best = int(np.argmax(probabilities))
    stance = CLASSES[best]
    if stance == "contradicting" and probabilities[best] < CONTRADICTION_FLOOR:
        return cue  # an unsure contradiction: the cue judge's stance stands
    shown = ", ".join(f"{name} {p:.2f}" for name, p in zip(CLASSES, probabilities, strict=True))
    cues = [f"stance model {judge.version}: {shown} (cosine {similarity:.2f})"]
    if stance == "contradicting":
        # The cue judge's reasons, when it saw the contradiction too ("number mismatch: ...").
        cues += [c for c in cue.cues if not c.startswith(("related:", "no contradiction"))]
    return StanceDecision(stance, round(float(probabilities[best]), 3), cues, similarity)
