"""What the offline appraisal takes from the person model of its speaker (docs/memory.md §2): how
deep to go by their level in the turn's domain, how far to rely on their word by their trust,
and their goals and what worked with them before, as sentences of the recommended approach."""

from __future__ import annotations

from app.reasoning.protocol import AppraisalRequest, PersonBrief

# Below this trust the approach says to check the speaker's claims; from the second, that their
# word has proven reliable.
LOW_TRUST = 0.35
HIGH_TRUST = 0.7


def interlocutor_approach(request: AppraisalRequest) -> str:
    """The sentences the speaker's person model adds to the approach ('' without a speaker)."""
    speaker = next((person for person in request.people if person.speaker), None)
    if speaker is None:
        return ""
    said = [_depth(speaker, request.domain), _trust(speaker)]
    if speaker.goals:
        said.append(f"{speaker.name} is working towards: {'; '.join(speaker.goals[:2])}.")
    if speaker.successful_patterns:
        said.append(f"What worked with {speaker.name} before: {speaker.successful_patterns[0]}.")
    return "".join(f" {sentence}" for sentence in said if sentence)


def _depth(speaker: PersonBrief, domain: str | None) -> str:
    where = f" in {domain}" if domain else ""
    if speaker.knowledge_level == "novice":
        return f"{speaker.name} is new{where}: explain the terms and the steps."
    if speaker.knowledge_level == "expert":
        return f"{speaker.name} is an expert{where}: be brief and skip the basics."
    return ""


def _trust(speaker: PersonBrief) -> str:
    if speaker.trust < LOW_TRUST:
        return (
            f"{speaker.name}'s word has not proven reliable (trust {speaker.trust:.2f}): "
            "check their claims before relying on them."
        )
    if speaker.trust >= HIGH_TRUST:
        return f"{speaker.name}'s word has proven reliable (trust {speaker.trust:.2f})."
    return ""
