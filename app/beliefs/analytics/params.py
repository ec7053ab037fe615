"""The parameters of an analytics query: values converted to the declared types, defaults filled.

Values arriving as text (query string, ``--param key=value``) are converted first. Integer
parameters of analytics are sizes (how many rows): from 0 to :data:`MAX_INTEGER`, so that a huge
value is refused naming the parameter, not failed by the driver or the database.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from app.beliefs.analytics.models import AnalyticsSpec, ParamSpec, ParamType
from app.errors import ErrorEntry, InvalidInput, error_entry

# The largest value an integer parameter of analytics takes (every one is a count of rows).
MAX_INTEGER = 10_000

_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})


def coerce(param: ParamSpec, value: Any) -> Any:
    """``value`` as the declared type of ``param`` (text is converted).

    Raises:
        ValueError: the value does not fit.
    """
    if isinstance(value, str) and param.type != "STRING":
        value = _from_text(param.type, value)
    if value is None:
        if not param.nullable:
            raise ValueError("may not be null")
        return None
    if param.type == "STRING":
        if not isinstance(value, str):
            raise ValueError(f"expected a string, got {value!r}")
        if param.choices and value not in param.choices:
            raise ValueError(f"expected one of {', '.join(param.choices)}; got {value!r}")
        return value
    if param.type == "BOOLEAN":
        if not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {value!r}")
        return value
    return _number(param.type, value)


def _from_text(param_type: ParamType, value: str) -> Any:
    text = value.strip()
    if text.lower() == "null":
        return None
    if param_type == "INTEGER":
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"expected an integer, got {value!r}") from None
    if param_type == "FLOAT":
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"expected a number, got {value!r}") from None
    if text.lower() in _TRUE:
        return True
    if text.lower() in _FALSE:
        return False
    raise ValueError(f"expected true or false, got {value!r}")


def _number(param_type: ParamType, value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected a number, got {value!r}")
    if param_type == "INTEGER":
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"expected an integer, got {value!r}")
        if value < 0:
            raise ValueError(f"must not be negative, got {value!r}")
        if value > MAX_INTEGER:
            raise ValueError(f"must be at most {MAX_INTEGER}, got {value!r}")
        return int(value)
    if not math.isfinite(value):
        raise ValueError(f"expected a finite number, got {value!r}")
    return float(value)


def resolve_params(spec: AnalyticsSpec, given: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters to run ``spec`` with: given values converted, defaults for the rest.

    ``agent_id`` is not among them: it always comes from the caller's agent.

    Raises:
        InvalidInput: unknown names, missing required values, values that do not fit (all
            listed in ``details["errors"]``).
    """
    errors = _unknown_names(spec, given)
    resolved: dict[str, Any] = {}
    for param in spec.params:
        if param.name == "agent_id":
            continue
        if param.name not in given:
            if param.required:
                errors.append(_error(param.name, "required", "missing"))
            else:
                resolved[param.name] = param.default
            continue
        try:
            resolved[param.name] = coerce(param, given[param.name])
        except ValueError as error:
            errors.append(_error(param.name, str(error), "value_error"))
    if errors:
        summary = "; ".join(f"{e['location'][-1]}: {e['message']}" for e in errors)
        raise InvalidInput(
            f"invalid parameters for analytics {spec.name!r}: {summary}", errors=errors
        )
    return resolved


def _unknown_names(spec: AnalyticsSpec, given: Mapping[str, Any]) -> list[ErrorEntry]:
    known = sorted(p.name for p in spec.params if p.name != "agent_id")
    errors: list[ErrorEntry] = []
    for key in given:
        if spec.param(key) is None or key == "agent_id":
            hint = (
                "the agent comes from the path (API) or --agent (CLI)"
                if key == "agent_id"
                else f"known: {', '.join(known) or 'none'}"
            )
            errors.append(_error(key, f"unknown parameter; {hint}", "extra_forbidden"))
    return errors


def _error(name: str, message: str, type: str) -> ErrorEntry:
    return error_entry(["params", name], message, type)
