"""Settings of relevance retrieval (``CREDENCE_RETRIEVAL__*``): every weight of docs/retrieval.md,
to be tuned by measurement (``bench/retrieval_madial.py``), not guesswork."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from app.common import Unit

Positive = Annotated[float, Field(gt=0.0)]


class RetrievalSettings(BaseModel):
    # Candidates taken from each index before fusion.
    candidates: Annotated[int, Field(ge=1, le=1000)] = 50
    # Beliefs, rules and research passages: how many of the agent's documents the fulltext index
    # may return, to be scored again by BM25 on the agent's own statistics
    # (app/retrieval/lexical.py) before the best `candidates` are fused. An agent with no more
    # matching documents than this is ranked exactly as if it were alone in the database. A
    # document stores the words it is scored by, so only the query's terms among them are read;
    # still, an agent of 10,000 short statements from a small vocabulary (the latency bench's)
    # matches more than 1,000 of them per query, and reading 1,000 took /context to 1.15-1.18x
    # the pool of 100 (bench/README.md), so 300 here.
    lexical_pool: Annotated[int, Field(ge=1, le=20_000)] = 300
    # Episodes: the same pool, larger: 1,000 holds every match of the LoCoMo development
    # questions (a median of 280 of 419 turns), which 100 cut to a third.
    episode_lexical_pool: Annotated[int, Field(ge=1, le=20_000)] = 1000
    # Episodes: documents of general English (app/text/background.py) counted with the agent's
    # own in the lexical idf, so that a small agent's noisy document frequencies lean on a fixed
    # background vocabulary, the same for every tenant (0: the agent's statistics alone).
    # Off: 300 – 3,000 raised MADial R@10 (0.674 → 0.696 – 0.713) and lowered LoCoMo's
    # (0.788 → 0.784 – 0.762), a trade (bench/README.md).
    lexical_background_docs: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    # Episodes: query terms that general English uses at least this often per token
    # (app/text/background.py: "really", "feel", "going") are left out of the lexical half
    # (0: none left out).
    # Off: 3e-4 traded LoCoMo for MADial; 1e-3 moved both by < 0.005 with categories up and
    # down (bench/README.md).
    lexical_common_frequency: Annotated[float, Field(ge=0.0, le=1.0)] = 0.0
    # How the vector and the fulltext candidates are fused (README "Episodes and the context API"):
    # "score": each index's scores min-max normalised over its candidates, mixed as
    #   vector_share · vector + (1 − vector_share) · fulltext;
    # "rrf": reciprocal-rank fusion Σ weight_i / (rrf_k + rank_i) (the default before issue 12,
    #   kept to compare against: on LoCoMo it let the weaker vector ranking decide).
    # vector_share, neighbour_weight and interference_penalty were chosen together on a grid
    # (bench/retrieval_tuning.py: LoCoMo's 3 development conversations and MADial-Bench, each
    # LoCoMo conversation held out in turn): the best setting on everything is 0.4 / 0.6 / 0,
    # held-out LoCoMo R@5 0.639 / R@10 0.766, MADial (chosen on LoCoMo alone) 0.600 / 0.726.
    fusion: Literal["score", "rrf"] = "score"
    vector_share: Unit = 0.4
    rrf_k: Positive = 10.0
    vector_weight: Annotated[float, Field(ge=0.0)] = 2.0
    fulltext_weight: Annotated[float, Field(ge=0.0)] = 1.0
    # Episodes: a turn gains neighbour_weight × the fused score of the better of the two turns
    # next to it in its session (NEXT edges), and such a neighbour of a hit becomes a candidate.
    neighbour_weight: Annotated[float, Field(ge=0.0, le=2.0)] = 0.6
    # Episodes: at most moment_cap turns within moment_window places of each other in a session
    # before the rest of the list (app/retrieval/diversity.py; 0: off), chosen from the best
    # k × moment_fetch.
    moment_cap: Annotated[int, Field(ge=0, le=100)] = 0
    moment_window: Annotated[int, Field(ge=0, le=10_000)] = 2
    moment_fetch: Annotated[int, Field(ge=1, le=10)] = 3
    # Episodes: the coverage half (app/retrieval/coverage.py): an episode gains coverage_weight ×
    # the idf-weighted share of the question's subjects (names, topics) it mentions, found along
    # its MENTIONS edges whatever its session; at most coverage_pool such episodes (0: off).
    # Off: 0.3 raised LoCoMo R@5 (0.683 → 0.699) and multi-hop (0.338 → 0.351) but lowered the
    # open-domain and single-hop R@10 (bench/README.md).
    coverage_weight: Annotated[float, Field(ge=0.0, le=2.0)] = 0.0
    coverage_pool: Annotated[int, Field(ge=1, le=1000)] = 50
    # Episodes: a turn that mentions a name the question says (said by that person, or naming
    # them: a MENTIONS edge, app/memory/episode_subjects.py) × (1 + person_bonus) (0: off).
    # 0.2 raised LoCoMo R@10 0.788 → 0.797 (no category lower; multi-hop 0.338 → 0.356) and
    # MADial 0.723 → 0.747; 0.5 cost the adversarial questions (which name the wrong person).
    person_bonus: Annotated[float, Field(ge=0.0, le=5.0)] = 0.2
    # Episodes' own vector share (None: vector_share). A chat turn searches with its loop's
    # episode_vector_share (LoopSettings): one message is a short query, where vector-only
    # ranks as well as fused (MADial last-1, bench/README) at a third of the cost.
    episode_vector_share: Unit | None = None
    # Episodes: a query of at least long_query_terms fulltext terms (a whole dialogue rather
    # than a question) searches with long_query_vector_share when set: its many chatty words make
    # the lexical half noisy (None: the common share; episode_vector_share, when set, wins).
    # 0.6 brought MADial-Bench (whole dialogues as queries, 13–64 terms) from R@10 0.674 to 0.723
    # and left LoCoMo's questions (at most 10 terms) as they were (bench/README.md, issue 22).
    long_query_vector_share: Unit | None = 0.6
    long_query_terms: Annotated[int, Field(ge=1, le=64)] = 12
    # Episodes: a question (shorter than long_query_terms) that names a speaker of the agent's
    # episodes searches the vector half without that name (app/retrieval/asked_people.py): the
    # name pulls the vector towards the turns that address the person, the person bonus finds
    # their own turns through the graph. "always": every such question; "several": only a
    # question that asks for several things (app/text/several_answers.py); "never".
    # "always" (with named_own_turn_weight 0.3) raised LoCoMo R@10 0.807 → 0.819, multi-hop
    # 0.438 → 0.491, open-domain 0.368 → 0.421, no category or MADial lower (bench/README.md).
    query_without_speakers: Literal["never", "several", "always"] = "always"
    # Episodes, a question that asks for several things about a speaker ("What activities does
    # Melanie do?"): that person's own turns × (1 + several_speaker_bonus), and the best
    # several_own_turn_pool of them by cosine to the question (without the name) become
    # candidates, adding several_own_turn_weight × their normalised cosine to their own score,
    # whatever their session (cypher/retrieval/search_episodes.cypher).
    several_speaker_bonus: Annotated[float, Field(ge=0.0, le=5.0)] = 0.5
    several_own_turn_weight: Annotated[float, Field(ge=0.0, le=2.0)] = 0.3
    several_own_turn_pool: Annotated[int, Field(ge=1, le=1000)] = 100
    # Where the own turns come from: 0, every turn the person said (along their MENTIONS
    # edges), ranked exactly by cosine; N, their turns among the agent's N nearest episodes in
    # the vector index. 200 and 400 gave LoCoMo the same recall as 0, and 0.93× p50 / 0.99× p95
    # of its time (inside the machine's noise): off (bench/README.md).
    own_turn_scan: Annotated[int, Field(ge=0, le=5000)] = 0
    # Which questions count as asking for several things (app/text/several_answers.py):
    # "narrow": a plural thing before a verb, "how many", "in what ways", "what has X done";
    # "broad": those and kinds of a thing, "what are" before a plural, irregular plurals,
    # questions about two people ("both", "in common"). "broad" raised multi-hop 0.438 → 0.450
    # with no other figure moved (bench/README.md).
    several_questions: Literal["narrow", "broad"] = "broad"
    # Episodes, a question that names a speaker but does not ask for several things: the same
    # two factors with their own weights (0: off) and pool. Own turns
    # 0.3 (with query_without_speakers "always") no category lower; 0.5 and a speaker bonus of
    # 0.2 cost the adversarial questions, which name the wrong person (bench/README.md).
    named_speaker_bonus: Annotated[float, Field(ge=0.0, le=5.0)] = 0.0
    named_own_turn_weight: Annotated[float, Field(ge=0.0, le=2.0)] = 0.3
    # How many of the named person's own turns (nearest the question) such a question ranks.
    # 50 or 20 cost multi-hop 0.007 (bench/README.md, fifth round).
    named_own_turn_pool: Annotated[int, Field(ge=1, le=1000)] = 100
    # Of an own-turn pool (several or named), how many of the best become candidates (their
    # cosine normalised over the whole pool): fewer candidates and neighbours to score. 40
    # cost single-hop 0.020, for ~0.93x of /context's time (bench/README.md, fifth round).
    own_turn_candidates: Annotated[int, Field(ge=1, le=1000)] = 100
    # Beliefs are short statements asked about in other words: the vector index carries more of
    # their ranking (chosen on bench/data/gaap_belief_questions.yaml, bench/retrieval_beliefs.py).
    belief_vector_share: Unit = 0.8
    # Beliefs: fused · (strength_floor + (1 − strength_floor) · strength).
    belief_strength_floor: Unit = 0.5
    # One-hop expansion of the top beliefs along SUPPORTS / CONTRADICTS.
    expand_top: Annotated[int, Field(ge=0, le=50)] = 5
    expansion_factor: Unit = 0.5
    # Episodes: fused · salience / (1 + interference_penalty · interference) · outcome · recency.
    # The interference penalty lowered recall on both data sets at every other setting of the
    # grid (LoCoMo R@10 −0.03 to −0.06, MADial −0.01): off by default, kept for data where it
    # helps. Interference is still counted on every insert.
    interference_penalty: Annotated[float, Field(ge=0.0)] = 0.0
    success_multiplier: Annotated[float, Field(ge=0.0)] = 1.2
    recency_bonus_7d: Annotated[float, Field(ge=0.0)] = 0.1
    recency_bonus_30d: Annotated[float, Field(ge=0.0)] = 0.05
    # Episodes and time: a question that asks "when" lifts the turns that mention a date
    # (× (1 + dated_bonus)); a date the question names ("in May 2023", "last year") lifts the
    # turns said on it or mentioning it (× (1 + date_match_bonus); app/text/dates.py).
    # dated_bonus 0.5 brought LoCoMo's temporal R@10 from 0.878 to 0.900 (MADial asks no "when"
    # question: unmoved); date_match_bonus is off: too few questions name a date to choose it.
    dated_bonus: Annotated[float, Field(ge=0.0)] = 0.5
    date_match_bonus: Annotated[float, Field(ge=0.0)] = 0.0
    # Peak-end salience (set when a session ends).
    salience_peak: Positive = 2.0
    salience_end: Positive = 1.5
    salience_plain: Positive = 1.0
    # Interference: an insert raises `interference` of older episodes at cosine ≥ this.
    interference_similarity: Unit = 0.8
    # Stored neighbours examined per new episode (only those at the threshold count).
    interference_neighbours: Annotated[int, Field(ge=1, le=1000)] = 10
    # Tokens per item are estimated as characters / chars_per_token.
    chars_per_token: Positive = 4.0
    # Share of the frame's budget per section (normalised).
    budget_beliefs: Unit = 0.4
    budget_episodes: Unit = 0.3
    budget_rules: Unit = 0.1
    budget_people: Unit = 0.1
    budget_working_memory: Unit = 0.1
    # Tokens for the open conflicts between research sources, on top of the shared budget (so
    # adding the section changed no other section's share).
    budget_conflicts_tokens: Annotated[int, Field(ge=0, le=10_000)] = 300
    default_budget_tokens: Annotated[int, Field(ge=100)] = 2000
