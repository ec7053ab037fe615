"""The research corpus against the real Neo4j: loading (txt, md, jsonl), idempotent and changed
reloads, rejected files that write nothing, agent isolation, and the corpus search."""

from __future__ import annotations

import json

import pytest

from app.agents.store import delete_agent
from app.embeddings.embedder import Embedder, UnavailableEmbedder
from app.errors import AgentNotFound, CorpusDocumentNotFound, CorpusFileInvalid
from app.graph.client import GraphClient
from app.research.sources.corpus import (
    CorpusSource,
    delete_corpus_document,
    list_corpus_documents,
    load_corpus_files,
)
from app.research.sources.documents import CorpusFile
from tools.eval_data.vitaminc import contested_claims, corpus_jsonl, find_vitaminc, read_rows

NOTES = """Harbour notes

The lighthouse at Port Ellen was automated in 1998 and needs no keeper.

Ferries to Islay leave from Kennacraig three times a day in summer.
"""
GUIDE = """# Distillery guide

Islay has nine working distilleries.

## Peat

Peat smoke gives the island's whisky its medicinal taste.
"""


def _jsonl(*docs: dict[str, object]) -> str:
    return "".join(json.dumps(doc) + "\n" for doc in docs)


async def test_txt_md_and_jsonl_files_load_into_documents_and_passages(
    graph: GraphClient, embedder: Embedder, agent: str
) -> None:
    files = [
        CorpusFile(name="notes.txt", format="txt", content=NOTES),
        CorpusFile(name="guide.md", format="md", content=GUIDE),
        CorpusFile(
            name="news.jsonl",
            format="jsonl",
            content=_jsonl(
                {
                    "id": "n1",
                    "text": "The ferry strike ended on Monday.",
                    "title": "Strike over",
                    "url": "https://example.org/n1",
                    "date": "2026-03-02",
                },
                {"text": "A new distillery opens at Ardnahoe."},
            ),
        ),
    ]

    report = await load_corpus_files(graph, embedder, agent, files, max_chars=80)

    assert report.embedded
    assert [(f.name, f.documents, f.created, f.unchanged) for f in report.files] == [
        ("notes.txt", 1, 1, 0),
        ("guide.md", 1, 1, 0),
        ("news.jsonl", 2, 2, 0),
    ]
    page = await list_corpus_documents(graph, agent)
    by_id = {d.document_id: d for d in page.data}
    assert page.count == 4 and set(by_id) == {"notes.txt", "guide.md", "n1", "news.jsonl:2"}
    assert by_id["guide.md"].title == "Distillery guide" and by_id["guide.md"].passages == 2
    assert by_id["notes.txt"].passages == 3  # three paragraphs, none fits beside another
    assert by_id["n1"].origin == "https://example.org/n1"
    assert str(by_id["n1"].published) == "2026-03-02"
    assert by_id["news.jsonl:2"].origin == "news.jsonl:2"

    found = await CorpusSource(graph, embedder).search(agent, "peat smoke whisky", limit=3)
    assert found[0].kind == "corpus" and "Peat smoke" in found[0].text
    assert found[0].title == "Distillery guide" and found[0].origin == "guide.md"
    assert [p.score for p in found] == sorted((p.score for p in found), reverse=True)


async def test_loading_the_same_file_again_changes_nothing(
    graph: GraphClient, embedder: Embedder, agent: str
) -> None:
    file = CorpusFile(name="notes.txt", format="txt", content=NOTES)
    await load_corpus_files(graph, embedder, agent, [file])
    before = await list_corpus_documents(graph, agent)
    refs = [p.ref for p in await CorpusSource(graph, embedder).search(agent, "ferry", limit=5)]

    again = await load_corpus_files(graph, embedder, agent, [file])

    assert again.files[0].unchanged == 1 and again.files[0].passages == 0
    assert await list_corpus_documents(graph, agent) == before
    assert [
        p.ref for p in await CorpusSource(graph, embedder).search(agent, "ferry", limit=5)
    ] == refs


async def test_a_changed_document_replaces_its_passages(
    graph: GraphClient, embedder: Embedder, agent: str
) -> None:
    await load_corpus_files(
        graph, embedder, agent, [CorpusFile(name="notes.txt", format="txt", content=NOTES)]
    )
    changed = NOTES.replace("Kennacraig", "Oban")

    report = await load_corpus_files(
        graph, embedder, agent, [CorpusFile(name="notes.txt", format="txt", content=changed)]
    )

    assert report.files[0].replaced == 1
    page = await list_corpus_documents(graph, agent)
    assert page.count == 1
    source = CorpusSource(graph, embedder)
    assert not await source.search(agent, "Kennacraig", limit=5) or all(
        "Kennacraig" not in p.text for p in await source.search(agent, "Kennacraig", limit=5)
    )
    assert any("Oban" in p.text for p in await source.search(agent, "ferries Oban", limit=5))


async def test_a_bad_jsonl_line_is_named_and_nothing_of_the_load_is_written(
    graph: GraphClient, embedder: Embedder, agent: str
) -> None:
    good = CorpusFile(name="notes.txt", format="txt", content=NOTES)
    bad = CorpusFile(
        name="bad.jsonl",
        format="jsonl",
        content=_jsonl({"text": "fine"}) + '{"title": "no text"}\n' + "{oops\n",
    )

    with pytest.raises(CorpusFileInvalid) as raised:
        await load_corpus_files(graph, embedder, agent, [good, bad])

    errors = raised.value.details["errors"]
    assert [(e["location"], e["type"]) for e in errors] == [
        (["file", "bad.jsonl", "line", 2, "text"], "missing"),
        (["file", "bad.jsonl", "line", 3], "json_invalid"),
    ]
    assert raised.value.message.startswith("bad.jsonl line 2: text:")
    assert (await list_corpus_documents(graph, agent)).count == 0


async def test_the_corpus_is_agent_scoped(
    graph: GraphClient, embedder: Embedder, agent: str, other_agent: str
) -> None:
    await load_corpus_files(
        graph, embedder, agent, [CorpusFile(name="guide.md", format="md", content=GUIDE)]
    )
    source = CorpusSource(graph, embedder)

    assert await source.search(agent, "peat smoke", limit=5)
    assert await source.search(other_agent, "peat smoke", limit=5) == []
    assert (await list_corpus_documents(graph, other_agent)).count == 0
    with pytest.raises(CorpusDocumentNotFound):
        await delete_corpus_document(graph, other_agent, "guide.md")
    removed = await delete_corpus_document(graph, agent, "guide.md")
    assert removed.removed_passages == 2
    assert await source.search(agent, "peat smoke", limit=5) == []


async def test_an_unknown_agent_is_refused(graph: GraphClient, embedder: Embedder) -> None:
    with pytest.raises(AgentNotFound):
        await load_corpus_files(
            graph, embedder, "no-such-agent", [CorpusFile(name="a.txt", format="txt", content="x")]
        )
    with pytest.raises(AgentNotFound):
        await list_corpus_documents(graph, "no-such-agent")


async def test_without_embeddings_passages_are_found_by_fulltext_until_loaded_again(
    graph: GraphClient, embedder: Embedder, agent: str
) -> None:
    report = await load_corpus_files(
        graph,
        UnavailableEmbedder(),
        agent,
        [CorpusFile(name="guide.md", format="md", content=GUIDE)],
    )

    assert not report.embedded
    found = await CorpusSource(graph, UnavailableEmbedder()).search(agent, "peat", limit=5)
    assert found and "Peat" in found[0].text
    again = await load_corpus_files(
        graph, embedder, agent, [CorpusFile(name="guide.md", format="md", content=GUIDE)]
    )
    assert again.embedded and again.files[0].replaced == 1


async def test_the_corpus_finds_both_sides_of_a_vitaminc_claim(
    graph: GraphClient, embedder: Embedder, agent: str
) -> None:
    path = find_vitaminc()
    if path is None:
        pytest.skip("no VitaminC data beside the repository (../shared/eval-data/vitaminc-dev)")
    rows = read_rows(path, limit=400)
    claims = contested_claims(rows)[:5]
    await load_corpus_files(
        graph,
        embedder,
        agent,
        [CorpusFile(name="vitaminc.jsonl", format="jsonl", content=corpus_jsonl(rows))],
    )
    source = CorpusSource(graph, embedder)

    for claim in claims:
        found = await source.search(agent, claim.claim, limit=10)
        refs = {p.origin for p in found}
        assert {r.origin for r in claim.supporting} & refs, claim.claim
        assert {r.origin for r in claim.refuting} & refs, claim.claim


async def test_deleting_the_agent_deletes_its_corpus(
    graph: GraphClient, embedder: Embedder, agent: str
) -> None:
    await load_corpus_files(
        graph, embedder, agent, [CorpusFile(name="guide.md", format="md", content=GUIDE)]
    )

    deletion = await delete_agent(graph, agent, default_agent_name="")

    assert deletion.nodes_deleted == 1 + 1 + 2  # the agent, the document, its two passages
    assert (
        await graph.read(
            "research/corpus/get_corpus_checksums", agent_id=agent, document_ids=["guide.md"]
        )
        == []
    )
