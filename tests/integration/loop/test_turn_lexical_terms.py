"""A chat turn's episode is scored by its response too (REST, real Neo4j, offline reasoner): the
response joins the words the episode stores (its lexical terms and length) and the agent's
lexical statistics, which then equal the statistics built again from the stored episodes."""

from __future__ import annotations

from app.graph.client import GraphClient
from app.memory.lexical_stats import episode_document
from app.text.lexical import DocumentStats, counted_terms, tokens
from tests.integration.loop.conftest import Agent


async def test_a_turns_response_joins_the_words_its_episode_is_scored_by(
    agent: Agent, test_graph: GraphClient
) -> None:
    for message in (
        "Please remember that the audit starts on Monday",
        "Who has to approve wire transfers?",
    ):
        assert agent.chat(message)["response"]
    episodes = await test_graph.read("probe/episode_lexical_terms", agent_id=agent.id)
    answered = [row for row in episodes if row["response"]]

    assert len(answered) == 2
    for row in episodes:
        words = tokens(episode_document(row))
        assert row["lexical_terms"] == counted_terms(words), row
        assert row["token_count"] == len(words)
    # The responses hold words their messages do not (so the check below counts them).
    assert any(
        set(counted_terms(tokens(row["response"])))
        - set(counted_terms(tokens(f"{row['search_text']} {row['user_message']}")))
        for row in answered
    )
    kept = (await test_graph.read("probe/lexical_statistics", agent_id=agent.id))[0]
    rebuilt = DocumentStats.of(episode_document(row) for row in episodes)
    assert (kept["docs"], kept["length"]) == (rebuilt.docs, rebuilt.length)
    assert dict(map(tuple, kept["pairs"])) == dict(rebuilt.df)
