"""`make lint` holds every function in app/ to 80 lines; the checker itself must catch one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "tools" / "lint" / "function_lengths.py"


def run_checker(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECKER), *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_no_function_in_app_is_over_80_lines() -> None:
    result = run_checker("app")
    assert result.returncode == 0, result.stderr


def test_a_long_function_and_method_are_named_with_their_length(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(80))
    (tmp_path / "long.py").write_text(
        f"def short():\n    return 1\n\n\ndef too_long():\n{body}\n\n\n"
        f"class Holder:\n    async def also_long(self):\n{body.replace('    ', '        ')}\n"
    )
    result = run_checker(str(tmp_path))
    assert result.returncode == 1
    assert "long.py:5: too_long is 81 lines (limit 80)" in result.stderr
    assert "also_long is 81 lines" in result.stderr
    assert "short" not in result.stderr
