"""The Makefile's ports: `make run` on ports of one's own (CREDENCE_NEO4J_BOLT_PORT ...) points
the CLI and the API (CREDENCE_NEO4J_URI) at the Neo4j the launcher starts on that port, not at
the default bolt://127.0.0.1:7687 (someone else's database, perhaps)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

MAKEFILE = Path(__file__).resolve().parents[2] / "Makefile"
SHOW = 'show-uri: ; @echo "[$$CREDENCE_NEO4J_URI]"'

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _uri_seen_by_recipes(tmp_path: Path, **env: str) -> str:
    """CREDENCE_NEO4J_URI as a recipe of the Makefile sees it (a copy in a directory without
    a .env, so the checkout's .env does not count)."""
    shutil.copy(MAKEFILE, tmp_path / "Makefile")
    base = {k: v for k, v in os.environ.items() if not k.startswith("CREDENCE_")}
    shown = subprocess.run(
        ["make", "-s", "--no-print-directory", "--eval", SHOW, "show-uri"],
        cwd=tmp_path,
        env=base | env,
        capture_output=True,
        text=True,
        check=True,
    )
    return shown.stdout.strip()


def test_the_uri_follows_the_bolt_port(tmp_path: Path) -> None:
    assert _uri_seen_by_recipes(tmp_path, CREDENCE_NEO4J_BOLT_PORT="7999") == (
        "[bolt://127.0.0.1:7999]"
    )


def test_a_uri_set_by_hand_is_kept(tmp_path: Path) -> None:
    shown = _uri_seen_by_recipes(
        tmp_path, CREDENCE_NEO4J_BOLT_PORT="7999", CREDENCE_NEO4J_URI="bolt://db.example:7000"
    )
    assert shown == "[bolt://db.example:7000]"


def test_the_default_is_the_default_port(tmp_path: Path) -> None:
    assert _uri_seen_by_recipes(tmp_path) == "[bolt://127.0.0.1:7687]"


def test_the_readme_shows_what_make_run_prints() -> None:
    """README.md's "Then it prints:" block is `make run`'s closing lines, on the default ports."""
    readme = (MAKEFILE.parent / "README.md").read_text(encoding="utf-8")
    shown = readme.split("Then it prints:\n\n```\n", 1)[1].split("```", 1)[0].splitlines()
    recipe = MAKEFILE.read_text(encoding="utf-8").split("\nrun:", 1)[1].split("\n\n", 1)[0]
    defaults = {"$(HTTP_PORT)": "7474", "$(API_PORT)": "8000", "$(BIN)": ".venv/bin"}
    printed = []
    for line in re.findall(r'^\t@echo "(.*)"$', recipe, re.MULTILINE):
        for variable, value in defaults.items():
            line = line.replace(variable, value)
        printed.append(line)
    assert shown == printed


def test_make_run_names_the_browser_password() -> None:
    """The Browser line of `make run` says how to log in: the password, or what sets it."""
    recipe = MAKEFILE.read_text(encoding="utf-8").split("\nrun:", 1)[1].split("\n\n", 1)[0]
    [browser] = [line for line in recipe.splitlines() if "Neo4j Browser:" in line]
    assert "credence-dev" in browser and "CREDENCE_NEO4J_PASSWORD" in browser, browser


def test_neo4j_up_names_the_ports_docker_publishes(tmp_path: Path) -> None:
    """tools/neo4j/neo4j-up's Docker branch prints the ports of CREDENCE_NEO4J_BOLT_PORT /
    _HTTP_PORT (docker-compose.yml publishes those), not 7687 / 7474 whatever they say. A
    stand-in `docker` answers `info` and `compose up`."""
    docker = tmp_path / "docker"
    docker.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    docker.chmod(0o755)
    base = {k: v for k, v in os.environ.items() if not k.startswith("CREDENCE_")}
    env = base | {
        "PATH": f"{tmp_path}:{os.environ['PATH']}",
        "CREDENCE_NEO4J_BOLT_PORT": "7994",
        "CREDENCE_NEO4J_HTTP_PORT": "7981",
    }
    script = MAKEFILE.parent / "tools" / "neo4j" / "neo4j-up"
    shown = subprocess.run(
        ["bash", str(script)], env=env, capture_output=True, text=True, check=True
    )
    assert "bolt://127.0.0.1:7994" in shown.stdout and "127.0.0.1:7981/browser/" in shown.stdout
