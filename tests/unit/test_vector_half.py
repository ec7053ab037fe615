"""The vector half of the four fused searches is generated from one template
(``tools/cypher/vector_half.py``): every file holds exactly the rendered block, and a file edited
by hand is caught."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "vector_half", ROOT / "tools" / "cypher" / "vector_half.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_fused_search_holds_the_generated_vector_half() -> None:
    tool = _tool()
    assert len(tool.SEARCHES) == 4
    for search in tool.SEARCHES:
        text = (ROOT / search.path).read_text()
        assert tool.render(search) in text, search.path
        assert tool.rewritten(text, search) == text, search.path
    assert tool.main(["--check"]) == 0


def test_a_hand_edited_block_is_out_of_sync() -> None:
    tool = _tool()
    search = tool.SEARCHES[0]
    text = (ROOT / search.path).read_text()
    drifted = text.replace("LIMIT $candidates)", "LIMIT 100)", 1)
    assert drifted != text
    assert tool.rewritten(drifted, search) == text


def test_only_plain_names_are_rendered() -> None:
    tool = _tool()
    bad = tool.Search("x.cypher", "Belief) DETACH DELETE (b", "b", "i", "beliefs", 2)
    with pytest.raises(ValueError):
        tool.render(bad)
