"""A chat turn's episode joins its session like an imported one (issue 12): chained after the
previous turn by NEXT, searched by its speaker and words, embedded with the turn before it."""

from __future__ import annotations

import numpy as np

from app.config import Settings
from app.embeddings.embedder import shared_embedder
from app.graph.client import GraphClient
from tests.integration.loop.conftest import Agent

MESSAGES = ["Can you reconcile the bank account today?", "Also check the April accruals."]


async def test_turns_of_a_session_are_chained_and_embedded_with_the_one_before(
    agent: Agent, test_graph: GraphClient
) -> None:
    for message in MESSAGES:
        agent.chat(message, session="talk", speaker="Dana")

    rows = await test_graph.read("probe/session_chain", agent_id=agent.id, session="talk")

    assert [r["search_text"] for r in rows] == [f"Dana: {m}" for m in MESSAGES]
    assert rows[0]["next"] == [rows[1]["id"]] and rows[1]["previous"] == [rows[0]["id"]]
    assert [r["seq"] for r in rows] == [0, 1]
    vectors = await shared_embedder(Settings().embeddings).embed(
        [f"Dana: {MESSAGES[0]}\nDana: {MESSAGES[1]}"]
    )
    assert vectors is not None
    assert float(np.dot(np.asarray(rows[1]["embedding"]), np.asarray(vectors[0]))) > 0.999
