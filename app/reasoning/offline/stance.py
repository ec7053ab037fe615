"""The offline stance decision: topic relatedness first, contradiction cues second.

A claim far from the statement is ``novel`` (it adds something the belief does not cover), one
near the edge of the topic is ``neutral``; a claim about the topic contradicts when a cue says so
(denial, negation mismatch, antonyms, number mismatch) and reinforces otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.reasoning.protocol import Stance
from app.text.stance_cues import contradiction_cues, restated_after_denial
from app.text.words import token_similarity

# Token Jaccard runs lower than embedding cosine for the same pair of sentences; these are its
# own thresholds (measured on VitaminC's dev slice: see bench/README.md).
TOKEN_TOPIC_SIMILARITY = 0.3
# Below the topic threshold by less than this margin: "neutral" rather than "novel".
NEUTRAL_MARGIN = 0.15
# A different name counts only this far above the topic threshold: close paraphrases naming
# someone else are substitutions ("Alice approves" / "Bob approves"); looser pairs often just
# mention other people or places (0.25: contradiction precision 0.69 rather than 0.59 at 0.0
# on the VitaminC tuning half, recall 0.34 rather than 0.48; tension never decays, so precision
# is worth more).
NAME_MARGIN = 0.25


@dataclass(frozen=True)
class StanceDecision:
    stance: Stance
    confidence: float
    cues: list[str]
    similarity: float


def decide_stance(
    claim: str, statement: str, similarity: float, threshold: float, measure: str
) -> StanceDecision:
    """The stance of ``claim`` towards ``statement`` given their topic similarity.

    Args:
        claim: the new text ("No: X" is judged as X when X alone does not contradict the
            statement: the "No" rejects something else said, :func:`restated_after_denial`).
        statement: the belief it is judged against.
        similarity: cosine of their embeddings, or token Jaccard (``measure`` says which).
        threshold: similarity at or above which the claim is about the statement.
        measure: "cosine" or "token overlap", quoted in the cues.

    Returns:
        The stance, a confidence in [0, 1] and the cues that decided it.
    """
    similarity = max(0.0, min(1.0, similarity))
    claim = restated_after_denial(claim, statement) or claim
    relatedness = f"{measure} {similarity:.2f} (topic threshold {threshold:.2f})"
    if similarity < threshold:
        if similarity >= threshold - NEUTRAL_MARGIN:
            closeness = (similarity - (threshold - NEUTRAL_MARGIN)) / NEUTRAL_MARGIN
            return StanceDecision(
                "neutral", round(0.4 + 0.2 * closeness, 3), [f"weakly related: {relatedness}"],
                similarity,
            )  # fmt: skip
        distance = (threshold - NEUTRAL_MARGIN - similarity) / max(threshold - NEUTRAL_MARGIN, 1e-9)
        return StanceDecision(
            "novel", round(0.5 + 0.5 * min(1.0, distance), 3), [f"unrelated: {relatedness}"],
            similarity,
        )  # fmt: skip
    # How far above the topic threshold, in [0, 1].
    closeness = (similarity - threshold) / max(1.0 - threshold, 1e-9)
    cues = [
        cue
        for cue in contradiction_cues(claim, statement)
        if not cue.name.startswith("name mismatch") or similarity >= threshold + NAME_MARGIN
    ]
    if cues:
        strongest = cues[0].strength
        support = min(1.0, strongest + 0.1 * (len(cues) - 1))
        confidence = 0.35 + 0.4 * support + 0.25 * closeness
        return StanceDecision(
            "contradicting",
            round(min(1.0, confidence), 3),
            [f"related: {relatedness}", *(cue.name for cue in cues)],
            similarity,
        )
    return StanceDecision(
        "reinforcing",
        round(min(1.0, 0.45 + 0.5 * closeness), 3),
        [f"related: {relatedness}", "no contradiction cue"],
        similarity,
    )


def token_stance(claim: str, statement: str) -> StanceDecision:
    """The stance without embeddings: token overlap as relatedness."""
    return decide_stance(
        claim,
        statement,
        token_similarity(claim, statement),
        TOKEN_TOPIC_SIMILARITY,
        "token overlap",
    )
