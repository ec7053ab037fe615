"""The graph source, the registry and the research-source surfaces (REST and CLI) against the
real Neo4j."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.api.app import create_app
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import BeliefCreate
from app.beliefs.store import create_belief
from app.cli.main import app as cli_app
from app.config import Settings
from app.embeddings.embedder import Embedder
from app.errors import AgentNotFound, ResearchSourceNameTaken, UnknownResearchSource
from app.graph.client import GraphClient
from app.memory import rules
from app.memory.rules import RuleCreate
from app.research.sources.corpus import load_corpus_files
from app.research.sources.documents import CorpusFile
from app.research.sources.graph_source import GraphSource
from app.research.sources.protocol import Passage
from app.research.sources.registry import SourceRegistry, build_source_registry

GUIDE = "# Tide tables\n\nSpring tides at Port Ellen peak two days after the full moon.\n"


class _Fixed:
    """A source that always answers the same passages (or fails)."""

    def __init__(self, name: str, passages: list[Passage], fail: bool = False) -> None:
        self.name = name
        self._passages = passages
        self._fail = fail

    async def search(self, agent_id: str, query: str, *, limit: int) -> list[Passage]:
        if self._fail:
            raise RuntimeError("offline")
        return self._passages[:limit]


def _passage(ref: str, kind: str = "corpus", score: float = 1.0) -> Passage:
    return Passage.model_validate(
        {"kind": kind, "ref": ref, "title": ref, "origin": "test", "text": ref, "score": score}
    )


async def test_the_graph_source_finds_beliefs_and_rules(
    graph: GraphClient, embedder: Embedder, agent: str, other_agent: str
) -> None:
    belief = await create_belief(
        graph,
        Mechanics(),
        agent,
        BeliefCreate(statement="Spring tides flood the harbour road.", category="contextual"),
    )
    rule = await rules.create_rule(
        graph,
        agent,
        RuleCreate(trigger_concept="tides", content="Check the tide tables before harbour work."),
        embedder,
    )
    source = GraphSource(graph, embedder)

    found = await source.search(agent, "tides harbour road", limit=5)

    by_ref = {p.ref: p for p in found}
    assert by_ref[belief.id].kind == "belief" and by_ref[belief.id].origin == "graph"
    assert by_ref[belief.id].text == "Spring tides flood the harbour road."
    assert by_ref[rule.id].kind == "rule" and "tide tables" in by_ref[rule.id].text
    assert await source.search(other_agent, "tides harbour road", limit=5) == []
    with pytest.raises(AgentNotFound):
        await source.search("no-such-agent", "tides", limit=5)


async def test_search_all_tags_interleaves_and_drops_repeats(agent: str) -> None:
    registry = SourceRegistry(
        [
            _Fixed("one", [_passage("a"), _passage("b"), _passage("c")]),
            _Fixed("two", [_passage("b"), _passage("x", kind="belief"), _passage("y")]),
            _Fixed("broken", [], fail=True),
        ]
    )

    found = await registry.search_all(agent, "q", 2)

    assert [(p.source, p.ref) for p in found.passages] == [
        ("one", "a"),
        ("two", "b"),
        ("two", "x"),
    ]
    assert found.sources == ["one", "two", "broken"]
    assert found.failures == {"broken": "RuntimeError: offline"}
    only = await registry.search_all(agent, "q", 5, sources=["two"])
    assert {p.source for p in only.passages} == {"two"}
    with pytest.raises(UnknownResearchSource) as raised:
        await registry.search_all(agent, "q", sources=["two", "web", "news"])
    assert raised.value.details["names"] == ["web", "news"]
    with pytest.raises(ResearchSourceNameTaken):
        registry.register(_Fixed("one", []))
    registry.register(_Fixed("one", [_passage("z")]), replace=True)
    assert registry.names() == ["one", "two", "broken"]


async def test_the_shipped_registry_searches_graph_and_corpus(
    graph: GraphClient, embedder: Embedder, agent: str
) -> None:
    await create_belief(
        graph,
        Mechanics(),
        agent,
        BeliefCreate(statement="Spring tides peak after the full moon.", category="contextual"),
    )
    await load_corpus_files(
        graph, embedder, agent, [CorpusFile(name="tides.md", format="md", content=GUIDE)]
    )
    registry = build_source_registry(graph, embedder)

    found = await registry.search_all(agent, "when do spring tides peak", 3)

    assert registry.names() == ["graph", "corpus"]
    assert {(p.source, p.kind) for p in found.passages} == {
        ("graph", "belief"),
        ("corpus", "corpus"),
    }
    assert found.failures == {}


# --- REST ----------------------------------------------------------------------------------------

KEY_A, KEY_B = "research-key-a", "research-key-b"


@pytest.fixture
def keyed_client(settings: Settings, agent: str, other_agent: str) -> Iterator[TestClient]:
    """An API whose key A may touch ``agent`` only and key B ``other_agent`` only (A sent)."""
    keys = {KEY_A: [agent], KEY_B: [other_agent]}
    with TestClient(create_app(settings.model_copy(update={"api_keys": keys}))) as test_client:
        test_client.headers["X-API-Key"] = KEY_A
        yield test_client


def _upload(*files: dict[str, str]) -> dict[str, object]:
    return {"files": list(files)}


def test_sources_through_the_api(keyed_client: TestClient, agent: str) -> None:
    base = f"/v1/agents/{agent}/research"
    jsonl = json.dumps({"id": "tide-1", "text": "Neap tides follow the quarter moon."}) + "\n"

    loaded = keyed_client.post(
        f"{base}/sources",
        json=_upload(
            {"name": "tides.md", "content": GUIDE},
            {"name": "more.jsonl", "content": jsonl},
        ),
    )
    assert loaded.status_code == 200, loaded.text
    assert [f["created"] for f in loaded.json()["files"]] == [1, 1]
    again = keyed_client.post(
        f"{base}/sources", json=_upload({"name": "tides.md", "content": GUIDE})
    )
    assert again.json()["files"][0]["unchanged"] == 1

    listed = keyed_client.get(f"{base}/sources", params={"limit": 1})
    assert listed.status_code == 200 and listed.json()["count"] == 2
    assert len(listed.json()["data"]) == 1
    everything = keyed_client.get(f"{base}/sources").json()["data"]
    assert {d["document_id"]: d["passages"] for d in everything} == {"tides.md": 1, "tide-1": 1}

    searched = keyed_client.post(
        f"{base}/search", json={"query": "spring tides full moon", "limit": 3}
    )
    assert searched.status_code == 200, searched.text
    top = searched.json()["passages"][0]
    assert top["source"] == "corpus" and top["origin"] == "tides.md"
    only_graph = keyed_client.post(f"{base}/search", json={"query": "tides", "sources": ["graph"]})
    assert only_graph.status_code == 200 and only_graph.json()["passages"] == []

    removed = keyed_client.delete(f"{base}/sources/tide-1")
    assert removed.status_code == 200 and removed.json()["removed_passages"] == 1
    assert keyed_client.delete(f"{base}/sources/tide-1").status_code == 404
    assert keyed_client.get(f"{base}/sources").json()["count"] == 1


def test_bad_input_is_refused_naming_the_field_and_writes_nothing(
    keyed_client: TestClient, agent: str
) -> None:
    base = f"/v1/agents/{agent}/research"
    bad_line = keyed_client.post(
        f"{base}/sources",
        json=_upload(
            {"name": "ok.txt", "content": "Fine text."},
            {"name": "bad.jsonl", "content": '{"text": "fine"}\n{"title": "no text"}\n'},
        ),
    )
    assert bad_line.status_code == 422
    body = bad_line.json()["error"]
    assert body["code"] == "corpus_file_invalid" and "bad.jsonl line 2: text" in body["message"]
    assert body["details"]["errors"][0]["location"] == ["file", "bad.jsonl", "line", 2, "text"]
    no_format = keyed_client.post(
        f"{base}/sources", json=_upload({"name": "x.pdf", "content": "x"})
    )
    assert no_format.status_code == 422 and "format" in no_format.json()["error"]["message"]
    with_dir = keyed_client.post(
        f"{base}/sources", json=_upload({"name": "a/b.txt", "content": "x"})
    )
    assert with_dir.status_code == 422 and "name" in with_dir.json()["error"]["message"]
    assert keyed_client.post(f"{base}/sources", json={"files": []}).status_code == 422
    assert keyed_client.get(f"{base}/sources", params={"limit": 0}).status_code == 422
    assert keyed_client.get(f"{base}/sources", params={"skip": -1}).status_code == 422
    unknown = keyed_client.post(f"{base}/search", json={"query": "x", "sources": ["web"]})
    assert unknown.status_code == 422 and "sources" in unknown.json()["error"]["message"]
    assert keyed_client.post(f"{base}/search", json={"query": ""}).status_code == 422
    assert keyed_client.post(f"{base}/search", json={"query": "x", "limit": 51}).status_code == 422
    assert keyed_client.get(f"{base}/sources").json()["count"] == 0


def test_too_large_an_upload_is_a_413(
    keyed_client: TestClient, agent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.api.routes import research_sources

    monkeypatch.setattr(research_sources, "MAX_UPLOAD_CHARS", 100)
    response = keyed_client.post(
        f"/v1/agents/{agent}/research/sources",
        json=_upload({"name": "a.txt", "content": "x" * 101}),
    )
    assert response.status_code == 413 and response.json()["error"]["code"] == "payload_too_large"
    assert keyed_client.get(f"/v1/agents/{agent}/research/sources").json()["count"] == 0


def test_other_agents_and_keys_are_refused(
    keyed_client: TestClient, agent: str, other_agent: str
) -> None:
    base = f"/v1/agents/{agent}/research"
    assert keyed_client.post(
        f"{base}/sources", json=_upload({"name": "a.txt", "content": "Secret tide."})
    )
    for headers, expected in (({"X-API-Key": KEY_B}, 403), ({"X-API-Key": "nobody"}, 401)):
        assert keyed_client.get(f"{base}/sources", headers=headers).status_code == expected
        assert (
            keyed_client.post(f"{base}/search", json={"query": "tide"}, headers=headers).status_code
            == expected
        )
        assert keyed_client.delete(f"{base}/sources/a.txt", headers=headers).status_code == expected
    other = keyed_client.post(
        f"/v1/agents/{other_agent}/research/search",
        json={"query": "secret tide"},
        headers={"X-API-Key": KEY_B},
    )
    assert other.status_code == 200 and other.json()["passages"] == []
    assert keyed_client.get(f"{base}/sources").json()["count"] == 1


def test_an_unknown_agent_is_a_404(client: TestClient) -> None:
    base = "/v1/agents/no-such-agent/research"
    assert client.get(f"{base}/sources").status_code == 404
    assert client.post(f"{base}/search", json={"query": "x"}).status_code == 404
    assert client.delete(f"{base}/sources/doc").status_code == 404
    response = client.post(f"{base}/sources", json=_upload({"name": "a.txt", "content": "x"}))
    assert response.status_code == 404


# --- CLI -----------------------------------------------------------------------------------------


def test_sources_from_the_cli(cli: CliRunner, agent: str, tmp_path: Path) -> None:
    guide = tmp_path / "tides.md"
    guide.write_text(GUIDE, encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "ok"}\n{"text": 3}\n', encoding="utf-8")

    added = cli.invoke(cli_app, ["research", "sources", "add", str(guide), "--agent", agent])
    assert added.exit_code == 0, added.output
    assert "tides.md" in added.output
    refused = cli.invoke(cli_app, ["research", "sources", "add", str(bad), "--agent", agent])
    assert refused.exit_code == 1 and "bad.jsonl line 2" in refused.output
    listed = cli.invoke(cli_app, ["research", "sources", "list", "--agent", agent])
    assert listed.exit_code == 0 and "tides.md" in listed.output and "1 documents" in listed.output
    found = cli.invoke(cli_app, ["research", "search", "spring tides", "--agent", agent])
    assert found.exit_code == 0 and "corpus" in found.output
    removed = cli.invoke(cli_app, ["research", "sources", "remove", "tides.md", "--agent", agent])
    assert removed.exit_code == 0 and "1 passages" in removed.output
    missing = cli.invoke(cli_app, ["research", "sources", "remove", "tides.md", "--agent", agent])
    assert missing.exit_code == 1


def test_files_whose_names_clean_alike_stay_apart_and_the_same_name_replaces(
    keyed_client: TestClient, agent: str
) -> None:
    base = f"/v1/agents/{agent}/research"
    for name, text in [
        ("日本.txt", "Tokyo is the capital."),
        ("中国.txt", "Beijing is the capital."),
        ("a b.txt", "Spaces in the name."),
        ("a-b.txt", "Dashes in the name."),
    ]:
        loaded = keyed_client.post(f"{base}/sources", json=_upload({"name": name, "content": text}))
        assert loaded.status_code == 200, loaded.text
        assert loaded.json()["files"][0]["created"] == 1, (name, loaded.json())
    documents = keyed_client.get(f"{base}/sources").json()["data"]
    assert sorted(d["title"] for d in documents) == ["a b", "a-b", "中国", "日本"]
    assert len({d["document_id"] for d in documents}) == 4

    again = keyed_client.post(
        f"{base}/sources", json=_upload({"name": "日本.txt", "content": "Tokyo, since 1868."})
    )
    assert again.json()["files"][0]["replaced"] == 1
    documents = keyed_client.get(f"{base}/sources").json()["data"]
    assert len(documents) == 4
    searched = keyed_client.post(f"{base}/search", json={"query": "Beijing capital", "limit": 5})
    assert any("Beijing" in p["text"] for p in searched.json()["passages"])


# --- a byte-order mark, a blank query ---------------------------------------------------------

BOM = "\ufeff"
BOM_JSONL = BOM + json.dumps({"id": "bom-1", "title": "Neap", "text": "Neap tides are low."}) + "\n"
BOM_MD = BOM + "# BOM title\n\nbody text here\n"


def _titles(client: TestClient, agent: str) -> dict[str, str]:
    listed = client.get(f"/v1/agents/{agent}/research/sources").json()["data"]
    return {d["document_id"]: d["title"] for d in listed}


def test_an_upload_starting_with_a_byte_order_mark_reads_as_without(
    keyed_client: TestClient, agent: str
) -> None:
    """A .jsonl whose first line began with a BOM failed ("Unexpected UTF-8 BOM"); a .md kept its
    heading in the passage and lost its title."""
    loaded = keyed_client.post(
        f"/v1/agents/{agent}/research/sources",
        json=_upload(
            {"name": "bom.jsonl", "content": BOM_JSONL}, {"name": "bom.md", "content": BOM_MD}
        ),
    )
    assert loaded.status_code == 200, loaded.text
    assert _titles(keyed_client, agent) == {"bom-1": "Neap", "bom.md": "BOM title"}
    found = keyed_client.post(
        f"/v1/agents/{agent}/research/search", json={"query": "body text", "sources": ["corpus"]}
    ).json()["passages"]
    assert all(not p["text"].startswith(BOM) for p in found)
    assert [p["text"] for p in found if p["origin"] == "bom.md"] == ["BOM title\n\nbody text here"]


def test_a_file_starting_with_a_byte_order_mark_loads_from_the_cli(
    cli: CliRunner, keyed_client: TestClient, agent: str, tmp_path: Path
) -> None:
    (tmp_path / "bom.jsonl").write_text(BOM_JSONL, encoding="utf-8")
    (tmp_path / "bom.md").write_text(BOM_MD, encoding="utf-8")
    added = cli.invoke(
        cli_app,
        ["research", "sources", "add", str(tmp_path / "bom.jsonl"), str(tmp_path / "bom.md"),
         "--agent", agent],
    )  # fmt: skip
    assert added.exit_code == 0, added.output
    assert _titles(keyed_client, agent) == {"bom-1": "Neap", "bom.md": "BOM title"}


def test_a_blank_search_query_is_refused_naming_the_field(
    keyed_client: TestClient, cli: CliRunner, agent: str
) -> None:
    """An investigation refuses a blank question; the search answered a blank query."""
    for query in (" ", "\t\n"):
        refused = keyed_client.post(f"/v1/agents/{agent}/research/search", json={"query": query})
        assert refused.status_code == 422, refused.text
        entry = refused.json()["error"]["details"]["errors"][0]
        assert entry["location"][-1] == "query" and "blank" in entry["message"]
    blank = cli.invoke(cli_app, ["research", "search", "  ", "--agent", agent])
    assert blank.exit_code == 2 and "blank" in blank.output
