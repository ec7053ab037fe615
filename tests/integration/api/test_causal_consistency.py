"""Read-your-writes across API processes (reliability issue): a write answers with the bookmark of
its transaction in ``X-Credence-Bookmark``; a request that sends it back, to any process, reads
after that write. One of the two processes here talks to Neo4j through the routing scheme
(``neo4j://``) that a cluster or Aura needs. A header that is not a bookmark is a 422 naming it,
before anything runs."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.config import Settings
from tools.serve.api_process import running_api, server_env

# Two API processes of its own, one over the routing scheme: out of the quick run
# (-m "not slow").
pytestmark = pytest.mark.slow

HEADER = "X-Credence-Bookmark"


@pytest.fixture(scope="module")
def apis(settings: Settings) -> Iterator[tuple[str, str]]:
    direct = server_env(settings, CREDENCE_MIGRATE_ON_START="false")
    routed = {**direct, "CREDENCE_NEO4J_URI": settings.neo4j_uri.replace("bolt://", "neo4j://")}
    assert routed["CREDENCE_NEO4J_URI"].startswith("neo4j://")
    with running_api(direct) as first, running_api(routed) as second:
        yield first, second


def test_a_write_read_through_another_process_with_its_bookmark(apis: tuple[str, str]) -> None:
    writer, reader = apis
    agent = httpx.post(f"{writer}/v1/agents", json={"name": "Causal"}, timeout=60)
    assert agent.status_code == 201, agent.text
    agent_id = agent.json()["id"]
    assert agent.headers[HEADER].startswith("FB:")

    created = httpx.post(
        f"{writer}/v1/agents/{agent_id}/beliefs",
        json={"statement": "Invoices need two approvals.", "category": "contextual"},
        headers={HEADER: agent.headers[HEADER]},
        timeout=60,
    )
    assert created.status_code == 201, created.text
    bookmark = created.headers[HEADER]

    read = httpx.get(
        f"{reader}/v1/agents/{agent_id}/beliefs/{created.json()['id']}",
        headers={HEADER: bookmark},
        timeout=60,
    )
    assert read.status_code == 200, read.text
    assert read.json()["belief"]["statement"] == "Invoices need two approvals."
    # A read writes nothing, so it hands no bookmark back.
    assert HEADER not in read.headers
    # Several bookmarks, comma-separated, are accepted (a client merging two writers' answers).
    both = httpx.get(
        f"{writer}/v1/agents/{agent_id}/beliefs",
        headers={HEADER: f"{agent.headers[HEADER]},{bookmark}"},
        timeout=60,
    )
    assert both.status_code == 200, both.text


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("not a bookmark", "is not a bookmark"),  # a space never occurs in one
        ("FB:abc", "cannot read it as a bookmark"),  # the right shape, but Neo4j cannot parse it
        (",".join(["FB:x"] * 17), "at most 16"),
    ],
)
def test_a_header_that_is_not_a_bookmark_is_422_naming_it(
    apis: tuple[str, str], value: str, reason: str
) -> None:
    writer, _ = apis
    before = httpx.get(f"{writer}/v1/agents", timeout=60).json()["count"]
    response = httpx.post(
        f"{writer}/v1/agents", json={"name": "Never"}, headers={HEADER: value}, timeout=60
    )
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_bookmark"
    assert reason in error["message"]
    assert error["details"]["errors"][0]["location"] == ["header", "x-credence-bookmark"]
    assert httpx.get(f"{writer}/v1/agents", timeout=60).json()["count"] == before
