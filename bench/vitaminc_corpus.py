"""The VitaminC research corpus for benches: the builder lives in
``tests/support/vitaminc_corpus.py`` (shared with the research tests); run benches from the
repository root with ``PYTHONPATH=.`` so it imports.

    from bench.vitaminc_corpus import build_corpus, contested_claims, read_rows
"""

from __future__ import annotations

from tests.support.vitaminc_corpus import (
    DEFAULT_DATA,
    ContestedClaim,
    VitaminCRow,
    build_corpus,
    contested_claims,
    corpus_documents,
    corpus_jsonl,
    find_vitaminc,
    read_rows,
    write_corpus,
)

__all__ = [
    "DEFAULT_DATA",
    "ContestedClaim",
    "VitaminCRow",
    "build_corpus",
    "contested_claims",
    "corpus_documents",
    "corpus_jsonl",
    "find_vitaminc",
    "read_rows",
    "write_corpus",
]
