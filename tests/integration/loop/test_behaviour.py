"""The behaviours the loop must show (issue 5), end to end over REST on the real Neo4j with the
offline reasoner: self-correction, resistance then breakthrough, appropriate uncertainty,
competence-based autonomy, the guardian, micro-birth and streaming."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.api.app import create_app
from app.config import Settings
from app.graph.client import GraphClient
from app.memory.frames import default_frames
from app.reasoning.offline.replies import clause
from tests.integration.loop.conftest import Agent

RECOGNITION = "Revenue is recognised when the performance obligation is satisfied"
DENIAL = "That's wrong: revenue is not recognised when the performance obligation is satisfied."
QUESTION = "When is revenue recognised?"
RECONCILE = "Bank accounts are reconciled at month end before the books are closed"
REQUEST = "Please reconcile the Chase bank account before the books are closed"
REMEMBER = "Dates the person asks me to remember, such as when an audit starts, are noted"


def test_resistance_then_breakthrough_then_self_correction(agent: Agent) -> None:
    belief = agent.belief(RECOGNITION, 0.8)
    agent.belief("Invoices are approved by two people", 0.8)
    tensions: list[float] = []
    breakthrough = None
    for _ in range(10):
        turn = agent.chat(DENIAL)
        if turn["revisions"]:
            breakthrough = turn
            break
        # Resistance: the belief holds (strength unmoved, still active) while tension grows.
        assert turn["mode"] != "revision"
        assert agent.strength(belief) == 0.8
        moved = [t for t in turn["tension_changes"] if t["id"] == belief]
        assert moved and moved[0]["new"] > moved[0]["old"]
        tensions.append(agent.tension(belief))
    assert breakthrough is not None, f"no revision after 10 contradicting turns: {tensions}"
    assert len(tensions) >= 3
    assert tensions == sorted(tensions) and tensions[-1] < 0.7
    # Breakthrough: the turn that crossed 0.7 halted and revised.
    assert breakthrough["mode"] == "revision"
    revision = breakthrough["revisions"][0]
    assert revision["old_belief_id"] == belief
    assert revision["trigger_tension"] >= 0.7
    assert "revised" in breakthrough["response"].lower()
    assert "revise: offline" in breakthrough["reasoners"]["calls"]
    old = agent.get(f"/beliefs/{belief}")
    assert old["belief"]["is_active"] is False
    assert old["successors"][0]["id"] == revision["new_belief_id"]
    # Self-correction: the next answer rests on the revised belief.
    answer = agent.chat(QUESTION)
    # (quoted as a clause of the answer: clause() of app/reasoning/offline/replies.py)
    assert clause(revision["new_statement"]) in answer["response"]
    assert [c.split(":")[0] for c in answer["reasoners"]["calls"]] == ["appraise", "respond"]
    assert clause(RECOGNITION) not in answer["response"]


def test_appropriate_uncertainty_by_dissatisfaction_band(client: TestClient) -> None:
    answers = {}
    for band, contradictions in (("low", 0), ("medium", 3), ("high", 4)):
        response = client.post("/v1/agents", json={"name": f"uncertain {band}"})
        agent = Agent(client, response.json()["id"])
        asked = agent.belief(RECOGNITION, 0.8)
        other = agent.belief("Expenses are matched to the period that earned the revenue", 0.8)
        for belief in (asked, other):
            agent.contradict(belief, contradictions)
            if band == "high":
                agent.contradict(belief, 1, confidence=0.4)
        turn = agent.chat(QUESTION)
        assert turn["dissatisfaction"]["band"] == band, turn["dissatisfaction"]
        answers[band] = turn
    low, medium, high = answers["low"], answers["medium"], answers["high"]
    assert clause(RECOGNITION) in low["response"]
    assert not low["questions"]
    assert medium["questions"], "a medium band answer asks questions"
    assert medium["response"] != low["response"]
    assert high["response"].lower().startswith("before")
    assert high["response"] != medium["response"]


def test_autonomy_follows_competence(client: TestClient) -> None:
    modes = {}
    for label, strength in (("weak", 0.3), ("medium", 0.55), ("strong", 0.85)):
        response = client.post("/v1/agents", json={"name": f"autonomy {label}"})
        agent = Agent(client, response.json()["id"])
        agent.belief(RECONCILE, strength)
        modes[label] = agent.chat(REQUEST)
    assert modes["weak"]["mode"] == "guidance"
    assert modes["weak"]["approval"]["kind"] == "guidance"
    assert modes["medium"]["mode"] == "proposal"
    assert modes["medium"]["approval"]["kind"] == "proposal"
    assert modes["medium"]["approval"]["work_unit"]["verb"] == "reconcile_accounts"
    strong = modes["strong"]
    assert strong["mode"] == "autonomous"
    assert strong["approval"] is None
    # No executor for "reconcile_accounts": recorded as a decision, never a fake success.
    assert strong["execution"]["status"] == "recorded_not_executed"
    assert strong["decision_id"]
    assert "not executed" in strong["response"].lower() or "recorded" in strong["response"].lower()
    # Routine turns stay within 3 reasoner (model) calls: the appraisal names the work unit, and
    # a bare request makes no claims to judge.
    for turn in modes.values():
        assert len(turn["reasoners"]["calls"]) <= 3, turn["reasoners"]["calls"]


def test_context_conditional_strength_decides(agent: Agent) -> None:
    agent.belief(RECONCILE, 0.5, contexts=[{"name": "month_end", "strength": 0.9}])
    assert agent.chat(REQUEST, context="month_end")["mode"] == "autonomous"
    assert agent.chat(REQUEST, context="quarter_start")["mode"] == "proposal"


def test_high_stakes_frame_caps_at_proposal(agent: Agent) -> None:
    agent.belief(RECONCILE, 0.9)
    turn = agent.chat("Should we reconcile the Chase bank account before the books are closed?")
    assert turn["frame"] == "decision"
    assert turn["stakes"] == "high"
    # The frame's own checks are in the result (the agent's, not asked of the person).
    checks = next(f.questions_to_ask for f in default_frames() if f.key == "decision")
    assert turn["frame_questions"] == checks and not set(turn["questions"]) & set(checks)
    if turn["work_unit"] is not None:
        assert turn["mode"] == "proposal"
    else:
        assert turn["mode"] in ("proposal", "guidance")


def test_block_censor_refuses_and_says_why(agent: Agent) -> None:
    agent.belief("Servers are cleaned up after each release", 0.9)
    turn = agent.chat("Please run rm -rf / on the build server")
    assert turn["mode"] == "blocked"
    assert turn["guardian"]["action"] in ("block", "absolute")
    assert turn["guardian"]["reason"]
    assert turn["execution"] is None
    assert turn["approval"] is None


def test_executor_runs_a_registered_verb(agent: Agent) -> None:
    agent.belief(REMEMBER, 0.9)
    turn = agent.chat("Please remember that the audit starts on Monday")
    assert turn["mode"] == "autonomous", turn["guardian"]
    assert turn["execution"]["status"] == "executed"
    assert turn["execution"]["executor"] == "working_memory"
    notes = agent.get("/working-memory")["notes"]
    assert any("audit" in note["content"].lower() for note in notes)


def test_new_people_are_micro_born(agent: Agent) -> None:
    turn = agent.chat("Priya Raman said the accrual looks fine", speaker="Jordan Lee")
    assert set(turn["people_born"]) >= {"Jordan Lee", "Priya Raman"}
    names = {p["name"] for p in agent.get("/people")["data"]}
    assert {"Jordan Lee", "Priya Raman"} <= names


def test_turn_records_episode_decision_and_reasons(agent: Agent) -> None:
    agent.belief(RECONCILE, 0.85)
    turn = agent.chat(REQUEST, session="s-1")
    episode = agent.get(f"/episodes/{turn['turn_id']}")
    assert episode["response"] == turn["response"]
    assert episode["supervision_mode"] == "autonomous"
    assert turn["decision_id"]


def test_websocket_streams_phases_tension_and_result(client: TestClient, agent: Agent) -> None:
    belief = agent.belief(RECOGNITION, 0.8)
    with client.websocket_connect(f"/v1/agents/{agent.id}/ws/chat") as socket:
        socket.send_json({"message": DENIAL})
        events = []
        while True:
            event = socket.receive_json()
            events.append(event)
            if event["type"] in ("result", "error"):
                break
        socket.send_json({"message": ""})
        invalid = socket.receive_json()
    kinds = [e["type"] for e in events]
    assert kinds[-1] == "result"
    phases = [e["phase"] for e in events if e["type"] == "phase"]
    assert phases[:2] == ["activate", "appraise"]
    assert "respond" in phases
    tension = [e for e in events if e["type"] == "tension"]
    assert tension and tension[0]["data"]["id"] == belief
    assert invalid["type"] == "error" and invalid["error"]["status"] == 422


def test_an_answer_to_a_question_asks_no_approval(agent: Agent) -> None:
    agent.belief(RECOGNITION, 0.55)
    turn = agent.chat(QUESTION)
    assert turn["mode"] == "proposal"  # the supervision level its belief allows...
    assert turn["approval"] is None  # ...but a question asks for nothing to be done
    assert "go ahead" not in turn["response"].lower()
    assert clause(RECOGNITION) in turn["response"]


def test_turn_episode_carries_surprise_and_valence(agent: Agent) -> None:
    agent.belief(RECOGNITION, 0.8)
    denial = agent.chat(DENIAL, speaker="Dana Fox")
    praise = agent.chat("Thanks, that was really helpful!", speaker="Dana Fox")
    first = agent.get(f"/episodes/{denial['turn_id']}")
    second = agent.get(f"/episodes/{praise['turn_id']}")
    assert first["surprise"] > 0.5
    assert second["emotional_valence"] > 0
    assert first["model_calls"] == 0 and first["reasoners"]


def test_runaway_guard_counts_turns_and_meditates(settings: Settings) -> None:
    """Each turn records a dissatisfaction sample in its own transaction; after more than
    ``meditation_turns`` turns above the line the agent meditates on its tense beliefs."""
    mechanics = settings.mechanics.model_copy(
        update={"meditation_turns": 2, "meditation_dissatisfaction": 0.5}
    )
    with TestClient(create_app(settings.model_copy(update={"mechanics": mechanics}))) as client:
        response = client.post("/v1/agents", json={"name": "Runaway"})
        agent = Agent(client, response.json()["id"])
        tense = agent.belief("Everything is fine", 0.8, importance=1.0)
        calm = agent.belief("Tea is warm", 0.8, importance=0.1)
        agent.contradict(tense, 4)  # 0.6: above the meditation line, below revision
        samples = []
        for turn in range(3):
            agent.chat(f"What is on the agenda for meeting {turn}?")
            history = agent.get("/analytics/dissatisfaction_history")
            samples.append(len(history["rows"]))
            revisions = agent.get("/revisions")["data"]
            assert [r["mode"] for r in revisions] == ([] if turn < 2 else ["meditation"])
        assert samples == [1, 2, 4]  # the meditation records the restarted streak too
        assert agent.get(f"/beliefs/{calm}")["belief"]["is_active"]
        assert not agent.get(f"/beliefs/{tense}")["belief"]["is_active"]


async def test_a_failed_audit_blocks_says_why_and_costs_coherence(
    agent: Agent, test_graph: GraphClient
) -> None:
    """Seed 003: a creed violation costs the turn 0.5 of coherence; the audit says why, which
    creed lines it breaks and what to do instead."""
    turn = agent.chat("Please pay the Acme invoice today and backdate it to last quarter")
    assert turn["mode"] == "blocked"
    audit = turn["guardian"]["audit"]
    assert audit["passed"] is False and "backdating" in audit["reason"]
    assert audit["recommendation"] and "coherence_penalty" in audit
    assert audit["coherence_penalty"] == -0.5
    [episode] = await test_graph.read(
        "loop/episode_conduct", agent_id=agent.id, episode_id=turn["turn_id"]
    )
    assert episode["coherence_penalty"] == -0.5

    calm = agent.chat("Please pay the Acme invoice today")
    assert (calm["guardian"]["audit"] or {}).get("coherence_penalty", 0.0) == 0.0
    [episode] = await test_graph.read(
        "loop/episode_conduct", agent_id=agent.id, episode_id=calm["turn_id"]
    )
    assert episode["coherence_penalty"] == 0.0


def test_high_dissatisfaction_revises_the_most_urgent_beliefs_first(settings: Settings) -> None:
    """Seed 001's orchestrator step 2: at high D the turn revises its most tense beliefs (at
    most ``urgent_revision_beliefs``) before it answers, in the band it started in."""
    mechanics = settings.mechanics.model_copy(update={"urgent_revision_beliefs": 2})
    with TestClient(create_app(settings.model_copy(update={"mechanics": mechanics}))) as client:
        response = client.post("/v1/agents", json={"name": "Urgent"})
        agent = Agent(client, response.json()["id"])
        tense = [
            agent.belief(RECOGNITION, 0.8),
            agent.belief("Expenses are matched to the period that earned the revenue", 0.8),
            agent.belief("Accruals are reversed on the first day of the next period", 0.8),
        ]
        for belief, extra in zip(tense, (0.4, 0.3, 0.0), strict=True):
            agent.contradict(belief, 4)
            if extra:
                agent.contradict(belief, 1, confidence=extra)
        tensions = [agent.tension(belief) for belief in tense]
        assert tensions[0] > tensions[1] > tensions[2] >= 0.5, tensions
        turn = agent.chat(QUESTION)
        assert turn["dissatisfaction"]["band"] == "high"
        urgent = [r for r in turn["revisions"] if r["mode"] == "urgent"]
        assert [r["old_belief_id"] for r in urgent] == tense[:2]
        assert all(r["trigger_tension"] >= 0.5 for r in urgent)
        assert not agent.get(f"/beliefs/{tense[0]}")["belief"]["is_active"]
        assert agent.get(f"/beliefs/{tense[2]}")["belief"]["is_active"]
        # It answered from the revised belief, not the one it replaced.
        assert turn["relevant_belief"]["id"] != tense[0]
        modes = [r["mode"] for r in agent.get("/revisions")["data"]]
        assert modes.count("urgent") == 2


def test_the_next_answer_to_a_person_names_what_changed_since_they_were_told(
    agent: Agent,
) -> None:
    """Seed 001's "revisits past outputs": after a revision, the next answer to the person an
    earlier answer rested on the old belief for says what changed, once; nobody else hears it."""
    belief = agent.belief(RECOGNITION, 0.8)
    told = agent.chat(QUESTION, speaker="Dana Fox")
    assert told["relevant_belief"]["id"] == belief and told["revisited"] == []
    agent.contradict(belief, 5)  # the API's own evidence: revised at the threshold
    assert not agent.get(f"/beliefs/{belief}")["belief"]["is_active"]

    stranger = agent.chat(QUESTION, speaker="Omar Haddad")
    assert stranger["revisited"] == []
    again = agent.chat("Good morning, what is on the agenda today?", speaker="Dana Fox")
    [change] = again["revisited"]
    assert change["old_statement"] == RECOGNITION
    assert change["new_statement"] != RECOGNITION
    assert again["response"].startswith("Since we last spoke I have changed my mind")
    assert (
        "revenue is recognised when the performance obligation is satisfied" in (again["response"])
    )
    later = agent.chat("And tomorrow?", speaker="Dana Fox")
    assert later["revisited"] == []


def test_the_entities_a_work_unit_acts_on_become_salient_in_working_memory(agent: Agent) -> None:
    """Seed 002's entities column, filled by the loop: what the turn's work acts on."""
    agent.belief(RECONCILE, 0.55)
    turn = agent.chat(REQUEST)
    entities = turn["work_unit"]["entities"]
    assert entities, turn["work_unit"]
    memory = agent.get("/working-memory")
    noted = {e["name"]: e for e in memory["objects"]["entities"]}
    assert set(entities) <= set(noted)
    assert all(noted[name]["kind"] == "work_unit" for name in entities)
