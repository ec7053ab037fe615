"""bench/retrieval_probes.py held-out without the cache files of earlier runs says what to run
first (it ended in ``ValueError: max() arg is an empty sequence``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROBES = Path(__file__).resolve().parents[2] / "bench" / "retrieval_probes.py"


def _held_out(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(PROBES), "held-out", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("cache", [None, "missing.json", "{}"])
def test_held_out_without_cached_runs_says_to_run_the_probes_with_cache_first(
    tmp_path: Path, cache: str | None
) -> None:
    arguments: list[str] = []
    if cache == "{}":
        (tmp_path / "empty.json").write_text("{}", encoding="utf-8")
        arguments = ["prf=empty.json"]
    elif cache is not None:
        arguments = [f"prf={cache}"]

    run = _held_out(*arguments, cwd=tmp_path)

    assert run.returncode == 1
    assert "Traceback" not in run.stderr, run.stderr
    assert run.stderr.startswith("held-out: ")
    assert "run the probes with --cache first" in run.stderr
