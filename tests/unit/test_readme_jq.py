"""The README tour's jq filters print what a person can read: step 3's context prints each
belief's strength and tension to two decimals, not a float's sixteen."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"

pytestmark = pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not installed")


def _context_filter() -> str:
    """The jq filter of the tour's /context command (step 3)."""
    text = README.read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"```bash\n(.*?)```", text, re.DOTALL) if "/context" in b]
    [jq_filter] = re.findall(r"\| jq '(.*?)'", block, re.DOTALL)
    return str(jq_filter)


def test_step_3_rounds_strength_and_tension() -> None:
    item = {"statement": "s", "strength": 0.5916859774893299, "tension": 0.15000000000000002}
    answer = {"sections": {"beliefs": {"items": [item | {"via": "search"}]}}}
    shown = subprocess.run(
        ["jq", "-c", _context_filter()],
        input=json.dumps(answer),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(shown.stdout) == {
        "statement": "s",
        "strength": 0.59,
        "tension": 0.15,
        "via": "search",
    }
