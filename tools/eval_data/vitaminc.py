"""A research corpus built from the VitaminC development slice (``../shared/eval-data/
vitaminc-dev/``, see its SOURCE.md), for the research tests and the research bench (both import
it from here; neither imports the other).

Each row of ``vitaminc_dev.jsonl`` is ``{page, evidence, claim, label}``. In the corpus every
evidence sentence is one document (JSONL, the format ``credence research sources add`` takes):
``{"id": "vitaminc-<row>", "title": <page>, "origin": "vitaminc:<page>#<row>", "text":
<evidence>}``, no date; ``<row>`` is the 0-based line number in the data file. A claim with both
a SUPPORTS and a REFUTES row is a real source conflict: ``contested_claims`` picks those.
``balanced_sample`` draws the research bench's sample: a quarter each of confirmed, refuted,
contested and NOT_ENOUGH_INFO claims, the one-sided ones made by leaving one side of a contested
claim out of the corpus.

The data sits beside the repository (``<repo>/../shared/eval-data``); $VITAMINC_DEV_FILE names
another file; a clone without either (CI) reads the repository's first 400 rows
(``tests/fixtures/vitaminc/``, data only).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LABELS = ("SUPPORTS", "REFUTES", "NOT_ENOUGH_INFO")
DEFAULT_DATA = ROOT.parent / "shared" / "eval-data" / "vitaminc-dev" / "vitaminc_dev.jsonl"


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


@dataclass(frozen=True)
class ContestedClaim:
    """A claim with evidence on both sides (rows in file order)."""

    claim: str
    page: str
    supporting: list[VitaminCRow] = field(default_factory=list)
    refuting: list[VitaminCRow] = field(default_factory=list)

    @property
    def rows(self) -> list[VitaminCRow]:
        return sorted([*self.supporting, *self.refuting], key=lambda row: row.row)


# The first 400 rows, in the repository (tests/fixtures/vitaminc/SOURCE.md): what the tests use
# when the shared data is not beside the clone.
FIXTURE_DATA = ROOT / "tests" / "fixtures" / "vitaminc" / "vitaminc_dev_head.jsonl"


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


def contested_claims(rows: Iterable[VitaminCRow]) -> list[ContestedClaim]:
    """The claims that have both a SUPPORTS and a REFUTES row, in order of first appearance."""
    by_claim: dict[str, ContestedClaim] = {}
    for row in rows:
        claim = by_claim.setdefault(row.claim, ContestedClaim(row.claim, row.page))
        if row.label == "SUPPORTS":
            claim.supporting.append(row)
        elif row.label == "REFUTES":
            claim.refuting.append(row)
    return [c for c in by_claim.values() if c.supporting and c.refuting]


def corpus_documents(rows: Iterable[VitaminCRow]) -> list[dict[str, Any]]:
    """One corpus document (a JSONL object) per evidence sentence."""
    return [
        {"id": row.document_id, "title": row.page, "origin": row.origin, "text": row.evidence}
        for row in rows
    ]


def corpus_jsonl(rows: Iterable[VitaminCRow]) -> str:
    """The corpus of ``rows`` as JSONL text."""
    return "".join(json.dumps(doc, ensure_ascii=False) + "\n" for doc in corpus_documents(rows))


def write_corpus(rows: Sequence[VitaminCRow], target: Path) -> Path:
    """Writes the corpus of ``rows`` to ``target`` (a ``.jsonl`` file) and returns it."""
    target.write_text(corpus_jsonl(rows), encoding="utf-8")
    return target


def build_corpus(
    target: Path, *, source: Path | None = None, limit: int | None = None
) -> tuple[Path, list[ContestedClaim]] | None:
    """Writes the corpus of the whole data file (or its first ``limit`` rows) to ``target``;
    returns it with the contested claims, or None when the data is not there."""
    path = find_vitaminc(source)
    if path is None:
        return None
    rows = read_rows(path, limit)
    return write_corpus(rows, target), contested_claims(rows)


SentenceRows = dict[tuple[str, str], VitaminCRow]


def expected_verdict(labels: set[str]) -> str:
    """What an investigation of a claim should end in, from the labels of its sentences in the
    corpus: ``confirmed`` / ``refuted`` for one side only, ``contested`` for both (the honest
    end is undecided after recording the conflict), ``undecided`` for NOT_ENOUGH_INFO only."""
    if "SUPPORTS" in labels and "REFUTES" in labels:
        return "contested"
    if "SUPPORTS" in labels:
        return "confirmed"
    if "REFUTES" in labels:
        return "refuted"
    return "undecided"


# What a contested claim of the slice becomes in the balanced sample: the labels left out.
BALANCED_CLASSES = {"confirmed": "REFUTES", "refuted": "SUPPORTS", "contested": None}


def balanced_sample(
    by_claim: dict[str, list[VitaminCRow]], pool: list[str], count: int, generator: random.Random
) -> tuple[list[str], SentenceRows]:
    """A quarter each (``count // 4``) of confirmed, refuted, contested and NOT_ENOUGH_INFO
    claims. The claims are taken in the generator's order. A one-sided claim of the slice fills
    its own class; a contested one is given the class that has the fewest claims so far (ties:
    confirmed, refuted, contested) and that its sentences allow: confirmed leaves its REFUTES
    sentences out of the corpus, refuted its SUPPORTS ones, contested keeps both. A sentence one
    claim keeps is never one another claim leaves out, so every claim's expected verdict is the
    class it was given; a claim whose sentences fit no class still open is skipped. Returns the
    claims (in the generator's order) and the corpus' sentences by (page, evidence)."""
    quota = count // 4
    taken: dict[str, list[str]] = {name: [] for name in (*BALANCED_CLASSES, "undecided")}
    kept: SentenceRows = {}
    left_out: set[tuple[str, str]] = set()
    order = generator.sample(pool, len(pool))
    for claim in order:
        labels = {row.label for row in by_claim[claim]}
        natural = expected_verdict(labels)
        options = list(BALANCED_CLASSES) if natural == "contested" else [natural]
        options = [name for name in options if len(taken[name]) < quota]
        for name in sorted(options, key=lambda name: len(taken[name])):
            dropped = BALANCED_CLASSES.get(name)
            keep = {(r.page, r.evidence): r for r in by_claim[claim] if r.label != dropped}
            leave = {(r.page, r.evidence) for r in by_claim[claim] if r.label == dropped}
            if keep.keys() & left_out or leave & kept.keys():
                continue
            taken[name].append(claim)
            left_out |= leave
            for key, row in keep.items():
                kept.setdefault(key, row)
            break
        if all(len(chosen) >= quota for chosen in taken.values()):
            break
    chosen = {claim for claims in taken.values() for claim in claims}
    return [claim for claim in order if claim in chosen], kept
