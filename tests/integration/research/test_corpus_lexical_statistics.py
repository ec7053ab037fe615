"""The lexical half of the corpus search is scored on the agent's own passages (real Neo4j):
another agent's thousands of corpus passages that share the query's words, loaded, then replaced
and deleted, change neither the passages nor the scores of an agent's corpus search, fulltext
only or fused with the vector half, although they move Lucene's index-wide fulltext order."""

from __future__ import annotations

import json
import uuid

from app.embeddings.embedder import Embedder, UnavailableEmbedder
from app.graph.client import GraphClient
from app.research.sources.corpus import CorpusSource, delete_corpus_document, load_corpus_files
from app.research.sources.documents import CorpusFile
from app.retrieval.lexical import CORPUS_PASSAGES, short_text_candidates, short_text_hits
from app.text.lexical import document_frequencies, tokens
from app.text.lucene import lucene_terms
from tests.support.agents import MakeAgent
from tests.support.lucene import lucene_order

# The query's words are new to every run: passages of earlier runs, deleted but still counted in
# Lucene's statistics until their segments merge, cannot change Lucene's order here.
RUN = uuid.uuid4().hex[:8]
FERRY, HARBOUR = f"ferry{RUN}", f"harbour{RUN}"
QUERY = f"A {FERRY} from the {HARBOUR}?"
# The agent says the ferry word once and the harbour word in three passages, so on its own
# passages the ferry passage ranks first; the other agent's trips make the ferry word common in
# the index as a whole.
OWN = [
    f"The {FERRY} sails at noon.",
    f"Fishing boats unload in the {HARBOUR} before dawn, then the nets are dried.",
    f"The {HARBOUR} wall was rebuilt after the winter storms broke it twice.",
    f"Seals sleep on the {HARBOUR} slipway beside the old {HARBOUR} crane.",
    *(f"Cabin diary entry {i}: rain again, and the stove smoked." for i in range(8)),
]
CROWD_DOCUMENTS, CROWD_PASSAGES = 20, 200  # 4,000 passages that all say the ferry word


def _own_file() -> CorpusFile:
    lines = [
        json.dumps({"id": f"own{i}", "title": "Cabin notes", "text": text})
        for i, text in enumerate(OWN)
    ]
    return CorpusFile(name="own.jsonl", format="jsonl", content="\n".join(lines) + "\n")


def _crowd_file(number: int, word: str) -> CorpusFile:
    """One of the other agent's documents: a paragraph (a passage) per trip."""
    text = "\n\n".join(f"The {word} trip number {i} went well." for i in range(CROWD_PASSAGES))
    return CorpusFile(name=f"trips{number}.txt", format="txt", content=text)


async def _rankings(
    graph: GraphClient, embedder: Embedder, agent: str
) -> dict[str, list[tuple[str, float]]]:
    return {
        mode: [
            (p.ref, p.score) for p in await CorpusSource(graph, used).search(agent, QUERY, limit=10)
        ]
        for mode, used in (("fulltext", UnavailableEmbedder()), ("fused", embedder))
    }


async def _lucene(test_graph: GraphClient, agent: str) -> list[str]:
    return await lucene_order(test_graph, "probe/search_corpus_fulltext", QUERY, agent)


async def test_another_agents_corpus_does_not_move_an_agents_corpus_ranking(
    graph: GraphClient, test_graph: GraphClient, embedder: Embedder, make_agent: MakeAgent
) -> None:
    agent = make_agent("Cabin")
    await load_corpus_files(graph, embedder, agent, [_own_file()])
    before = await _rankings(graph, embedder, agent)
    found = await CorpusSource(graph, UnavailableEmbedder()).search(agent, QUERY, limit=10)
    ferry = next(p.ref for p in found if p.text == OWN[0])
    lucene_before = await _lucene(test_graph, agent)

    other = make_agent("Ferry company")
    crowd = [_crowd_file(n, FERRY) for n in range(CROWD_DOCUMENTS)]
    report = await load_corpus_files(graph, UnavailableEmbedder(), other, crowd, max_chars=60)
    assert sum(f.passages for f in report.files) == CROWD_DOCUMENTS * CROWD_PASSAGES
    during = await _rankings(graph, embedder, agent)
    lucene_during = await _lucene(test_graph, agent)
    # Half the documents are replaced by ones without the ferry word, then all are deleted.
    half = CROWD_DOCUMENTS // 2
    replaced = [_crowd_file(n, "bus") for n in range(half)]
    report = await load_corpus_files(graph, UnavailableEmbedder(), other, replaced, max_chars=60)
    assert [f.replaced for f in report.files] == [1] * half
    for n in range(CROWD_DOCUMENTS):
        await delete_corpus_document(graph, other, f"trips{n}.txt")
    after = await _rankings(graph, embedder, agent)

    # The index-wide scores did move: the other agent's ferry passages push the own one down.
    assert lucene_during.index(ferry) > lucene_before.index(ferry), (lucene_before, lucene_during)
    # The agent's own ranking did not, passages and scores, while the other agent's corpus was
    # there or after it was replaced and deleted.
    assert during == before
    assert after == before
    # On its own passages the rare ferry word outweighs the harbour one: the ferry passage first,
    # then the harbour ones (the one that says it twice first).
    order = [p.text for p in found]
    assert [p.ref for p in found] == [ref for ref, _ in before["fulltext"]]
    assert order[:2] == [OWN[0], OWN[3]] and sorted(order) == sorted(OWN[:4])
    assert len(before["fused"]) == 10


async def test_frequencies_counted_by_the_index_match_those_counted_from_the_hits(
    graph: GraphClient, make_agent: MakeAgent
) -> None:
    """With more matches than the pool each term's document frequency is counted by the
    fulltext index, else from the hits: both count a passage whose title alone says the word,
    and count it once when its title and its text both do."""
    agent = make_agent("Frequencies")
    titled = [
        {"id": "t1", "title": f"The {FERRY} timetable", "text": "Departures at nine and noon."},
        {"id": "t2", "title": f"{HARBOUR} {FERRY}", "text": f"The {FERRY} waits in the bay."},
    ]
    lines = [json.dumps(doc) for doc in titled]
    file = CorpusFile(name="titled.jsonl", format="jsonl", content="\n".join(lines) + "\n")
    await load_corpus_files(graph, UnavailableEmbedder(), agent, [_own_file(), file])
    terms = lucene_terms(QUERY)
    assert terms is not None

    every = await short_text_candidates(graph, CORPUS_PASSAGES, agent, terms, pool=100)
    few = await short_text_candidates(graph, CORPUS_PASSAGES, agent, terms, pool=1)

    assert every["df"] is None and len(every["hits"]) == 6
    counted = document_frequencies(terms.split(), (h["terms"] for h in every["hits"]))
    assert {row["term"]: row["df"] for row in few["df"]} == {FERRY: 3, HARBOUR: 4} == counted
    # Every passage carries its length: none is read to measure it.
    assert every["docs"] == few["docs"] == every["stored"] == len(OWN) + 2
    assert every["sample"] == []
    texts = [f"{doc['title']}\n{doc['text']}" for doc in titled] + [f"Cabin notes {t}" for t in OWN]
    assert every["stored_length"] == sum(len(tokens(text)) for text in texts)


async def test_passages_loaded_before_their_terms_were_stored_get_them_on_the_next_search(
    graph: GraphClient, test_graph: GraphClient, make_agent: MakeAgent
) -> None:
    agent = make_agent("Old passages")
    await load_corpus_files(graph, UnavailableEmbedder(), agent, [_own_file()])
    terms = lucene_terms(QUERY)
    assert terms is not None
    stored = await short_text_hits(graph, CORPUS_PASSAGES, agent, terms, pool=100, keep=50)

    await test_graph.write("probe/forget_passage_terms", agent_id=agent)
    row = await short_text_candidates(graph, CORPUS_PASSAGES, agent, terms, pool=100)
    counted = await short_text_hits(graph, CORPUS_PASSAGES, agent, terms, pool=100, keep=50)
    again = await short_text_candidates(graph, CORPUS_PASSAGES, agent, terms, pool=100)

    # Before the search: measured by a sample of their text, matched by their text.
    assert row["stored"] == 0 and len(row["sample"]) == len(OWN)
    assert all("text" in hit for hit in row["hits"])
    # The search gave them their terms and lengths again: the same scores, nothing sampled.
    assert counted == stored and len(stored) == 4
    assert again["stored"] == len(OWN) and again["sample"] == []
    assert all("terms" in hit for hit in again["hits"])
