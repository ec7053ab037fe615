"""Would a second query vector for the *kind of thing asked for* find the evidence a
several-things question misses? An offline probe (issue 22, eighth round), not a setting.

"What activities does Melanie partake in?" has its evidence in "I'm off to go swimming with the
kids": the question's vector is about "activities", the turn about swimming. For the questions
``asks_for_several`` reads as asking for several things, this probe builds a **concept** from the
question's wording alone (:func:`concept`: the head noun phrase, "activities", and the phrase
with what is said of it, "activities partake in") and embeds it three ways:

- **noun**: the head noun phrase alone ("activities"; "places camped" for "Where has ...
  camped?", which has no head of its own);
- **phrase**: the head and the question's remaining content words, less the names;
- **templates**: the head put in a few answer-shaped sentences (:data:`TEMPLATES`, written from
  general English, not from the development questions) and averaged.

The **control** is the question without the names it says (the episodes' own query vector),
scored the same way, so that what the concept adds is told apart from what the sentence vectors
add. Each turn of the agent is scored by its cosine to the concept, through the stored whole-turn
vector or through its best sentence (the sentence alone, as ``sentence_probe.py`` splits and
embeds it), either plainly or **centred** on its speaker's profile: the mean vector of that
person's own turns (or sentences) subtracted from the turn and from the concept, so that what is
compared is how the turn differs from what the person usually says with how the concept does.

The pipeline's list (``build_context``, defaults, ``k = 50``: ``sentence_probe.py``'s cached
collection) is re-ranked by ``score / top score + β × the concept cosine`` (min-max over the
candidates), optionally with the top ``N`` of the asked person's turns by the concept cosine
added (their score: the list's lowest). Only the several-things questions are re-ranked (none of
MADial's). Leave-one-conversation-out as ``sentence_probe.py`` does it (chosen on the other two
conversations + MADial, scored on the third), with the questions up / down. The cost at query
time: one more embedding per such question (timed against the question's own), and the cosines.

It reads ``sentence_probe.py``'s cache under ``--cache`` (built as that probe builds it when
missing: read from the Neo4j that holds the agents, and embedded) and embeds only the concept
texts (cached in ``--concepts``).

    PYTHONPATH=. .venv/bin/python bench/prototype_probe.py
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sentence_probe
from probe_lists import Row
from retrieval_madial import recall_at
from sentence_probe import Agent, Collected, leave_one_out, listed, loaded, summary

from app.config import get_settings
from app.embeddings.embedder import Embedder
from app.retrieval.asked_people import said_names, without_names
from app.text.several_answers import asks_for_several

# sentence_probe.py pickled its classes as a script's (``__main__.Collected``): name them there.
for _name in ("Collected", "Agent"):
    setattr(sys.modules["__main__"], _name, getattr(sentence_probe, _name))

# The wh- opening of a question, and the head it implies when no noun follows it.
_LEAD = re.compile(
    r"""^(?:
      (?P<what>(?:what|which)\s+(?:are\s+)?(?:some\s+)?(?:the\s+)?
               (?:(?:kinds?|types?|sorts?)\s+of\s+)?)
    | (?P<many>how\s+many\s+)
    | (?P<ways>in\s+what\s+ways?\s+)
    | (?P<where>where\s+)
    | (?P<who>who\s+)
    | (?P<how>how\s+)
    | (?P<yes>(?:did|do|does|is|are|was|were|has|have)\s+)
    )""",
    re.IGNORECASE | re.VERBOSE,
)
_IMPLIED = {"where": "places", "who": "people", "ways": "ways", "how": "ways"}
# Where the head noun phrase ends: an auxiliary or a relative word.
_CUT = re.compile(r"\s+(?:has|have|does|do|did|is|are|was|were|that|who|which)\b", re.IGNORECASE)
_FILLER = {
    "has", "have", "does", "do", "did", "is", "are", "was", "were", "and", "or", "both", "the",
    "a", "an", "her", "his", "their", "she", "he", "they", "them", "it", "its", "some",
}  # fmt: skip

# Answer-shaped sentences for a head noun phrase (general English; no names, as the episodes'
# query vector leaves the asked names out).
TEMPLATES = (
    "I really enjoy {noun}.",
    "We have been doing a lot of {noun} lately.",
    "My favourite of the {noun} is this one.",
    "They told me all about their {noun}.",
    "Here is a photo of the {noun}.",
)


# The vectors a gated question's turns are scored by: the control (the question without the
# names it says, the episodes' own query vector) and the three concepts.
KINDS = ("question", "noun", "phrase", "templates")


@dataclass(frozen=True)
class Concept:
    noun: str
    phrase: str


def concept(question: str) -> Concept:
    """The kind of thing ``question`` asks for, from its wording alone: the head noun phrase
    after the wh- opening, up to an auxiliary or a relative word, without the names it says;
    the phrase adds the rest's content words. A question with no head of its own ("Where has
    Melanie camped?", "What has Maria painted?") gets the implied one ("places", "things") and
    its noun is the phrase."""
    text = without_names(question, said_names(question)).rstrip("?. ").strip()
    lead = _LEAD.match(text)
    # No opening left (the names finder can take "Did Jon" for a name): a yes/no question.
    kind = next((k for k, v in lead.groupdict().items() if v), "") if lead else "yes"
    body = text[lead.end() :] if lead else text
    if kind in ("where", "who", "how", "yes"):  # no noun follows: the whole body is said of it
        head, rest = "", body
    else:
        cut = _CUT.search(" " + body)
        head, rest = (body[: cut.start()], body[cut.end() :]) if cut else (body, "")
    words = [w for w in rest.split() if w.lower() not in _FILLER]
    head = head.strip()
    if not head:
        implied = _IMPLIED.get(kind, "things")
        phrase = " ".join([implied, *words])
        return Concept(noun=phrase, phrase=phrase)
    return Concept(noun=head, phrase=" ".join([head, *words]))


def unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


@dataclass
class Profiles:
    """An agent's turns (rows of ``vectors``: whole turns, or sentences with ``owner``) with
    their speakers, and each speaker's mean vector."""

    vectors: np.ndarray
    owner: np.ndarray | None  # sentence rows: the episode of each; None: one row a turn
    speaker_of_row: np.ndarray  # index into ``speakers``
    speakers: list[str]
    means: np.ndarray
    centred: np.ndarray  # each row less its speaker's mean, normalised

    @classmethod
    def of(cls, agent: Agent, by_sentence: bool) -> Profiles:
        episode_speaker = [agent.speaker(i) for i in range(len(agent.ids))]
        speakers = sorted(set(episode_speaker))
        code = np.array([speakers.index(s) for s in episode_speaker])
        owner = agent.owner if by_sentence else None
        vectors = agent.bare if by_sentence else agent.whole
        row_speaker = code[owner] if owner is not None else code
        means = np.vstack([vectors[row_speaker == s].mean(axis=0) for s in range(len(speakers))])
        centred = unit(vectors - means[row_speaker])
        return cls(vectors, owner, row_speaker, speakers, means, centred)

    def cosines(self, concept_vector: np.ndarray, centred: bool, starts: np.ndarray) -> np.ndarray:
        """Each turn's cosine to the concept (its best sentence's when by sentence)."""
        if centred:
            shifted = unit(concept_vector[None, :] - self.means)  # one concept a speaker
            rows = np.einsum("ij,ij->i", self.centred, shifted[self.speaker_of_row])
        else:
            rows = self.vectors @ concept_vector
        return np.maximum.reduceat(rows, starts) if self.owner is not None else rows


def reranked(
    rows: list[Row], agent: Agent, cosine: np.ndarray, beta: float, extra: int, own: np.ndarray
) -> list[str]:
    """The list by ``score / top + beta × concept cosine`` (min-max over the candidates), with
    the ``extra`` turns of ``own`` (the asked people's turns) nearest the concept added (their
    score: the list's lowest)."""
    pipeline, floor = listed(rows, agent)
    candidates = list(pipeline)
    if extra:
        seen = set(candidates)
        nearest = own[np.argsort(-cosine[own], kind="stable")]
        candidates += [int(i) for i in nearest if int(i) not in seen][:extra]
    values = cosine[candidates]
    lo, hi = float(values.min()), float(values.max())
    norm = (values - lo) / (hi - lo) if hi > lo else np.zeros_like(values)
    keys = [pipeline.get(c, floor) + beta * float(n) for c, n in zip(candidates, norm, strict=True)]
    order = sorted(range(len(candidates)), key=lambda j: -keys[j])
    return [agent.external[candidates[j]] for j in order]


def concept_texts(item: Concept) -> dict[str, list[str]]:
    return {
        "noun": [item.noun],
        "phrase": [item.phrase],
        "templates": [t.format(noun=item.noun) for t in TEMPLATES],
    }


def concept_vectors(concepts: dict[int, Concept], cache: Path) -> dict[int, dict[str, np.ndarray]]:
    """Each gated question's concept vectors (templates: their normalised mean); the texts'
    vectors cached in ``cache`` by text."""
    store: dict[str, np.ndarray] = {}
    if cache.exists():
        with cache.open("rb") as handle:
            store = pickle.load(handle)  # noqa: S301 (this probe's own file)
    wanted = sorted({t for c in concepts.values() for ts in concept_texts(c).values() for t in ts})
    missing = [t for t in wanted if t not in store]
    if missing:
        embedder = Embedder(get_settings().embeddings.model_copy(update={"cache_path": ""}))
        vectors = embedder.embed_sync(missing)
        if vectors is None:
            raise SystemExit(f"embeddings do not work: {embedder.status().reason}")
        store |= dict(zip(missing, np.asarray(vectors, dtype=np.float32), strict=True))
        cache.parent.mkdir(parents=True, exist_ok=True)
        with cache.open("wb") as handle:
            pickle.dump(store, handle)
    return {
        i: {k: unit(np.mean([store[t] for t in ts], axis=0)) for k, ts in concept_texts(c).items()}
        for i, c in concepts.items()
    }


def own_turns(collected: Collected, gated: dict[int, Concept]) -> dict[int, np.ndarray]:
    """Each gated question's asked people's episodes: those of the speakers it names (every
    episode of the agent when it names none)."""
    speakers = {
        agent_id: [agent.speaker(i) for i in range(len(agent.ids))]
        for agent_id, agent in collected.agents.items()
    }
    own: dict[int, np.ndarray] = {}
    for i in gated:
        query = collected.queries[i]
        names = set(said_names(query.text))
        said = [e for e, s in enumerate(speakers[query.agent_id]) if s in names]
        own[i] = np.asarray(said or range(len(speakers[query.agent_id])))
    return own


@dataclass(frozen=True)
class GatedProbe:
    """What both probes read: the gated questions' concepts, their vectors by kind, the
    agents' turn profiles (by sentence or not) and the asked people's turns."""

    gated: dict[int, Concept]
    vectors: dict[int, dict[str, np.ndarray]]
    profiles: dict[tuple[str, bool], Profiles]
    owns: dict[int, np.ndarray]


def dense_alone(collected: Collected, probe: GatedProbe) -> None:
    """R@10 of the asked people's turns ranked by each vector alone (the gated questions only;
    a diagnosis, not a ranking to use)."""
    gated, vectors, profiles, owns = probe.gated, probe.vectors, probe.profiles, probe.owns
    print(
        f"\n1. dense alone over the asked people's turns, the {len(gated)} gated questions "
        "(R@10 by category)"
    )
    queries = collected.queries
    keep = sorted(gated)
    for by_sentence, centred in itertools.product((False, True), (False, True)):
        for kind in KINDS:
            values = [0.0] * len(queries)
            for i in keep:
                agent = collected.agents[queries[i].agent_id]
                profile = profiles[(queries[i].agent_id, by_sentence)]
                cosine = profile.cosines(vectors[i][kind], centred, agent.starts())
                own = owns[i]
                top = own[np.argsort(-cosine[own], kind="stable")[:10]]
                values[i] = recall_at(queries[i].relevant, [agent.external[t] for t in top], 10)
            name = f"{'sentence' if by_sentence else 'whole'} {'centred' if centred else 'plain'}"
            print(f"  {name:17s} {kind:9s} {summary(queries, values, keep)}")


def pipeline_probe(collected: Collected, probe: GatedProbe) -> None:
    gated, vectors, profiles, owns = probe.gated, probe.vectors, probe.profiles, probe.owns
    queries, lists = collected.queries, collected.lists
    as_is = [recall_at(q.relevant, [str(r["external_id"]) for r in rows], 10)
             for q, rows in zip(queries, lists, strict=True)]  # fmt: skip
    results: dict[str, list[float]] = {"as is": as_is}
    print(
        f"\n2. the pipeline (k = {max(len(r) for r in lists)} list) re-ranked for the "
        f"{len(gated)} gated questions, R@10"
    )
    print(f"  {'as is':42s} {summary(queries, as_is)}")
    grid = itertools.product(KINDS, (False, True), (False, True), (0, 20), (0.2, 0.5, 1.0))
    ceilings: dict[str, list[float]] = {"the list": list(as_is)}
    for kind, by_sentence, centred, extra, beta in grid:
        name = (
            f"{kind} {'sentence' if by_sentence else 'whole'} "
            f"{'centred' if centred else 'plain'} N={extra} beta={beta:g}"
        )
        values = list(as_is)
        for i in gated:
            q, rows = queries[i], lists[i]
            agent = collected.agents[q.agent_id]
            profile = profiles[(q.agent_id, by_sentence)]
            cosine = profile.cosines(vectors[i][kind], centred, agent.starts())
            own = owns[i]
            top = reranked(rows, agent, cosine, beta, extra, own)
            values[i] = recall_at(q.relevant, top, 10)
            if beta == 1.0:  # the candidates do not depend on beta
                added = name.rsplit(" beta", 1)[0] if extra else "the list"
                ceilings.setdefault(added, list(as_is))[i] = recall_at(q.relevant, top, 10_000)
        results[name] = values
        print(f"  {name:42s} {summary(queries, values)}")
    for added, ceiling in ceilings.items():
        label = f"ceiling, {added}"
        print(f"  {label:42s} {summary(queries, ceiling)}")
    concepts = {k: v for k, v in results.items() if not k.startswith("question ")}
    leave_one_out(queries, concepts, "every concept setting, no question control")
    leave_one_out(queries, results, "every setting, the question control included")
    for kind in KINDS:
        one = {k: v for k, v in results.items() if k == "as is" or k.startswith(kind + " ")}
        leave_one_out(queries, one, f"{kind} only")


def cost(
    collected: Collected,
    gated: dict[int, Concept],
    rounds: int,
    vectors: dict[int, dict[str, np.ndarray]],
    profiles: dict[tuple[str, bool], Profiles],
    owns: dict[int, np.ndarray],
) -> None:
    """One more embedding per gated question, timed against the question's own (the name-less
    question, as the pipeline embeds it), alternating, no vector cache, a warm model; the
    concept extraction; and the re-ranking (the phrase's cosines to every sentence of the agent,
    centred: an upper bound on scoring the list's turns alone)."""
    embedder = Embedder(get_settings().embeddings.model_copy(update={"cache_path": ""}))
    embedder.embed_sync(["warm up the model", "and its runtime"])
    timings: dict[str, list[float]] = {"question": [], "noun": [], "phrase": [], "templates": []}
    for _ in range(rounds):
        for i, item in gated.items():
            text = collected.queries[i].text
            question = without_names(text, said_names(text)) or text
            for kind, texts in (
                ("question", [question]),
                ("noun", [item.noun]),
                ("phrase", [item.phrase]),
                ("templates", [t.format(noun=item.noun) for t in TEMPLATES]),
            ):
                started = time.perf_counter()
                embedder.embed_sync(texts)
                timings[kind].append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    for _ in range(20):
        for i in gated:
            concept(collected.queries[i].text)
    extraction = (time.perf_counter() - started) * 1000 / (20 * len(gated))

    def p(values: list[float], q: int) -> float:
        return float(np.percentile(values, q))

    base = timings["question"]
    print(f"\n3. cost at query time ({len(gated)} questions x {rounds} rounds, ms p50 / p95):")
    for kind, values in timings.items():
        print(
            f"  embed {kind:9s} {p(values, 50):6.2f} / {p(values, 95):6.2f}"
            f"  ({p(values, 50) / p(base, 50):.2f}x / {p(values, 95) / p(base, 95):.2f}x the "
            "question's)"
        )
    started = time.perf_counter()
    for _ in range(rounds):
        for i in gated:
            query = collected.queries[i]
            agent = collected.agents[query.agent_id]
            cosine = profiles[(query.agent_id, True)].cosines(
                vectors[i]["phrase"], True, agent.starts()
            )
            reranked(collected.lists[i], agent, cosine, 0.5, 0, owns[i])
    scoring = (time.perf_counter() - started) * 1000 / (rounds * len(gated))
    print(
        f"  concept extraction {extraction:.3f} ms a question; re-ranking by every sentence's "
        f"centred cosine {scoring:.2f} ms a question"
    )


def main(args: argparse.Namespace) -> int:
    collected, figures = loaded(Path(args.cache), args.depth)
    queries = collected.queries
    gated = {
        i: concept(q.text)
        for i, q in enumerate(queries)
        if len(q.text.split()) < 12 and asks_for_several(q.text, broad=True)
    }
    print(
        f"{len(queries)} questions (LoCoMo {sum(q.dataset == 'locomo' for q in queries)}, "
        f"MADial {sum(q.dataset == 'madial' for q in queries)}); {len(gated)} read as asking "
        f"for several things (MADial {sum(queries[i].dataset == 'madial' for i in gated)}; "
        + ", ".join(
            f"{k} {n}" for k, n in sorted(Counter(queries[i].category for i in gated).items())
        )
        + ")"
    )
    if args.show:
        for i, item in gated.items():
            print(
                f"  {queries[i].category:11s} {queries[i].text!r}: {item.noun!r} / {item.phrase!r}"
            )
    vectors = concept_vectors(gated, Path(args.concepts))
    profiles = {
        (agent_id, by_sentence): Profiles.of(agent, by_sentence)
        for agent_id, agent in collected.agents.items()
        for by_sentence in (False, True)
    }
    for i in gated:
        vectors[i]["question"] = figures["stripped questions"][i]
    owns = own_turns(collected, gated)
    probe = GatedProbe(gated, vectors, profiles, owns)
    dense_alone(collected, probe)
    pipeline_probe(collected, probe)
    if args.rounds:
        cost(collected, gated, args.rounds, vectors, profiles, owns)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=50)
    parser.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "sentence-probe"))
    parser.add_argument(
        "--concepts",
        default=str(Path(tempfile.gettempdir()) / "prototype-probe" / "concepts.pkl"),
    )
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds (0: no timing)")
    parser.add_argument("--show", action="store_true", help="print each question's concept")
    raise SystemExit(main(parser.parse_args()))
