"""Which capability a turn's outcome exercises (docs/memory.md §6), from the declared map in
``seeds/self.yaml`` (``capability_map``): the work unit's verb first — the whole verb, then its
first word ("reconcile_account" is "reconcile") — else the turn's frame. A frame the map sends to
null (a conversation) exercises none; a frame it does not name is its own domain."""

from __future__ import annotations

from functools import lru_cache

from app.seeds.file_schemas import CapabilityMap
from app.seeds.files import read_self


@lru_cache(maxsize=1)
def shipped_capability_map() -> CapabilityMap:
    """The map of the shipped ``seeds/self.yaml``, read once per process."""
    return read_self().capability_map


def capability_for(
    verb: str | None, frame: str, capability_map: CapabilityMap | None = None
) -> str | None:
    """The capability domain a turn with this work-unit ``verb`` (or none) in ``frame``
    exercises; None when it exercises none."""
    mapping = capability_map or shipped_capability_map()
    if verb:
        for candidate in (verb, verb.split("_", 1)[0]):
            if candidate in mapping.verbs:
                return mapping.verbs[candidate]
    if frame in mapping.frames:
        return mapping.frames[frame]
    return frame or None
