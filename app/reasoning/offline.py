"""The offline reasoner: deterministic, always available, no network. Its answers say so."""

from __future__ import annotations

from app.reasoning.protocol import RevisedBelief, RevisionRequest

OFFLINE = "offline"


def _sentence(text: str) -> str:
    text = " ".join(text.split()).rstrip(" .")
    return text[:1].upper() + text[1:] + "." if text else text


class OfflineReasoner:
    """Template-based judgements. Claude does these better; this keeps every feature working."""

    name = OFFLINE

    async def revise(self, request: RevisionRequest) -> RevisedBelief:
        """Adopts the strongest contradicting claim, qualified by what was believed before; a
        belief with no contradicting evidence of its own (tension that flowed up from below) is
        qualified instead."""
        # A statement revised before carries its predecessor; keep only the claim itself.
        old = _sentence(request.statement.split(" (Revised from the earlier belief:")[0])
        if request.against:
            strongest = max(request.against, key=lambda note: note.weight)
            statement = (
                f"{_sentence(strongest.text)} (Revised from the earlier belief: {old.rstrip('.')}.)"
            )
            reasoning = (
                f"Tension reached {request.tension:.2f} after {len(request.against)} "
                f"contradicting piece(s) of evidence; the strongest (weight "
                f"{strongest.weight:.2f}) is adopted and the earlier belief is kept as "
                "context."
            )
        else:
            statement = f"Not always: {old.rstrip('.')} (under review)."
            reasoning = (
                f"Tension reached {request.tension:.2f} through the beliefs this one "
                "rests on; without contradicting evidence of its own, it is qualified "
                "rather than replaced."
            )
        summary = (
            f"{len(request.against)} against, {len(request.supporting)} for; "
            f"{len(request.neighbours)} connected belief(s) considered"
        )
        changes = [
            "Hold the revised statement with moderate confidence until it is confirmed.",
            "Ask before acting where the earlier belief used to decide.",
        ]
        tense_neighbours = [n.id for n in request.neighbours if n.tension >= 0.5]
        actions = [f"re-examine {belief_id}" for belief_id in tense_neighbours]
        return RevisedBelief(
            statement=statement,
            reasoning=f"[offline reasoner] {reasoning}",
            evidence_summary=summary,
            behavioral_changes=changes,
            connected_actions=actions,
            reasoner=OFFLINE,
        )
