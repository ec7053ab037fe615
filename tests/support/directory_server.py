"""A small people-directory MCP server over stdio, built with the SDK, for the tests of
enrichment at birth (app/agents/enrichment.py, app/tools/enrichment.py):
``python -m tests.support.directory_server``.

One tool, ``lookup_person(email, name, company)`` (read-only): the person of ``PEOPLE`` with
that email (else that name) and the people around them (their manager and their direct
reports), in the answer format of docs/packs.md §4; ``{"person": null, "people": []}`` for
someone it does not know. ``--fail`` makes the tool answer an error, ``--delay S`` holds each
call S seconds (a slow directory), ``--invalid`` answers a seniority the people store refuses,
``--employee-id`` makes the tool require an ``employee_id`` as well (a lookup enrichment cannot
make).
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

COMPANY = "Acme Manufacturing"
INDUSTRY = "Manufacturing"
# Acme's finance team: the controller reports to the CFO and has three direct reports.
PEOPLE: list[dict[str, Any]] = [
    {
        "name": "Maria Lopez",
        "email": "maria.lopez@acme.example",
        "title": "Chief Financial Officer",
        "seniority": "c_suite",
        "reports_to": None,
    },
    {
        "name": "Dana Reyes",
        "email": "dana.reyes@acme.example",
        "title": "Controller",
        "seniority": "director",
        "reports_to": "maria.lopez@acme.example",
    },
    {
        "name": "Sam Okafor",
        "email": "sam.okafor@acme.example",
        "title": "Senior Accountant",
        "seniority": "senior",
        "reports_to": "dana.reyes@acme.example",
    },
    {
        "name": "Priya Shah",
        "email": "priya.shah@acme.example",
        "title": "Accounts Payable Clerk",
        "seniority": "entry",
        "reports_to": "dana.reyes@acme.example",
    },
    {
        "name": "Tom Becker",
        "email": "tom.becker@acme.example",
        "title": "Accounts Receivable Specialist",
        "seniority": "junior",
        "reports_to": "Dana Reyes",  # a directory may name the manager instead
    },
]


def _entry(person: dict[str, Any]) -> dict[str, Any]:
    return {**person, "company": COMPANY, "industry": INDUSTRY, "department": "Finance"}


def lookup(email: str | None, name: str | None) -> dict[str, Any]:
    """The answer for the person with that email (else name): them and the people around them."""
    wanted = next(
        (
            person
            for person in PEOPLE
            if (email and person["email"] == email.lower())
            or (not email and name and person["name"].lower() == name.lower())
        ),
        None,
    )
    if wanted is None:
        return {"person": None, "people": []}
    around = [
        person
        for person in PEOPLE
        if person["email"] == wanted["reports_to"]
        or person["reports_to"] in (wanted["email"], wanted["name"])
    ]
    return {"person": _entry(wanted), "people": [_entry(person) for person in around]}


def build_server(
    *, fail: bool, delay: float, invalid: bool, employee_id: bool = False
) -> MCPServer:
    server: MCPServer = MCPServer("credence-test-directory", version="1.0")
    if employee_id:
        _add_strict_lookup(server)
        return server

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def lookup_person(
        email: str | None = None, name: str | None = None, company: str | None = None
    ) -> dict[str, Any]:
        """Looks a person up in the company directory: their title, seniority, manager and
        direct reports."""
        if delay:
            await asyncio.sleep(delay)
        if fail:
            raise ToolError("the directory's backend is unavailable")
        answer = lookup(email, name)
        if invalid and answer["people"]:
            answer["people"][0] = {**answer["people"][0], "seniority": "boss"}
        return answer

    return server


def _add_strict_lookup(server: MCPServer) -> None:
    @server.tool(name="lookup_person", annotations=ToolAnnotations(read_only_hint=True))
    async def lookup_by_employee_id(
        employee_id: str, email: str | None = None, name: str | None = None
    ) -> dict[str, Any]:
        """Looks a person up by employee id (the email and name only confirm it)."""
        return lookup(email, name)


def main() -> None:
    global INDUSTRY  # one server per process: the industry it answers with
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fail", action="store_true")
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--invalid", action="store_true")
    parser.add_argument("--employee-id", action="store_true")
    parser.add_argument("--industry", default=INDUSTRY, help="the company's industry it answers")
    options = parser.parse_args()
    INDUSTRY = options.industry
    build_server(
        fail=options.fail,
        delay=options.delay,
        invalid=options.invalid,
        employee_id=options.employee_id,
    ).run("stdio")


if __name__ == "__main__":
    main()
