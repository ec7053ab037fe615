"""A persistent cache of sentence vectors (SQLite, keyed by model and text).

A model maps the same text to the same vector, so pack statements, seed beliefs and repeated
queries are embedded once per machine: a birth that loads packs already seen reuses their vectors
instead of running the model again. The cache is an optimisation only: when it cannot be opened
or written, embeddings are computed as usual.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)


class VectorCache:
    def __init__(self, path: Path, model_id: str, dimensions: int) -> None:
        self.path = path
        self.model_id = model_id
        self.dimensions = dimensions
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._broken = False

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is not None or self._broken:
            return self._db
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, check_same_thread=False, timeout=5.0)
            db.execute("PRAGMA journal_mode=WAL")
            # A write waits for no fsync (WAL's commits reach the disk at its checkpoints): a
            # query's new vector is stored on the request's path, and FULL took 0.25 ms at p50,
            # 3.2 at p95 a write here. A crash may lose the last writes, never the file: a lost
            # vector is only embedded again.
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)"
            )
            self._db = db
        except (OSError, sqlite3.Error) as error:
            log.warning("vector cache %s unavailable (%s); embedding without it", self.path, error)
            self._broken = True
        return self._db

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.model_id}\0{text}".encode()).hexdigest()

    def get_many(self, texts: Sequence[str]) -> list[list[float] | None]:
        with self._lock:
            db = self._connect()
            if db is None:
                return [None] * len(texts)
            keys = [self._key(text) for text in texts]
            found: dict[str, bytes] = {}
            try:
                for start in range(0, len(keys), 500):
                    chunk = keys[start : start + 500]
                    marks = ",".join("?" * len(chunk))
                    rows = db.execute(
                        f"SELECT key, vector FROM vectors WHERE key IN ({marks})",  # noqa: S608
                        chunk,
                    ).fetchall()
                    found.update({key: blob for key, blob in rows})
            except sqlite3.Error as error:
                log.warning("vector cache read failed: %s", error)
                return [None] * len(texts)
        out: list[list[float] | None] = []
        for key in keys:
            blob = found.get(key)
            if blob is None or len(blob) != 4 * self.dimensions:
                out.append(None)
            else:
                out.append(np.frombuffer(blob, dtype=np.float32).astype(float).tolist())
        return out

    def put_many(self, texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        rows = [
            (self._key(text), np.asarray(vector, dtype=np.float32).tobytes())
            for text, vector in zip(texts, vectors, strict=True)
        ]
        with self._lock:
            db = self._connect()
            if db is None:
                return
            try:
                with db:
                    db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)
            except sqlite3.Error as error:
                log.warning("vector cache write failed: %s", error)
