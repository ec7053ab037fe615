"""The graph client against the real server: transactions, error translation."""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import SecretStr

from app.config import Settings
from app.errors import ConstraintViolation, GraphError, GraphUnavailable, UnknownQuery
from app.graph.client import GraphClient, Transaction


async def test_server_info_reports_the_pinned_version(graph: GraphClient) -> None:
    from tests.support.neo4j_server import pinned_version

    info = await graph.server_info()

    assert info.version == pinned_version()
    assert info.edition == "community"


async def test_a_failing_transaction_writes_nothing(test_graph: GraphClient, agent_id: str) -> None:
    with pytest.raises(GraphError) as raised:
        await test_graph.write("probe/create_then_fail", agent_id=agent_id)

    assert "probe/create_then_fail" in raised.value.message
    rows = await test_graph.read("probe/count_agent_nodes", agent_id=agent_id)
    assert rows[0]["nodes"] == 0


async def test_a_neo4j_error_names_the_line_of_the_query_file(test_graph: GraphClient) -> None:
    with pytest.raises(GraphError) as raised:
        await test_graph.read("probe/fail_on_line_5")

    assert "credence_no_such_function" in raised.value.message
    assert "(line 5," in raised.value.message


async def test_several_queries_in_one_transaction_commit_together(
    test_graph: GraphClient, agent_id: str
) -> None:
    async def work(tx: Transaction) -> None:
        await tx.run("probe/create_agent_node", id=agent_id)
        await tx.run("probe/create_then_fail", agent_id=agent_id)

    with pytest.raises(GraphError):
        await test_graph.write_transaction(work)

    rows = await test_graph.read("probe/count_agent_nodes", agent_id=agent_id)
    assert rows[0]["nodes"] == 0


async def test_uniqueness_violation_is_a_constraint_violation(
    test_graph: GraphClient, agent_id: str
) -> None:
    await test_graph.write("probe/create_agent_node", id=agent_id)

    with pytest.raises(ConstraintViolation):
        await test_graph.write("probe/create_agent_node", id=agent_id)


async def test_unknown_query_name_fails_loudly(graph: GraphClient) -> None:
    with pytest.raises(UnknownQuery) as raised:
        await graph.read("system/get_server_component")

    assert "graph/client/get_server_components" in raised.value.message


async def test_unreachable_server_is_graph_unavailable() -> None:
    settings = Settings(
        _env_file=None,
        neo4j_uri="bolt://127.0.0.1:1",
        neo4j_connection_timeout_s=2,
    )
    client = GraphClient.from_settings(settings.neo4j)
    try:
        with pytest.raises(GraphUnavailable):
            await client.server_info()
    finally:
        await client.close()


async def test_wrong_password_is_graph_unavailable(settings: Settings) -> None:
    wrong = settings.model_copy(update={"neo4j_password": SecretStr("not-the-password")})
    client = GraphClient.from_settings(wrong.neo4j)
    try:
        with pytest.raises(GraphUnavailable) as raised:
            await client.server_info()
        assert "credentials" in raised.value.message
    finally:
        await client.close()


async def test_a_collected_read_returns_its_rows_in_order_as_python_values(
    test_graph: GraphClient,
) -> None:
    rows = await test_graph.read_collected("probe/collected_numbers", n=3)

    assert rows == [
        {"n": 3, "day": date(2024, 1, 3)},
        {"n": 2, "day": date(2024, 1, 2)},
        {"n": 1, "day": date(2024, 1, 1)},
    ]
    assert await test_graph.read_collected("probe/collected_numbers", n=0) == []
