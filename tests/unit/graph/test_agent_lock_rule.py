"""docs/graph-model.md §5: every write to an agent's graph takes the agent's lock first.

A write transaction (``GraphClient.write_transaction``) takes it with
``app.graph.agent_scope.lock_agent``; a query run alone (``graph.write`` / ``graph.write_alone``:
a transaction of its own) has to hold the lock itself, as the generated ``agent lock`` block
(tools/cypher/shared_blocks.py). This reads every such call in ``app/`` (no database) and checks
the query it runs: it holds the block, or it is listed below with the reason it may not.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from app.resources import resource_dir

ROOT = Path(__file__).resolve().parents[3]
LOCK_BLOCK = "// begin agent lock"

# Writes that are not to an agent's graph, or come before any other writer can know the agent.
NOT_AN_AGENTS_WRITE = {
    "agents/store/create_agent": "creates the agent: there is no agent to lock before it",
    "agents/birth/set_principal": "birth, right after create_agent in the same call: no other "
    "writer knows the new agent's id yet",
    "graph/migrations/acquire_lock": "the migration runner's own lock, not an agent's graph",
    "graph/migrations/release_lock": "the migration runner's own lock, not an agent's graph",
    "graph/migrations/record_applied": "the migration records, not an agent's graph",
    "scheduler/claim_jobs": "the scheduler's ScheduledJob nodes (serialised by their own node "
    "lock, docs/loop.md §14), not the agent's mind; one claim may name no agent",
    "scheduler/finish_job": "the scheduler's ScheduledJob nodes, not the agent's mind",
}

# Writes to an agent's graph without its lock, not mended yet (none now: every one found by this
# test takes it); one listed here would be named in docs/known-problems.md too.
NOT_YET_LOCKED: dict[str, str] = {}


def _module_strings(tree: ast.Module) -> dict[str, list[str]]:
    """Module-level names bound to a query name, or to a dict of them (``_SET_QUERY[label]``)."""
    strings: dict[str, list[str]] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        if not isinstance(target, ast.Name):
            continue
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            strings[target.id] = [value.value]
        elif isinstance(value, ast.Dict):
            strings[target.id] = [
                v.value
                for v in value.values
                if isinstance(v, ast.Constant) and isinstance(v.value, str)
            ]
    return strings


def _is_graph(node: ast.expr) -> bool:
    """``graph``, ``services.graph``, ``self._graph``: the receiver of a GraphClient call."""
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return name in ("graph", "_graph")


def _queries(argument: ast.expr | None, strings: dict[str, list[str]]) -> list[str]:
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return [argument.value]
    if isinstance(argument, ast.Name) and argument.id in strings:
        return strings[argument.id]
    if isinstance(argument, ast.Subscript) and isinstance(argument.value, ast.Name):
        return strings.get(argument.value.id, [])
    return []


def alone_writes() -> Iterator[tuple[str, str]]:
    """(where, query name) of each ``graph.write`` / ``graph.write_alone`` call in app/; a call
    whose query this cannot name yields ``(where, "")``."""
    for path in sorted((ROOT / "app").rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        strings = _module_strings(tree)
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("write", "write_alone")
                and _is_graph(node.func.value)
            ):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            names = _queries(node.args[0] if node.args else None, strings)
            yield from ((where, name) for name in names or [""])


def test_the_scan_finds_the_writes_run_alone() -> None:
    found = {name for _, name in alone_writes()}
    # One of each kind: a literal, a module constant, a dict of them.
    assert {
        "scheduler/finish_job",
        "loop/tool_turns/record_call",
        "embeddings/store/set_rule_embeddings",
    } <= found


def test_every_write_run_alone_to_an_agents_graph_takes_its_lock_first() -> None:
    cypher = resource_dir("cypher")
    problems: list[str] = []
    seen: set[str] = set()
    for where, name in alone_writes():
        seen.add(name)
        if not name:
            problems.append(f"{where}: the query is not named by a literal or a module constant")
            continue
        text = (cypher / f"{name}.cypher").read_text()
        holds_lock = LOCK_BLOCK in text
        if name in NOT_AN_AGENTS_WRITE or name in NOT_YET_LOCKED:
            if holds_lock:
                problems.append(f"{where}: {name} takes the lock now: remove it from the lists")
        elif not holds_lock:
            problems.append(
                f"{where}: {name} writes alone without the agent's lock: run it in a "
                "write_transaction after lock_agent, or put the 'agent lock' block first"
            )
    stale = (set(NOT_AN_AGENTS_WRITE) | set(NOT_YET_LOCKED)) - seen
    problems += [f"{name}: listed, but no longer run alone" for name in sorted(stale)]
    assert problems == []
