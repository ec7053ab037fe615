"""Context names and their back-off chain: ``acme/month_end`` falls back to ``month_end``."""

from __future__ import annotations


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
