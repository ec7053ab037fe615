"""`credence episodes link-subjects` on the real Neo4j: episodes stored without MENTIONS edges
(as code before issue 22 wrote them) are linked to their speaker, names and topics; a second run
links nothing; an unknown agent is an error."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

from typer.testing import CliRunner, Result

from app.agents.models import AgentCreate
from app.agents.store import create_agent
from app.cli.main import app as cli_app
from app.graph.client import GraphClient

TURNS = [
    ("Kate", "I took up pottery last month and made a bowl."),
    ("Bart", "Kate, that sounds lovely."),
]


async def test_link_subjects_links_stored_episodes_once(
    cli: CliRunner, graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="Unlinked"))).id
    when = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    ids = [str(uuid.uuid4()) for _ in TURNS]
    await test_graph.write(
        "probe/create_old_episodes",
        agent_id=agent,
        session="s1",
        episodes=[
            {
                "id": i,
                "speaker": speaker,
                "text": text,
                "occurred_at": when,
                "embedding": [0.1] * 384,
            }
            for i, (speaker, text) in zip(ids, TURNS, strict=True)
        ],
    )
    before = await test_graph.read("probe/episode_subjects", agent_id=agent)

    def invoke(*args: str) -> Result:  # the CLI runs its own event loop: in a thread
        return cli.invoke(cli_app, ["episodes", "link-subjects", *args])

    linked = await asyncio.to_thread(invoke, "--agent", agent)
    after = await test_graph.read("probe/episode_subjects", agent_id=agent)
    again = await asyncio.to_thread(invoke, "-a", agent)
    unknown = await asyncio.to_thread(invoke, "-a", f"nobody-{uuid.uuid4()}")

    assert all(row["keys"] == [] for row in before)
    assert linked.exit_code == 0, linked.output
    assert "2 episodes linked" in linked.output
    # (The probe groups by external id, which these old episodes lack: one row for both.)
    counts = {key: n for row in after for key, n in row["counts"]}
    # Kate's turn mentions her (she said it) and its topics; Bart's mentions him and Kate.
    assert counts["name:kate"] == 2 and counts["name:bart"] == 1
    assert counts["topic:pottery"] == 1 and counts["topic:bowl"] == 1
    assert again.exit_code == 0 and "0 episodes linked" in again.output
    assert unknown.exit_code == 1, unknown.output


async def test_link_subjects_gives_old_topic_edges_their_word_form(
    cli: CliRunner, graph: GraphClient, test_graph: GraphClient
) -> None:
    agent = (await create_agent(graph, AgentCreate(name="Formless"))).id
    episode = {
        "id": str(uuid.uuid4()),
        "speaker": "Kate",
        "text": "Two bowls cracked in the kiln; the glazed bowls survived.",
        "occurred_at": datetime(2024, 3, 1, 9, 0, tzinfo=UTC),
        "embedding": [0.1] * 384,
    }
    await test_graph.write(
        "probe/create_old_episodes", agent_id=agent, session="s1", episodes=[episode]
    )

    def invoke() -> Result:  # the CLI runs its own event loop: in a thread
        return cli.invoke(cli_app, ["episodes", "link-subjects", "--agent", agent])

    first = await asyncio.to_thread(invoke)
    assert "1 episodes linked" in first.output and "0 topic mentions given" in first.output
    linked = await test_graph.read("probe/topic_surfaces", agent_id=agent)
    # Edges linked before the forms were kept: the same run gives them back.
    await test_graph.write("probe/drop_topic_surfaces", agent_id=agent)
    filled = await asyncio.to_thread(invoke)
    again = await asyncio.to_thread(invoke)

    assert {"key": "topic:bowl", "surface": "bowls"} in linked
    assert all(row["surface"] is not None for row in linked)
    assert filled.exit_code == 0, filled.output
    assert f"{len(linked)} topic mentions given their word's form" in filled.output
    assert await test_graph.read("probe/topic_surfaces", agent_id=agent) == linked
    assert "0 episodes linked" in again.output and "0 topic mentions given" in again.output
