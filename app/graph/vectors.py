"""Vectors as Bolt parameters.

A list of 384 Python floats is sent as 384 tagged values; the driver's ``Vector`` (float32) goes
as one packed byte string, about ten times faster for a batch of embeddings (and ~0.6 ms less
a search for one query vector). Cypher turns it back into a list with ``toFloatList(...)`` where
a list is stored (``setNodeVectorProperty``), so the stored property stays a float32 array, as
the vector indexes read it; ``SEARCH ... FOR`` and ``vector.similarity.cosine`` take it as it
is.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from neo4j.vector import Vector


def vector_param(values: Sequence[float] | None) -> Vector | None:
    """A float32 vector parameter (None stays None)."""
    if values is None:
        return None
    return Vector(np.asarray(values, dtype=">f4"))
