"""The offline route to a connected tool (app/reasoning/offline/tool_choice.py) and what the
answer says when the message does not give the call's arguments (app/loop/tool_routing.py):
a request that names a connection goes to the tool of that connection that does the act it
asks for, even when the message is far from every description, and the answer names that tool
and what it needs."""

from __future__ import annotations

from typing import Any

from app.loop.models import ToolRoute
from app.loop.tool_routing import arguments_needed, no_call_made
from app.reasoning.offline.tool_choice import choose_tool
from app.reasoning.protocol import ToolChoiceRequest, ToolOffer


def _schema(**properties: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            name: {"type": "string", "description": d} for name, d in properties.items()
        },
        "required": list(properties),
    }


# mcp-server-sqlite's tools as they describe themselves, with the cosines a message about an
# invoice had to their stored descriptions (all below the 0.45 threshold).
LEDGER = [
    ToolOffer(
        qualified_name="ledger.append_insight",
        description="Add a business insight to the memo",
        input_schema=_schema(insight="Business insight discovered from data analysis"),
        similarity=0.39,
    ),
    ToolOffer(
        qualified_name="ledger.create_table",
        description="Create a new table in the SQLite database",
        input_schema=_schema(query="CREATE TABLE SQL statement"),
        similarity=0.12,
    ),
    ToolOffer(
        qualified_name="ledger.describe_table",
        description="Get the schema information for a specific table",
        input_schema=_schema(table_name="Name of the table to describe"),
        similarity=0.40,
    ),
    ToolOffer(
        qualified_name="ledger.list_tables",
        description="List all tables in the SQLite database",
        input_schema={"type": "object", "properties": {}},
        similarity=0.39,
    ),
    ToolOffer(
        qualified_name="ledger.read_query",
        description="Execute a SELECT query on the SQLite database",
        input_schema=_schema(query="SELECT SQL query to execute"),
        similarity=0.10,
    ),
    ToolOffer(
        qualified_name="ledger.write_query",
        description="Execute an INSERT, UPDATE, or DELETE query on the SQLite database",
        input_schema=_schema(query="SQL query to execute"),
        similarity=0.09,
    ),
]


def _choose(message: str, tools: list[ToolOffer] = LEDGER) -> Any:
    return choose_tool(ToolChoiceRequest(message=message, tools=tools, threshold=0.45))


def test_a_request_to_record_in_the_named_ledger_goes_to_its_write_tool() -> None:
    choice = _choose("Please record invoice INV-1042 for 1200 EUR from Acme in the ledger")

    assert choice.tool == "ledger.write_query"
    assert choice.call is None and choice.missing == ["query"]
    assert choice.similarity == 0.09


def test_a_request_to_show_what_the_ledger_holds_goes_to_a_read_tool_it_can_call() -> None:
    choice = _choose("Show me the tables in the ledger")

    assert choice.tool == "ledger.list_tables" and choice.missing == []
    assert choice.call is not None and choice.call.arguments == {}


def test_below_the_threshold_nothing_is_chosen_without_a_named_connection_and_an_act() -> None:
    # Not naming the connection, not a request, or no act a tool says: no tool.
    for message in (
        "Please record invoice INV-1042 for 1200 EUR from Acme",
        "The ledger was closed on Friday.",
        "Please remember the ledger closes on Friday",
    ):
        choice = _choose(message)
        assert choice.tool is None and choice.call is None, message
        assert choice.similarity == 0.40


def test_above_the_threshold_the_closest_tool_still_wins() -> None:
    clock = ToolOffer(
        qualified_name="clock.get_current_time",
        description="Get current time in a specific timezone",
        input_schema=_schema(timezone="IANA timezone name"),
        similarity=0.57,
    )
    choice = _choose("What time is it? timezone: Europe/Warsaw", [clock, *LEDGER])

    assert choice.call is not None and choice.call.qualified_name == "clock.get_current_time"
    assert choice.call.arguments == {"timezone": "Europe/Warsaw"}


def test_the_answer_names_the_tool_what_it_does_and_what_it_needs() -> None:
    route = ToolRoute(
        tool="ledger.write_query",
        how="offline",
        called=False,
        missing=["query"],
        purpose="Execute an INSERT, UPDATE, or DELETE query on the SQLite database",
        needs={"query": "SQL query to execute"},
    )

    assert arguments_needed(route) == (
        "I can't turn this into a call from your message alone. The connected tool for it is "
        "ledger.write_query (“Execute an INSERT, UPDATE, or DELETE query on the SQLite "
        "database”), and it needs query (SQL query to execute). Tell me, e.g. call "
        'ledger.write_query {"query": "…"}'
    )
    bare = ToolRoute(tool="clock.get_current_time", how="offline", called=False, missing=["tz"])
    assert "The connected tool for it is clock.get_current_time, and it needs tz." in (
        arguments_needed(bare)
    )


def test_the_answer_says_a_refused_call_was_not_made_and_why() -> None:
    refused = ToolRoute(
        tool="clock.get_current_time",
        how="offline",
        called=False,
        arguments={"timezone": 5},
        refused="arguments.timezone: 5 is not of type 'string'",
    )
    assert no_call_made(refused) == (
        'I did not make the call clock.get_current_time {"timezone": 5}: the tool\'s input '
        "schema refuses these arguments (arguments.timezone: 5 is not of type 'string'), so "
        "nothing was sent to its server. Tell me the right values, or write the call yourself: "
        "call clock.get_current_time {…}"
    )
    long = refused.model_copy(update={"arguments": {"timezone": "x" * 1000}})
    assert "x" * 280 in str(no_call_made(long)) and "x" * 300 not in str(no_call_made(long))
    needs = ToolRoute(tool="clock.get_current_time", how="offline", called=False, missing=["tz"])
    assert no_call_made(needs) == arguments_needed(needs)
    made = ToolRoute(tool="clock.get_current_time", how="offline", called=True)
    assert no_call_made(made) is None
