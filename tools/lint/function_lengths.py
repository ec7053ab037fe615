"""Fails when a function in the given folders is longer than the limit (80 lines by default).

A function's length runs from its ``def`` line (decorators excluded) to its last line, so its
docstring and comments count: a function that needs more than a screen to read does two jobs.

    python tools/lint/function_lengths.py [--limit N] [FOLDER ...]   (default: app)
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

LIMIT = 80


@dataclass(frozen=True)
class LongFunction:
    path: Path
    line: int
    name: str
    length: int
    limit: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name} is {self.length} lines (limit {self.limit})"


def long_functions_in(source: str, path: Path, limit: int = LIMIT) -> list[LongFunction]:
    """The functions and methods of one module that are longer than ``limit`` lines."""
    found = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append(LongFunction(path, node.lineno, node.name, length, limit))
    return found


def long_functions(folders: list[Path], limit: int = LIMIT) -> list[LongFunction]:
    """Every over-long function under ``folders``, in path order."""
    found = []
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            found.extend(long_functions_in(path.read_text(encoding="utf-8"), path, limit))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("folders", nargs="*", type=Path, default=[Path("app")])
    arguments = parser.parse_args(argv)
    found = long_functions(arguments.folders, arguments.limit)
    for function in found:
        print(function, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
