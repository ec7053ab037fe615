"""Rule abstraction without a model: the concept a cluster of episodes shares and what worked
or failed there, as a readable heuristic."""

from __future__ import annotations

import re
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


# An episode that answers the agent's proposal holds only the answer ("(approve)", written by
# the loop when the person gave no text: app/loop/write_phase.py).
_ANSWER = re.compile(r"^\((approve|reject|modify|answer)\)$")
# A request to call a connected tool: "call ledger.write_query {...}" names connection "ledger".
_CALL = re.compile(r"^call\s+([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+", re.IGNORECASE)
_ANSWERED = {"approve": "approving it", "modify": "changing it", "answer": "answering it"}


def _example(episodes: list[EpisodeBrief]) -> str:
    shortest = min(episodes, key=lambda episode: (len(episode.text), episode.id))
    text = normalise(shortest.text).rstrip(".!? ")
    return text if len(text) <= 90 else text[:87].rstrip() + "…"


def _answer(episode: EpisodeBrief) -> str | None:
    match = _ANSWER.match(normalise(episode.text))
    return match.group(1) if match else None


def _times(count: int, total: int) -> str:
    return f"{count} of {total} time" + ("" if total == 1 else "s")


def _situation(requests: list[EpisodeBrief], answered: bool) -> str:
    """What the cluster's episodes were about: a call of a connection's tools ("a ledger call
    is proposed"), else the shortest request ("something like 'Please remember ...' comes
    up")."""
    connections = list(
        dict.fromkeys(m.group(1) for e in requests if (m := _CALL.match(normalise(e.text))))
    )
    if connections:
        named = " or ".join(connections[:2])
        return f"a {named} call is " + ("proposed" if answered else "made")
    if requests:
        return f"something like {_example(requests)!r} comes up"
    return "a proposal of this kind comes up"


def _parts(requests: list[EpisodeBrief], answers: list[EpisodeBrief], calls: bool) -> list[str]:
    """How each kind of episode turned out, in words: the person's answers to the proposals
    (approving it worked ...), then the requests (run as asked, or failed, with one to
    avoid)."""
    parts: list[str] = []
    by_action: dict[str, list[EpisodeBrief]] = {}
    for episode in answers:
        by_action.setdefault(_answer(episode) or "answer", []).append(episode)
    for action, answered in by_action.items():
        if action == "reject":
            parts.append(f"the person rejected it {_times(len(answered), len(answers))}")
            continue
        ok = sum(outcome_class(e.outcome) == "success" for e in answered)
        parts.append(f"{_ANSWERED[action]} worked {_times(ok, len(answered))}")
    worked = [e for e in requests if outcome_class(e.outcome) == "success"]
    failed = [e for e in requests if outcome_class(e.outcome) == "failure"]
    if worked:
        how = (
            "doing it worked"
            if not calls
            else "called directly, it worked"
            if answers
            else "it worked"
        )
        parts.append(f"{how} {_times(len(worked), len(requests))}")
    if failed:
        parts.append(
            f"it failed {_times(len(failed), len(requests))}, as with {_example(failed)!r}"
        )
    return parts


def draft_rule(episodes: list[EpisodeBrief], existing_rules: list[str]) -> RuleDraft:
    """The heuristic a cluster of episodes suggests, in words a person reads ("When a ledger
    call is proposed: approving it worked 5 of 5 times; ..."), not repeating an existing rule's
    text. Its trigger concept is the words the requests share (an answer's "(approve)" says
    nothing of what it was about)."""
    answers = [episode for episode in episodes if _answer(episode)]
    requests = [episode for episode in episodes if not _answer(episode)]
    concept = " ".join(shared_concept(requests or episodes)) or "this"
    by_outcome: dict[str, list[EpisodeBrief]] = {"success": [], "failure": [], "neutral": []}
    for episode in episodes:
        by_outcome[outcome_class(episode.outcome)].append(episode)
    total = len(episodes)
    calls = any(_CALL.match(normalise(episode.text)) for episode in requests)
    parts = _parts(requests, answers, calls) or [
        f"no clear outcome yet ({total} episode(s)), e.g. {_example(episodes)!r}"
    ]
    content = f"When {_situation(requests, bool(answers))}: " + "; ".join(parts) + "."
    existing = [normalise(rule).lower() for rule in existing_rules]
    if any(
        content.lower() == rule or jaccard(tokens(content), tokens(rule)) >= 0.9
        for rule in existing
    ):
        ids = ", ".join(sorted(episode.id for episode in episodes)[:5])
        content = content.rstrip(".") + f"; seen again in episodes {ids}."
    # Grows with the cluster (n / (n + 2)) and with the share of successes (Laplace-smoothed).
    success_share = (len(by_outcome["success"]) + 0.5 * len(by_outcome["neutral"]) + 1) / (
        total + 2
    )
    confidence = (total / (total + 2)) * (0.4 + 0.6 * success_share)
    return RuleDraft(concept[:200], content[:2000], round(min(0.95, confidence), 3))
