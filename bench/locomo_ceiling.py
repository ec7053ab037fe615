"""What the ranking ingredients of the retrieval issue could give on LoCoMo, measured outside the
database: brute-force cosine (all-MiniLM-L6-v2, the app's embedder) and pure-Python BM25 over each
conversation's turns, combined in Python. A study to choose what to build into the Cypher
retrieval, not a benchmark of Credence (``bench/retrieval_locomo.py`` is that).

Variants, each printed with Recall@5 / @10 over the 495 questions of the 3 development
conversations:

- what a turn's text is for embedding and BM25: the turn alone, ``speaker: text``, and the
  previous turn of the same session before it;
- score-level fusion: per question, cosine and BM25 scores min-max normalised over the
  conversation and mixed with one weight;
- neighbour smoothing: a turn gains ``λ`` × the best fused score of its neighbours in the same
  session (the answer to a question often sits next to the turn that names its subject).

    .venv/bin/python bench/locomo_ceiling.py
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_locomo import DEFAULT_DATA, Conversation, load_conversations
from retrieval_madial import Bm25

from app.config import get_settings
from app.embeddings.embedder import shared_embedder

Matrix = Any  # numpy 2-d arrays: questions × turns


@dataclass(frozen=True)
class Scores:
    conversation: Conversation
    cosine_turn: Matrix
    cosine_speaker: Matrix
    cosine_previous: Matrix
    bm25_turn: Matrix
    bm25_speaker: Matrix


def recalls(scores: Matrix, conversation: Conversation, k: int) -> list[float]:
    found = []
    for row, question in zip(scores, conversation.questions, strict=True):
        top = {conversation.turns[i].dia_id for i in np.argsort(-row, kind="stable")[:k]}
        found.append(len(question.relevant & top) / len(question.relevant))
    return found


def normalised(scores: Matrix) -> Matrix:
    low = scores.min(axis=1, keepdims=True)
    spread = scores.max(axis=1, keepdims=True) - low
    return (scores - low) / np.where(spread == 0, 1, spread)


def smoothed(scores: Matrix, conversation: Conversation, weight: float) -> Matrix:
    sessions = [turn.session for turn in conversation.turns]
    out = scores.copy()
    for i in range(scores.shape[1]):
        best = np.zeros(scores.shape[0])
        for j in (i - 1, i + 1):
            if 0 <= j < scores.shape[1] and sessions[j] == sessions[i]:
                best = np.maximum(best, scores[:, j])
        out[:, i] = scores[:, i] + weight * best
    return out


async def score_conversation(embedder: Any, conversation: Conversation) -> Scores:
    turns = conversation.turns
    plain = [turn.text for turn in turns]
    speaker = [f"{turn.speaker}: {turn.text}" for turn in turns]
    previous = [
        (speaker[i - 1] + "\n" if i and turns[i - 1].session == turn.session else "") + speaker[i]
        for i, turn in enumerate(turns)
    ]
    questions = np.array(await embedder.embed([q.text for q in conversation.questions], "query"))

    async def cosine(texts: list[str]) -> Matrix:
        return questions @ np.array(await embedder.embed(texts)).T

    def bm25(texts: list[str]) -> Matrix:
        index = Bm25([turn.dia_id for turn in turns], texts)
        return np.array([index.scores(q.text) for q in conversation.questions])

    return Scores(
        conversation=conversation,
        cosine_turn=await cosine(plain),
        cosine_speaker=await cosine(speaker),
        cosine_previous=await cosine(previous),
        bm25_turn=bm25(plain),
        bm25_speaker=bm25(speaker),
    )


def report(name: str, all_scores: Sequence[Scores], ranking: Callable[[Scores], Matrix]) -> None:
    at5: list[float] = []
    at10: list[float] = []
    for scores in all_scores:
        matrix = ranking(scores)
        at5 += recalls(matrix, scores.conversation, 5)
        at10 += recalls(matrix, scores.conversation, 10)
    print(f"{name:52s} R@5 {np.mean(at5):.3f}  R@10 {np.mean(at10):.3f}")


def fused(scores: Scores, weight: float, previous: bool) -> Matrix:
    cosine = scores.cosine_previous if previous else scores.cosine_speaker
    return weight * normalised(cosine) + (1 - weight) * normalised(scores.bm25_speaker)


def smoothed_fused(scores: Scores, smoothing: float, previous: bool) -> Matrix:
    return smoothed(fused(scores, 0.5, previous), scores.conversation, smoothing)


async def main() -> None:
    embedder = shared_embedder(get_settings().embeddings)
    all_scores = [
        await score_conversation(embedder, conversation)
        for conversation in load_conversations(DEFAULT_DATA)
    ]
    report("cosine, turn text", all_scores, lambda s: s.cosine_turn)
    report("cosine, speaker: text", all_scores, lambda s: s.cosine_speaker)
    report("cosine, previous turn + speaker: text", all_scores, lambda s: s.cosine_previous)
    report("BM25, turn text", all_scores, lambda s: s.bm25_turn)
    report("BM25, speaker: text", all_scores, lambda s: s.bm25_speaker)
    for weight in (0.3, 0.5, 0.7):
        for previous in (False, True):
            report(
                f"fused w={weight}, {'previous + ' if previous else ''}speaker",
                all_scores,
                partial(fused, weight=weight, previous=previous),
            )
    for smoothing in (0.2, 0.4, 0.6):
        for previous in (False, True):
            name = f"fused w=0.5, {'previous + ' if previous else ''}speaker"
            report(
                f"{name}, neighbours λ={smoothing}",
                all_scores,
                partial(smoothed_fused, smoothing=smoothing, previous=previous),
            )


if __name__ == "__main__":
    asyncio.run(main())
