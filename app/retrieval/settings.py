"""Settings of relevance retrieval (``CREDENCE_RETRIEVAL__*``): every weight of docs/retrieval.md,
to be tuned by measurement (``bench/retrieval_madial.py``), not guesswork."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.common import Unit

Positive = Annotated[float, Field(gt=0.0)]


class RetrievalSettings(BaseModel):
    """Every weight of relevance retrieval (``CREDENCE_RETRIEVAL__*``, docs/retrieval.md)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    candidates: Annotated[int, Field(ge=1, le=1000)] = 50
    """Candidates taken from each index before fusion."""
    # An agent with no more matching documents than this is ranked exactly as if it were alone
    # in the database. A document stores the words it is scored by, so only the query's terms
    # among them are read; still, an agent of 10,000 short statements from a small vocabulary
    # (the latency bench's) matches more than 1,000 of them per query, and reading 1,000 took
    # /context to 1.15-1.18x the pool of 100 (bench/README.md), so 300 here.
    lexical_pool: Annotated[int, Field(ge=1, le=20_000)] = 300
    """Beliefs, rules and research passages: the fulltext matches re-scored by BM25 on the
    agent's own statistics (app/retrieval/lexical.py) before the best candidates are fused."""
    # 1,000 holds every match of the LoCoMo development questions (a median of 280 of 419
    # turns), which 100 cut to a third.
    episode_lexical_pool: Annotated[int, Field(ge=1, le=20_000)] = 1000
    """Episodes: the fulltext matches re-scored on the agent's own statistics."""
    # A small agent's noisy document frequencies then lean on a fixed background vocabulary,
    # the same for every tenant. Off: 300 – 3,000 raised MADial R@10 (0.674 → 0.696 – 0.713)
    # and lowered LoCoMo's (0.788 → 0.784 – 0.762), a trade (bench/README.md).
    lexical_background_docs: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    """Episodes: documents of general English (app/text/background.py) counted with the
    agent's own in the lexical idf (0: the agent's statistics alone)."""
    # Off: 3e-4 traded LoCoMo for MADial; 1e-3 moved both by < 0.005 with categories up and
    # down (bench/README.md).
    lexical_common_frequency: Annotated[float, Field(ge=0.0, le=1.0)] = 0.0
    """Episodes: query terms that general English uses at least this often per token ("really",
    "feel") are left out of the lexical half (0: none left out)."""
    # "rrf" was the default before issue 12, kept to compare against: on LoCoMo it let the
    # weaker vector ranking decide. vector_share, neighbour_weight and interference_penalty
    # were chosen together on a grid (bench/retrieval_tuning.py: LoCoMo's 3 development
    # conversations and MADial-Bench, each LoCoMo conversation held out in turn): the best
    # setting on everything is 0.4 / 0.6 / 0, held-out LoCoMo R@5 0.639 / R@10 0.766, MADial
    # (chosen on LoCoMo alone) 0.600 / 0.726.
    fusion: Literal["score", "rrf"] = "score"
    """How vector and fulltext candidates are fused: score (each index's scores min-max
    normalised, mixed by vector_share) or rrf (reciprocal-rank fusion)."""
    vector_share: Unit = 0.4
    """Score fusion: the vector half's share (vector_share · vector + (1 − it) · fulltext)."""
    rrf_k: Positive = 10.0
    """Reciprocal-rank fusion: k in Σ weight_i / (k + rank_i)."""
    vector_weight: Annotated[float, Field(ge=0.0)] = 2.0
    """Reciprocal-rank fusion: the vector index's weight."""
    fulltext_weight: Annotated[float, Field(ge=0.0)] = 1.0
    """Reciprocal-rank fusion: the fulltext index's weight."""
    neighbour_weight: Annotated[float, Field(ge=0.0, le=2.0)] = 0.6
    """Episodes: a turn gains this × the fused score of the better turn next to it in its
    session, and such a neighbour of a hit becomes a candidate."""
    # 60 of ~160–200 candidates: LoCoMo R@10 0.841 against 0.840 expanding every one (multi-hop
    # 0.534 / 0.527, no category lower; 30 cost single-hop 0.010, 15 cost 0.009 overall), MADial
    # 0.743 either way (it has no sessions), the episode query in 0.83× its time
    # (bench/README.md, issue 38).
    neighbour_sources: Annotated[int, Field(ge=1, le=10_000)] = 60
    """Episodes: only the best this many candidates (by their own fused score) lift their
    neighbours; the rest are not expanded (10,000: every candidate)."""
    moment_cap: Annotated[int, Field(ge=0, le=100)] = 0
    """Episodes: at most this many turns close together in a session before the rest of the
    list (app/retrieval/diversity.py; 0: off)."""
    moment_window: Annotated[int, Field(ge=0, le=10_000)] = 2
    """Episodes: turns within this many places of each other count as one moment."""
    moment_fetch: Annotated[int, Field(ge=1, le=10)] = 3
    """Episodes: the moment cap chooses from the best k × this."""
    # Off: 0.3 raised LoCoMo R@5 (0.683 → 0.699) and multi-hop (0.338 → 0.351) but lowered the
    # open-domain and single-hop R@10 (bench/README.md).
    coverage_weight: Annotated[float, Field(ge=0.0, le=2.0)] = 0.0
    """Episodes: a turn gains this × the idf-weighted share of the question's subjects it
    mentions (app/retrieval/coverage.py; 0: off)."""
    coverage_pool: Annotated[int, Field(ge=1, le=1000)] = 50
    """Episodes: at most this many episodes found through the question's subjects."""
    # 0.2 raised LoCoMo R@10 0.788 → 0.797 (no category lower; multi-hop 0.338 → 0.356) and
    # MADial 0.723 → 0.747; 0.5 cost the adversarial questions (which name the wrong person).
    person_bonus: Annotated[float, Field(ge=0.0, le=5.0)] = 0.2
    """Episodes: a turn said by or naming a person the question names × (1 + this) (0: off)."""
    # A chat turn searches with its loop's episode_vector_share (LoopSettings): one message is
    # a short query, where vector-only ranks as well as fused (MADial last-1, bench/README) at
    # a third of the cost.
    episode_vector_share: Unit | None = Field(default=None, examples=[1.0])
    """Episodes' own vector share (unset: vector_share)."""
    # 0.6 brought MADial-Bench (whole dialogues as queries, 13–64 terms) from R@10 0.674 to
    # 0.723 and left LoCoMo's questions (at most 10 terms) as they were (bench/README.md,
    # issue 22): a long query's many chatty words make the lexical half noisy.
    long_query_vector_share: Unit | None = 0.6
    """Episodes: the vector share of a long query (a whole dialogue rather than a question);
    episode_vector_share, when set, wins."""
    long_query_terms: Annotated[int, Field(ge=1, le=64)] = 12
    """Episodes: a query of at least this many fulltext terms is long."""
    # A whole dialogue as the query: its last turns say what is being asked now. 2 lines at 0.5
    # (the first value tried) raised MADial R@10 0.743 → 0.760 (13 dialogues better, 2 worse,
    # every fifth of them better) and left LoCoMo's questions (short) as they were; no other
    # of 16 (1–4 lines × 0.3–1.0) was higher (bench/README.md, "the last lines of a long query").
    long_query_tail_lines: Annotated[int, Field(ge=0, le=64)] = 2
    """Episodes: a long query of more lines than this also embeds its last this many lines, and
    its vector half searches with its own vector plus ``long_query_tail_weight`` × theirs,
    normalised (0: off)."""
    long_query_tail_weight: Annotated[float, Field(ge=0.0, le=10.0)] = 0.5
    """Episodes: the weight of a long query's last lines in its vector
    (``long_query_tail_lines``)."""
    # The name pulls the vector towards the turns that address the person; the person bonus
    # finds their own turns through the graph. "always" (with named_own_turn_weight 0.3)
    # raised LoCoMo R@10 0.807 → 0.819, multi-hop 0.438 → 0.491, open-domain 0.368 → 0.421,
    # no category or MADial lower (bench/README.md). Re-chosen on e5-small-v2 (leave one
    # conversation out with MADial, every fold): "always"; "never" costs multi-hop 0.072.
    query_without_speakers: Literal["never", "several", "always"] = "always"
    """Episodes: which questions naming a speaker search the vector half without the name
    (app/retrieval/asked_people.py): always, several (those asking for several things), never."""
    # An asked speaker's name matches every turn they said (each turn says its speaker): a
    # LoCoMo question's lexical read met a median of 339 matches with the names, 26 without.
    # Matching without them (their weight still counted in the scores of what the other terms
    # match) kept LoCoMo R@10 at 0.844 with no category lower, MADial unchanged, for R@1
    # 0.429 → 0.419 and the episodes section at 0.83-0.90x its time (bench/README.md, "the
    # asked speakers' names out of the lexical half").
    lexical_without_speakers: bool = True
    """Episodes: a question (a short query) that names speakers of the agent matches the
    lexical half without their names (app/retrieval/lexical.py ``episode_hits``; not in
    fulltext mode)."""
    several_speaker_bonus: Annotated[float, Field(ge=0.0, le=5.0)] = 0.5
    """Episodes, a question asking several things about a speaker: their own turns × (1 + this)."""
    several_own_turn_weight: Annotated[float, Field(ge=0.0, le=2.0)] = 0.3
    """Episodes, such a question: the speaker's best turns gain this × their normalised cosine."""
    several_own_turn_pool: Annotated[int, Field(ge=1, le=1000)] = 100
    """Episodes, such a question: how many of the speaker's turns (nearest the question) rank."""
    # 200 and 400 gave LoCoMo the same recall as 0, and 0.93× p50 / 0.99× p95 of its time
    # (inside the machine's noise): off (bench/README.md).
    own_turn_scan: Annotated[int, Field(ge=0, le=5000)] = 0
    """Where own turns come from: 0, the person's nearest turns in the vector index scoped to
    the agent and the speaker (exactly ranked when they said fewer than the pool); N, their
    turns among the agent's N nearest episodes in the vector index."""
    # "broad" raised multi-hop 0.438 → 0.450 with no other figure moved (bench/README.md).
    several_questions: Literal["narrow", "broad"] = "broad"
    """Which questions ask for several things (app/text/several_answers.py): narrow (plurals
    before a verb, "how many", ...) or broad (also kinds of a thing, questions about two people)."""
    # 0.5 and a speaker bonus of 0.2 cost the adversarial questions, which name the wrong
    # person (bench/README.md); with the names out of the lexical half, 0.1 raises R@10 by
    # 0.002 and costs R@1 0.014, 0.2 costs R@1 0.028 and adversarial 0.018.
    named_speaker_bonus: Annotated[float, Field(ge=0.0, le=5.0)] = 0.0
    """Episodes, a question that names a speaker (not asking several things): their own turns
    × (1 + this) (0: off)."""
    named_own_turn_weight: Annotated[float, Field(ge=0.0, le=2.0)] = 0.3
    """Episodes, such a question: the speaker's best turns gain this × their normalised cosine."""
    # 50 or 20 cost multi-hop 0.007 (bench/README.md, fifth round).
    named_own_turn_pool: Annotated[int, Field(ge=1, le=1000)] = 100
    """Episodes, such a question: how many of the speaker's turns (nearest the question) rank."""
    # 50 changes no figure of either data set (either clock) and takes the episode query to
    # 0.95x its time; 40 cost single-hop 0.020 (bench/README.md, fifth and tenth rounds).
    own_turn_candidates: Annotated[int, Field(ge=1, le=1000)] = 50
    """Of an own-turn pool, how many of the best become candidates."""
    # Beliefs are short statements asked about in other words (chosen on
    # bench/data/gaap_belief_questions.yaml, bench/retrieval_beliefs.py).
    belief_vector_share: Unit = 0.8
    """Beliefs: the vector half's share of the fused score."""
    belief_strength_floor: Unit = 0.5
    """Beliefs: fused · (floor + (1 − floor) · strength)."""
    expand_top: Annotated[int, Field(ge=0, le=50)] = 5
    """Beliefs: the top this many are expanded one hop along SUPPORTS / CONTRADICTS."""
    expand_per_hit: Annotated[int, Field(ge=0, le=50)] = 5
    """Beliefs: each expanded hit adds at most this many neighbours, the best scored first (ties
    by id)."""
    expansion_factor: Unit = 0.5
    """Beliefs: an expanded neighbour scores its source's score × this × the edge's weight."""
    # The interference penalty lowered recall on both data sets at every other setting of the
    # grid (LoCoMo R@10 −0.03 to −0.06, MADial −0.01): off by default, kept for data where it
    # helps. Interference is still counted on every insert.
    interference_penalty: Annotated[float, Field(ge=0.0)] = 0.0
    """Episodes: fused · salience / (1 + this · interference) · outcome · recency."""
    success_multiplier: Annotated[float, Field(ge=0.0)] = 1.2
    """Episodes: the outcome factor of an episode that succeeded."""
    recency_bonus_7d: Annotated[float, Field(ge=0.0)] = 0.1
    """Episodes: the recency bonus of an episode of the last 7 days."""
    recency_bonus_30d: Annotated[float, Field(ge=0.0)] = 0.05
    """Episodes: the recency bonus of an episode of the last 30 days."""
    # Seed 003's retrieval bonuses (bench/README.md, "seed 003's retrieval bonuses"), measured on
    # LoCoMo dev + MADial with every question asked right after its data's last turn: recency
    # added or multiplied gave the same recall (LoCoMo R@10 0.844 against 0.842 without it;
    # multi-hop +0.007, adversarial -0.009, MADial R@10 equal), so the seed's form is kept.
    recency: Literal["factor", "additive"] = "additive"
    """Episodes: how the recency bonus applies: × (1 + bonus) (factor) or + bonus after the
    other factors (additive, seed 003's)."""
    # The development data has no rule derived from an episode and no consolidated episode
    # (imported turns are never reflected on): these two leave its recall as it is.
    heuristic_bonus: Annotated[float, Field(ge=0.0, le=5.0)] = 0.1
    """Episodes: + this × the number of rules reflection derived from the episode (seed 003's
    heuristics bonus; 0: off)."""
    consolidated_factor: Unit = 0.8
    """Episodes: a consolidated episode (a rule was abstracted from it) × this (seed 003's;
    1: off)."""
    # Off: every development episode is trivial (no actions), so no factor changes a ranking
    # there, and the seed names no value; below 1 it would put every plain question and every
    # imported conversation turn under tool work of equal relevance (docs/origins.md §6).
    trivial_factor: Unit = 1.0
    """Episodes: a trivial episode (fewer than 2 actions) × this (1: off)."""
    # Off: a cap of 1.0 (seed 003's, on its 0-1 similarity) ties the best turns, whose scores
    # here exceed 1: LoCoMo R@10 0.844 -> 0.824, R@5 0.764 -> 0.707, multi-hop 0.534 -> 0.480.
    score_cap: Annotated[float | None, Field(gt=0.0, examples=[1.0])] = None
    """Episodes: the score is capped at this (seed 003: 1.0; unset: no cap)."""
    # dated_bonus 0.5 brought LoCoMo's temporal R@10 from 0.878 to 0.900 (MADial asks no "when"
    # question: unmoved); date_match_bonus is off: too few questions name a date to choose it.
    dated_bonus: Annotated[float, Field(ge=0.0)] = 0.5
    """Episodes: a question asking "when" lifts the turns mentioning a date × (1 + this)."""
    date_match_bonus: Annotated[float, Field(ge=0.0)] = 0.0
    """Episodes: a date the question names lifts the turns said on or mentioning it × (1 + this)
    (app/text/dates.py)."""
    salience_peak: Positive = 2.0
    """Peak-end salience (set when a session ends): the turn of the largest |valence|."""
    salience_end: Positive = 1.5
    """Peak-end salience: the session's last turn."""
    salience_plain: Positive = 1.0
    """Peak-end salience: every other turn."""
    interference_similarity: Unit = 0.8
    """An insert raises the interference of older episodes at this cosine or above."""
    interference_neighbours: Annotated[int, Field(ge=1, le=1000)] = 10
    """Stored neighbours examined per new episode (only those at the threshold count)."""
    chars_per_token: Positive = 4.0
    """Tokens per item are estimated as characters / this."""
    budget_beliefs: Unit = 0.4
    """The beliefs' share of the frame's token budget (the shares are normalised)."""
    budget_episodes: Unit = 0.3
    """The episodes' share of the token budget."""
    budget_rules: Unit = 0.1
    """The rules' share of the token budget."""
    budget_people: Unit = 0.1
    """The people's share of the token budget."""
    budget_working_memory: Unit = 0.1
    """Working memory's share of the token budget."""
    # On top of the shared budget, so adding the section changed no other section's share.
    budget_conflicts_tokens: Annotated[int, Field(ge=0, le=10_000)] = 300
    """Tokens for the open conflicts between research sources."""
    # About five of seed 002's one-line decisions, on top of the shared budget as the
    # conflicts' are.
    budget_decisions_tokens: Annotated[int, Field(ge=0, le=10_000)] = 200
    """Tokens for the agent's past decisions that bear on the query."""
    decision_scan: Annotated[int, Field(ge=1, le=10_000)] = 200
    """Decisions: how many of the agent's newest decisions are ranked by the query."""
    default_budget_tokens: Annotated[int, Field(ge=100)] = 2000
    """The context's token budget when the request gives none."""
    # The first context after Neo4j starts waits ~2-6 s for the Cypher planner (every query of
    # the context planned once); asked once at start-up, it does not (bench/README.md, issue 38).
    warm_up_on_start: bool = True
    """The API asks one agent's context a few questions in the background when it starts, so
    that Neo4j has planned the context's queries before the first request (app/retrieval/
    warm_up.py)."""
