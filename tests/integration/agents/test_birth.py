"""Birth through the API: full birth from a profile, and nothing written for a bad request."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from app.agents.birth import known_industries
from app.seeds.files import read_all_packs, read_creed, read_self

PROFILE = {
    "name": "Dana Smith",
    "email": "dana@acme.example",
    "role": "Controller",
    "seniority": "manager",
    "company": "Acme",
    "industry": "saas",
}


def _beliefs(client: TestClient, agent: str, **params: Any) -> list[dict[str, Any]]:
    response = client.get(f"/v1/agents/{agent}/beliefs", params={"limit": 500, **params})
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()["data"]
    return data


def test_full_birth_creates_the_whole_mind(client: TestClient) -> None:
    response = client.post("/v1/agents", json={"name": "Ava", "profile": PROFILE})

    assert response.status_code == 201, response.text
    born = response.json()
    agent, birth = born["id"], born["birth"]
    creed, self_file = read_creed(), read_self()
    industry_packs = [p for p in read_all_packs() if p.serves("saas")]
    assert {p.name for p in industry_packs} >= {"gaap-fundamentals", "saas-revenue-recognition"}
    assert [r["pack"] for r in birth["packs"]] == [
        "creed",
        "self",
        "role",
        *[p.name for p in industry_packs],
    ]
    assert born["birth_source"] == "full" and born["terminal_creed"] == creed.terminal_creed
    assert born["identity_goal"] == self_file.identity_goal
    assert birth["principal"]["name"] == "Dana Smith"
    assert birth["principal"]["authority"] == 0.7  # manager
    assert born["principal_id"] == birth["principal"]["id"]
    beliefs = _beliefs(client, agent)
    immutable = [b for b in beliefs if b["is_immutable"]]
    assert sorted(b["statement"] for b in immutable) == sorted(creed.terminal_creed)
    expected = (
        len(creed.terminal_creed)
        + len(creed.ethical_core)
        + len(self_file.self_beliefs)
        + 3
        + sum(len(p.beliefs) for p in industry_packs)
    )
    assert born["beliefs"] == len(beliefs) == expected
    role = [b for b in beliefs if b["domain"] == "role"]
    assert any("Dana Smith" in b["statement"] and "0.70" in b["statement"] for b in role)
    assert birth["frames"] >= 6 and birth["capabilities"] == len(self_file.capabilities)
    assert birth["embedded"] is True
    frames = client.get(f"/v1/agents/{agent}/frames").json()
    assert {"task", "question", "decision", "creative", "conversation", "debug"} <= {
        f["key"] for f in frames["data"]
    }
    self_view = client.get(f"/v1/agents/{agent}/self")
    assert self_view.status_code == 200, self_view.text


def test_a_bad_birth_request_writes_nothing(client: TestClient) -> None:
    before = client.get("/v1/agents/does-not-matter").status_code
    bad_seniority = client.post(
        "/v1/agents", json={"name": "Bad", "profile": {**PROFILE, "seniority": "boss"}}
    )
    bad_pack = client.post(
        "/v1/agents", json={"name": "Bad", "profile": PROFILE, "packs": ["no-such-pack"]}
    )
    blank = client.post("/v1/agents", json={"name": "   "})

    assert before == 404
    assert bad_seniority.status_code == 422
    assert ["body", "profile", "seniority"] in [
        e["location"] for e in bad_seniority.json()["error"]["details"]["errors"]
    ]
    assert bad_pack.status_code == 404 and "no-such-pack" in bad_pack.json()["error"]["message"]
    assert blank.status_code == 422


def test_a_pack_named_twice_at_birth_is_loaded_once(client: TestClient) -> None:
    """A pack named twice in a birth's ``packs`` is one pack: it was refused as holding its own
    censor and frame keys (409 censor_key_taken, "the censor of pack gaap-fundamentals")."""
    response = client.post(
        "/v1/agents",
        json={
            "name": "Twice",
            "profile": PROFILE,
            "packs": ["gaap-fundamentals", "gaap-fundamentals"],
        },
    )

    assert response.status_code == 201, response.text
    agent = response.json()["id"]
    packs = client.get(f"/v1/agents/{agent}/packs").json()
    assert [p["name"] for p in packs if p["name"] not in ("creed", "self", "role")] == [
        "gaap-fundamentals"
    ]


def test_a_name_alone_is_an_empty_agent(client: TestClient) -> None:
    born = client.post("/v1/agents", json={"name": "Plain"}).json()

    assert born["birth_source"] == "api" and born["beliefs"] == 0 and born["birth"] is None


async def test_the_default_agent_is_born_once_with_every_pack(graph: object) -> None:
    import uuid

    from app.agents.birth import ensure_default_agent, every_pack_for
    from app.beliefs.mechanics import Mechanics
    from app.embeddings.embedder import shared_embedder
    from app.embeddings.settings import EmbeddingSettings
    from app.graph.client import GraphClient
    from app.packs.loader import list_loaded_packs

    assert isinstance(graph, GraphClient)
    name = f"default-{uuid.uuid4()}"
    embedder = shared_embedder(EmbeddingSettings())
    first, born = await ensure_default_agent(graph, embedder, Mechanics(), name, "accounting")
    second, born_again = await ensure_default_agent(
        graph, embedder, Mechanics(), name, "accounting"
    )

    assert (born, born_again) == (True, False) and first.id == second.id
    loaded = {p.name for p in await list_loaded_packs(graph, first.id)}
    assert {p.name for p in every_pack_for("accounting")} <= loaded
    # A pack bringing another domain's skill is left out: the agent keeps accounting's.
    assert "procurement-basics" not in loaded


def test_an_industry_no_installed_pack_serves_is_a_422_listing_them(client: TestClient) -> None:
    name = f"Typo {uuid.uuid4().hex[:8]}"
    refused = client.post(
        "/v1/agents", json={"name": name, "profile": {**PROFILE, "industry": "fintch"}}
    )

    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "invalid_input"
    [entry] = error["details"]["errors"]
    assert entry["location"] == ["body", "profile", "industry"]
    assert entry["type"] == "unknown_industry"
    assert "'fintch'" in entry["message"] and "finance" in entry["message"]
    assert error["details"]["industries"] == known_industries()
    assert client.get("/v1/agents", params={"name": name}).json()["data"] == []
    # Packs named by hand do not make a typo in the industry right either.
    named = client.post(
        "/v1/agents",
        json={
            "name": name,
            "profile": {**PROFILE, "industry": "fintch"},
            "packs": ["gaap-fundamentals"],
        },
    )
    assert named.status_code == 422, named.text
    assert client.get("/v1/agents", params={"name": name}).json()["data"] == []
