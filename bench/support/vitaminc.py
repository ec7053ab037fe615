"""The VitaminC development slice as a research corpus, for bench/research_vitaminc.py.

The data sits beside the repository (``<repo>/../shared/eval-data/vitaminc-dev/``, see its
SOURCE.md); $VITAMINC_DEV_FILE names another file; without either, the repository's first 400
rows (``tests/fixtures/vitaminc/``, data only). Each row of the file is ``{page, evidence, claim,
label}``; in the corpus every evidence sentence is one JSONL document ``{"id": "vitaminc-<row>",
"title": <page>, "origin": "vitaminc:<page>#<row>", "text": <evidence>}``, ``<row>`` the 0-based
line number.

    from bench.support.vitaminc import corpus_jsonl, find_vitaminc, read_rows
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LABELS = ("SUPPORTS", "REFUTES", "NOT_ENOUGH_INFO")
DEFAULT_DATA = ROOT.parent / "shared" / "eval-data" / "vitaminc-dev" / "vitaminc_dev.jsonl"
FIXTURE_DATA = ROOT / "tests" / "fixtures" / "vitaminc" / "vitaminc_dev_head.jsonl"


@dataclass(frozen=True)
class VitaminCRow:
    row: int
    page: str
    claim: str
    evidence: str
    label: str

    @property
    def document_id(self) -> str:
        return f"vitaminc-{self.row}"

    @property
    def origin(self) -> str:
        return f"vitaminc:{self.page}#{self.row}"


def find_vitaminc(path: Path | None = None) -> Path | None:
    """The data file (``path``, else $VITAMINC_DEV_FILE, else the shared eval data, else the
    repository's first 400 rows), or None when none is there."""
    if path is not None or "VITAMINC_DEV_FILE" in os.environ:
        candidate = path or Path(os.environ["VITAMINC_DEV_FILE"])
        return candidate if candidate.is_file() else None
    for candidate in (DEFAULT_DATA, FIXTURE_DATA):
        if candidate.is_file():
            return candidate
    return None


def read_rows(path: Path, limit: int | None = None) -> list[VitaminCRow]:
    """The rows of the data file, in order (at most ``limit``)."""
    rows: list[VitaminCRow] = []
    with path.open(encoding="utf-8") as handle:
        for index, line in enumerate(handle):
            if limit is not None and index >= limit:
                break
            if not line.strip():
                continue
            record = json.loads(line)
            if record["label"] not in LABELS:
                raise ValueError(f"{path}:{index + 1}: unknown label {record['label']!r}")
            rows.append(
                VitaminCRow(
                    index, record["page"], record["claim"], record["evidence"], record["label"]
                )
            )
    return rows


def corpus_jsonl(rows: Iterable[VitaminCRow]) -> str:
    """One corpus document (a JSONL line) per evidence sentence of ``rows``."""
    return "".join(
        json.dumps(
            {"id": row.document_id, "title": row.page, "origin": row.origin, "text": row.evidence},
            ensure_ascii=False,
        )
        + "\n"
        for row in rows
    )
