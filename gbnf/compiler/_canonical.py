"""Canonicalize one schema position before it is emitted: ``$ref`` followed, ``allOf`` merged,
dependencies, ``not`` and conditionals rewritten as unions where they can be, ``type`` read as
a list, counts and numeric bounds read as numbers. Pure functions: what the grammar will not
hold comes back as notes (key path, why) for ``looser``."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any, Literal, NamedTuple, TypeGuard

from gbnf.compiler._literals import COUNT_LIMIT
from gbnf.compiler._rewrite import REWRITTEN, excluded_strings, rewrite, with_conditionals
from gbnf.compiler._schema import (
    ANNOTATIONS,
    CONDITIONAL,
    HAS_ITEM,
    TYPES,
    all_of_parts,
    follow_ref,
    is_local,
    key_path,
    merge_all_of,
    reads_conditionals,
)
from gbnf.errors import SchemaError, Unsatisfiable

# Keywords that only annotate, or that the compiler turns into grammar.
_HANDLED = {
    "type", "properties", "required", "items", "prefixItems", "enum", "const", "$ref", "$defs",
    "definitions", "anyOf", "oneOf", "allOf", "minItems", "maxItems", "minLength", "maxLength",
    "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "nullable",
    "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties",
    "multipleOf", "uniqueItems", "additionalItems", "contains", HAS_ITEM, *ANNOTATIONS,
}
_APPLICATORS = {"$ref", "allOf", "anyOf", "oneOf", "if", "not", "dependentSchemas"}
_PLAIN = frozenset(_HANDLED - {"$ref", "allOf", "anyOf", "oneOf"})
"""Keywords of a schema that canonicalizes to itself, with no note: no applicator to follow."""
_UNEVALUATED = frozenset({"unevaluatedProperties", "unevaluatedItems"})
_OLD_DRAFT = re.compile(r"draft-0[3-7]/schema")

Note = tuple[str, str]
Kind = Literal["any", "anyOf", "oneOf", "enum", "typed"]


class Node(NamedTuple):
    """One schema position, canonical: ``any`` (every JSON value), a union (``anyOf``/``oneOf``
    branches still to merge with the rest), ``enum`` (``const`` or ``enum``), or ``typed`` (one
    alternative per type in ``types``). ``refs`` are the ``$ref`` s followed to reach it without
    nesting (one more is a cycle)."""

    kind: Kind
    schema: dict[str, Any]
    refs: frozenset[str]
    notes: tuple[Note, ...] = ()
    types: tuple[str, ...] = ()


def canonicalize(schema: Any, root: Any, path: str, refs: frozenset[str] = frozenset()) -> Node:
    """``schema`` at ``path`` (a part of ``root``, which its ``$ref`` s point into) as a :class:`Node`."""
    if type(schema) is dict and schema and _PLAIN.issuperset(schema):  # the common case, at once
        return _listed_or_typed(schema, path, refs, ())
    notes: list[Note] = []
    while True:
        if schema is True or schema == {}:
            return Node("any", {}, refs, tuple(notes))
        if schema is False:
            raise Unsatisfiable(path, "the schema 'false' matches no value")
        if not isinstance(schema, dict):
            raise SchemaError(path, f"a schema must be an object or a boolean, not {schema!r:.60}")
        if not CONDITIONAL.isdisjoint(schema) and not reads_conditionals(root):  # not keywords there
            schema = _without_keywords(schema, CONDITIONAL)
            continue
        unevaluated = _UNEVALUATED.intersection(schema)
        if unevaluated and not _APPLICATORS.isdisjoint(schema):
            notes += [(key_path(path, keyword), "beside applicators: left to the validator")
                      for keyword in sorted(unevaluated)]
            schema = {k: v for k, v in schema.items() if k not in unevaluated}
        if "$ref" in schema:
            ref = schema["$ref"]
            if ref in refs:
                raise SchemaError(key_path(path, "$ref"), f"{ref!r} refers to itself without nesting")
            if isinstance(ref, str) and not is_local(root, ref):
                notes.append((key_path(path, "$ref"), f"{ref!r} is not fetched: any value, left to the validator"))
                return Node("any", {}, refs, tuple(notes))
            target = follow_ref(root, ref, path)
            said = target if isinstance(target, dict) else {}
            # keywords beside the $ref that add nothing leave the target itself, which the emitter
            # then meets again (and emits once) wherever the $ref is used; drafts 3 to 7 ignore them
            rest = {} if _siblings_ignored(root) else {
                k: v for k, v in schema.items()
                if k not in ("$ref", "$defs", "definitions", *ANNOTATIONS) and (k not in said or said[k] != v)}
            schema, refs = merge_all_of([target, rest], path) if rest else target, refs | {ref}
            continue
        if "allOf" in schema:
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            ignored = _UNEVALUATED if reads_conditionals(root) else _UNEVALUATED | CONDITIONAL
            parts = [_without_keywords(part, ignored) for part in all_of_parts(schema["allOf"], root, path)]
            schema = merge_all_of(with_conditionals([rest, *parts]), path)
            continue
        break
    if "if" in schema:  # conditionals the grammar holds become unions
        schema = merge_all_of(with_conditionals([schema]), path)
    if not REWRITTEN.isdisjoint(schema):
        schema = rewrite(schema, path)
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema:
            return Node(keyword, schema, refs, tuple(notes))
    unhandled = schema.keys() - _HANDLED - ({"not"} if excluded_strings(schema) is not None else set())
    if unhandled and "const" not in schema and "enum" not in schema:  # listed values are checked whole
        notes += [(key_path(path, keyword), "left to the validator") for keyword in sorted(unhandled)]
    return _listed_or_typed(schema, path, refs, tuple(notes))


def _listed_or_typed(schema: dict[str, Any], path: str, refs: frozenset[str], notes: tuple[Note, ...]) -> Node:
    """A schema with no applicator left: its listed values (``const``/``enum``), or its types."""
    if "const" in schema or "enum" in schema:
        return Node("enum", schema, refs, notes)
    return Node("typed", schema, refs, notes, _declared_types(schema, path))


def count_bounds(schema: dict[str, Any], path: str, low_key: str, high_key: str
                 ) -> tuple[int, int | None, list[Note]]:
    """A count's bounds (``minLength``/``maxLength`` and the like) as whole numbers; a bound
    past ``COUNT_LIMIT`` is left to the validator (a note); a minimum above the maximum is a
    :class:`SchemaError`."""
    bounds: list[int | None] = []
    notes: list[Note] = []
    for key, default in ((low_key, 0), (high_key, None)):
        value = schema.get(key, default)
        if value is None:
            bounds.append(None)
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 or (
                math.isfinite(value) and value != int(value)):
            raise SchemaError(key_path(path, key), f"{key} must be a whole number >= 0, not {value!r}")
        if value > COUNT_LIMIT:
            notes.append((key_path(path, key), f"past {COUNT_LIMIT}: left to the validator"))
            bounds.append(COUNT_LIMIT if key == low_key else None)
        else:
            bounds.append(int(value))
    low, high = bounds
    if high is not None and low is not None and low > high:
        raise Unsatisfiable(key_path(path, low_key), f"{low_key} is larger than {high_key}")
    return low or 0, high, notes


Bound = tuple[Any, bool]
"""A numeric bound and whether it is open (exclusive); (None, False) for none."""


def numeric_bounds(schema: dict[str, Any]) -> tuple[Bound, Bound]:
    """The tightest lower and upper bounds from minimum/maximum/exclusive*, draft 4's boolean
    ``exclusiveMinimum``/``exclusiveMaximum`` included."""
    bounds = []
    for plain, strict, side in (("minimum", "exclusiveMinimum", 1), ("maximum", "exclusiveMaximum", -1)):
        found: list[Bound] = []
        if is_number(schema.get(plain)):
            found.append((schema[plain], schema.get(strict) is True))
        if is_number(schema.get(strict)):
            found.append((schema[strict], True))
        # the tighter value wins (the larger minimum, the smaller maximum); at a tie, the open bound
        bounds.append(max(found, key=lambda b: (side * b[0], b[1])) if found else (None, False))
    return bounds[0], bounds[1]


def integer_bounds(schema: dict[str, Any]) -> tuple[int | None, int | None]:
    """The whole numbers an integer's bounds allow, as a closed range (None: unbounded)."""
    (low, low_open), (high, high_open) = numeric_bounds(schema)
    return (None if low is None else math.floor(low) + 1 if low_open else math.ceil(low),
            None if high is None else math.ceil(high) - 1 if high_open else math.floor(high))


def decimal_step(schema: dict[str, Any]) -> tuple[int, int] | None:
    """``multipleOf`` as (a, k), the step being a / 10**k with a >= 1 and k >= 0 whole; None
    when there is none, or it is not a positive finite number."""
    step: Any = schema.get("multipleOf")
    if not is_number(step) or step <= 0:
        return None
    _, digits, exponent = as_decimal(step).normalize().as_tuple()
    whole = int("".join(map(str, digits)))
    return (whole * 10 ** exponent, 0) if isinstance(exponent, int) and exponent >= 0 else (whole, -int(exponent))


def as_decimal(value: float) -> Decimal:
    """A number as the decimal JSON wrote (a float's shortest spelling: 0.1, not its binary value)."""
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


def is_number(value: Any) -> TypeGuard[int | float]:
    """Whether ``value`` is a finite JSON number (not a boolean)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _siblings_ignored(root: Any) -> bool:
    """Whether ``root`` declares a draft (3 to 7) in which ``$ref`` overrides the keywords beside it."""
    declared = root.get("$schema") if isinstance(root, dict) else None
    return isinstance(declared, str) and _OLD_DRAFT.search(declared) is not None


def _declared_types(schema: dict[str, Any], path: str) -> tuple[str, ...]:
    """The declared types (every type when none is), ``nullable`` read as ``null``, and
    ``integer`` folded into ``number`` when both are there."""
    declared = schema.get("type")
    types = list(TYPES) if declared is None else ([declared] if isinstance(declared, str) else list(declared))
    unknown = [t for t in types if t not in TYPES]
    if unknown:
        raise SchemaError(key_path(path, "type"), f"unknown type {unknown[0]!r}")
    if not types:
        raise Unsatisfiable(key_path(path, "type"), "an empty list of types matches no value")
    if schema.get("nullable") is True and "null" not in types:
        types.append("null")
    if "integer" in types and "number" in types:
        types.remove("integer")
    return tuple(types)


def _without_keywords(schema: Any, keywords: frozenset[str]) -> Any:
    """A schema without ``keywords``: unevaluated* from an allOf part (they cannot be judged once
    parts are merged), conditionals where the draft has none."""
    if isinstance(schema, dict):
        return {k: v for k, v in schema.items() if k not in keywords}
    return schema
