"""Research sources of an agent (issue 16): the documents loaded into its research corpus, and
a search across its sources that shows what an investigation would find."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator, model_validator

from app.api.deps import AgentIdDep, EmbedderDep, GraphDep, ResearchSourcesDep, SkipQuery
from app.api.openapi import ErrorResponse
from app.errors import PayloadTooLarge
from app.research.sources import corpus
from app.research.sources.documents import (
    DOCUMENT_ID_PATTERN,
    CorpusFile,
    CorpusFormat,
    format_of,
)
from app.research.sources.protocol import PassageKind
from app.research.sources.registry import search_agent_sources
from app.retrieval.models import MAX_QUERY_CHARS

router = APIRouter(prefix="/v1/agents/{agent_id}/research", tags=["research"])

# The most text one upload may carry (characters over all files): a bigger corpus is loaded in
# several requests, or with the CLI.
MAX_UPLOAD_CHARS = 10_000_000
_TOO_LARGE: dict[int | str, dict[str, Any]] = {
    413: {
        "model": ErrorResponse,
        "description": f"The files carry more than {MAX_UPLOAD_CHARS} characters in all.",
    }
}
DocumentId = Annotated[str, Path(min_length=1, max_length=200, pattern=DOCUMENT_ID_PATTERN)]


# --- API schemas ------------------------------------------------------------------------------


class CorpusFileIn(BaseModel):
    """One file of an upload: its content as text, in a format given or implied by its name."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(
        min_length=1,
        max_length=255,
        pattern=r"^[^/\\\x00-\x1f]+$",
        description="The file name (no directories); a txt or md file's document id is made "
        "from it.",
    )
    format: CorpusFormat | None = Field(
        default=None, description="txt, md or jsonl; default: from the name's suffix."
    )
    content: str = Field(min_length=1, description="The file's text (UTF-8).")

    @model_validator(mode="after")
    def _known_format(self) -> CorpusFileIn:
        if self.format is None and format_of(self.name) is None:
            raise ValueError(
                "format: give txt, md or jsonl, or a name ending in .txt, .md or .jsonl"
            )
        return self


class CorpusUploadIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    files: list[CorpusFileIn] = Field(min_length=1, max_length=100)


class CorpusFilePublic(BaseModel):
    name: str
    format: str
    documents: int
    created: int
    replaced: int
    unchanged: int
    passages: int


class CorpusLoadPublic(BaseModel):
    files: list[CorpusFilePublic]
    embedded: bool


class CorpusDocumentPublic(BaseModel):
    document_id: str
    name: str
    title: str
    origin: str
    published: date | None
    loaded_at: datetime
    checksum: str
    passages: int


class CorpusDocumentsPublic(BaseModel):
    data: list[CorpusDocumentPublic]
    count: int


class CorpusDeletionPublic(BaseModel):
    document_id: str
    removed_passages: int


class ResearchSearchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    sources: list[Annotated[str, Field(min_length=1, max_length=64)]] | None = Field(
        default=None, max_length=20, description="Source names (default: every source)."
    )
    limit: StrictInt = Field(default=5, ge=1, le=50, description="Passages per source.")

    @field_validator("query")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value


class PassagePublic(BaseModel):
    source: str
    kind: PassageKind
    ref: str
    title: str
    origin: str
    text: str
    published: date | None
    score: float


class ResearchSearchPublic(BaseModel):
    query: str
    sources: list[str]
    passages: list[PassagePublic]
    failures: dict[str, str] = Field(
        description="The sources that failed, by name, each with why (`Type: message`); a part "
        "of a source that failed alone is `<source>/<part>`, e.g. `tools/library.search` for "
        "one search tool of the `tools` source (docs/research.md)."
    )


# --- routes -----------------------------------------------------------------------------------


@router.post("/sources", responses=_TOO_LARGE)
async def add_sources(
    graph: GraphDep, embedder: EmbedderDep, agent_id: AgentIdDep, body: CorpusUploadIn
) -> CorpusLoadPublic:
    """Load files into the agent's research corpus (validated whole; idempotent)."""
    size = sum(len(file.content) for file in body.files)
    if size > MAX_UPLOAD_CHARS:
        raise PayloadTooLarge("the upload", size, MAX_UPLOAD_CHARS)
    files = [
        CorpusFile(
            name=file.name,
            format=file.format or format_of(file.name) or "txt",
            content=file.content,
        )
        for file in body.files
    ]
    report = await corpus.load_corpus_files(graph, embedder, agent_id, files)
    return CorpusLoadPublic.model_validate(report.model_dump())


@router.get("/sources")
async def list_sources(
    graph: GraphDep,
    agent_id: AgentIdDep,
    skip: SkipQuery = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> CorpusDocumentsPublic:
    """The agent's corpus documents with their passage counts, latest loaded first."""
    page = await corpus.list_corpus_documents(graph, agent_id, skip=skip, limit=limit)
    return CorpusDocumentsPublic.model_validate(page.model_dump())


@router.delete("/sources/{document_id}")
async def remove_source(
    graph: GraphDep, agent_id: AgentIdDep, document_id: DocumentId
) -> CorpusDeletionPublic:
    """Remove a document and its passages from the agent's corpus."""
    deletion = await corpus.delete_corpus_document(graph, agent_id, document_id)
    return CorpusDeletionPublic.model_validate(deletion.model_dump())


@router.post("/search")
async def search_sources(
    graph: GraphDep,
    sources: ResearchSourcesDep,
    agent_id: AgentIdDep,
    body: ResearchSearchIn,
) -> ResearchSearchPublic:
    """Search the agent's research sources as an investigation would (writes nothing)."""
    found = await search_agent_sources(
        graph, sources, agent_id, body.query, body.limit, sources=body.sources
    )
    return ResearchSearchPublic.model_validate(found.model_dump())
