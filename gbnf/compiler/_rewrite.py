"""Keywords the grammar holds once rewritten in keywords it has: ``dependentRequired``,
``dependentSchemas`` and draft 4's ``dependencies`` become a union per key (the key absent,
or present with what it needs), ``not`` of required keys a union of which key is absent,
``not`` of types the types left, ``not`` of a boolean nothing or everything, a ``oneOf``
over objects told apart by required keys and declared members a union per branch of the keys
the others need that it lacks and the members they refuse, and
``if``/``then``/``else`` that test one key's value a union per value tested. Pure
functions, used by :func:`~gbnf.compiler._canonical.canonicalize` and the emitter's unions;
what stays as written goes to the validator."""

from __future__ import annotations

import json
import math
from typing import Any

from gbnf.compiler._schema import ANNOTATIONS, CONDITIONAL, TYPES, key_path, merge_all_of
from gbnf.errors import SchemaError, Unsatisfiable

REWRITTEN = frozenset({"dependentRequired", "dependentSchemas", "dependencies", "not"})
"""The keywords :func:`rewrite` reads."""
MOST_BRANCHES = 8
"""The most alternatives the unions of one schema may multiply it into (each is a copy of the
object's members in the grammar); past it, they stay as written, for the validator."""

MOST_CASES = 40
"""The most values one key's ``if`` tests may name for them to become a union (each value is a
copy of the object's members in the grammar); past it, they stay as written, for the validator."""

Union = list[Any]
"""Schemas one of which holds (a one-schema union is merged as it is)."""


def with_conditionals(schemas: list[Any]) -> list[Any]:
    """``schemas`` (all of which hold) with their ``if``/``then``/``else`` taken out and, for the
    tests of one key's value, one union per key added (see :func:`_cases`); other conditionals
    come back as written, for the validator (``then`` and ``else`` without ``if`` mean nothing)."""
    plain, tests = [], []
    for schema in schemas:
        if isinstance(schema, dict) and not schema.keys().isdisjoint(CONDITIONAL):
            if "if" in schema:
                tests.append({k: schema[k] for k in CONDITIONAL if k in schema})
            schema = {k: v for k, v in schema.items() if k not in CONDITIONAL}
        plain.append(schema)
    by_key: dict[str, list[tuple[list[Any], bool, dict[str, Any]]]] = {}
    for test in tests:
        read = _tested(test["if"])
        if read is None:
            plain.append(test)
        else:
            by_key.setdefault(read[0], []).append((read[1], read[2], test))
    for key, each in by_key.items():
        cases = _cases(key, each)
        plain += [{"anyOf": cases}] if cases is not None else [test for _, _, test in each]
    return plain


def _tested(test: Any) -> tuple[str, list[Any], bool] | None:
    """An ``if`` that tests one key's value (``{"properties": {"kind": {"const": "a"}}}``, maybe
    with the key required): (the key, the values that pass, whether an absent key fails)."""
    if not isinstance(test, dict) or set(test) - ANNOTATIONS - {"type", "properties", "required"}:
        return None
    props, required = test.get("properties"), test.get("required", [])
    if test.get("type", "object") != "object" or not isinstance(props, dict) or len(props) != 1:
        return None
    ((key, sub),) = props.items()
    if required not in ([], [key]) or not isinstance(sub, dict) or set(sub) - ANNOTATIONS not in ({"const"}, {"enum"}):
        return None
    values = [sub["const"]] if "const" in sub else sub["enum"]
    return (key, values, bool(required)) if isinstance(values, list) and values else None


def _cases(key: str, tests: list[tuple[list[Any], bool, dict[str, Any]]]) -> Union | None:
    """Conditionals that test ``key``'s value, each as (the values that pass, whether an absent
    key fails, the conditional), as a union: for each value named, the key equal to it with each
    conditional's ``then`` or ``else``; the key absent; the key with another value; a value that
    is not an object (every ``if`` of properties holds: each ``then``). None past
    :data:`MOST_CASES`."""
    named = list({_identity(v): v for values, _, _ in tests for v in values}.values())
    if len(named) > MOST_CASES:
        return None

    def branch(first: dict[str, Any], passes: list[bool]) -> dict[str, Any]:
        chosen = [test.get("then", True) if yes else test.get("else", True) for (_, _, test), yes in zip(tests, passes)]
        return {"allOf": [first, *(part for part in chosen if part is not True)]}

    passed = [{_identity(v) for v in values} for values, _, _ in tests]
    cases = [branch({"type": "object", "properties": {key: {"const": v}}, "required": [key]},
                    [_identity(v) in values for values in passed]) for v in named]
    cases.append(branch({"type": "object", "properties": {key: False}}, [not needed for _, needed, _ in tests]))
    cases.append(branch({"type": "object", "properties": {key: {"not": {"enum": named}}}, "required": [key]},
                        [False] * len(tests)))
    cases.append(branch({"not": {"type": "object"}}, [True] * len(tests)))
    return cases


def _identity(value: Any) -> str:
    """A JSON value's identity as JSON Schema compares values (``1`` is ``1.0``, not ``true``)."""
    return json.dumps(float(value) if type(value) is int else value, sort_keys=True)


def rewrite(schema: dict[str, Any], path: str) -> dict[str, Any]:
    """``schema`` with its dependencies and ``not`` rewritten where the grammar can hold them."""
    found: list[tuple[set[str], Union]] = []  # (the keywords it comes from, a union they hold)
    if "not" in schema:
        union = _not(schema["not"], key_path(path, "not"))
        if union is not None:
            found.append(({"not"}, union))
    listed: list[tuple[str, list[str]]] = []
    from_lists: set[str] = set()
    for keyword in ("dependentRequired", "dependentSchemas", "dependencies"):
        for key, needs in _dependents(schema.get(keyword, {}), keyword, path):
            if isinstance(needs, list):
                listed.append((key, needs))
                from_lists.add(keyword)
            else:
                found.append(({keyword}, [{"properties": {key: False}},
                                          {"allOf": [{"type": "object", "required": [key]}, needs]}]))
    union = _keys_together(listed) if listed else None
    if union is not None:
        found.append((from_lists, union))
    elif listed:
        found = [one for one in found if not one[0] & from_lists]
    if math.prod(len(alternatives) for _, alternatives in found) > MOST_BRANCHES:  # all of them stay as written, so
        found = [one for one in found if len(one[1]) == 1]  # a branch read again decides alike
    done = set().union(*(keywords for keywords, _ in found))
    rest = {k: v for k, v in schema.items() if k not in REWRITTEN}
    kept = {k: v for k, v in schema.items() if k in REWRITTEN and k not in done}
    parts = [union[0] if len(union) == 1 else {"anyOf": union} for _, union in found]
    return merge_all_of([rest, *parts], path) | kept


_STRING_SHAPES = frozenset({"pattern", "format", "minLength", "maxLength"})
"""String keywords beside which a ``not`` of listed strings stays the validator's."""


def excluded_strings(schema: dict[str, Any]) -> list[str] | None:
    """The strings a ``not`` of listed strings (``{"not": {"enum": ["a", "b"]}}``) excludes, where
    the grammar holds it: beside no pattern, format or length, each string written without
    escapes (for values of other types, such a ``not`` always holds); else None."""
    value = schema.get("not")
    if not isinstance(value, dict) or set(value) - ANNOTATIONS not in ({"enum"}, {"const"}):
        return None
    listed = [value["const"]] if "const" in value else value["enum"]
    plain = isinstance(listed, list) and all(
        isinstance(v, str) and '"' not in v and "\\" not in v and all(ord(c) >= 0x20 for c in v) for v in listed)
    return listed if plain and _STRING_SHAPES.isdisjoint(schema) else None


def _dependents(value: Any, keyword: str, path: str) -> list[tuple[str, Any]]:
    """A dependencies keyword's (key, what it needs: a list of keys or a schema)."""
    if not isinstance(value, dict):
        raise SchemaError(key_path(path, keyword), "must be an object")
    for key, needs in value.items():
        if keyword != "dependentSchemas" and isinstance(needs, list):
            if not all(isinstance(k, str) for k in needs):
                raise SchemaError(key_path(path, f"{keyword}.{key}"), "must list property names")
        elif keyword == "dependentRequired" or not isinstance(needs, (dict, bool)):
            raise SchemaError(key_path(path, f"{keyword}.{key}"),
                              "must be a list of property names" if keyword == "dependentRequired"
                              else "must be a schema" if keyword == "dependentSchemas"
                              else "must be a list of property names or a schema")
    return list(value.items())


def _keys_together(listed: list[tuple[str, list[str]]]) -> Union | None:
    """Keys that need other keys, as one union: a branch per way of choosing which keys are there
    that they allow (keys absent, keys required); None past :data:`MOST_BRANCHES` ways."""
    ways: list[tuple[list[str], list[str]]] = [([], [])]
    for key, needs in listed:
        more = []
        for absent, there in ways:
            if key not in there:
                more.append(([*absent, key], there))
            if key not in absent and not set(needs) & set(absent):
                more.append((absent, list(dict.fromkeys([*there, key, *needs]))))
        ways = more
        if len(ways) > 8 * MOST_BRANCHES:  # a later key could still rule some out, but rarely that many
            return None
    if len(ways) > MOST_BRANCHES:
        return None
    return [{"properties": dict.fromkeys(absent, False)} | ({"type": "object", "required": there} if there else {})
            for absent, there in ways]


def only_one(branches: list[Any]) -> list[dict[str, Any] | None] | None:
    """For a ``oneOf`` whose branches are objects told apart by the keys they require and the
    members they declare (``[{"required": ["login"], "properties": {"login": {"type":
    "string"}}}, {"required": ["password"]}]``): per branch, what makes it the only branch that
    matches, as a schema to add (for each other branch, one of the keys it needs and this one
    does not is absent, or one of the members it declares has a value it refuses; objects only,
    where no branch has a type and any other value would match them all), or None where another
    branch matches whenever it does. None when the branches are otherwise, when a member's
    refusal is not a union the grammar has (see :func:`_not`), or when that takes more than
    :data:`MOST_BRANCHES` alternatives for a branch."""
    if not all(isinstance(b, dict) and set(b) <= ANNOTATIONS | {"type", "required", "properties"}
               and b.get("type", "object") == "object" and isinstance(b.get("required", []), list)
               and isinstance(b.get("properties", {}), dict) for b in branches):
        return None
    typed = sum("type" in b for b in branches)
    if 0 < typed < len(branches):
        return None
    required = [list(dict.fromkeys(k for k in b.get("required", []) if isinstance(k, str))) for b in branches]
    refusals: list[Union] = []  # per branch: objects with a declared member it refuses
    for branch in branches:
        refused: Union = []
        for key, sub in branch.get("properties", {}).items():
            if sub is True or isinstance(sub, dict) and not set(sub) - ANNOTATIONS:
                continue  # every value of it is fine
            union = _not(sub, "oneOf")
            if union is None:
                return None
            refused += [{"type": "object", "required": [key], "properties": {key: other}} for other in union]
        refusals.append(refused)
    out: list[dict[str, Any] | None] = []
    for i, mine in enumerate(required):
        unions = [_keys_missing([k for k in theirs if k not in mine]) + refusals[j]
                  for j, theirs in enumerate(required) if j != i]
        if not all(unions):
            out.append(None)
            continue
        if math.prod(map(len, unions)) > MOST_BRANCHES:
            return None
        parts = [union[0] if len(union) == 1 else {"anyOf": union} for union in unions]
        out.append(merge_all_of([{} if typed else {"type": "object"}, *parts], "oneOf"))
    return out


def _keys_missing(keys: list[str]) -> Union:
    """Objects without one of ``keys``: the first absent, those before it there."""
    return [{"type": "object", "properties": {k: False}, "required": keys[:i]} for i, k in enumerate(keys)]


def _not(value: Any, path: str) -> Union | None:
    """``not`` of required keys (an object missing one: the first absent, those before it
    there), of types (the other types) or of a boolean, as a union; None for any other ``not``."""
    if value is True or (isinstance(value, dict) and not set(value) - ANNOTATIONS):
        raise Unsatisfiable(path, "'not' of a schema every value matches")
    if value is False:
        return [True]
    if not isinstance(value, dict) or not all(isinstance(p, dict) for p in value.get("allOf", [])):
        return None
    try:
        inner = merge_all_of([value], "not") if "allOf" in value else value
    except Unsatisfiable:
        return [True]  # not of a schema no value matches: every value
    said = set(inner) - ANNOTATIONS
    if said == {"required"} and inner["required"] and all(isinstance(k, str) for k in inner["required"]):
        return _keys_missing(list(dict.fromkeys(inner["required"])))
    if said == {"type"}:
        excluded = {inner["type"]} if isinstance(inner["type"], str) else set(inner["type"])
        if "number" in excluded:
            excluded.add("integer")
        elif "integer" in excluded:
            return None  # numbers that are not whole: not a type the grammar has
        return [{"type": [t for t in TYPES if t not in excluded]}]
    return None
