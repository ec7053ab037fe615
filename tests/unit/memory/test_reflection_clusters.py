"""Reflection's clustering (scipy average linkage cut at 1 - similarity) gives the clusters of
the greedy average-linkage merge it replaced, kept here as the reference."""

from __future__ import annotations

import numpy as np
import pytest

from app.memory.reflection.clustering import cluster_by_similarity


def _reference(vectors: np.ndarray, threshold: float) -> list[list[int]]:
    """Merge the two clusters with the highest mean cosine while it is >= threshold."""
    count = len(vectors)
    if count == 0:
        return []
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = vectors / np.where(norms == 0.0, 1.0, norms)
    similarity = unit @ unit.T
    similarity = (similarity + similarity.T) / 2.0
    np.fill_diagonal(similarity, -np.inf)
    sizes = np.ones(count)
    members: list[list[int]] = [[i] for i in range(count)]
    for _ in range(count - 1):
        first, second = divmod(int(np.argmax(similarity)), count)
        if similarity[first, second] < threshold:
            break
        keep, gone = min(first, second), max(first, second)
        merged = (sizes[keep] * similarity[keep] + sizes[gone] * similarity[gone]) / (
            sizes[keep] + sizes[gone]
        )
        similarity[keep, :] = merged
        similarity[:, keep] = merged
        similarity[keep, keep] = -np.inf
        similarity[gone, :] = -np.inf
        similarity[:, gone] = -np.inf
        sizes[keep] += sizes[gone]
        members[keep].extend(members[gone])
        members[gone] = []
    return sorted((sorted(group) for group in members if group), key=lambda group: group[0])


@pytest.mark.parametrize("seed", range(40))
def test_scipy_clusters_equal_the_greedy_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(25):
        count, dimensions = int(rng.integers(0, 30)), int(rng.integers(2, 10))
        centres = rng.normal(size=(4, dimensions))
        spread = rng.uniform(0.05, 1.0)
        vectors = centres[rng.integers(0, 4, size=count)] + rng.normal(
            scale=spread, size=(count, dimensions)
        )
        threshold = float(rng.uniform(0.1, 0.95))
        assert cluster_by_similarity(vectors, threshold) == _reference(vectors, threshold)


def test_none_one_and_two_episodes() -> None:
    assert cluster_by_similarity(np.zeros((0, 3)), 0.6) == []
    assert cluster_by_similarity([[1.0, 0.0]], 0.6) == [[0]]
    assert cluster_by_similarity([[1.0, 0.0], [0.9, 0.1]], 0.6) == [[0, 1]]
    assert cluster_by_similarity([[1.0, 0.0], [0.0, 1.0]], 0.6) == [[0], [1]]


def test_a_zero_vector_stays_alone() -> None:
    assert cluster_by_similarity([[0.0, 0.0], [1.0, 0.0], [1.0, 0.01]], 0.5) == [[0], [1, 2]]
