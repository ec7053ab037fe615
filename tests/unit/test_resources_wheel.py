"""cypher/, schema/ and seeds/ load from a checkout and from an installed wheel."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from app.resources import resource_dir

REPO_ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
from app.resources import resource_dir
from app.graph.catalog import default_catalog
from app.graph.migrations import discover
catalog = default_catalog()
print(json.dumps({
    "cypher": str(resource_dir("cypher")),
    "schema": str(resource_dir("schema")),
    "seeds": str(resource_dir("seeds")),
    "query": catalog.get("graph/client/get_server_components").source[:40],
    "names": len(catalog.names()),
    "migrations": [m.file for m in discover(resource_dir("schema"))],
}))
"""


def test_checkout_layout_finds_the_top_level_folders() -> None:
    assert resource_dir("cypher") == REPO_ROOT / "cypher"
    assert resource_dir("schema") == REPO_ROOT / "schema"
    assert resource_dir("seeds") == REPO_ROOT / "seeds"


@pytest.mark.slow
def test_installed_wheel_carries_and_finds_the_resources(tmp_path: Path) -> None:
    wheel_dir = tmp_path / "wheel"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheel_dir),
            str(REPO_ROOT),
        ],
        check=True,
        timeout=300,
    )
    (wheel,) = wheel_dir.glob("credence-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert "app/_resources/cypher/graph/client/get_server_components.cypher" in names
    assert "app/_resources/schema/V0001__create_id_constraints.cypher" in names
    assert "app/py.typed" in names

    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
        timeout=300,
    )
    # -I: isolated mode, so neither the checkout nor the editable install is on sys.path.
    completed = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            f"import sys; sys.path.insert(0, {str(site)!r}); " + PROBE.replace("\n", "\n"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    found = json.loads(completed.stdout)

    for folder in ("cypher", "schema", "seeds"):
        assert found[folder] == str(site / "app" / "_resources" / folder)
    assert found["query"].startswith("// Reports")
    assert found["names"] == len(list((REPO_ROOT / "cypher").rglob("*.cypher")))
    assert found["migrations"] == sorted(p.name for p in (REPO_ROOT / "schema").glob("*.cypher"))
