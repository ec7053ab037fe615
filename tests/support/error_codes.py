"""Every error code the API can answer with, and its HTTP status: the error table of docs/api.md is
checked against this (tests/unit/test_error_table.py) and printed by ``python -m
tests.support.error_codes`` when it needs rewriting."""

from __future__ import annotations

import importlib
import pkgutil

import app
from app.api.errors import status_for
from app.errors import CredenceError

# Answers that do not come from a CredenceError (app/api/errors.py, app/api/causality.py).
API_CODES: dict[str, tuple[int, str]] = {
    "invalid_input": (
        422,
        "The input failed validation; every problem is listed with its location.",
    ),
    "not_found": (404, "No route matches the path."),
    "method_not_allowed": (405, "The route does not take this method."),
    "internal_error": (500, "A bug: logged on the server, no stack trace sent."),
}


def _load_every_module() -> None:
    for module in pkgutil.walk_packages(app.__path__, prefix="app."):
        importlib.import_module(module.name)


def error_codes() -> dict[str, tuple[int, str]]:
    """code -> (status, the first line of the error class's docstring)."""
    _load_every_module()
    codes = dict(API_CODES)
    pending: list[type[CredenceError]] = [CredenceError]
    while pending:
        error_type = pending.pop()
        pending.extend(error_type.__subclasses__())
        # A test's own subclass (tests/unit/api/test_api_shell.py) is not an answer of the API.
        if error_type is CredenceError or not error_type.__module__.startswith("app."):
            continue
        doc = " ".join((error_type.__doc__ or "").split())
        first_sentence = doc.split(". ")[0].rstrip(".") + "." if doc else ""
        status = status_for(error_type.__new__(error_type))
        codes.setdefault(error_type.code, (status, first_sentence.replace("|", "/")))
    return dict(sorted(codes.items()))


def table() -> str:
    rows = ["| code | status | meaning |", "|---|---|---|"]
    rows += [
        f"| `{code}` | {status} | {meaning} |" for code, (status, meaning) in error_codes().items()
    ]
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())  # noqa: T201
