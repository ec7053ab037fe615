"""Cypher that several query files hold the same way is generated from one template
(``tools/cypher/shared_blocks.py``): every file holds exactly its rendered block, and a file
edited by hand is caught."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "shared_blocks", ROOT / "tools" / "cypher" / "shared_blocks.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_file_holds_its_generated_block() -> None:
    tool = _tool()
    counts: dict[str, int] = {}
    for use in tool.USES:
        counts[use.block] = counts.get(use.block, 0) + 1
        text = (ROOT / use.path).read_text()
        assert tool.render(use) in text, use.path
        assert tool.rewritten(text, use) == text, use.path
    assert counts == {"vector half": 4, "censor source": 4, "agent lock": 11}
    assert tool.main(["--check"]) == 0


def test_no_other_query_file_copies_a_block_by_hand() -> None:
    """A query that writes the censor-source rule or the lock's lines without the markers is
    one the generator cannot keep in step."""
    tool = _tool()
    used = {use.path for use in tool.USES}
    for path in sorted((ROOT / "cypher").rglob("*.cypher")):
        text = path.read_text()
        relative = str(path.relative_to(ROOT))
        if relative in used:
            continue
        assert "WHEN c.auto_created THEN 'learned'" not in text, relative
        assert "WHERE a.deleting IS NULL" not in text, relative


@pytest.mark.parametrize(
    ("block", "edit"),
    [
        ("vector half", ("LIMIT $candidates)", "LIMIT 100)")),
        ("censor source", ("THEN 'learned'", "THEN 'manual'")),
        ("agent lock", ("WHERE a.deleting IS NULL", "WHERE true")),
    ],
)
def test_a_hand_edited_block_is_out_of_sync(block: str, edit: tuple[str, str]) -> None:
    tool = _tool()
    use = next(use for use in tool.USES if use.block == block)
    text = (ROOT / use.path).read_text()
    drifted = text.replace(*edit, 1)
    assert drifted != text
    assert tool.rewritten(drifted, use) == text


def test_only_plain_names_are_rendered() -> None:
    tool = _tool()
    bad = tool.Use("x.cypher", "agent lock", 0, {"a": "a) DETACH DELETE (a"})
    with pytest.raises(ValueError):
        tool.render(bad)
