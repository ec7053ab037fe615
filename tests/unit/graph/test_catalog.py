"""The query catalog: loading by name, headers, unknown names, statement splitting."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.errors import UnknownQuery
from app.graph.catalog import QueryCatalog, default_catalog, file_statements


def test_loads_a_query_by_name_and_caches_it() -> None:
    catalog = default_catalog()

    query = catalog.get("graph/client/get_server_components")

    assert "dbms.components()" in query.text
    assert query.header.startswith("// Reports")
    assert catalog.get("graph/client/get_server_components") is query


def test_unknown_name_fails_loudly_with_close_matches() -> None:
    with pytest.raises(UnknownQuery) as raised:
        default_catalog().get("graph/migrations/list_aplied")

    assert raised.value.details["close_matches"][0] == "graph/migrations/list_applied"
    assert "graph/migrations/list_applied" in raised.value.message


@pytest.mark.parametrize(
    "name",
    [
        "../schema/V0001__create_id_constraints",
        "/etc/passwd",
        "graph/client/get_server_components.cypher",
        "",
        "System/Ping",
    ],
)
def test_names_outside_the_catalog_pattern_are_unknown(name: str) -> None:
    with pytest.raises(UnknownQuery):
        default_catalog().get(name)


def test_every_cypher_file_documents_params_and_returns() -> None:
    catalog = default_catalog()
    names = catalog.names()

    assert names, "the catalog is empty"
    for name in names:
        header = catalog.get(name).header
        assert header, f"{name}.cypher has no // header"
        assert "Params" in header or "Param" in header, f"{name}.cypher: header names no params"
        assert "Returns" in header, f"{name}.cypher: header names no returned columns"


def test_catalog_reads_any_folder(tmp_path: Path) -> None:
    (tmp_path / "area").mkdir()
    (tmp_path / "area" / "get_thing.cypher").write_text(
        "// Params: none. Returns: x.\nRETURN 1 AS x\n"
    )
    catalog = QueryCatalog(tmp_path)

    assert catalog.names() == ["area/get_thing"]
    assert catalog.get("area/get_thing").text.endswith("RETURN 1 AS x")


def test_the_text_sent_empties_whole_line_comments_and_keeps_the_lines(tmp_path: Path) -> None:
    (tmp_path / "get_thing.cypher").write_text(
        "// What it does.\n// Params: none. Returns: x, y.\nCYPHER 25\n  // why x\n"
        "RETURN 1 AS x, // kept: not a whole line\n       '// a string' AS y\n"
    )
    query = QueryCatalog(tmp_path).get("get_thing")

    # Line 5 of the file is line 5 of the text: a Neo4j error's line is the file's.
    assert query.text == (
        "\n\nCYPHER 25\n\nRETURN 1 AS x, // kept: not a whole line\n       '// a string' AS y"
    )
    assert query.text.splitlines()[4] == query.source.splitlines()[4]
    assert query.source.startswith("// What it does.\n") and "  // why x" in query.source
    assert query.header == "// What it does.\n// Params: none. Returns: x, y.\n  // why x"


def test_file_statements_split_on_semicolons_at_line_end_only() -> None:
    # The \t after the second ";" checks that trailing blanks still end a statement.
    text = """// header comment; with a semicolon
CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x);
CREATE FULLTEXT INDEX b IF NOT EXISTS
// a comment inside the statement
FOR (n:B) ON EACH [n.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard;'}};\t \n  // trailing comment
RETURN 'no; split here' AS x"""

    statements = file_statements(text)

    assert [s.text.strip().splitlines()[0] for s in statements] == [
        "CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x)",
        "CREATE FULLTEXT INDEX b IF NOT EXISTS",
        "RETURN 'no; split here' AS x",
    ]
    assert statements[1].text.endswith("'standard;'}}")
    assert "comment" not in statements[1].text


def test_a_statement_keeps_the_line_numbers_of_its_file() -> None:
    # Neo4j's error positions ("line 5, column 3") must be the file's, not the statement's.
    text = "// V9: two statements\nCREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x);\n\n" + (
        "// why\n  MATCH (n:A)\n  // inside\nRETURN n;\n"
    )
    file_lines = text.splitlines()

    statements = file_statements(text)

    assert [s.line for s in statements] == [2, 5]
    for statement in statements:
        sent = statement.text.splitlines()
        assert all(line == "" for line in sent[: statement.line - 1])
        for number in range(statement.line, len(sent) + 1):  # comment lines are sent empty
            said = file_lines[number - 1]
            expected = "" if said.lstrip().startswith("//") else said.rstrip(";")
            assert sent[number - 1] == expected, f"line {number}"


def test_no_query_reads_the_servers_clock() -> None:
    """Times come from the injected clock: ``datetime($now)``, which the graph client fills in
    (docs/style.md §2); only the migration runner's own bookkeeping keeps the server's time."""
    catalog = default_catalog()
    on_server_time = [
        name
        for name in catalog.names()
        if not name.startswith("graph/migrations/")
        and re.search(r"\b(datetime|date|localdatetime|timestamp)\(\s*\)", catalog.get(name).text)
    ]
    assert on_server_time == []
