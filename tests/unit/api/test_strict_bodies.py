"""Request bodies are strict about booleans, integers and floats: a string is no boolean and a
boolean is no integer (``"audit": "yes"`` was read as true, a note's ``priority: true`` stored as
1), and neither is a float (``"strength": "0.8"`` made a belief); a float is finite (1e400 reads
as infinity). A float field still takes an integer (``1`` is a float).

Every model a route's JSON body is read with (and every model nested in one), and every model of
a pack document, a seed file or a scenario file, is walked, so a field added later is held to it
too."""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError

from app.api.app import ROUTERS
from app.scenarios.models import Scenario
from app.seeds.file_schemas import CensorsFile, CreedFile, FramesFile, SelfFile
from app.seeds.pack_schema import KnowledgePack


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


def _checked_models() -> dict[str, type[BaseModel]]:
    """The request models and the models of a pack document (docs/packs.md §1), of the
    agent's seed files (§4) and of a scenario file (docs/scenarios.md §1)."""
    found = _request_models()
    for document in (KnowledgePack, CreedFile, SelfFile, FramesFile, CensorsFile, Scenario):
        _models_in(document, found)
    return found


def _scalar(annotation: Any) -> tuple[Any, tuple[str | int, ...]]:
    """The scalar type a field holds and the path below the field to one value of it: ``int |
    None`` is ``int`` at ``()``, ``dict[str, float]`` is ``float`` at ``("k",)`` and
    ``list[float]`` ``float`` at ``(0,)``; None when it is no plain scalar (a union of several
    types, a model)."""
    if typing.get_origin(annotation) is typing.Annotated:
        return _scalar(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _scalar(rest[0]) if len(rest) == 1 else (None, ())
    if typing.get_origin(annotation) in (dict, list):
        *_, item = typing.get_args(annotation)
        scalar, below = _scalar(item)
        return scalar, ("k" if typing.get_origin(annotation) is dict else 0, *below)
    return annotation, ()


# The wrong values of each scalar type, with the error each is refused with.
WRONG: dict[type, list[tuple[str, object]]] = {
    bool: [("bool_type", "yes")],
    int: [("int_type", True)],
    float: [
        ("float_type", "0.8"),
        ("float_type", True),
        ("finite_number", float("nan")),
        ("finite_number", float("inf")),
        ("finite_number", float("-inf")),
    ],
}


def _nested(path: tuple[str | int, ...], value: object) -> object:
    for step in reversed(path):
        value = [value] if isinstance(step, int) else {step: value}
    return value


def _typed_fields() -> list[tuple[str, tuple[str | int, ...], str, object]]:
    """(model, location, expected error type, wrong value) for every boolean, integer and float
    field (or dictionary or list of them)."""
    cases = []
    for name, model in sorted(_checked_models().items()):
        for field_name, field in model.model_fields.items():
            scalar, below = _scalar(field.annotation)
            for error_type, wrong in WRONG.get(scalar, []):
                cases.append((name, (field.alias or field_name, *below), error_type, wrong))
    return cases


CASES = _typed_fields()


def test_the_walk_finds_the_fields_it_is_about() -> None:
    found = {(model.rsplit(".", 1)[-1], location) for model, location, _, _ in CASES}
    assert {
        ("GuardianCheck", ("audit",)),
        ("NoteCreate", ("priority",)),
        ("AgentCreate", ("enrich",)),
        ("BeliefCreate", ("strength",)),
        ("BeliefUpdate", ("importance",)),
        ("EdgeCreate", ("weight",)),
        ("EnrichmentSource", ("timeout_s",)),
        ("ModifiedWorkUnit", ("confidence",)),
        ("PackBelief", ("contexts", "k")),
        ("SupportLink", ("weight",)),
        ("KnowledgePack", ("base",)),
        ("SeedBelief", ("strength",)),
        ("SeedCapability", ("proficiency",)),
        ("ScenarioPerson", ("context_relevance",)),
        ("Expectation", ("executed",)),
    } <= found


@pytest.mark.parametrize(("model_name", "location", "error_type", "wrong"), CASES)
def test_a_wrong_type_is_refused_naming_the_field(
    model_name: str, location: tuple[str | int, ...], error_type: str, wrong: object
) -> None:
    model = _checked_models()[model_name]
    field, *below = location
    with pytest.raises(ValidationError) as refused:
        model.model_validate({field: _nested(tuple(below), wrong)})
    mine = [e for e in refused.value.errors() if e["loc"] == location]
    assert [e["type"] for e in mine] == [error_type], refused.value.errors()


FLOATS = sorted({(model, location) for model, location, kind, _ in CASES if kind == "float_type"})


@pytest.mark.parametrize(("model_name", "location"), FLOATS)
def test_a_float_field_takes_an_integer(model_name: str, location: tuple[str | int, ...]) -> None:
    model = _checked_models()[model_name]
    field, *below = location
    try:
        model.model_validate({field: _nested(tuple(below), 1)})
    except ValidationError as refused:
        mine = [e for e in refused.errors() if e["loc"] == location]
        assert mine == [], mine
