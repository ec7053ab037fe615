"""A file a command is asked to write that cannot be written is an error naming it (exit 2),
never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.main import app


def test_the_pack_schema_into_a_missing_folder_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # the message on one line, as a wide terminal shows it
    target = tmp_path / "missing" / "pack.schema.json"

    result = CliRunner().invoke(app, ["packs", "schema", "-o", str(target)])

    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"error: {target}: cannot write it: No such file or directory\n" == result.output
    assert not target.parent.exists()
