"""Reading the files of a research corpus into documents, validated whole before anything is
written.

Formats (chosen by the file's suffix unless given):

- ``txt`` (``.txt``, ``.text``): the file is one document; its id is the file name, its title
  the file name without the suffix.
- ``md`` (``.md``, ``.markdown``): one document, split into passages at headings and paragraphs;
  its title is the first heading (else the file name without the suffix).
- ``jsonl`` (``.jsonl``, ``.ndjson``): one document per line, a JSON object with ``text``
  (required) and optionally ``id`` (default ``<file name>:<line>``), ``title`` (default: the id),
  ``origin`` or ``url`` (default ``<file name>:<line>``) and ``published`` or ``date`` (an ISO
  date or date-time). Other fields are ignored; blank lines are skipped.

Document ids are kept to ``[A-Za-z0-9][A-Za-z0-9._:@+=~-]*`` (at most 200 characters) so that
they travel in a URL path as they are; a file name that is not one is made into one by replacing
other characters with ``-`` and adding ``~`` and 8 hex digits of the name's SHA-256 before the
suffix (:func:`file_document_id`), so that different names never share an id: loading a file
replaces only the document of a file of the same name.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import date, datetime
from pathlib import PurePath
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from app.errors import (
    CorpusFileInvalid,
    ErrorEntry,
    error_entry,
    file_location,
    validation_entries,
)
from app.research.sources.chunking import (
    DEFAULT_MAX_CHARS,
    chunk_markdown,
    chunk_text,
    markdown_title,
)

CorpusFormat = Literal["txt", "md", "jsonl"]
FORMAT_BY_SUFFIX: dict[str, CorpusFormat] = {
    ".txt": "txt",
    ".text": "txt",
    ".md": "md",
    ".markdown": "md",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
DOCUMENT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@+=~-]{0,199}$"
_DOCUMENT_ID = re.compile(DOCUMENT_ID_PATTERN)
_NOT_ID = re.compile(r"[^A-Za-z0-9._:@+=~-]+")
MAX_TITLE_CHARS = 500
# The longest suffix a file name's document id keeps.
_MAX_SUFFIX_CHARS = 20
MAX_ORIGIN_CHARS = 2000
# Problems listed per load before the rest are only counted.
MAX_LISTED_ERRORS = 50
UTF8_BOM = "\ufeff"


class CorpusFile(BaseModel):
    """One file to load: its name (the last path component is kept), format and content."""

    name: str = Field(min_length=1, max_length=255)
    format: CorpusFormat
    content: str


class CorpusDocumentIn(BaseModel):
    """A document read from a corpus file and its passages, ready to store."""

    document_id: str
    name: str = Field(description="The file it came from.")
    title: str
    origin: str
    published: date | None
    text: str
    passages: list[str]
    line: int = Field(default=0, description="Its line in a JSONL file (0: the whole file).")

    def checksum(self, embedded: bool = True) -> str:
        """SHA-256 of what is stored of the document (``embedded``: with vectors): loading it
        again with the same checksum changes nothing, and a document stored without vectors is
        stored again once embeddings work."""
        payload = json.dumps(
            [self.name, self.title, self.origin, str(self.published or ""), self.passages]
            + ([] if embedded else ["without embeddings"]),
            ensure_ascii=False,
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class _JsonlLine(BaseModel):
    model_config = ConfigDict(extra="ignore")

    text: str = Field(min_length=1)
    id: str | int | None = None
    title: str | None = Field(default=None, max_length=MAX_TITLE_CHARS)
    origin: str | None = Field(default=None, max_length=MAX_ORIGIN_CHARS)
    url: str | None = Field(default=None, max_length=MAX_ORIGIN_CHARS)
    published: date | None = None
    dated: date | None = Field(default=None, alias="date")

    @field_validator("published", "dated", mode="before")
    @classmethod
    def _iso_date(cls, value: object) -> object:
        if value is None or isinstance(value, date):
            return value
        try:
            return datetime.fromisoformat(str(value)).date()
        except ValueError:
            raise ValueError(f"{value!r} is not an ISO date (YYYY-MM-DD) or date-time") from None

    @field_validator("text")
    @classmethod
    def _has_words(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("text is blank")
        return value


def format_of(name: str) -> CorpusFormat | None:
    """The format a file name's suffix implies (None for an unknown suffix)."""
    return FORMAT_BY_SUFFIX.get(PurePath(name).suffix.lower())


def file_document_id(name: str) -> str:
    """A document id made from a file name: the name itself when it is one, else the name with
    characters outside the id alphabet made ``-`` and a short hash of the name before its
    suffix (``a b.txt`` -> ``a-b~<8 hex>.txt``, ``日本.txt`` -> ``document~<8 hex>.txt``), so
    that two names never clean to the same id (a later upload of the other would replace it)."""
    base = PurePath(name).name
    if _DOCUMENT_ID.match(base):
        return base
    path = PurePath(base)
    digest = hashlib.sha256(base.encode("utf-8")).hexdigest()[:8]
    suffix = _NOT_ID.sub("-", path.suffix)[:_MAX_SUFFIX_CHARS]
    stem = _NOT_ID.sub("-", path.stem).strip("._:@+=~-") or "document"
    return f"{stem[: 200 - len(digest) - 1 - len(suffix)]}~{digest}{suffix}"


def read_corpus_files(
    files: list[CorpusFile], max_chars: int = DEFAULT_MAX_CHARS
) -> list[list[CorpusDocumentIn]]:
    """The documents of each file, in order.

    Raises:
        CorpusFileInvalid: any file or line is invalid, or two documents share an id; every
            problem is listed (located ``["file", <name>, "line", <n>, <field>]``) and nothing
            is returned.
    """
    errors: list[ErrorEntry] = []
    read: list[list[CorpusDocumentIn]] = []
    seen: dict[str, tuple[str, int]] = {}
    for file in files:
        documents = _read_file(file, max_chars, errors)
        for document in documents:
            first = seen.get(document.document_id)
            seen.setdefault(document.document_id, (document.name, document.line))
            if first is not None:
                errors.append(
                    _problem(
                        document.name,
                        document.line,
                        "id",
                        f"document id {document.document_id!r} is used twice (first in "
                        f"{first[0]}{f' line {first[1]}' if first[1] else ''})",
                        "duplicate_id",
                    )
                )
        read.append(documents)
    if errors:
        listed = errors[:MAX_LISTED_ERRORS]
        if len(errors) > MAX_LISTED_ERRORS:
            more = f"{len(errors) - MAX_LISTED_ERRORS} more problems"
            listed.append(error_entry([], more, "too_many_errors"))
        raise CorpusFileInvalid(listed)
    return read


def _read_file(
    file: CorpusFile, max_chars: int, errors: list[ErrorEntry]
) -> list[CorpusDocumentIn]:
    name = PurePath(file.name).name
    # One leading byte-order mark (editors on Windows write one) is not text.
    content = file.content.removeprefix(UTF8_BOM)
    if file.format == "jsonl":
        return _read_jsonl(name, content, max_chars, errors)
    if not content.strip():
        errors.append(_problem(name, 0, "", "the file has no text", "empty_file"))
        return []
    if file.format == "md":
        passages = chunk_markdown(content, max_chars)
        title = markdown_title(content) or PurePath(name).stem
    else:
        passages = chunk_text(content, max_chars)
        title = PurePath(name).stem
    return [
        CorpusDocumentIn(
            document_id=file_document_id(name),
            name=name,
            title=title[:MAX_TITLE_CHARS],
            origin=name,
            published=None,
            text=content,
            passages=passages,
        )
    ]


def _read_jsonl(
    name: str, content: str, max_chars: int, errors: list[ErrorEntry]
) -> list[CorpusDocumentIn]:
    documents: list[CorpusDocumentIn] = []
    for number, raw in enumerate(content.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as error:
            errors.append(_problem(name, number, "", f"not JSON: {error.msg}", "json_invalid"))
            continue
        if not isinstance(value, dict):
            errors.append(_problem(name, number, "", "not a JSON object", "object_type"))
            continue
        try:
            line = _JsonlLine.model_validate(value)
        except ValidationError as error:
            errors.extend(validation_entries(error.errors(), file_location(name, line=number)))
            continue
        document_id = str(line.id) if line.id is not None else f"{file_document_id(name)}:{number}"
        if not _DOCUMENT_ID.match(document_id):
            errors.append(
                _problem(
                    name,
                    number,
                    "id",
                    f"{document_id!r} is not a document id (letters, digits and ._:@+=~-, "
                    "starting with a letter or digit, at most 200 characters)",
                    "invalid_document_id",
                )
            )
            continue
        published = line.published or line.dated
        documents.append(
            CorpusDocumentIn(
                document_id=document_id,
                name=name,
                title=line.title or document_id,
                origin=line.origin or line.url or f"{name}:{number}",
                published=published,
                text=line.text,
                passages=chunk_text(line.text, max_chars),
                line=number,
            )
        )
    if not documents and not any(e["location"][1:2] == [name] for e in errors):
        errors.append(_problem(name, 0, "", "the file has no documents", "no_documents"))
    return documents


def _problem(file: str, line: int, field: str, message: str, type: str) -> ErrorEntry:
    """A problem of a corpus file, at ``line`` (0: the file as a whole) and ``field`` (if any)."""
    return error_entry(file_location(file, *([field] if field else []), line=line), message, type)
