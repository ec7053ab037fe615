"""The README's five-minute tour runs as written: its bash blocks (between the ``tour:start`` and
``tour:end`` markers), in order, in one shell, against the suite's Neo4j and a `credence serve`
of its own; every HTTP error fails the step (curl with ``--fail-with-body``), and the Browser
guide's address answers.

What the test changes in the commands, and why:
- the API's address ``localhost:8000`` becomes the test server's (a free port);
- ``.venv/bin/`` becomes the directory of this interpreter (the project's environment);
- the demo agent gets a name and a ledger of its own (``credence demo --name … --ledger …``, and
  the name in the command that finds its id), so a test never touches the user's "Credence
  demo";
- the server's clock starts on an ordinary day (not a month's last business days), so the
  approved call moves the belief's default strength whatever day the suite runs.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from tests.integration.tools.conftest import sqlite_server
from tests.support.clock import ordinary_day_start
from tools.serve.api_process import running_api, server_env

# A demo agent built through the loop (about a minute) and an API process of its own: out of
# the quick run (-m "not slow").
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
TOUR_START = "<!-- tour:start"
TOUR_END = "<!-- tour:end -->"
DEMO_NAME = "Credence demo"
README_API = re.compile(r"(?:localhost|127\.0\.0\.1):8000")
GUIDE = re.compile(r"^:guide (\S+)$", re.MULTILINE)
BLOCK = re.compile(r"^```bash\n(.*?)^```$", re.MULTILINE | re.DOTALL)
MARK = "@@tour-step@@"
# Every command runs strictly; an HTTP error status fails its curl (and so the step).
PREAMBLE = 'set -euo pipefail\ncurl() { command curl --fail-with-body "$@"; }\n'


def tour_text() -> str:
    text = README.read_text(encoding="utf-8")
    assert TOUR_START in text and TOUR_END in text, "README.md has lost the tour's markers"
    return text.split(TOUR_START, 1)[1].split(TOUR_END, 1)[0]


def tour_blocks() -> list[str]:
    """The tour's bash blocks, in order, as README.md writes them."""
    return BLOCK.findall(tour_text())


def for_test(block: str, base: str, demo_name: str, ledger: Path) -> str:
    """One block with the test's server, environment, demo name and ledger put in."""
    block = README_API.sub(base.removeprefix("http://"), block)
    block = block.replace(".venv/bin/", f"{Path(sys.executable).parent}/")
    block = re.sub(
        r"(credence demo)\b(.*)$",
        rf"\1\2 --name '{demo_name}' --ledger '{ledger}' --sqlite-server '{sqlite_server()}'",
        block,
        flags=re.MULTILINE,
    )
    return block.replace(f'"{DEMO_NAME}"', f'"{demo_name}"')


@pytest.fixture(scope="module")
def api(settings: Settings) -> Iterator[tuple[str, dict[str, str]]]:
    env = server_env(settings, CREDENCE_CLOCK_START=ordinary_day_start().isoformat())
    with running_api(env, wait_for="/ready") as base:
        yield base, env


def test_the_tour_has_its_steps() -> None:
    blocks = tour_blocks()
    commands = "\n".join(blocks)
    assert len(blocks) >= 5, blocks
    for needed in ("credence demo", "/context", "/chat", "/actions", "/approvals/", "/events"):
        assert needed in commands, f"the tour lost its {needed} step"
    assert GUIDE.search(tour_text()), "the tour lost its Browser guide"


def test_the_readme_tour_runs_against_a_real_stack(
    api: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    base, env = api
    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    assert not missing, f"the README's tour needs {missing} (README, 'What they need')"
    demo_name = f"{DEMO_NAME} tour {uuid.uuid4().hex[:8]}"
    blocks = [for_test(b, base, demo_name, tmp_path / "ledger.db") for b in tour_blocks()]
    script = PREAMBLE + "".join(f"echo '{MARK}'\n{block}" for block in blocks)
    run = subprocess.run(
        ["bash", "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    outputs = run.stdout.split(MARK + "\n")[1:]
    failed_step = len(outputs)
    assert run.returncode == 0, (
        f"tour step {failed_step} failed (exit {run.returncode}):\n{blocks[failed_step - 1]}\n"
        f"--- its output:\n{outputs[-1] if outputs else ''}\n--- stderr:\n{run.stderr[-4000:]}"
    )
    assert len(outputs) == len(blocks)
    demo, context, chat, approval, belief = outputs[:5]
    assert re.search(r"^[0-9a-f-]{36}$", demo, re.MULTILINE), demo[-2000:]
    assert '"statement"' in context and '"strength"' in context, context
    assert '"response"' in chat, chat
    # Proposed first (a tool it never called), then run once a person approved it.
    assert '"mode": "proposal"' in approval and "Done: ledger.list_tables" in approval, approval
    # The approved call's success moved the belief about the tool: 0.5 -> 0.65.
    assert '"kind": "outcome"' in belief and '"new_strength": 0.65' in belief, belief


def test_the_browser_guide_of_the_tour_is_served(api: tuple[str, dict[str, str]]) -> None:
    base, _ = api
    [url] = GUIDE.findall(tour_text())
    guide = httpx.get(README_API.sub(base.removeprefix("http://"), url), timeout=30)
    assert guide.status_code == 200, guide.text[:500]
