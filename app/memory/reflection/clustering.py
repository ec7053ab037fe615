"""Average-linkage clustering of episode vectors by cosine similarity, and the measures of a
cluster (cohesion, its most central members). Pure numpy / scipy; deterministic."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: np.ndarray = vectors / np.where(norms == 0.0, 1.0, norms)
    return unit


def cluster_by_similarity(
    vectors: Sequence[Sequence[float]] | np.ndarray, threshold: float
) -> list[list[int]]:
    """Average-linkage agglomerative clustering by cosine similarity (scipy); pure and
    deterministic.

    Clusters merge while their mean pairwise cosine is at least ``threshold``: average linkage
    has no inversions, so cutting scipy's full tree at cosine distance ``1 - threshold`` gives
    exactly those clusters.

    Returns:
        Every input index in exactly one cluster; each cluster sorted, clusters ordered by
        their first index.
    """
    # scipy (~0.3 s of CPU to import) is imported by the processes that reflect, not by every
    # process that imports the runtime (each `credence` command on it).
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import squareform

    count = len(vectors)
    if count <= 1:
        return [[0]] if count else []
    unit = unit_rows(np.asarray(vectors, dtype=np.float64))
    # A zero vector is at distance 1 from everything (similarity 0), as the reasoner expects.
    distance = np.clip(1.0 - unit @ unit.T, 0.0, 2.0)
    distance = (distance + distance.T) / 2.0
    np.fill_diagonal(distance, 0.0)
    tree = linkage(squareform(distance, checks=False), method="average")
    labels = fcluster(tree, t=1.0 - threshold, criterion="distance")
    groups: dict[int, list[int]] = {}
    for index, label in enumerate(labels):
        groups.setdefault(int(label), []).append(index)
    return sorted(groups.values(), key=lambda group: group[0])


def cohesion(unit: np.ndarray) -> float:
    size = len(unit)
    if size < 2:
        return 1.0
    pairwise = unit @ unit.T
    return float((pairwise.sum() - np.trace(pairwise)) / (size * (size - 1)))


def central(unit: np.ndarray, limit: int) -> list[int]:
    """Positions of the ``limit`` rows closest to the centroid, in their original order."""
    if len(unit) <= limit:
        return list(range(len(unit)))
    closeness = unit @ unit.mean(axis=0)
    ranked = sorted(range(len(unit)), key=lambda i: (-float(closeness[i]), i))
    return sorted(ranked[:limit])
