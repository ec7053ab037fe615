"""Neo4j Browser in a real Chromium (Playwright), with Credence's guide and style (docs/browser.md).

Run by ``make test-browser`` (not by ``make test``: pytest's default run leaves this folder out,
pyproject.toml ``norecursedirs``). Needs the shared Neo4j (``make neo4j-up``: its Browser at
``http://127.0.0.1:7474/browser/``, the settings of tools/neo4j/neo4j-local), Debian's
``chromium`` and the ``browser`` extra (Playwright). The API runs here on a free port against that
Neo4j; the demo agent is built once (``credence demo`` keeps a complete one). Requests Browser
sends to the address ``browser.post_connect_cmd`` names (``127.0.0.1:8000``) are answered by this
API, so the post-connect commands are tested whatever else listens there.

Screenshots are kept in ``tests/browser/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, Playwright, Route, sync_playwright

REPOSITORY = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = os.environ.get("CREDENCE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BOLT_URI = os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687")
NEO4J_PASSWORD = os.environ.get("NEO4J_PASSWORD", "credence-dev")
BROWSER_URL = f"http://127.0.0.1:{os.environ.get('CREDENCE_NEO4J_HTTP_PORT', '7474')}/browser/"
# Where browser.post_connect_cmd sends Browser (tools/neo4j/neo4j-local, CREDENCE_API_PORT).
POST_CONNECT_API = f"http://127.0.0.1:{os.environ.get('CREDENCE_API_PORT', '8000')}"
DEMO_TIMEOUT_S = 300


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _process_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        CREDENCE_NEO4J_URI=BOLT_URI,
        CREDENCE_NEO4J_PASSWORD=NEO4J_PASSWORD,
        # No default agent to birth at start-up: the guide is about the demo agent.
        CREDENCE_DEFAULT_AGENT="",
        # No background work on the wall clock over the suite's graph (docs/loop.md §14).
        CREDENCE_SCHEDULER__ENABLED="false",
    )
    return env


@pytest.fixture(scope="session")
def api_url() -> Iterator[str]:
    """The API (``credence serve``) on a free port."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = (SCREENSHOTS.parent / "api.log").open("w", encoding="utf-8")
    credence = Path(sys.executable).with_name("credence")
    process = subprocess.Popen(
        [str(credence), "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=_process_env(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_until_up(url, process)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _wait_until_up(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the API stopped (exit {process.returncode}): tests/browser/api.log")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    pytest.fail("the API did not answer /health within 120 s: tests/browser/api.log")


@pytest.fixture(scope="session")
def demo_agent_id(api_url: str) -> str:
    """The demo agent's id, built by ``credence demo`` when no complete one exists."""
    credence = Path(sys.executable).with_name("credence")
    built = subprocess.run(
        [str(credence), "demo"],
        env=_process_env(),
        capture_output=True,
        text=True,
        timeout=DEMO_TIMEOUT_S,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    guide = httpx.get(f"{api_url}/browser/guide", timeout=30)
    assert guide.status_code == 200, guide.text
    found = re.search(r":param agent_id =&gt; &quot;([^&]+)&quot;", guide.text)
    assert found, "the guide sets no agent id: is the demo agent there?"
    return found.group(1)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def chromium(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: `make test-browser` installs Debian's chromium")
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def browser_page(chromium: Browser, api_url: str, demo_agent_id: str) -> Iterator[Page]:
    """Neo4j Browser, connected; the post-connect commands answered by this session's API."""
    SCREENSHOTS.mkdir(exist_ok=True)
    context = chromium.new_context(viewport={"width": 1680, "height": 1050})
    page = context.new_page()

    def to_our_api(route: Route) -> None:
        ours = route.request.url.replace(POST_CONNECT_API, api_url)
        route.fulfill(response=route.fetch(url=ours))

    page.route(re.compile(re.escape(POST_CONNECT_API) + r"/browser/.*"), to_our_api)
    page.goto(BROWSER_URL)
    page.get_by_test_id("boltaddress").first.fill(BOLT_URI)
    page.get_by_test_id("username").fill("neo4j")
    page.get_by_test_id("password").fill(NEO4J_PASSWORD)
    page.get_by_test_id("connect").click()
    yield page
    context.close()
