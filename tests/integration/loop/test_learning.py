"""Issue 13, learning new beliefs: a guidance answer, a correction from a person with authority
and a novel fact become beliefs (strength 0.5, source ``learned``, linked to the episode and the
person), which later turns rely on; a repeat reinforces the belief it repeats (REST, real Neo4j,
offline reasoner)."""

from __future__ import annotations

from app.graph.client import GraphClient
from app.memory.frames import default_frames
from app.reasoning.offline.replies import clause
from tests.integration.loop.conftest import Agent

GUIDANCE = "Count the cash box and match it to the petty cash log"


def test_a_guidance_answer_becomes_a_belief_a_later_turn_relies_on(
    agent: Agent,
) -> None:
    asked = agent.chat("Please reconcile the petty cash account", speaker="Dana Fox")
    assert asked["mode"] == "guidance"
    approval = asked["approval"]["id"]
    answered = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{approval}",
        json={"action": "answer", "text": GUIDANCE, "speaker": "Dana Fox"},
    )
    assert answered.status_code == 200, answered.text
    [learned] = answered.json()["learned"]
    assert learned["kind"] == "guidance" and learned["reinforced"] is False
    detail = agent.get(f"/beliefs/{learned['id']}")
    belief = detail["belief"]
    assert belief["statement"].startswith(GUIDANCE + ".")
    assert belief["strength"] == 0.5 and belief["source"] == "learned"
    # Its history says a turn taught it (it said `manual`, as a belief added by hand).
    assert [(e["kind"], e["action"]) for e in detail["events"]][-1] == ("learned", "created")

    later = agent.chat("How do we reconcile the petty cash account?", speaker="Dana Fox")
    assert later["relevant_belief"]["id"] == learned["id"]
    assert clause(GUIDANCE) in later["response"]


async def test_the_learned_belief_is_linked_to_its_episode_and_person(
    agent: Agent, test_graph: GraphClient
) -> None:
    turn = agent.chat(
        "From now on, always attach the receipt to every expense report.", speaker="Dana Fox"
    )
    [learned] = turn["learned"]
    assert learned["kind"] == "guidance"
    [row] = await test_graph.read("loop/learned_from", agent_id=agent.id, belief_id=learned["id"])
    assert row["episode_id"] == turn["turn_id"]
    assert row["person"] == "Dana Fox"
    assert row["kind"] == "guidance" and row["strength"] == 0.5
    assert row["events"] == 1  # its creation event, in the turn's transaction

    again = agent.chat(
        "From now on, always attach the receipt to every expense report!", speaker="Dana Fox"
    )
    [repeat] = again["learned"]
    assert repeat["reinforced"] is True and repeat["id"] == learned["id"]
    assert repeat["similarity"] >= 0.9
    assert agent.strength(learned["id"]) > 0.5


def test_a_correction_is_learned_from_a_person_with_authority_only(agent: Agent) -> None:
    belief = agent.belief("Supplier invoices are approved by one person", 0.8)
    made = agent.client.post(
        f"/v1/agents/{agent.id}/people", json={"name": "Maria Lopez", "seniority": "director"}
    )
    assert made.status_code == 201, made.text
    correction = "No, supplier invoices are not approved by one person."
    newcomer = agent.chat(correction, speaker="Sam Lee")
    assert newcomer["learned"] == []
    director = agent.chat(correction, speaker="Maria Lopez")
    [learned] = director["learned"]
    assert learned["kind"] == "correction" and learned["contradicts"] == [belief]
    edges = agent.get(f"/beliefs/{belief}")["contradictions"]
    assert learned["id"] in [edge["id"] for edge in edges]


def test_a_novel_fact_is_learned_and_a_paraphrase_reinforces_it(agent: Agent) -> None:
    fact = agent.chat("Our fiscal year ends on the thirtieth of June.", speaker="Dana Fox")
    [learned] = fact["learned"]
    assert learned["kind"] == "novel"
    # Hedged words teach nothing.
    assert agent.chat("Maybe the audit moves to next spring.", speaker="Dana Fox")["learned"] == []
    count = agent.get("/beliefs")["count"]
    paraphrase = agent.chat(
        "The fiscal year of our company ends on June the thirtieth.", speaker="Dana Fox"
    )
    assert paraphrase["learned"] == []  # it reinforces the belief as evidence instead
    assert agent.get("/beliefs")["count"] == count
    assert agent.strength(learned["id"]) > 0.5
    answer = agent.chat("When does our fiscal year end?", speaker="Dana Fox")
    assert answer["relevant_belief"]["id"] == learned["id"]


def test_a_learned_belief_joins_the_supporters_of_a_derived_belief(agent: Agent) -> None:
    core = agent.belief("Every bank account is reconciled every month", 0.8)
    leaf = agent.belief("The Chase account is reconciled on the last day of the month", 0.8)
    edge = agent.client.post(
        f"/v1/agents/{agent.id}/edges",
        json={"type": "SUPPORTS", "source_id": leaf, "target_id": core, "weight": 1.0},
    )
    assert edge.status_code in (200, 201), edge.text
    turn = agent.chat(
        "From now on, always reconcile every bank account within five days of month end.",
        speaker="Dana Fox",
    )
    [learned] = turn["learned"]
    assert learned["kind"] == "guidance" and learned["reinforced"] is False
    assert learned["supports"] == [core]
    # The core is derived again, the learned belief (0.5, weight 0.5) among its supporters (the
    # leaf was also reinforced a little by the claim).
    expected = (agent.strength(leaf) * 1.0 + 0.5 * 0.5) / 1.5
    assert abs(agent.strength(core) - expected) < 1e-6 and expected < 0.8
    # A belief with no supporters keeps its own strength: no edge to the leaf.
    assert leaf not in learned["supports"]
    # The link is history on the core: the turn linked it (docs/beliefs.md §6), then derived it.
    events = sorted(agent.get(f"/beliefs/{core}")["events"], key=lambda e: e["seq"])
    linked = [e for e in events if e.get("action") == "support_linked"]
    assert [(e["kind"], e["supporter_id"], e["weight"]) for e in linked] == [
        ("manual", leaf, 1.0),
        ("learned", learned["id"], 0.5),
    ]
    assert "by a turn" in linked[-1]["note"] and events[-1]["kind"] == "cascade"
    assert agent.client.get(f"/v1/agents/{agent.id}/replay").json()["differences"] == []


def test_what_a_turn_learns_takes_its_frames_default_category(agent: Agent) -> None:
    """docs/memory.md §3: a frame's default_category is the category of what is learned in it
    (a turn and a resumed turn alike)."""
    # The agent has no frames of its own: it thinks in the shipped ones.
    categories = {f.key: f.default_category for f in default_frames()}
    categories.setdefault("conversation", "contextual")
    turn = agent.chat(
        "From now on, always attach the receipt to every expense report.", speaker="Dana Fox"
    )
    [learned] = turn["learned"]
    belief = agent.get(f"/beliefs/{learned['id']}")["belief"]
    assert belief["category"] == categories[turn["frame"]]
    assert turn["frame"] == "conversation" and belief["category"] == "relational"

    asked = agent.chat("Please reconcile the petty cash account", speaker="Dana Fox")
    answered = agent.client.post(
        f"/v1/agents/{agent.id}/approvals/{asked['approval']['id']}",
        json={"action": "answer", "text": GUIDANCE, "speaker": "Dana Fox"},
    ).json()
    [guided] = answered["learned"]
    belief = agent.get(f"/beliefs/{guided['id']}")["belief"]
    assert belief["category"] == categories[asked["frame"]]
