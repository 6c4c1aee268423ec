"""Strings (lengths, ``pattern``, ``format``), integers (exact ranges) and numbers (the sign of
a bound)."""

from __future__ import annotations

from typing import Any

from gbnf.compiler._canonical import numeric_bounds
from gbnf.compiler._formats import EXACT, FORMATS
from gbnf.compiler._literals import repeat
from gbnf.compiler._ranges import int_range
from gbnf.compiler._regex import pattern_to_gbnf
from gbnf.compiler._schema import key_path
from gbnf.compiler._walk import Walk
from gbnf.errors import Unsatisfiable, Untranslatable


def emit_string(e: Walk, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
    """A string: its pattern when it translates, else its format, else its length bounds."""
    low, high = e.counts(schema, path, "minLength", "maxLength")
    pattern, fmt = schema.get("pattern"), schema.get("format")
    if pattern is not None:
        try:
            content = pattern_to_gbnf(pattern)
        except Untranslatable as exc:
            e.loose(key_path(path, "pattern"), f"not translated ({exc}): any string")
        else:
            for keyword in ("minLength", "maxLength", "format"):
                if keyword in schema:
                    e.loose(key_path(path, keyword), "beside a pattern: left to the validator")
            return e.rule(name, f'"\\"" {content} "\\""')
    if fmt is not None:
        if fmt in FORMATS:
            if fmt not in EXACT:
                e.loose(key_path(path, "format"), f"{fmt!r} is approximated; the validator checks it")
            for keyword in ("minLength", "maxLength"):
                if keyword in schema:
                    e.loose(key_path(path, keyword), "beside a format: left to the validator")
            return e.rule(name, f'"\\"" {FORMATS[fmt]} "\\""')
        e.loose(key_path(path, "format"), f"{fmt!r} is not in the grammar: any string")
    if low == 0 and high is None:
        return "string"
    return e.rule(name, f'"\\"" {repeat("stringChar", low, high)} "\\""')


def emit_integer(e: Walk, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
    """An integer: exactly the range its bounds allow."""
    low, high = numeric_bounds(schema, integer=True)
    if "multipleOf" in schema:
        e.loose(key_path(path, "multipleOf"), "left to the validator")
    if low is None and high is None:
        return "integer"
    if low is not None and high is not None and low > high:
        raise Unsatisfiable(path, f"no integer lies between {low} and {high}")
    return e.rule(name, int_range(low, high))


def emit_number(e: Walk, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
    """A number: bounds are left to the validator, but a bound at or above 0 excludes the sign,
    and bounds on both sides cap the digits before the point."""
    if "multipleOf" in schema:
        e.loose(key_path(path, "multipleOf"), "left to the validator")
    bounded = [k for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") if k in schema]
    if not bounded:
        return "number"
    for keyword in bounded:
        e.loose(key_path(path, keyword), "only the sign is in the grammar; the validator checks the bound")
    low, high = numeric_bounds(schema, integer=False)
    sign = "" if low is not None and low >= 0 else '"-"? '
    if low is None or high is None:
        return e.rule(name, f'{sign}("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [-+]? [0-9]+)?') if not sign \
            else "number"
    width = len(str(int(max(abs(low), abs(high)))))
    return e.rule(name, f'{sign}("0" | [1-9]{repeat("[0-9]", 0, width - 1)}) ("." [0-9]+)? ([eE] [-+]? [0-9]+)?')
