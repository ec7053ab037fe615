"""Context names and their back-off chain: ``acme/month_end`` falls back to ``month_end``."""

from __future__ import annotations

from typing import Any

from app.graph.client import GraphClient


def context_parents(name: str) -> list[dict[str, str]]:
    """The WITHIN links implied by a context name, most specific first:
    ``a/b/c`` → ``[{child: a/b/c, parent: b/c}, {child: b/c, parent: c}]``."""
    parts = name.split("/")
    return [
        {"child": "/".join(parts[i:]), "parent": "/".join(parts[i + 1 :])}
        for i in range(len(parts) - 1)
    ]


def all_context_parents(names: list[str]) -> list[dict[str, str]]:
    links: dict[tuple[str, str], dict[str, str]] = {}
    for name in names:
        for link in context_parents(name):
            links[(link["child"], link["parent"])] = link
    return list(links.values())


def context_chain(name: str | None) -> list[str]:
    """The context and its fallbacks, most specific first: ``a/b`` → ``[a/b, b]``."""
    if name is None:
        return []
    parts = name.split("/")
    return ["/".join(parts[i:]) for i in range(len(parts))]


async def context_strengths(
    graph: GraphClient, agent_id: str, belief_ids: list[str], context_name: str | None
) -> list[dict[str, Any]]:
    """Each belief's strength in a context (docs/beliefs.md §2): the HOLDS_IN strength of the
    context or of its nearest fallback the belief holds in, else its default strength.

    Returns:
        One row per belief found: id, strength, default_strength, tension, context (the context
        whose HOLDS_IN strength applied, or None).
    """
    return await graph.read(
        "beliefs/contexts/get_context_strengths",
        agent_id=agent_id,
        ids=belief_ids,
        chain=context_chain(context_name),
    )
