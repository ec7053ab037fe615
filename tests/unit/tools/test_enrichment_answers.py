"""Enrichment at birth, the pure parts: the request's fields, the directory's answer read from a
tool result, merged into the profile and validated (docs/packs.md §4)."""

from __future__ import annotations

from typing import Any, cast

import mcp_types as types
import pytest
from pydantic import ValidationError

from app.agents.enrichment import DirectoryAnswer, plan_enrichment, same_person
from app.agents.models import AgentCreate, BirthProfile
from app.errors import EnrichmentFailed
from app.tools.clients import McpClients, ServerSpec
from app.tools.enrichment import McpEnrichment, directory_answer, lookup_arguments
from tests.support.directory_server import lookup

DANA = BirthProfile(name="Dana Reyes", email="dana.reyes@acme.example")


def _result(payload: Any = None, text: str | None = None, error: bool = False) -> Any:
    content = [types.TextContent(type="text", text=text)] if text is not None else []
    return types.CallToolResult(content=content, structured_content=payload, is_error=error)


def test_enrich_is_off_by_default_and_naming_a_directory_turns_it_on() -> None:
    assert AgentCreate(name="Ava").enrich is False
    named = AgentCreate.model_validate(
        {"name": "Ava", "enrichment": {"command": "directory", "tool": "find"}}
    )
    assert named.enrich is True
    with pytest.raises(ValidationError, match="enrich is false"):
        AgentCreate.model_validate(
            {"name": "Ava", "enrich": False, "enrichment": {"command": "directory"}}
        )
    with pytest.raises(ValidationError, match="takes url"):
        AgentCreate.model_validate({"name": "Ava", "enrichment": {"transport": "http"}})


def test_the_answer_is_the_structured_content_or_the_text_as_json() -> None:
    answer = lookup("dana.reyes@acme.example", None)
    assert directory_answer("d", _result(answer)).person is not None
    assert directory_answer("d", _result({"result": answer})).person is not None
    text = '{"person": null, "people": []}'
    assert directory_answer("d", _result(text=text)) == DirectoryAnswer()
    with pytest.raises(EnrichmentFailed, match="not JSON"):
        directory_answer("d", _result(text="no one here"))
    with pytest.raises(EnrichmentFailed, match="answered an error: backend down"):
        directory_answer("d", _result(text="backend down", error=True))
    with pytest.raises(EnrichmentFailed, match=r"answer\.people\.0\.name"):
        directory_answer("d", _result({"people": [{"title": "CFO"}]}))


def test_the_arguments_are_those_the_tool_declares() -> None:
    declared = types.Tool(
        name="lookup_person",
        input_schema={"type": "object", "properties": {"email": {"type": "string"}}},
    )
    open_schema = types.Tool(name="lookup_person", input_schema={"type": "object"})
    assert lookup_arguments(DANA, declared) == {"email": "dana.reyes@acme.example"}
    assert lookup_arguments(DANA, open_schema) == {
        "email": "dana.reyes@acme.example",
        "name": "Dana Reyes",
    }


def test_the_directory_fills_only_what_the_request_left_out() -> None:
    answer = DirectoryAnswer.model_validate(lookup("dana.reyes@acme.example", None))
    given = BirthProfile(name="Dana Reyes", email="dana.reyes@acme.example", role="Acting CFO")

    plan = plan_enrichment("d", given, answer)

    assert plan.filled == ["seniority", "company", "industry"]
    assert (plan.profile.role, plan.profile.seniority) == ("Acting CFO", "director")
    assert plan.profile.industry == "manufacturing"  # "Manufacturing", made an industry key
    assert plan.principal_reports_to == "maria.lopez@acme.example"
    assert [person.data.name for person in plan.people] == [
        "Maria Lopez",
        "Sam Okafor",
        "Priya Shah",
        "Tom Becker",
    ]


def test_the_principal_and_repeats_are_not_listed_twice() -> None:
    answer = DirectoryAnswer.model_validate(
        {
            "person": None,
            "people": [
                {"name": "dana reyes"},  # the principal again, by name
                {"name": "Sam Okafor", "email": "SAM@acme.example", "seniority": "Senior"},
                {"name": "Samuel Okafor", "email": "sam@acme.example"},  # same email
                {"name": "Sam Okafor", "email": "other.sam@acme.example"},  # a namesake
            ],
        }
    )

    plan = plan_enrichment("d", BirthProfile(name="Dana Reyes"), answer)

    assert [(p.data.name, p.data.email) for p in plan.people] == [
        ("Sam Okafor", "SAM@acme.example"),
        ("Sam Okafor", "other.sam@acme.example"),
    ]
    assert plan.people[0].data.seniority == "senior"
    assert not plan.found and plan.filled == []
    assert same_person("a@x.example", "A", "A@X.example", "B")
    assert not same_person("a@x.example", "A", "b@x.example", "A")


def test_an_answer_the_people_store_refuses_is_refused_whole() -> None:
    answer = DirectoryAnswer.model_validate(
        {
            "person": {"name": "Dana Reyes", "seniority": "boss"},
            "people": [{"name": "Sam", "email": "not-an-email"}],
        }
    )

    with pytest.raises(EnrichmentFailed) as refused:
        plan_enrichment("directory.lookup_person", DANA, answer)

    locations = [problem["location"] for problem in refused.value.details["errors"]]
    assert locations == [["answer", "person", "seniority"], ["answer", "people", 0, "email"]]
    assert "nothing was written" in refused.value.message


class _Directory:
    """Stands in for the process's MCP clients before a directory server: lists its one tool,
    answers a call with the test directory's answer, and keeps every call that was sent."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.tool = types.Tool(name="lookup_person", input_schema=schema)
        self.sent: list[dict[str, Any]] = []
        self.closed: list[str] = []

    async def list_tools(self, spec: ServerSpec) -> list[types.Tool]:
        return [self.tool]

    async def call(self, spec: ServerSpec, tool: str, arguments: dict[str, Any]) -> Any:
        self.sent.append(arguments)
        return _result(lookup(arguments.get("email"), arguments.get("name")))

    async def close(self, key: str) -> None:
        self.closed.append(key)


def _lookup_through(directory: _Directory) -> McpEnrichment:
    spec = ServerSpec(key="birth-enrichment:test", name="directory", transport="stdio")
    return McpEnrichment(cast(McpClients, directory), spec, "lookup_person", 5.0)


async def test_a_lookup_the_tools_schema_refuses_is_not_sent() -> None:
    needs_id = _Directory(
        {
            "type": "object",
            "properties": {"employee_id": {"type": "string"}, "email": {"type": "string"}},
            "required": ["employee_id"],
        }
    )

    with pytest.raises(EnrichmentFailed) as refused:
        await _lookup_through(needs_id).lookup(DANA)

    assert needs_id.sent == [] and needs_id.closed == ["birth-enrichment:test"]
    assert refused.value.message == (
        "enrichment through directory.lookup_person failed: the tool refuses the lookup's "
        "arguments (email): arguments: 'employee_id' is a required property; nothing was written"
    )
    assert refused.value.details["errors"] == [
        {
            "location": ["arguments"],
            "message": "'employee_id' is a required property",
            "type": "schema_error",
        }
    ]
    # A value of the wrong type is named where it is.
    numbers = _Directory({"type": "object", "properties": {"name": {"type": "integer"}}})
    with pytest.raises(EnrichmentFailed) as wrong_type:
        await _lookup_through(numbers).lookup(DANA)
    assert numbers.sent == []
    assert [e["location"] for e in wrong_type.value.details["errors"]] == [["arguments", "name"]]


async def test_a_lookup_the_schema_takes_is_sent_once() -> None:
    takes_email = _Directory({"type": "object", "properties": {"email": {"type": "string"}}})

    answer = await _lookup_through(takes_email).lookup(DANA)

    assert takes_email.sent == [{"email": "dana.reyes@acme.example"}]
    assert answer.person is not None and answer.person.name == "Dana Reyes"
