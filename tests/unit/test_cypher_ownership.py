"""Cypher is owned by its package (docs/architecture.md §4, "Who owns the Cypher").

``cypher/<package>/<area>/<verb_noun>.cypher`` belongs to ``app/<package>``: only that package runs
it, and another package reaches the data through the owner's functions (``…_in(tx, …)`` inside the
caller's transaction). The code names queries with string literals, so reading the string
constants of ``app/`` tells which module runs which query:

- every query name used exists in the catalog;
- every ``.cypher`` file is used (or listed in ``USED_BY_TESTS_ONLY``);
- a module of ``app/<package>`` runs only ``<package>``'s queries, apart from ``ALLOWED``.

A constant that names a folder of the catalog (``"beliefs/analytics"``) counts as running every
query in it (the analytics are run by the name a user gives).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from app.graph.catalog import default_catalog

APP = Path(__file__).resolve().parents[2] / "app"
NAME = re.compile(r"[a-z0-9_]+(?:/[a-z0-9_]+)+")

# Top folders of cypher/ that are not named after their owner package.
OWNER_OF_FOLDER = {
    # Lucene statistics of the episode texts, run by app/memory/lexical_stats.py. Left in place
    # while the fused search is rewritten on another branch; to move to cypher/memory/lexical/.
    "lexical": "memory",
}

# Foreign queries a module still runs: (module, query) -> why. New code does not add to this.
ALLOWED: dict[tuple[str, str], str] = {}

# Queries only the tests run, to check what the services keep up to date.
USED_BY_TESTS_ONLY = {
    # The stored dissatisfaction sums, compared with beliefs/dissatisfaction/recompute_sums.
    "beliefs/dissatisfaction/get_sums",
}

# String constants of app/ shaped like a query name that are not one.
NOT_QUERIES = {"tools/call"}  # the MCP method that app/mcp/metering.py meters


def _package_of(module: Path) -> str:
    parts = module.relative_to(APP).parts
    return parts[0].removesuffix(".py")


def _owner(name: str) -> str:
    folder = name.split("/", 1)[0]
    return OWNER_OF_FOLDER.get(folder, folder)


def _constants(module: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and NAME.fullmatch(node.value)
            and node.value not in NOT_QUERIES
        ):
            yield node.value


def _uses() -> dict[str, set[str]]:
    """query name -> the modules (app-relative paths) that name it."""
    names = default_catalog().names()
    folders = {name.rsplit("/", 1)[0] for name in names}
    top = {name.split("/", 1)[0] for name in names}
    uses: dict[str, set[str]] = {}
    for module in sorted(APP.rglob("*.py")):
        where = f"app/{module.relative_to(APP).as_posix()}"
        for constant in _constants(module):
            if constant.split("/", 1)[0] not in top:
                continue  # a media type, a path: not a query
            if constant in folders:
                for name in names:
                    if name.startswith(f"{constant}/"):
                        uses.setdefault(name, set()).add(where)
            else:
                uses.setdefault(constant, set()).add(where)
    return uses


def test_every_query_name_used_exists() -> None:
    known = set(default_catalog().names())
    unknown = sorted(
        f"{name} (in {', '.join(sorted(modules))})"
        for name, modules in _uses().items()
        if name not in known
    )
    assert not unknown, f"query names with no file under cypher/: {unknown}"


def test_every_cypher_file_is_used() -> None:
    used = set(_uses()) | USED_BY_TESTS_ONLY
    unused = sorted(set(default_catalog().names()) - used)
    assert not unused, f".cypher files that no module of app/ runs: {unused}"


def test_a_package_runs_only_its_own_queries() -> None:
    crossings = sorted(
        f"{module} runs {name} (owned by app/{_owner(name)})"
        for name, modules in _uses().items()
        for module in modules
        if _package_of(APP.parent / module) != _owner(name) and (module, name) not in ALLOWED
    )
    assert not crossings, "run the owner package's functions instead:\n" + "\n".join(crossings)


def test_the_allow_list_holds_only_real_crossings() -> None:
    uses = _uses()
    stale = sorted(
        f"{module}: {name}"
        for module, name in ALLOWED
        if module not in uses.get(name, set()) or _package_of(APP.parent / module) == _owner(name)
    )
    assert not stale, f"ALLOWED entries no longer needed: {stale}"


def test_cypher_folders_mirror_the_packages() -> None:
    packages = {p.name for p in APP.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    top = {name.split("/", 1)[0] for name in default_catalog().names()}
    strangers = sorted(top - packages - set(OWNER_OF_FOLDER))
    assert not strangers, f"cypher/ folders named after no package of app/: {strangers}"


def test_the_checks_see_a_crossing(tmp_path: Path) -> None:
    # The reading of constants itself: a foreign name in a module is found, a sentence is not.
    module = tmp_path / "probe.py"
    module.write_text(
        'async def f(tx):\n    """Call graph/agent_scope/lock_agent first."""\n'
        '    await tx.run("beliefs/store/create_belief")\n',
        encoding="utf-8",
    )
    assert list(_constants(module)) == ["beliefs/store/create_belief"]
    assert _owner("beliefs/store/create_belief") == "beliefs"
    assert _owner("lexical/find_corpus") == "memory"
