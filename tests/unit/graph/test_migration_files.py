"""Discovery and checksums of migration files (no database)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.errors import MigrationFileInvalid
from app.graph.migrations import checksum_of, discover
from app.resources import resource_dir


def test_the_project_schema_files_are_valid_and_numbered_without_gaps() -> None:
    files = discover(resource_dir("schema"))

    assert [f.version for f in files] == list(range(1, len(files) + 1))
    assert all(f.description for f in files)


def test_every_project_schema_statement_is_idempotent() -> None:
    from app.graph.catalog import file_statements

    for path in sorted(resource_dir("schema").glob("*.cypher")):
        for statement in (s.text.strip() for s in file_statements(path.read_text())):
            words = statement.removeprefix("CYPHER 25").split()
            if words[0] in ("CREATE", "DROP"):  # schema commands
                assert "IF NOT EXISTS" in statement or "IF EXISTS" in statement, (
                    f"{path.name}: statement without IF [NOT] EXISTS: {statement[:60]}"
                )
            else:  # data statements match only what they have not done yet
                assert "IS NULL" in statement or "NOT EXISTS {" in statement, (
                    f"{path.name}: data statement without a guard: {statement[:60]}"
                )


def test_misnamed_and_duplicate_files_are_all_listed(tmp_path: Path) -> None:
    (tmp_path / "V0001__ok.cypher").write_text("CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x);\n")
    (tmp_path / "V0001__twin.cypher").write_text(
        "CREATE INDEX b IF NOT EXISTS FOR (n:A) ON (n.y);\n"
    )
    (tmp_path / "V2__short.cypher").write_text("RETURN 1;\n")
    (tmp_path / "V0003__Bad-Name.cypher").write_text("RETURN 1;\n")
    (tmp_path / "V0004__empty.cypher").write_text("// nothing here\n")

    with pytest.raises(MigrationFileInvalid) as raised:
        discover(tmp_path)

    errors = raised.value.details["errors"]
    assert sorted((e["location"], e["type"]) for e in errors) == [
        (["file", "V0001__twin.cypher"], "duplicate_version"),
        (["file", "V0003__Bad-Name.cypher"], "file_name"),
        (["file", "V0004__empty.cypher"], "empty_file"),
        (["file", "V2__short.cypher"], "file_name"),
    ]
    for name in ("V2__short.cypher", "V0003__Bad-Name.cypher", "V0004__empty.cypher"):
        assert name in raised.value.message


def test_checksum_ignores_line_ending_style_but_sees_edits(tmp_path: Path) -> None:
    unix = tmp_path / "a.cypher"
    windows = tmp_path / "b.cypher"
    edited = tmp_path / "c.cypher"
    unix.write_bytes(b"CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x);\n")
    windows.write_bytes(b"CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x);\r\n")
    edited.write_bytes(b"CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.y);\n")

    assert checksum_of(unix) == checksum_of(windows)
    assert checksum_of(unix) != checksum_of(edited)
