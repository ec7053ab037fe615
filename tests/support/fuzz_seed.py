"""Real ids for schemathesis (tests/integration/api/test_openapi_fuzzing.py): an agent seeded over
HTTP with a belief, a revised belief, a person, a task, a rule, a session of episodes, a research
document and an investigation, and the schemathesis configuration that puts their ids into the
generated requests, so that they reach the write paths instead of answering 404."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from typing import Any

import httpx

# Most generated requests use a real id; the rest keep generated ones (malformed ids, unknown
# ids: the 404s and 422s).
REAL_ID_PROBABILITY = 0.9
# Names the seeded person is also known by (DELETE .../people/{person_id}/aliases/{name}).
ALIASES = ("Dana", "D. Fox", "Dee", "Dana F.")


# mcp-server-time (the dev extra installs it beside this interpreter).
TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"


def _ok(response: httpx.Response) -> Any:
    assert response.status_code in (200, 201), f"{response.request.url}: {response.text}"
    return response.json()


def seed_agent(api: str) -> dict[str, Any]:
    """Creates an agent with one item of each kind; returns path parameter -> a real value
    (and ``edge_ends``: beliefs for the body of ``POST /edges`` and the path of its DELETE;
    ``deleted_person_id`` and ``merged_people``: people only deletion and merging name)."""
    with httpx.Client(base_url=api, timeout=120) as client:
        agent = _ok(client.post("/v1/agents", json={"name": "Fuzzing target"}))["id"]
        base = f"/v1/agents/{agent}"

        def belief(statement: str, strength: float = 0.8) -> str:
            created = client.post(
                f"{base}/beliefs",
                json={"statement": statement, "strength": strength, "category": "contextual"},
            )
            belief_id: str = _ok(created)["id"]
            return belief_id

        kept = belief("Invoices are paid within thirty days of receipt.")
        other = belief("Suppliers send their invoices at the end of each month.")
        revised = belief("The bank feed imports every transaction overnight.")
        for number in range(8):  # contradicted until it is revised (then 409: inactive)
            answer = client.post(
                f"{base}/beliefs/{revised}/evidence",
                json={"text": f"The feed missed a day ({number})", "stance": "contradicting"},
            )
            if answer.status_code == 409:
                break
            _ok(answer)
        revisions = _ok(client.get(f"{base}/revisions"))
        person = _ok(client.post(f"{base}/people", json={"name": "Dana Fox"}))["id"]
        # Names she is also known by, which DELETE .../aliases/{name} may remove.
        for alias in ALIASES:
            _ok(client.post(f"{base}/people/{person}/aliases", json={"name": alias}))
        # People that a generated request may delete or merge into Dana Fox (she stays).
        doomed_person = _ok(client.post(f"{base}/people", json={"name": "Lee Park"}))["id"]
        merged = [
            _ok(client.post(f"{base}/people", json={"name": f"Sam Doe {number}"}))["id"]
            for number in range(6)
        ]
        # An edge a generated request may remove (DELETE /edges/supports/{source}/{target}).
        _ok(
            client.post(
                f"{base}/edges",
                json={"type": "SUPPORTS", "source_id": kept, "target_id": other, "weight": 0.5},
            )
        )
        task = _ok(
            client.post(f"{base}/working-memory/tasks", json={"description": "Close March"})
        )["task"]["id"]
        rule = _ok(
            client.post(
                f"{base}/rules",
                json={"trigger_concept": "bank feed", "content": "Check the feed each morning."},
            )
        )["id"]
        imported = _ok(
            client.post(
                f"{base}/episodes",
                json={
                    "episodes": [
                        {"speaker": "Dana Fox", "text": "The feed broke again.", "session": "s1"},
                        {"speaker": "assistant", "text": "I will check it.", "session": "s1"},
                    ]
                },
            )
        )
        _ok(
            client.post(
                f"{base}/research/sources",
                json={"files": [{"name": "notes.txt", "content": "The feed runs at two."}]},
            )
        )
        documents = _ok(client.get(f"{base}/research/sources"))
        investigation = _ok(
            client.post(
                f"{base}/investigations",
                json={"question": "When does the bank feed run?", "iteration_cap": 1},
            )
        )["id"]
        censors = _ok(client.get(f"{base}/censors"))
        # A task the agent may only propose at this strength: the turn leaves an approval.
        belief("Bank accounts are reconciled at month end before the books are closed", 0.55)
        turn = _ok(
            client.post(
                f"{base}/chat",
                json={
                    "message": "Please reconcile the Chase bank account before the books are closed"
                },
            )
        )
        # A connection to a real MCP server (mcp-server-time, installed with the dev extra), so
        # the connection and action routes reach their core.
        connection = {"name": "clock", "transport": "stdio", "command": str(TIME_SERVER)}
        _ok(client.post(f"{base}/connections", json=connection))
        doomed = _ok(client.post("/v1/agents", json={"name": "Fuzzing deletion"}))["id"]
    values = {
        "agent_id": agent,
        "belief_id": kept,
        "person_id": person,
        "task_id": task,
        "rule_id": rule,
        "episode_id": imported["episodes"][0]["id"],
        "session": "s1",
        "investigation_id": investigation,
        # A path's {name}: a pack, a connection or an analytics query (a person's alias has its
        # own, below).
        "name": ["gaap-fundamentals", "clock", "belief_tension_timeline"],
        # A path's {tool}: a tool of the seeded connection (PATCH .../tools/{tool}).
        "tool": ["get_current_time", "convert_time"],
        "deleted_agent_id": doomed,
        "deleted_person_id": doomed_person,
        "merged_people": merged,
        "aliases": list(ALIASES),
    }
    # The beliefs an edge may join (POST /edges names them in its body).
    edge_ends = [kept, other]
    revision_rows = _rows(revisions)
    if revision_rows:
        values["revision_id"] = str(revision_rows[0]["id"])
    document_rows = _rows(documents)
    if document_rows:
        values["document_id"] = str(document_rows[0]["document_id"])
    if turn.get("approval"):
        values["approval_id"] = str(turn["approval"]["id"])
    censor_rows = _rows(censors)
    if censor_rows:
        values["censor_id"] = str(censor_rows[0]["id"])
    return {**values, "edge_ends": edge_ends}


def _rows(listing: Any) -> list[dict[str, Any]]:
    """The items of a page (``{"data": [...], "count": n}``)."""
    rows: list[dict[str, Any]] = listing["data"]
    return rows


def write_config(path: Path, seeded: dict[str, Any]) -> Path:
    """A schemathesis.toml that draws each path parameter from its real value (most of the
    time), and an edge's ends from the seeded beliefs, and deletes only the agent seeded for
    deletion."""
    special = ("deleted_agent_id", "edge_ends", "deleted_person_id", "merged_people", "aliases")
    ordinary = {k: v for k, v in seeded.items() if k not in special}
    lines = []
    for name, value in ordinary.items():
        values = value if isinstance(value, list) else [value]
        lines += [f"[dictionaries.{name}]", f"values = {json.dumps(values)}", ""]
    lines += ["[dictionaries.edge_ends]", f"values = {json.dumps(seeded['edge_ends'])}", ""]
    lines += ["[dictionaries.merged]", f"values = {json.dumps(seeded['merged_people'])}", ""]
    lines += ["[dictionaries.aliases]", f"values = {json.dumps(seeded['aliases'])}", ""]
    lines.append("[parameters]")
    for name in ordinary:
        lines.append(
            f'"path.{name}" = {{ dictionary = "{name}", probability = {REAL_ID_PROBABILITY} }}'
        )
    for end, where in itertools.product(("source_id", "target_id"), ("body", "path")):
        lines.append(
            f'"{where}.{end}" = {{ dictionary = "edge_ends", probability = {REAL_ID_PROBABILITY} }}'
        )
    lines.append(
        f'"body.other_id" = {{ dictionary = "merged", probability = {REAL_ID_PROBABILITY} }}'
    )
    # POST /actions names the seeded connection and one of its tools in its body.
    for field, value in (("connection", "clock"), ("tool", "get_current_time")):
        lines.insert(lines.index("[parameters]"), f"[dictionaries.action_{field}]")
        lines.insert(lines.index("[parameters]"), f"values = [{json.dumps(value)}]")
        lines.insert(lines.index("[parameters]"), "")
        lines.append(
            f'"body.{field}" = {{ dictionary = "action_{field}", '
            f"probability = {REAL_ID_PROBABILITY} }}"
        )
    lines += [
        "",
        # ... with arguments the tool's input schema takes (any others are refused before the
        # call is routed, a 422, so the turn would never be reached).
        "[[operations]]",
        'include-name = "POST /v1/agents/{agent_id}/actions"',
        'parameters = { "body.arguments" = { timezone = "UTC" } }',
        "",
        "[[operations]]",
        'include-name = "DELETE /v1/agents/{agent_id}"',
        f'parameters = {{ "path.agent_id" = {json.dumps(seeded["deleted_agent_id"])} }}',
        "",
        "[[operations]]",
        'include-name = "DELETE /v1/agents/{agent_id}/people/{person_id}/aliases/{name}"',
        'parameters = { "path.name" = { dictionary = "aliases", probability = '
        f"{REAL_ID_PROBABILITY} }} }}",
        "",
        "[[operations]]",
        'include-name = "DELETE /v1/agents/{agent_id}/people/{person_id}"',
        f'parameters = {{ "path.person_id" = {json.dumps(seeded["deleted_person_id"])} }}',
        "",
    ]
    path.write_text("\n".join(lines))
    return path
