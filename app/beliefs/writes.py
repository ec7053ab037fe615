"""Belief writes that answer with every new statement already embedded.

Creating or editing a belief, and a revision that evidence triggers, leave statements without a
vector; embedding them before the caller is answered keeps them findable by meaning at once.
"""

from __future__ import annotations

import logging

from app.beliefs import store, updates
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import (
    Belief,
    BeliefCreate,
    BeliefUpdate,
    EvidenceForBelief,
    EvidenceOutcome,
)
from app.embeddings.embedder import Embedder
from app.embeddings.store import embed_pending
from app.errors import GraphError
from app.graph.client import GraphClient
from app.reasoning.protocol import Reasoner

log = logging.getLogger(__name__)


async def _embed_written(graph: GraphClient, embedder: Embedder, agent_id: str) -> None:
    """Embeds the statements just written. The write itself has committed, so a database that
    fails now (it went away) must not turn the answer into an error a client would retry,
    writing twice: the statements stay ``embedding_pending`` and the next write of the agent (or
    ``credence embed backfill``) embeds them."""
    try:
        await embed_pending(graph, embedder, agent_id)
    except GraphError as error:
        log.warning("statements of agent %s left to embed later: %s", agent_id, error.message)


async def record_evidence(
    graph: GraphClient,
    mechanics: Mechanics,
    reasoner: Reasoner,
    embedder: Embedder,
    agent_id: str,
    items: list[EvidenceForBelief],
) -> EvidenceOutcome:
    """Applies evidence, revises the beliefs that reach the threshold, embeds what they became.

    Args:
        graph: the graph client.
        mechanics: the belief mechanics (weights, thresholds).
        reasoner: writes the statement of a revised belief.
        embedder: embeds the statements the revisions wrote.
        agent_id: the agent whose beliefs the evidence is about.
        items: the pieces of evidence, applied in one transaction.

    Returns:
        The evidence applied and the revisions it caused.

    Raises:
        The errors of :func:`app.beliefs.updates.record_evidence`.
    """
    outcome = await updates.record_evidence(graph, mechanics, reasoner, agent_id, items)
    # Evidence alone changes no statement; only a revision writes new ones.
    if outcome.revision.revisions:
        await _embed_written(graph, embedder, agent_id)
    return outcome


async def create_belief(
    graph: GraphClient, mechanics: Mechanics, embedder: Embedder, agent_id: str, data: BeliefCreate
) -> Belief:
    """Creates one belief (see :func:`app.beliefs.store.create_belief`) and embeds it.

    Raises:
        AgentNotFound: no such agent.
    """
    belief = await store.create_belief(graph, mechanics, agent_id, data)
    await _embed_written(graph, embedder, agent_id)
    return belief


async def update_belief(
    graph: GraphClient,
    mechanics: Mechanics,
    embedder: Embedder,
    agent_id: str,
    belief_id: str,
    changes: BeliefUpdate,
) -> Belief:
    """Edits one belief (see :func:`app.beliefs.store.update_belief`) and embeds a new statement.

    Raises:
        BeliefNotFound: no such belief.
        BeliefImmutable: the statement of a creed belief cannot change, nor can it be deactivated.
    """
    belief = await store.update_belief(graph, mechanics, agent_id, belief_id, changes)
    await _embed_written(graph, embedder, agent_id)
    return belief
