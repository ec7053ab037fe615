"""The neomodel classes of docs/graph_models.py agree with the migrated schema, both ways."""

from __future__ import annotations

from app.graph.client import GraphClient
from docs.graph_models import NODE_MODELS

BOOKKEEPING_LABELS = {"CredenceMigration", "CredenceMigrationLock"}


def _declared() -> dict[str, set[tuple[str, str]]]:
    """(kind, property) per label, from the neomodel property flags."""
    declared: dict[str, set[tuple[str, str]]] = {}
    for model in NODE_MODELS:
        entries: set[tuple[str, str]] = set()
        for attribute, prop in model.defined_properties(aliases=False, rels=False).items():
            name = prop.get_db_property_name(attribute)
            if prop.unique_index:
                entries.add(("unique", name))
            if prop.index:
                entries.add(("range", name))
            if prop.fulltext_index is not None:
                entries.add(("fulltext", name))
            if prop.vector_index is not None:
                entries.add(("vector", name))
        declared[model.__label__] = entries
    return declared


async def _live(test_graph: GraphClient) -> dict[str, set[tuple[str, str]]]:
    live: dict[str, set[tuple[str, str]]] = {}
    for row in await test_graph.read("probe/list_constraints"):
        if "UNIQUENESS" in row["type"] and len(row["properties"]) == 1:
            live.setdefault(row["labels"][0], set()).add(("unique", row["properties"][0]))
    for row in await test_graph.read("probe/list_indexes"):
        if not row["labels"] or row["owning_constraint"] is not None:
            continue
        kind = {"RANGE": "range", "FULLTEXT": "fulltext", "VECTOR": "vector"}.get(row["type"])
        if kind is None:
            continue
        # Fulltext indexes carry agent_id as their in-index scope field; a vector index indexes
        # its first property, the others are its filter properties (agent_id, and the episodes'
        # speaker_key), which test_composite_indexes_use_declared_properties checks.
        if kind == "vector":
            properties = row["properties"][:1]
        elif kind == "fulltext":
            properties = [p for p in row["properties"] if p != "agent_id"]
        else:
            properties = row["properties"]
        if kind in ("fulltext", "vector") or len(properties) == 1:
            for prop in properties:
                live.setdefault(row["labels"][0], set()).add((kind, prop))
    return {
        label: entries
        for label, entries in live.items()
        if label not in BOOKKEEPING_LABELS and not label.startswith("t")
    }


async def test_every_model_property_flag_has_its_constraint_or_index(
    test_graph: GraphClient,
) -> None:
    declared = _declared()
    live = await _live(test_graph)

    missing = {
        label: sorted(entries - live.get(label, set()))
        for label, entries in declared.items()
        if entries - live.get(label, set())
    }
    assert missing == {}, f"declared in models.py but not created by schema/: {missing}"


async def test_every_schema_index_is_declared_in_the_models(test_graph: GraphClient) -> None:
    declared = _declared()
    live = await _live(test_graph)

    undeclared = {
        label: sorted(entries - declared.get(label, set()))
        for label, entries in live.items()
        if entries - declared.get(label, set())
    }
    assert undeclared == {}, f"created by schema/ but not declared in models.py: {undeclared}"


async def test_composite_indexes_use_declared_properties(test_graph: GraphClient) -> None:
    declared_properties = {
        model.__label__: {
            prop.get_db_property_name(attribute)
            for attribute, prop in model.defined_properties(aliases=False, rels=False).items()
        }
        for model in NODE_MODELS
    }
    for row in await test_graph.read("probe/list_indexes"):
        label = (row["labels"] or [None])[0]
        if label not in declared_properties:
            continue
        unknown = set(row["properties"]) - declared_properties[label]
        assert not unknown, f"index {row['name']} uses undeclared {label} properties {unknown}"
