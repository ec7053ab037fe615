"""Request bodies are strict about booleans and integers: a string is no boolean and a boolean is
no integer (``"audit": "yes"`` was read as true, a note's ``priority: true`` stored as 1).

Every model a route's JSON body is read with (and every model nested in one) is walked, so a
field added later is held to it too. Floats stay lax about integers (``1`` is a float)."""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError

from app.api.app import ROUTERS


def _models_in(annotation: Any, found: dict[str, type[BaseModel]]) -> None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        name = f"{annotation.__module__}.{annotation.__qualname__}"
        if name in found:
            return
        found[name] = annotation
        for field in annotation.model_fields.values():
            _models_in(field.annotation, found)
    for argument in typing.get_args(annotation):
        _models_in(argument, found)


def _request_models() -> dict[str, type[BaseModel]]:
    found: dict[str, type[BaseModel]] = {}
    for router in ROUTERS:
        for route in router.routes:
            if isinstance(route, APIRoute):
                for parameter in route.dependant.body_params:
                    _models_in(parameter.field_info.annotation, found)
    return found


def _scalar(annotation: Any) -> Any:
    """The field's type without ``None`` (``int | None`` is ``int``), or None when it is no
    plain scalar (a union of several types, a list, a model)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(annotation) if a is not type(None)]
        return rest[0] if len(rest) == 1 else None
    return annotation


def _typed_fields() -> list[tuple[str, str, str, object]]:
    """(model, field, expected error type, wrong value) for every boolean and integer field."""
    cases = []
    for name, model in sorted(_request_models().items()):
        for field_name, field in model.model_fields.items():
            scalar = _scalar(field.annotation)
            if scalar is bool:
                cases.append((name, field.alias or field_name, "bool_type", "yes"))
            elif scalar is int:
                cases.append((name, field.alias or field_name, "int_type", True))
    return cases


CASES = _typed_fields()


def test_the_walk_finds_the_fields_it_is_about() -> None:
    found = {(model.rsplit(".", 1)[-1], field) for model, field, _, _ in CASES}
    assert {("GuardianCheck", "audit"), ("NoteCreate", "priority"), ("AgentCreate", "enrich")} <= (
        found
    )


@pytest.mark.parametrize(("model_name", "field", "error_type", "wrong"), CASES)
def test_a_wrong_type_is_refused_naming_the_field(
    model_name: str, field: str, error_type: str, wrong: object
) -> None:
    model = _request_models()[model_name]
    with pytest.raises(ValidationError) as refused:
        model.model_validate({field: wrong})
    mine = [e for e in refused.value.errors() if e["loc"] == (field,)]
    assert [e["type"] for e in mine] == [error_type], refused.value.errors()
