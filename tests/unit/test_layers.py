"""The layering of app/ is a checked contract: `lint-imports` keeps it (pyproject.toml), a
deliberate back-edge breaks it, and no package at any depth imports in a cycle."""

from __future__ import annotations

import collections
import graphlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint_imports(project: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(project)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(project / "pyproject.toml"), "--no-cache"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _copy_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(ROOT / "app", project / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", project / "pyproject.toml")
    return project


@pytest.mark.slow
def test_the_layers_contract_is_kept(tmp_path: Path) -> None:
    result = _lint_imports(_copy_project(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 kept, 0 broken" in result.stdout


@pytest.mark.slow
def test_a_back_edge_breaks_the_contract(tmp_path: Path) -> None:
    project = _copy_project(tmp_path)
    # The graph layer reaching up into the loop: the kind of edge the contract exists to stop.
    catalog = project / "app" / "graph" / "catalog.py"
    catalog.write_text(catalog.read_text() + "\nfrom app.loop import turn as _back_edge  # noqa\n")
    result = _lint_imports(project)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout
    assert "app.graph.catalog -> app.loop.turn" in result.stdout


def _cycles(graph: grimp.ImportGraph, package: str) -> list[str]:
    depth = package.count(".") + 2
    edges: dict[str, set[str]] = collections.defaultdict(set)
    for module in graph.modules:
        if not module.startswith(package + "."):
            continue
        source = ".".join(module.split(".")[:depth])
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.startswith(package + "."):
                target = ".".join(imported.split(".")[:depth])
                if target != source:
                    edges[source].add(target)
    try:
        list(graphlib.TopologicalSorter(edges).static_order())
    except graphlib.CycleError as error:
        return [str(node) for node in error.args[1]]
    return []


def test_no_package_imports_in_a_cycle() -> None:
    graph = grimp.build_graph("app")
    packages = sorted(module for module in graph.modules if graph.find_children(module))
    assert "app.loop" in packages
    found = {package: cycle for package in packages if (cycle := _cycles(graph, package))}
    assert found == {}


def test_the_cycle_check_sees_a_cycle_between_subpackages() -> None:
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.a.x", "pkg.b", "pkg.b.y"):
        graph.add_module(module)
    graph.add_import(importer="pkg.a.x", imported="pkg.b.y")
    graph.add_import(importer="pkg.b.y", imported="pkg.a")
    assert sorted(set(_cycles(graph, "pkg"))) == ["pkg.a", "pkg.b"]
