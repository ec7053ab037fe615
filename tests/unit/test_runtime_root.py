"""One composition root: the services a process runs on are built in app/runtime.py only, so a
per-process rule (the idle-sweep throttle, the identity cache) holds across requests."""

from __future__ import annotations

import ast
from pathlib import Path

import app

APP = Path(app.__file__).parent
ROOT = APP / "runtime.py"
# What only the runtime constructs (one per process).
BUILT_ONCE = frozenset(
    {
        "LoopServices",
        "ResearchServices",
        "RetrievalServices",
        "Guard",
        "IdentityCache",
        "ExecutorRegistry",
        "make_reasoner",
        "build_source_registry",
        "default_executors",
    }
)


def _constructions(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in BUILT_ONCE:
            found.append((node.lineno, name))
    return found


def test_only_the_runtime_constructs_the_process_services() -> None:
    outside = [
        f"{path.relative_to(APP.parent)}:{line} {name}()"
        for path in sorted(APP.rglob("*.py"))
        if path != ROOT
        for line, name in _constructions(path.read_text(encoding="utf-8"))
    ]
    assert outside == []
    # The root does build them (so the scan above looks for the right names).
    built = {name for _, name in _constructions(ROOT.read_text(encoding="utf-8"))}
    assert {
        "LoopServices",
        "ResearchServices",
        "RetrievalServices",
        "Guard",
        "IdentityCache",
    } <= built


def test_context_is_assembled_only_through_the_retrieval_services() -> None:
    """/context, `credence context` and the MCP recall tools share one way in (the process
    clock for working memory): nothing else calls assemble_context."""
    callers = sorted(
        str(path.relative_to(APP.parent))
        for path in APP.rglob("*.py")
        if "assemble_context(" in path.read_text(encoding="utf-8")
        and path.name != "context_inputs.py"
    )
    assert callers == ["app/retrieval/services.py"]


def test_the_scan_sees_a_construction() -> None:
    source = "from app.loop.services import LoopServices\nservices = LoopServices(graph=g)\n"
    assert _constructions(source) == [(2, "LoopServices")]
    assert _constructions("import x\nx.make_reasoner(settings)\n") == [(2, "make_reasoner")]
