"""Strings (lengths, ``pattern``, ``format``, listed strings excluded), integers and numbers
(exact ranges)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from gbnf.compiler._canonical import as_decimal, decimal_step, integer_bounds, numeric_bounds
from gbnf.compiler._formats import EXACT, FORMATS
from gbnf.compiler._lengths import pattern_within
from gbnf.compiler._literals import class_char, gbnf_literal, repeat
from gbnf.compiler._multiples import multiples
from gbnf.compiler._ranges import int_range, number_range
from gbnf.compiler._regex import pattern_to_gbnf
from gbnf.compiler._rewrite import excluded_strings
from gbnf.compiler._schema import key_path
from gbnf.compiler._walk import Walk
from gbnf.errors import Unsatisfiable, Untranslatable

_ONE_CLASS_RUN = re.compile(r"\^(\[(?:\\.|[^\]\\])+\]|\\[dDwWsS]|\.)([*+])\$")
"""A pattern that is a run of one character class, ``^[a-z0-9-]*$``: lengths beside it are exact."""


def emit_string(e: Walk, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
    """A string: the strings a ``not`` of listed strings leaves (see
    :func:`~gbnf.compiler._rewrite.excluded_strings`), else its pattern when it translates (with
    its lengths: a run of one class repeated so many times, else the pattern's automaton crossed
    with them where that is in reach), else its format, else its length bounds."""
    excluded = excluded_strings(schema)
    if excluded is not None:
        return e.rule(name, f'"\\"" {not_spelled(e, excluded, name + "Text")} "\\""')
    low, high = e.counts(schema, path, "minLength", "maxLength")
    pattern, fmt = schema.get("pattern"), schema.get("format")
    run = _ONE_CLASS_RUN.fullmatch(pattern) if isinstance(pattern, str) and fmt is None else None
    if run is not None and ("minLength" in schema or "maxLength" in schema):  # ^[a-z0-9-]*$ and lengths: exact
        try:
            char = pattern_to_gbnf(f"^{run[1]}$")
        except Untranslatable:
            pass
        else:
            least = max(low, 1 if run[2] == "+" else 0)
            if high is not None and least > high:
                raise Unsatisfiable(key_path(path, "maxLength"), "no string of this length matches the pattern")
            chars = repeat(char, least, high)
            return e.rule(name, f'"\\""{chars} "\\""')
    if pattern is not None:
        try:
            content = pattern_to_gbnf(pattern)
        except Untranslatable as exc:
            e.loose(key_path(path, "pattern"), f"not translated ({exc}): any string")
        else:
            lengths = "minLength" in schema or "maxLength" in schema
            counted = _within(e, pattern, low, high, name, path) if lengths else None
            if counted is not None:
                content = counted
            for keyword in ("format",) if counted is not None else ("minLength", "maxLength", "format"):
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


def not_spelled(e: Walk, suffixes: list[str], name: str) -> str:
    """String contents that spell none of ``suffixes`` (a trie walk: stop where none ends,
    deviate from every one, or follow one next character): keys that are not declared ones, or
    strings a ``not`` of listed strings leaves. ``suffixes`` are what each still needs from this
    point; an escape counts as a deviation (the validator reads what it spells)."""
    children: dict[str, list[str]] = {}
    for suffix in suffixes:
        if suffix:
            children.setdefault(suffix[0], []).append(suffix[1:])
    options = [] if "" in suffixes else ['""']
    excluded = "".join(class_char(c) for c in sorted(children))
    options.append(f'([^"\\\\\\x00-\\x1F{excluded}] | stringEscape) stringChar*')
    for i, char in enumerate(sorted(children)):
        options.append(f"{gbnf_literal(char)} {not_spelled(e, children[char], f'{name}{i}')}")
    return e.rule(name, " | ".join(options))


def emit_integer(e: Walk, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
    """An integer: exactly the range its bounds allow, and the multiples of a whole step
    (see :func:`~gbnf.compiler._multiples.multiples`)."""
    low, high = integer_bounds(schema)
    if low is not None and high is not None and low > high:
        raise Unsatisfiable(path, f"no integer lies between {low} and {high}")
    step = decimal_step(schema)
    whole = 1 if step is None else step[0] // math.gcd(step[0], 10 ** step[1])  # 0.5 or 0.01: every integer
    if whole > 1:
        body = multiples(e.table, whole, low, high, name, path)
        if body is not None:
            return e.rule(name, body)
    if "multipleOf" in schema and (step is None or whole > 1):
        e.loose(key_path(path, "multipleOf"), "left to the validator")
    if low is None and high is None:
        return "integer"
    return e.rule(name, int_range(low, high))


_UNSIGNED = '("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [-+]? [0-9]+)?'


def emit_number(e: Walk, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
    """A number: exactly the range its bounds allow, written without an exponent (but for a
    lower bound of 0 alone, which only drops the sign); a ``multipleOf`` of 1, 0.1, 0.01...
    exactly (only zeros past that fraction digit), and of a whole step as its multiples."""
    (low, low_open), (high, high_open) = numeric_bounds(schema)
    step = decimal_step(schema)
    if step is not None and step[1] == 0 and step[0] > 1:  # whole multiples, a fraction of zeros allowed
        body = multiples(e.table, step[0], *integer_bounds(schema), name, path)
        if body is not None:
            return e.rule(name, f'({body}) ("." "0"+)?')
    places = step[1] if step is not None and step[0] == 1 else None
    if "multipleOf" in schema and places is None:
        e.loose(key_path(path, "multipleOf"), "left to the validator")
    if places is None and low is None and high is None:
        return "number"
    if places is None and (low, low_open, high) == (0, False, None):
        return e.rule(name, _UNSIGNED)
    low, high = (None if low is None else as_decimal(low)), (None if high is None else as_decimal(high))
    if places is not None:  # onto the grid, closed
        low, high = _on_grid(low, low_open, places, math.ceil), _on_grid(high, high_open, places, math.floor)
        low_open = high_open = False
    try:
        return e.rule(name, number_range(low, high, low_open, high_open, places))
    except ValueError:
        raise Unsatisfiable(path, f"no number lies between {low} and {high}") from None


def _within(e: Walk, pattern: str, low: int, high: int | None, name: str, path: str) -> str | None:
    """The pattern crossed with the lengths (:func:`~gbnf.compiler._lengths.pattern_within`), or
    None where that is out of reach."""
    try:
        return pattern_within(e.table, pattern, low, high, name, path)
    except Untranslatable:
        return None


def _on_grid(bound: Decimal | None, is_open: bool, places: int, rounding: Callable[[Decimal], int]
             ) -> Decimal | None:
    """The closest multiple of 10**-places a bound allows (``rounding``: ceil for a lower bound)."""
    if bound is None:
        return None
    scaled = bound.scaleb(places)
    n = rounding(scaled)
    if is_open and n == scaled:
        n += 1 if rounding is math.ceil else -1
    return Decimal(n).scaleb(-places)
