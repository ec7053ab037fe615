"""A belief with a known history, written through the REST API: a SUPPORTS chain two deep,
evidence for and against it from a named person, an open contradiction, and five anonymous
contradictions that revise it. The explanation tests (REST and MCP) check what Credence says
about it."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi.testclient import TestClient

ROOT = "Cash collections are predictable"
MIDDLE = "Customers pay within 30 days"
LEAF = "Acme always pays on time"
RIVAL = "Cash collections swing with the quarter"


@dataclass(frozen=True)
class History:
    agent: str
    old_root: str
    new_root: str
    middle: str
    leaf: str
    rival: str
    person: str
    revision: str


def _post(client: TestClient, path: str, body: dict[str, object]) -> dict[str, object]:
    response = client.post(path, json=body)
    assert response.is_success, response.text
    answer: dict[str, object] = response.json()
    return answer


def script_history(client: TestClient, agent: str) -> History:
    base = f"/v1/agents/{agent}"

    def belief(statement: str, strength: float) -> str:
        body = {"statement": statement, "category": "contextual", "strength": strength}
        return str(_post(client, f"{base}/beliefs", body)["id"])

    root, middle, leaf, rival = (
        belief(ROOT, 0.8),
        belief(MIDDLE, 0.7),
        belief(LEAF, 0.9),
        belief(RIVAL, 0.4),
    )
    for source, target, weight in ((middle, root, 0.8), (leaf, middle, 0.5)):
        edge = {"type": "SUPPORTS", "source_id": source, "target_id": target, "weight": weight}
        _post(client, f"{base}/edges", edge)
    contradiction = {"type": "CONTRADICTS", "source_id": rival, "target_id": root, "strength": 0.6}
    _post(client, f"{base}/edges", contradiction)
    person = str(_post(client, f"{base}/people", {"name": "Dana Smith"})["id"])
    _post(
        client,
        f"{base}/beliefs/{root}/evidence",
        {
            "text": "March collections came in on plan",
            "stance": "reinforcing",
            "source_person_id": person,
        },
    )
    # A person's evidence weighs their relationship value (0.4 for a new acquaintance); the
    # anonymous pieces weigh 1.0, so the fifth of them takes the tension past 0.7.
    _post(
        client,
        f"{base}/beliefs/{root}/evidence",
        {
            "text": "Dana says April collections slipped",
            "stance": "contradicting",
            "source_person_id": person,
        },
    )
    revision = None
    for number in range(5):
        answer = _post(
            client,
            f"{base}/beliefs/{root}/evidence",
            {
                "text": f"Collections slipped two weeks in month {number + 1}",
                "stance": "contradicting",
            },
        )
        revisions = answer["revision"]["revisions"]  # type: ignore[index]
        if revisions:
            revision = revisions[0]
    assert revision is not None, "five contradictions should revise the root belief"
    return History(
        agent=agent,
        old_root=root,
        new_root=str(revision["new_belief_id"]),
        middle=middle,
        leaf=leaf,
        rival=rival,
        person=person,
        revision=str(revision["id"]),
    )
