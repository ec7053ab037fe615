"""docker-compose.yml has the structure users rely on (no Docker engine here to run it)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import yaml

from tests.support.neo4j_server import LAUNCHER, pinned_version

REPO_ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())
    return loaded


def test_services_and_the_pinned_neo4j_image() -> None:
    compose = _compose()

    assert set(compose["services"]) == {"neo4j", "api"}
    assert compose["services"]["neo4j"]["image"] == f"neo4j:{pinned_version()}-community"
    assert pinned_version().startswith("2026.")


def test_the_launcher_uses_the_same_pinned_version() -> None:
    completed = subprocess.run(
        ["bash", str(LAUNCHER), "version"], capture_output=True, text=True, check=True, timeout=30
    )

    assert completed.stdout.strip() == pinned_version()


def test_neo4j_has_healthcheck_ports_volume_and_auth_from_env() -> None:
    neo4j = _compose()["services"]["neo4j"]

    assert neo4j["healthcheck"]["test"][0] in ("CMD", "CMD-SHELL")
    assert "7474" in " ".join(neo4j["healthcheck"]["test"])
    # Published on the launcher's ports of one's own (7474 / 7687 unless set), as neo4j-up says.
    assert {
        "127.0.0.1:${CREDENCE_NEO4J_HTTP_PORT:-7474}:7474",
        "127.0.0.1:${CREDENCE_NEO4J_BOLT_PORT:-7687}:7687",
    } <= set(neo4j["ports"])
    volume = neo4j["volumes"][0].split(":")
    assert volume[1] == "/data" and volume[0] in _compose()["volumes"]
    assert neo4j["environment"]["NEO4J_AUTH"] == "neo4j/${CREDENCE_NEO4J_PASSWORD:-credence-dev}"


def test_api_waits_for_healthy_neo4j_and_migrates_on_start() -> None:
    api = _compose()["services"]["api"]

    assert api["build"]["dockerfile"] == "Dockerfile"
    assert (REPO_ROOT / api["build"]["dockerfile"]).is_file()
    assert api["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert api["environment"]["CREDENCE_NEO4J_URI"] == "bolt://neo4j:7687"
    assert api["environment"]["CREDENCE_MIGRATE_ON_START"] == "true"
    assert api["env_file"][0] == {"path": ".env", "required": False}


def test_env_example_documents_every_setting() -> None:
    from app.config import Settings

    documented = (REPO_ROOT / ".env.example").read_text()
    for name in Settings.model_fields:
        assert f"CREDENCE_{name.upper()}" in documented, f"CREDENCE_{name.upper()} not documented"


def test_neo4j_keeps_one_plan_whatever_the_parameters_lengths() -> None:
    # As tools/neo4j/neo4j-local writes it (tests/integration/graph/test_plan_cache.py).
    environment = _compose()["services"]["neo4j"]["environment"]

    assert environment["NEO4J_internal_cypher_use__parameter__size"] == "false"


def test_the_api_port_follows_credence_api_port_as_the_neo4j_ports_do() -> None:
    compose = _compose()
    api = compose["services"]["api"]
    post_connect = compose["services"]["neo4j"]["environment"]["NEO4J_browser_post__connect__cmd"]

    # Published on this machine's CREDENCE_API_PORT; inside the container always 8000 (a port
    # of .env, which the container reads too, must not move the one the API listens on).
    assert api["ports"] == ["127.0.0.1:${CREDENCE_API_PORT:-8000}:8000"]
    assert api["environment"]["CREDENCE_API_PORT"] == "8000"
    # Browser runs on this machine: it fetches the guide and style from the published port.
    assert post_connect == (
        "style http://127.0.0.1:${CREDENCE_API_PORT:-8000}/browser/style.grass;"
        " guide http://127.0.0.1:${CREDENCE_API_PORT:-8000}/browser/guide"
    )
    assert "8000" not in post_connect.replace("${CREDENCE_API_PORT:-8000}", "")
