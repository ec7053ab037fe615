"""The research corpus of an agent: loading documents (validated, chunked, embedded, stored
per file in one transaction), listing and removing them, and searching their passages.

Loading is idempotent: a document is keyed by (agent, document id) and stored with a checksum of
its content, so loading the same file again writes nothing, and a changed document replaces its
passages. Passages are embedded with the app's embedder (in batches) and searched through the
agent-scoped vector index and the fulltext index's candidates scored by BM25 on the agent's own
passages, fused as the episode section of a context fuses them
(``cypher/research/search_corpus_passages.cypher``).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, Field

from app.embeddings.embedder import Embedder
from app.errors import CorpusDocumentNotFound
from app.graph.agent_scope import lock_agent, require_agent
from app.graph.client import GraphClient, Transaction
from app.research.sources.chunking import DEFAULT_MAX_CHARS
from app.research.sources.documents import CorpusDocumentIn, CorpusFile, read_corpus_files
from app.research.sources.protocol import Passage
from app.retrieval.lexical import CORPUS_PASSAGES
from app.retrieval.searches import SectionSearch
from app.retrieval.settings import RetrievalSettings
from app.text.lexical import scored_words
from app.text.lucene import lucene_terms

# Ids of corpus nodes are derived (uuid5) from the agent, the document id and the passage text,
# so the same text keeps its id across loads and an investigation recognises it.
_NAMESPACE = uuid.UUID("6f0b7d8e-4c1a-5b9e-9a55-2f3c1e7d0b16")
# Passages sent to Neo4j per query inside a file's transaction (a vector is 384 floats).
WRITE_BATCH = 500


class CorpusFileReport(BaseModel):
    """What loading one file did."""

    name: str
    format: str
    documents: int = Field(description="Documents in the file.")
    created: int = Field(description="Documents new to the agent.")
    replaced: int = Field(description="Documents loaded before with other content.")
    unchanged: int = Field(description="Documents loaded before with the same content.")
    passages: int = Field(description="Passages written now.")


class CorpusLoadReport(BaseModel):
    files: list[CorpusFileReport]
    embedded: bool = Field(
        description="False when embeddings are unavailable: passages are then found by "
        "fulltext only, until they are loaded again with embeddings."
    )


class CorpusDocument(BaseModel):
    """A document of the corpus as stored."""

    document_id: str
    name: str
    title: str
    origin: str
    published: date | None = None
    loaded_at: datetime
    checksum: str
    passages: int


class CorpusDocumentPage(BaseModel):
    data: list[CorpusDocument]
    count: int


class CorpusDeletion(BaseModel):
    document_id: str
    removed_passages: int


async def load_corpus_files(
    graph: GraphClient,
    embedder: Embedder,
    agent_id: str,
    files: Sequence[CorpusFile],
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    now: datetime | None = None,
) -> CorpusLoadReport:
    """Loads corpus files into an agent's corpus.

    Every file is read and validated first (nothing is written when any is invalid); then each
    file is written in its own transaction: new and changed documents with their passages,
    unchanged ones left alone.

    Args:
        files: the files, each with its format (``documents.format_of`` infers it from a name).
        max_chars: the longest passage.

    Returns:
        Per file: documents created, replaced and unchanged, and passages written.

    Raises:
        CorpusFileInvalid: a file or line is invalid (each problem with file and line).
        AgentNotFound: no such agent.
    """
    documents_per_file = read_corpus_files(list(files), max_chars)
    await require_agent(graph, agent_id)
    now = now or graph.clock.now()
    reports: list[CorpusFileReport] = []
    embedded = True
    for file, documents in zip(files, documents_per_file, strict=True):
        report, file_embedded = await _load_file(graph, embedder, agent_id, file, documents, now)
        reports.append(report)
        embedded = embedded and file_embedded
    return CorpusLoadReport(files=reports, embedded=embedded)


async def _load_file(
    graph: GraphClient,
    embedder: Embedder,
    agent_id: str,
    file: CorpusFile,
    documents: list[CorpusDocumentIn],
    now: datetime,
) -> tuple[CorpusFileReport, bool]:
    stored = {
        row["document_id"]: row["checksum"]
        for row in await graph.read(
            "research/corpus/get_corpus_checksums",
            agent_id=agent_id,
            document_ids=[d.document_id for d in documents],
        )
    }
    with_vectors = embedder.available
    changed = [d for d in documents if stored.get(d.document_id) != d.checksum(with_vectors)]
    texts = [embedding_text(d.title, text) for d in changed for text in d.passages]
    vectors = await embedder.embed(texts) if texts else []
    embedded = vectors is not None
    document_rows = [_document_row(agent_id, d, embedded) for d in changed]
    passage_rows = _passage_rows(agent_id, changed, vectors)

    async def write(tx: Transaction) -> list[dict[str, Any]]:
        await lock_agent(tx, agent_id)
        written = await tx.run(
            "research/corpus/replace_corpus_documents",
            agent_id=agent_id,
            documents=document_rows,
            now=now,
        )
        # Only documents the transaction found changed get passages (a concurrent load of the
        # same content may have stored them in between).
        wanted = {row["document_id"] for row in written}
        rows = [row for row in passage_rows if row["document_id"] in wanted]
        for start in range(0, len(rows), WRITE_BATCH):
            await tx.run(
                "research/corpus/create_corpus_passages",
                agent_id=agent_id,
                embedding_model=embedder.model_id,
                passages=rows[start : start + WRITE_BATCH],
            )
        return written

    written = (
        await graph.write_transaction(write, action=f"loading corpus file {file.name}")
        if changed
        else []
    )
    replaced = sum(1 for row in written if row["replaced"])
    wanted = {row["document_id"] for row in written}
    report = CorpusFileReport(
        name=file.name,
        format=file.format,
        documents=len(documents),
        created=len(written) - replaced,
        replaced=replaced,
        unchanged=len(documents) - len(written),
        passages=sum(len(d.passages) for d in changed if d.document_id in wanted),
    )
    return report, embedded


def _document_row(agent_id: str, document: CorpusDocumentIn, embedded: bool) -> dict[str, Any]:
    return {
        "id": document_node_id(agent_id, document.document_id),
        "document_id": document.document_id,
        "name": document.name,
        "title": document.title,
        "origin": document.origin,
        "published": document.published,
        "checksum": document.checksum(embedded),
        "passages": len(document.passages),
    }


def _passage_rows(
    agent_id: str, documents: list[CorpusDocumentIn], vectors: list[list[float]] | None
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for document in documents:
        node_id = document_node_id(agent_id, document.document_id)
        for ordinal, text in enumerate(document.passages):
            rows.append(
                {
                    "id": passage_id(node_id, ordinal, text),
                    "document_id": document.document_id,
                    "ordinal": ordinal,
                    "text": text,
                    # The words the corpus search scores it by (title and text).
                    **scored_words(document.title, text),
                    "embedding": vectors[len(rows)] if vectors else None,
                }
            )
    return rows


def embedding_text(title: str, text: str) -> str:
    """What a passage is embedded as: its document's title, then its text (a sentence of a page
    rarely names the page it is on)."""
    return text if not title or text.startswith(title) else f"{title}\n\n{text}"


def document_node_id(agent_id: str, document_id: str) -> str:
    """The graph id of an agent's document (stable: derived from the two ids)."""
    return str(uuid.uuid5(_NAMESPACE, f"{agent_id}\x00{document_id}"))


def passage_id(document_node_id: str, ordinal: int, text: str) -> str:
    """The id of a passage: the same while its document, place and text stay the same."""
    return str(uuid.uuid5(_NAMESPACE, f"{document_node_id}\x00{ordinal}\x00{text}"))


async def list_corpus_documents(
    graph: GraphClient, agent_id: str, *, skip: int = 0, limit: int = 50
) -> CorpusDocumentPage:
    """A page of the agent's corpus documents (latest loaded first) with their passage counts.

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read(
        "research/corpus/list_corpus_documents", agent_id=agent_id, skip=skip, limit=limit
    )
    if not rows:
        await require_agent(graph, agent_id)
        return CorpusDocumentPage(data=[], count=0)
    return CorpusDocumentPage(
        data=[CorpusDocument.model_validate(row) for row in rows[0]["documents"]],
        count=rows[0]["count"],
    )


async def delete_corpus_document(
    graph: GraphClient, agent_id: str, document_id: str
) -> CorpusDeletion:
    """Removes a document and its passages from the agent's corpus.

    Raises:
        AgentNotFound: no such agent.
        CorpusDocumentNotFound: the agent has no such document.
    """

    async def delete(tx: Transaction) -> list[dict[str, Any]]:
        await lock_agent(tx, agent_id)
        return await tx.run(
            "research/corpus/delete_corpus_document", agent_id=agent_id, document_id=document_id
        )

    rows = await graph.write_transaction(delete, action="deleting a corpus document")
    if not rows:
        raise CorpusDocumentNotFound(document_id, agent_id)
    return CorpusDeletion.model_validate(rows[0])


class CorpusSource:
    """The agent's loaded corpus as a research source (``corpus``): passages from the vector
    index and the agent's own BM25 lexical hits, fused by score as the context's episode section
    fuses them."""

    name = "corpus"

    def __init__(
        self,
        graph: GraphClient,
        embedder: Embedder,
        settings: RetrievalSettings | None = None,
    ) -> None:
        self._graph = graph
        self._embedder = embedder
        self._settings = settings or RetrievalSettings()

    async def search(self, agent_id: str, query: str, *, limit: int) -> list[Passage]:
        """At most ``limit`` of the agent's passages about ``query``, best first. The lexical
        half is scored by BM25 on the agent's own passages (``app/retrieval/lexical.py``), read
        while the query is embedded."""
        if limit < 1 or not query.strip():
            return []
        search = SectionSearch(
            graph=self._graph,
            settings=self._settings,
            agent_id=agent_id,
            text=query,
            k=limit,
            mode="fused",
            now=self._graph.clock.now(),
            embedding_model=self._embedder.model_id,
            embedding=None,
            terms=lucene_terms(query),
        )
        w = search.weights()
        lexical, embedding = await asyncio.gather(
            search.short_lexical(CORPUS_PASSAGES, w["fulltext_on"]),
            self._embedder.embed_one(query),
        )
        if search.terms is None and embedding is None:
            return []
        rows = await self._graph.read(
            "research/search_corpus_passages",
            w=w,
            lexical=lexical,
            **replace(search, embedding=embedding).common(),
        )
        return [
            Passage(
                kind="corpus",
                ref=row["id"],
                title=row["title"],
                origin=row["origin"],
                published=row["published"],
                text=row["text"],
                score=float(row["score"]),
            )
            for row in rows
        ]
