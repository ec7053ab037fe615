"""The Makefile's ports: `make run` on ports of one's own (CREDENCE_NEO4J_BOLT_PORT ...) points
the CLI and the API (CREDENCE_NEO4J_URI) at the Neo4j the launcher starts on that port, not at
the default bolt://127.0.0.1:7687 (someone else's database, perhaps)."""

from __future__ import annotations

import os
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
