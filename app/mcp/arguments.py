"""A call's arguments are checked as REST checks a body, and refused in REST's error body.

Every tool and prompt takes exactly the arguments it declares: an unknown one (``agent`` for
``agent_id``) is refused naming it, never ignored (a review's ``chat`` with ``agent`` wrote to
the default agent), and the listed input schemas say ``additionalProperties: false``. Bounds
(lengths, ranges, patterns) are those of the matching REST fields; an argument's value nests at
most ``MAX_NESTING`` levels. A refused tool call is a tool
error whose text is the ``invalid_input`` body REST answers; a refused prompt, a JSON-RPC
invalid-params error with that body as its message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from copy import copy
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations
from pydantic import BaseModel, ConfigDict, Strict, ValidationError, create_model

from app.common import StrictNumber
from app.errors import InvalidInput, NotFound
from app.mcp.errors import invalid_input, invalid_params, tool_error
from app.tools.calls import json_depth

# The deepest an argument's value may nest (objects and lists within each other), checked before
# any model walks it: as deep as the API looks into a body (app/api/control_characters.py), room
# enough for a modified work unit's tool call, whose own arguments nest at most 32 as over REST.
MAX_NESTING = 64


def strict_tool(fn: Callable[..., Any], annotations: ToolAnnotations) -> Tool:
    """The SDK's tool for ``fn`` (its arguments from the signature), refusing unknown arguments.

    Only the SDK's public surface: ``Tool.from_function`` (what ``MCPServer.tool`` runs), the
    tool's ``parameters`` (the listed input schema) and ``fn_metadata.arg_model``, which the SDK
    documents as read at each call ("reassigning them later takes effect on the next call").
    """
    tool = Tool.from_function(fn, annotations=annotations)
    model = tool.fn_metadata.arg_model
    config = ConfigDict(**model.model_config)
    config["extra"] = "forbid"
    strict = create_model(model.__name__, __base__=model, **_strict_scalars(model))
    tool.fn_metadata.arg_model = type(model.__name__, (strict,), {"model_config": config})
    tool.parameters["additionalProperties"] = False
    return tool


def _strict_scalars(model: type[BaseModel]) -> dict[str, Any]:
    """The boolean, integer and float fields of ``model`` made strict, as a REST body's are
    (docs/api.md): ``"yes"`` is no boolean, ``true`` no integer, ``"0.8"`` or ``true`` no number
    and a number finite (a float field still takes an integer)."""
    fields: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        choices = [a for a in get_args(field.annotation) if a is not type(None)]
        optional = get_origin(field.annotation) in (Union, UnionType) and len(choices) == 1
        scalar = choices[0] if optional else field.annotation
        if scalar in (bool, int):
            fields[name] = (Annotated[field.annotation, Strict()], copy(field))
        elif scalar is float:
            fields[name] = (StrictNumber | None if optional else StrictNumber, copy(field))
    return fields


class ArgumentCheck:
    """SDK middleware: checks a ``tools/call``'s arguments against the tool's (strict) model and
    a ``prompts/get``'s against the prompt's, before the SDK runs either."""

    def __init__(self, tools: list[Tool], prompts: Mapping[str, type[BaseModel]]) -> None:
        self.tools = {tool.name: tool for tool in tools}
        self.prompts = prompts

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        params = ctx.params or {}
        name = params.get("name")
        arguments = params.get("arguments") or {}
        if not isinstance(name, str) or not isinstance(arguments, dict):
            return await call_next(ctx)  # the SDK refuses a malformed request itself
        if ctx.method == "tools/call":
            tool = self.tools.get(name)
            if tool is None:
                return tool_error(
                    NotFound(f"unknown tool {name!r} (tools/list lists them)", tool=name)
                )
            too_deep = nesting_problem(arguments)
            if too_deep is not None:
                return tool_error(too_deep)
            try:
                tool.fn_metadata.validate_arguments(arguments)
            except ValidationError as error:
                return tool_error(invalid_input(error))
        elif ctx.method == "prompts/get" and name in self.prompts:
            try:
                self.prompts[name].model_validate(arguments)
            except ValidationError as error:
                raise invalid_params(invalid_input(error)) from error
        return await call_next(ctx)


def nesting_problem(arguments: dict[str, Any]) -> InvalidInput | None:
    """The refusal of the arguments that nest deeper than ``MAX_NESTING``, naming each; None if
    none does."""
    problems: list[dict[str, Any]] = [
        {
            "location": [name],
            "message": f"nests deeper than {MAX_NESTING} levels",
            "type": "too_deep",
        }
        for name, value in arguments.items()
        if json_depth(value) > MAX_NESTING
    ]
    if not problems:
        return None
    names = ", ".join(str(problem["location"][0]) for problem in problems)
    return InvalidInput(
        f"invalid request: {names}: nests deeper than {MAX_NESTING} levels", errors=problems
    )
