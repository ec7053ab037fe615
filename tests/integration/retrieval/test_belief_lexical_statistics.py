"""The lexical half of the belief and rule sections is scored on the agent's own documents (real
Neo4j): another agent's thousands of beliefs and rules that share the query's words, written and
then deleted, change neither the ids nor the scores of an agent's /context belief and rule
sections, in fulltext or fused mode, although they move Neo4j's index-wide fulltext scores."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from app.agents.store import delete_agent
from app.config import Settings
from app.graph.client import GraphClient
from app.retrieval.lexical import BELIEFS, short_text_candidates, short_text_hits
from app.text.lexical import DocumentStats, scored_words
from app.text.lucene import lucene_terms
from tests.support.agents import MakeAgent
from tests.support.lucene import lucene_order

# Words of this test run alone, so that what earlier runs left in the index (deleted nodes count
# in Lucene's statistics until their segments merge) cannot change Lucene's order here.
RUN = uuid.uuid4().hex[:8]
KAYAK, LANTERN = f"kayak{RUN}", f"lantern{RUN}"
QUERY = f"The {KAYAK} and the {LANTERN}?"
# Within the agent the kayak word is rarer than the lantern word, so its kayak belief (and rule)
# ranks first; the other agent makes the kayak word common in the index as a whole.
OWN = [
    f"Take the {KAYAK} out only when the lake is calm.",
    f"The {LANTERN} on the porch needs new oil every week.",
    f"A paper {LANTERN} is safer in the garden than a candle.",
    f"Grandma's {LANTERN} stays in the attic beside the spare {LANTERN} glass.",
    *(f"Filler belief number {i} about the weather and the seasons." for i in range(8)),
]
OWN_RULES = [
    f"When the {KAYAK} goes out, tell someone on shore.",
    f"Check the {LANTERN} wick before dusk.",
    f"Carry a spare {LANTERN} mantle on long trips.",
    *(f"Filler rule number {i}: dry every towel before storing it." for i in range(6)),
]
OTHER_BELIEFS = 10_000
OTHER_RULES = 3000


def _section(client: TestClient, agent: str, section: str, mode: str) -> list[tuple[str, Any]]:
    response = client.get(
        f"/v1/agents/{agent}/context",
        params={"q": QUERY, "k": 10, "section": section, "mode": mode},
    )
    assert response.status_code == 200, response.text
    found = response.json()["sections"][section]
    assert found["error"] is None
    return [(item["id"], item["score"]) for item in found["items"]]


def _rankings(client: TestClient, agent: str) -> dict[str, list[tuple[str, Any]]]:
    return {
        f"{section} {mode}": _section(client, agent, section, mode)
        for section in ("beliefs", "rules")
        for mode in ("fulltext", "fused")
    }


async def _lucene(test_graph: GraphClient, agent: str) -> dict[str, list[str]]:
    return {
        section: await lucene_order(test_graph, f"probe/search_{kind}_fulltext", QUERY, agent)
        for section, kind in (("beliefs", "belief"), ("rules", "rule"))
    }


async def test_another_agents_beliefs_and_rules_do_not_move_an_agents_ranking(
    client: TestClient, make_agent: MakeAgent, graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = make_agent("Lexical beliefs")
    ids = []
    for statement in OWN:
        body = {"statement": statement, "category": "contextual"}
        response = client.post(f"/v1/agents/{agent}/beliefs", json=body)
        assert response.status_code == 201, response.text
        ids.append(response.json()["id"])
    rule_ids = []
    for content in OWN_RULES:
        body = {"trigger_concept": "outdoors", "content": content}
        response = client.post(f"/v1/agents/{agent}/rules", json=body)
        assert response.status_code == 201, response.text
        rule_ids.append(response.json()["id"])
    before = _rankings(client, agent)
    lucene_before = await _lucene(test_graph, agent)

    other = make_agent("Kayaker")
    crowd = [
        {
            "id": f"{other}-b{i}",
            "agent_id": other,
            "statement": f"The {KAYAK} trip number {i} went well.",
            "category": "contextual",
            "strength": 0.5,
            "is_active": True,
        }
        for i in range(OTHER_BELIEFS)
    ]
    await test_graph.write("probe/create_beliefs", beliefs=crowd)
    crowd_rules = [
        {
            "id": f"{other}-r{i}",
            "agent_id": other,
            "trigger_concept": "trips",
            "content": f"Pack the {KAYAK} for trip {i}.",
            "confidence": 0.7,
        }
        for i in range(OTHER_RULES)
    ]
    await test_graph.write("probe/create_rules", rules=crowd_rules)
    during = _rankings(client, agent)
    lucene_during = await _lucene(test_graph, agent)
    await delete_agent(graph, other, default_agent_name="")
    after = _rankings(client, agent)

    # The index-wide scores did move: the other agent's kayaks push the own kayak ones down.
    for kind, kayak in (("beliefs", ids[0]), ("rules", rule_ids[0])):
        moved = lucene_during[kind].index(kayak) > lucene_before[kind].index(kayak)
        assert moved, (kind, lucene_before, lucene_during)
    # The agent's own ranking did not, ids and scores, while the other agent was there or after.
    assert during == before
    assert after == before
    # On its own documents the rare kayak word outweighs the lantern one.
    assert [i for i, _ in before["beliefs fulltext"]][:1] == [ids[0]]
    assert [i for i, _ in before["rules fulltext"]][:1] == [rule_ids[0]]
    assert len(before["beliefs fulltext"]) == 4 and len(before["rules fulltext"]) == 3


async def test_frequencies_counted_by_the_index_match_those_counted_from_the_hits(
    client: TestClient, make_agent: MakeAgent, graph: GraphClient
) -> None:
    """With more matches than the pool the document frequencies come from the fulltext index
    (one query per term), else from the hits' own tokens: both count the agent's active beliefs
    alone, the same way."""
    agent = make_agent("Frequencies")
    ids = []
    for statement in [*OWN, f"An old {LANTERN} belief, since given up."]:
        body = {"statement": statement, "category": "contextual"}
        response = client.post(f"/v1/agents/{agent}/beliefs", json=body)
        assert response.status_code == 201, response.text
        ids.append(response.json()["id"])
    response = client.patch(f"/v1/agents/{agent}/beliefs/{ids[-1]}", json={"is_active": False})
    assert response.status_code == 200, response.text
    terms = lucene_terms(QUERY)
    assert terms is not None

    every = await short_text_candidates(graph, BELIEFS, agent, terms, pool=100)
    few = await short_text_candidates(graph, BELIEFS, agent, terms, pool=1)

    assert every["df"] is None and len(every["hits"]) == 4  # the given-up belief is no hit
    counted = DocumentStats.of_words(hit["terms"] for hit in every["hits"]).df
    assert (
        {row["term"]: row["df"] for row in few["df"]}
        == {KAYAK: 1, LANTERN: 3}
        == {term: counted[term] for term in terms.split()}
    )
    # Every belief stores its length with its terms: no statement is sampled.
    assert every["docs"] == few["docs"] == every["stored"] == len(OWN) and every["sample"] == []


# An agent with more matching beliefs than the pool of 100 the index once chose them from: 60
# say the canoe word, 90 the torch word (words of their own: the test above leaves deleted kayaks
# in Lucene's statistics). Written without their stored terms (as before beliefs stored them),
# so the first search also gives them their terms.
CANOE, TORCH = f"canoe{RUN}", f"torch{RUN}"
CROWDED = [
    *(f"The {CANOE} went out on trip {i}." for i in range(60)),
    *(f"The {TORCH} number {i} was lit." for i in range(90)),
]
CROWDED_QUERY = f"{CANOE} {TORCH}"
OLD_POOL = 100


def _beliefs(agent: str, statements: list[str], tag: str) -> list[dict[str, Any]]:
    return [
        {
            "id": f"{agent}-{tag}{i}",
            "agent_id": agent,
            "statement": statement,
            "category": "contextual",
            "strength": 0.5,
            "is_active": True,
        }
        for i, statement in enumerate(statements)
    ]


async def _crowded(graph: GraphClient, settings: Settings, agent: str) -> list[str]:
    hits = await short_text_hits(
        graph,
        BELIEFS,
        agent,
        CROWDED_QUERY,
        pool=settings.retrieval.lexical_pool,
        keep=settings.retrieval.candidates,
    )
    return [hit["id"] for hit in hits]


async def test_an_agent_with_more_matching_beliefs_than_the_old_pool_is_ranked_as_if_alone(
    make_agent: MakeAgent, graph: GraphClient, test_graph: GraphClient, settings: Settings
) -> None:
    agent = make_agent("Crowded beliefs")
    await test_graph.write("probe/create_beliefs", beliefs=_beliefs(agent, CROWDED, "b"))
    before = await _crowded(graph, settings, agent)
    stored = await test_graph.read("probe/belief_lexical_terms", agent_id=agent)
    lucene_before = await lucene_order(
        test_graph, "probe/search_belief_fulltext", CROWDED_QUERY, agent, "id", len(CROWDED)
    )

    other = make_agent("Canoeist")
    crowd = [f"The {CANOE} trip number {i} went well." for i in range(400)]
    await test_graph.write("probe/create_beliefs", beliefs=_beliefs(other, crowd, "o"))
    during = await _crowded(graph, settings, agent)
    lucene_during = await lucene_order(
        test_graph, "probe/search_belief_fulltext", CROWDED_QUERY, agent, "id", len(CROWDED)
    )
    await delete_agent(graph, other, default_agent_name="")
    after = await _crowded(graph, settings, agent)

    # The first search gave every belief its terms, as a new belief gets them when written.
    assert len(stored) == len(CROWDED)
    for row in stored:
        assert {k: row[k] for k in ("lexical_terms", "token_count")} == scored_words(
            row["statement"]
        )
    # The index's own best 100 moved from the canoe beliefs to the torch ones ...
    canoes = {f"{agent}-b{i}" for i in range(60)}
    assert len(canoes & set(lucene_before[:OLD_POOL])) == 60
    assert len(canoes & set(lucene_during[:OLD_POOL])) < 60
    # ... and the agent's ranking did not: its best are canoe beliefs, the same throughout.
    assert len(before) == settings.retrieval.candidates and set(before) <= canoes
    assert during == before
    assert after == before
