"""The migrations runner against the real server.

Each test uses its own namespace and its own index names in a temporary folder, so it never
touches the project's schema; its last step drops what it created through the runner itself.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.errors import (
    MigrationChecksumMismatch,
    MigrationFailed,
    MigrationLockHeld,
    MigrationMissing,
)
from app.graph.client import GraphClient
from app.graph.migrations import MigrationRunner
from app.resources import resource_dir


class Scratch:
    """A folder of migrations with names unique to one test."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.tag = "t" + uuid.uuid4().hex[:10]
        self.namespace = f"test-{self.tag}"
        self.dropped = False

    def write(self, name: str, text: str) -> Path:
        path = self.directory / name
        path.write_text(text.replace("TAG", self.tag), encoding="utf-8")
        return path

    def runner(self, graph: GraphClient, **options: float) -> MigrationRunner:
        return MigrationRunner(graph, self.directory, namespace=self.namespace, **options)


INDEXES = """// test indexes
CREATE INDEX TAG_a IF NOT EXISTS FOR (n:TAGNode) ON (n.a);
CREATE INDEX TAG_b IF NOT EXISTS FOR (n:TAGNode) ON (n.b);
"""
FULLTEXT = """// a test fulltext index
CREATE FULLTEXT INDEX TAG_text IF NOT EXISTS FOR (n:TAGNode) ON EACH [n.text];
"""
DROP = """// clean-up of the test indexes
DROP INDEX TAG_a IF EXISTS;
DROP INDEX TAG_b IF EXISTS;
DROP INDEX TAG_text IF EXISTS;
DROP INDEX TAG_c IF EXISTS;
"""


@pytest.fixture
async def scratch(tmp_path: Path, graph: GraphClient) -> AsyncIterator[Scratch]:
    box = Scratch(tmp_path)
    yield box
    cleanup = Scratch(tmp_path / "cleanup")
    cleanup.directory.mkdir()
    cleanup.tag = box.tag
    cleanup.write("V0999__drop_test_indexes.cypher", DROP)
    await cleanup.runner(graph).migrate()


async def _index_names(test_graph: GraphClient, tag: str) -> dict[str, str]:
    rows = await test_graph.read("probe/list_indexes")
    return {row["name"]: row["state"] for row in rows if row["name"].startswith(tag)}


async def test_applies_pending_files_in_order_and_waits_for_online(
    scratch: Scratch, graph: GraphClient, test_graph: GraphClient
) -> None:
    scratch.write("V0002__fulltext.cypher", FULLTEXT)
    scratch.write("V0001__indexes.cypher", INDEXES)

    report = await scratch.runner(graph).migrate()

    assert report.applied == ["V0001__indexes.cypher", "V0002__fulltext.cypher"]
    assert await _index_names(test_graph, scratch.tag) == {
        f"{scratch.tag}_a": "ONLINE",
        f"{scratch.tag}_b": "ONLINE",
        f"{scratch.tag}_text": "ONLINE",
    }
    states = await scratch.runner(graph).status()
    assert [(s.file, s.state) for s in states] == [
        ("V0001__indexes.cypher", "applied"),
        ("V0002__fulltext.cypher", "applied"),
    ]
    assert all(s.applied_at is not None for s in states)


async def test_running_twice_changes_nothing(
    scratch: Scratch, graph: GraphClient, test_graph: GraphClient
) -> None:
    scratch.write("V0001__indexes.cypher", INDEXES)
    await scratch.runner(graph).migrate()
    indexes_before = await test_graph.read("probe/list_indexes")

    second = await scratch.runner(graph).migrate()

    assert second.applied == []
    assert second.already_applied == ["V0001__indexes.cypher"]
    assert await test_graph.read("probe/list_indexes") == indexes_before
    rows = await test_graph.read("probe/count_migration_records", namespace=scratch.namespace)
    assert rows[0]["records"] == 1


async def test_new_file_after_a_run_is_applied_alone(scratch: Scratch, graph: GraphClient) -> None:
    scratch.write("V0001__indexes.cypher", INDEXES)
    await scratch.runner(graph).migrate()
    scratch.write("V0002__fulltext.cypher", FULLTEXT)

    assert (await scratch.runner(graph).status())[1].state == "pending"
    report = await scratch.runner(graph).migrate()

    assert report.applied == ["V0002__fulltext.cypher"]


async def test_editing_an_applied_file_stops_the_run_naming_the_file(
    scratch: Scratch, graph: GraphClient
) -> None:
    path = scratch.write("V0001__indexes.cypher", INDEXES)
    await scratch.runner(graph).migrate()
    path.write_text(path.read_text() + "// an innocent-looking edit\n", encoding="utf-8")
    scratch.write("V0002__fulltext.cypher", FULLTEXT)

    with pytest.raises(MigrationChecksumMismatch) as raised:
        await scratch.runner(graph).migrate()

    assert "V0001__indexes.cypher" in raised.value.message
    assert raised.value.details["file"] == "V0001__indexes.cypher"
    states = {s.file: s.state for s in await scratch.runner(graph).status()}
    assert states == {"V0001__indexes.cypher": "changed", "V0002__fulltext.cypher": "pending"}


async def test_removing_an_applied_file_stops_the_run(scratch: Scratch, graph: GraphClient) -> None:
    path = scratch.write("V0001__indexes.cypher", INDEXES)
    await scratch.runner(graph).migrate()
    path.unlink()

    with pytest.raises(MigrationMissing) as raised:
        await scratch.runner(graph).migrate()

    assert "V0001__indexes.cypher" in raised.value.message


async def test_a_failing_statement_names_file_and_statement_and_is_not_recorded(
    scratch: Scratch, graph: GraphClient, test_graph: GraphClient
) -> None:
    scratch.write("V0001__indexes.cypher", INDEXES)
    scratch.write(
        "V0002__broken.cypher",
        "CREATE INDEX TAG_c IF NOT EXISTS FOR (n:TAGNode) ON (n.c);\nCREATE INDEKS oops;\n",
    )

    with pytest.raises(MigrationFailed) as raised:
        await scratch.runner(graph).migrate()

    assert "V0002__broken.cypher" in raised.value.message
    assert raised.value.details["statement_index"] == 2
    assert raised.value.details["statement_line"] == 2
    states = {s.file: s.state for s in await scratch.runner(graph).status()}
    assert states == {"V0001__indexes.cypher": "applied", "V0002__broken.cypher": "pending"}


async def test_a_failing_statement_names_the_line_of_its_file(
    scratch: Scratch, graph: GraphClient, test_graph: GraphClient
) -> None:
    # Comments before and inside the failing statement: Neo4j's own position is the file's line.
    scratch.write(
        "V0001__commented.cypher",
        "// Two statements.\n"
        "CREATE INDEX TAG_c IF NOT EXISTS FOR (n:TAGNode) ON (n.c);\n"
        "\n"
        "// The second one fails on its third line.\n"
        "MATCH (n:TAGNode)\n"
        "// why\n"
        "RETURN credence_no_such_function(n) AS x;\n",
    )

    with pytest.raises(MigrationFailed) as raised:
        await scratch.runner(graph).migrate()

    assert raised.value.details["statement_line"] == 5
    assert "statement 2 of 2 (line 5)" in raised.value.message
    assert "credence_no_such_function" in raised.value.message
    assert "(line 7," in raised.value.message
    assert raised.value.details["statement"].startswith("MATCH (n:")


async def test_concurrent_runners_do_not_interleave(
    scratch: Scratch, graph: GraphClient, test_graph: GraphClient
) -> None:
    scratch.write("V0001__indexes.cypher", INDEXES)
    scratch.write("V0002__fulltext.cypher", FULLTEXT)

    reports = await asyncio.gather(*(scratch.runner(graph).migrate() for _ in range(4)))

    applied = sorted(file for report in reports for file in report.applied)
    assert applied == ["V0001__indexes.cypher", "V0002__fulltext.cypher"]
    rows = await test_graph.read("probe/count_migration_records", namespace=scratch.namespace)
    assert rows[0]["records"] == 2


async def test_a_held_lock_makes_another_runner_wait_then_give_up(
    scratch: Scratch, graph: GraphClient
) -> None:
    scratch.write("V0001__indexes.cypher", INDEXES)
    rows = await graph.write(
        "graph/migrations/acquire_lock",
        namespace=scratch.namespace,
        owner="someone-else",
        stale_after_s=600.0,
    )
    assert rows[0]["acquired"]

    with pytest.raises(MigrationLockHeld) as raised:
        await scratch.runner(graph, lock_timeout_s=1.0).migrate()

    assert "someone-else" in raised.value.message
    await graph.write(
        "graph/migrations/release_lock", namespace=scratch.namespace, owner="someone-else"
    )
    assert (await scratch.runner(graph).migrate()).applied == ["V0001__indexes.cypher"]


async def test_a_stale_lock_is_taken_over(scratch: Scratch, graph: GraphClient) -> None:
    scratch.write("V0001__indexes.cypher", INDEXES)
    await graph.write(
        "graph/migrations/acquire_lock",
        namespace=scratch.namespace,
        owner="crashed-runner",
        stale_after_s=600.0,
    )
    await asyncio.sleep(0.3)

    report = await scratch.runner(graph, lock_stale_after_s=0.2, lock_timeout_s=5.0).migrate()

    assert report.applied == ["V0001__indexes.cypher"]


async def test_the_project_schema_is_fully_applied_and_online(
    graph: GraphClient, test_graph: GraphClient
) -> None:
    states = await MigrationRunner(graph).status()

    assert [s.state for s in states] == ["applied"] * len(
        list(resource_dir("schema").glob("*.cypher"))
    )
    indexes = await test_graph.read("probe/list_indexes")
    by_name = {row["name"]: row for row in indexes}
    for name in (
        "belief_embedding",
        "episode_embedding",
        "rule_embedding",
        "belief_statement_fulltext",
        "episode_search_fulltext",
        "belief_agent_id",
    ):
        assert by_name[name]["state"] == "ONLINE", name
    assert "episode_text_fulltext" not in by_name  # replaced by episode_search_fulltext (V0018)
    assert by_name["belief_embedding"]["options"]["indexConfig"]["vector.dimensions"] == 384
    assert (
        by_name["belief_embedding"]["options"]["indexConfig"]["vector.similarity_function"].lower()
        == "cosine"
    )
