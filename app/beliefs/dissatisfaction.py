"""Dissatisfaction: the ambient anxiety signal, with its band and top contributors."""

from __future__ import annotations

from app.beliefs.formulas import band
from app.beliefs.mechanics import Mechanics
from app.beliefs.models import Contributor, Dissatisfaction
from app.errors import AgentNotFound
from app.graph.client import GraphClient, Transaction


async def compute_dissatisfaction(
    graph: GraphClient,
    mechanics: Mechanics,
    agent_id: str,
    top: int = 5,
    *,
    count_beliefs: bool = True,
) -> Dissatisfaction:
    """D over the active beliefs (docs/beliefs.md §7), its band, and its largest contributors.

    D itself takes constant time (running sums on the Agent); ``count_beliefs`` adds the number
    of active beliefs, which reads each of them (a turn does without it).

    Raises:
        AgentNotFound: no such agent.
    """
    rows = await graph.read(
        "beliefs/dissatisfaction/compute_dissatisfaction",
        agent_id=agent_id,
        top=top,
        count_beliefs=count_beliefs,
    )
    if not rows:  # the query starts from the Agent node: no row means no such agent
        raise AgentNotFound(agent_id)
    row = rows[0]
    value = float(row["value"])
    return Dissatisfaction(
        value=value,
        band=band(value, mechanics),
        beliefs=row["beliefs"],
        contributors=[Contributor.model_validate(c) for c in row["contributors"]],
    )


async def recompute_sums_in(tx: Transaction, agent_id: str) -> None:
    """Recomputes the agent's dissatisfaction sums from its beliefs, inside the caller's
    transaction (which holds the agent's lock); for writes that change many beliefs at once."""
    await tx.run("beliefs/dissatisfaction/recompute_sums", agent_id=agent_id)
