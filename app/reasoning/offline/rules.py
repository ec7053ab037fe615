"""Rule abstraction without a model: the concept a cluster of episodes shares and what worked
or failed there, as a readable heuristic."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from app.reasoning.protocol import EpisodeBrief
from app.text.stopwords import CLAIM_STOP_WORDS, word_set
from app.text.words import jaccard, normalise, tokens

SUCCESS = frozenset({"success", "succeeded", "positive", "good", "approved", "confirmation"})
FAILURE = frozenset({"failure", "failed", "negative", "bad", "rejected", "violation", "error"})

# Words that say little about what an episode was about.
_FILLER = CLAIM_STOP_WORDS | word_set(
    """agent user person turn said asked told want need like know think also today yesterday
    tomorrow one two three thing things something lot bit"""
)


@dataclass(frozen=True)
class RuleDraft:
    trigger_concept: str
    content: str
    confidence: float


def outcome_class(outcome: str | None) -> str:
    """success / failure / neutral from an episode's outcome text."""
    words = set(tokens(outcome or ""))
    if words & FAILURE:
        return "failure"
    if words & SUCCESS:
        return "success"
    return "neutral"


def shared_concept(episodes: list[EpisodeBrief], size: int = 2) -> list[str]:
    """The content words found in most episodes (each episode counts a word once), most
    frequent first, ties by first appearance."""
    counts: Counter[str] = Counter()
    order: dict[str, int] = {}
    for episode in episodes:
        words = [w for w in tokens(episode.text) if w not in _FILLER and len(w) > 2]
        for word in dict.fromkeys(words):
            counts[word] += 1
            order.setdefault(word, len(order))
    needed = 2 if len(episodes) > 1 else 1
    shared = [word for word, count in counts.items() if count >= needed]
    shared.sort(key=lambda word: (-counts[word], order[word]))
    return shared[:size] or [word for word, _ in counts.most_common(1)]


def _example(episodes: list[EpisodeBrief]) -> str:
    shortest = min(episodes, key=lambda episode: (len(episode.text), episode.id))
    text = normalise(shortest.text).rstrip(".!? ")
    return text if len(text) <= 90 else text[:87].rstrip() + "…"


def draft_rule(episodes: list[EpisodeBrief], existing_rules: list[str]) -> RuleDraft:
    """The heuristic a cluster of episodes suggests, not repeating an existing rule's text."""
    concept = " ".join(shared_concept(episodes)) or "this"
    by_outcome: dict[str, list[EpisodeBrief]] = {"success": [], "failure": [], "neutral": []}
    for episode in episodes:
        by_outcome[outcome_class(episode.outcome)].append(episode)
    worked, failed = by_outcome["success"], by_outcome["failure"]
    total = len(episodes)
    parts: list[str] = []
    if worked:
        parts.append(f"what worked ({len(worked)} of {total}) — {_example(worked)}")
    if failed:
        parts.append(f"what failed ({len(failed)} of {total}) — avoid: {_example(failed)}")
    if not parts:
        parts.append(f"no clear outcome yet ({total} episode(s)), e.g. {_example(episodes)}")
    content = f"When {concept} comes up: " + "; ".join(parts) + "."
    existing = [normalise(rule).lower() for rule in existing_rules]
    if any(
        content.lower() == rule or jaccard(tokens(content), tokens(rule)) >= 0.9
        for rule in existing
    ):
        ids = ", ".join(sorted(episode.id for episode in episodes)[:5])
        content = content.rstrip(".") + f"; seen again in episodes {ids}."
    # Grows with the cluster (n / (n + 2)) and with the share of successes (Laplace-smoothed).
    success_share = (len(worked) + 0.5 * len(by_outcome["neutral"]) + 1) / (total + 2)
    confidence = (total / (total + 2)) * (0.4 + 0.6 * success_share)
    return RuleDraft(concept[:200], content[:2000], round(min(0.95, confidence), 3))
