"""Keywords the grammar holds once rewritten in keywords it has: ``dependentRequired``,
``dependentSchemas`` and draft 4's ``dependencies`` become a union per key (the key absent,
or present with what it needs), ``not`` of required keys a union of which key is absent,
``not`` of types the types left, ``not`` of a boolean nothing or everything, ``not`` of an
object's required keys and members (or of an array's items) a union of the ways to fail them,
a ``oneOf`` over objects a union per branch of the keys the others need that it lacks and the
members they refuse (nothing for a branch told apart by a tag: a key it requires whose values
the other refuses), and
``if``/``then``/``else`` that test one key's value a union per value tested. Pure
functions, used by :func:`~gbnf.compiler._canonical.canonicalize` and the emitter's unions;
what stays as written goes to the validator."""

from __future__ import annotations

import json
import math
from typing import Any

from gbnf.compiler._schema import (
    ANNOTATIONS,
    CONDITIONAL,
    HAS_ITEM,
    TYPES,
    all_of_parts,
    deref,
    key_path,
    merge_all_of,
)
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


_OBJECT_KEYWORDS = frozenset({"required", "properties", "additionalProperties", "patternProperties", "propertyNames",
                              "minProperties", "maxProperties", "dependencies", "dependentRequired",
                              "dependentSchemas", "unevaluatedProperties"})
"""Keywords that only constrain objects (any other value matches them)."""


def only_one(branches: list[Any], root: Any = None) -> list[dict[str, Any] | None] | None:
    """For a ``oneOf`` over objects: per branch, what makes it the only branch that matches, as a
    schema to add, or None where another branch matches whenever it does; None when that cannot
    be written as unions the grammar has.

    Two branches are told apart when a key one requires has values the other refuses (``"kind":
    {"const": "file"}`` against ``{"const": "dir"}``, or disjoint types): nothing is added for
    them. Otherwise the other branch must declare only required keys and members
    (``[{"required": ["login"], "properties": {"login": {"type": "string"}}}, {"required":
    ["password"]}]``), and it is made to fail: one of the keys it needs and this one does not is
    absent, or one of the members it declares has a value it refuses (see :func:`_not`). Each
    branch is read with its local ``$ref`` (into ``root``) followed and its ``allOf`` merged; all
    must say ``"type": "object"`` or none (then it is added: any other value would match them
    all); past :data:`MOST_BRANCHES` alternatives for a branch, None."""
    branches = [_resolved_branch(branch, root) for branch in branches]
    if not all(isinstance(b, dict) and set(b) - ANNOTATIONS <= _OBJECT_KEYWORDS | {"type"}
               and b.get("type", "object") == "object" for b in branches):
        return None
    typed = sum("type" in b for b in branches)
    if 0 < typed < len(branches):
        return None
    required = [_keys(b.get("required", [])) for b in branches]
    refusals: dict[int, Union | None] = {}  # per branch: objects with a declared member it refuses
    out: list[dict[str, Any] | None] = []
    for i, mine in enumerate(required):
        unions = []
        for j, theirs in enumerate(required):
            if j == i or _told_apart(branches[i], mine, branches[j], root):
                continue
            if j not in refusals:
                simple = set(branches[j]) - ANNOTATIONS <= {"type", "required", "properties"}
                props = branches[j].get("properties", {})
                refusals[j] = _members_refused(props, root, 0) if simple and isinstance(props, dict) else None
            refused = refusals[j]
            if refused is None:
                return None
            unions.append(_keys_missing([k for k in theirs if k not in mine]) + refused)
        if not all(unions):
            out.append(None)
            continue
        if math.prod(map(len, unions)) > MOST_BRANCHES:
            return None
        parts = [union[0] if len(union) == 1 else {"anyOf": union} for union in unions]
        out.append(merge_all_of([{} if typed else {"type": "object"}, *parts], "oneOf"))
    return out


def _keys(listed: Any) -> list[str]:
    return list(dict.fromkeys(k for k in listed if isinstance(k, str))) if isinstance(listed, list) else []


def _told_apart(mine: dict[str, Any], required: list[str], theirs: dict[str, Any], root: Any) -> bool:
    """Whether every object ``mine`` allows fails ``theirs``: a key ``mine`` requires has, in the
    two, listed values (``enum``/``const``) none alike, or types none alike, or ``theirs`` refuses it."""
    for key in required:
        ours, other = (_member(branch, key, root) for branch in (mine, theirs))
        if other is False:
            return True
        if not isinstance(ours, dict) or not isinstance(other, dict):
            continue
        listed, other_listed = _values_listed(ours), _values_listed(other)
        if listed is not None and other_listed is not None and not {_identity(v) for v in listed} & {
                _identity(v) for v in other_listed}:
            return True
        types, other_types = _types(ours), _types(other)
        if types is not None and other_types is not None and not types & other_types:
            return True
    return False


def _member(branch: dict[str, Any], key: str, root: Any) -> Any:
    """The schema ``branch`` declares for ``key`` (its local ``$ref`` followed), or None."""
    props = branch.get("properties")
    if not isinstance(props, dict) or key not in props:
        return None
    try:
        return deref(props[key], root, "oneOf") if root is not None else props[key]
    except (SchemaError, Unsatisfiable):
        return None


def _values_listed(schema: dict[str, Any]) -> list[Any] | None:
    if "const" in schema:
        return [schema["const"]]
    return schema["enum"] if isinstance(schema.get("enum"), list) else None


def _types(schema: dict[str, Any]) -> set[str] | None:
    kind = schema.get("type")
    named = {kind} if isinstance(kind, str) else set(kind) if isinstance(kind, list) else None
    if named and "number" in named:
        named.add("integer")
    return named


def _resolved_branch(branch: Any, root: Any) -> Any:
    """A ``oneOf`` branch with its local ``$ref`` followed and its ``allOf`` merged (as it is
    where that cannot be done: :func:`only_one` then leaves the union to the validator)."""
    if root is None or not isinstance(branch, dict):
        return branch
    try:
        parts = all_of_parts([branch], root, "oneOf")
        return parts[0] if len(parts) == 1 else merge_all_of(parts, "oneOf")
    except (SchemaError, Unsatisfiable):
        return branch


def _members_refused(properties: dict[str, Any], root: Any, depth: int) -> Union | None:
    """Objects with a member ``properties`` declares whose value its schema refuses, as a
    union; None where a refusal is not one the grammar has (see :func:`_not`)."""
    refused: Union = []
    for key, sub in properties.items():
        union = _refusal(sub, root, depth)
        if union is None:
            return None
        if union:  # one alternative: the member's own are nested under its key
            refused.append({"type": "object", "required": [key], "properties": {key: _one_schema(union)}})
    return refused


def _refusal(schema: Any, root: Any, depth: int) -> Union | None:
    """The values ``schema`` (its local ``$ref`` followed) refuses, as a union: empty when it
    takes every value; None where the grammar has no such union (see :func:`_other_values`
    and :func:`_not`)."""
    if root is not None:
        try:
            schema = deref(schema, root, "oneOf")
        except (SchemaError, Unsatisfiable):
            return None
    if schema is True or isinstance(schema, dict) and not set(schema) - ANNOTATIONS:
        return []
    union = _other_values(schema) if isinstance(schema, dict) else None
    return _not(schema, "oneOf", root, depth + 1) if union is None else union


def _one_schema(union: Union) -> Any:
    return union[0] if len(union) == 1 else {"anyOf": union}


def _types_but(excluded: set[str]) -> dict[str, Any]:
    """Values of every type but ``excluded``."""
    return {"type": [t for t in TYPES if t not in excluded]}


def _other_values(schema: dict[str, Any]) -> Union | None:
    """The values a schema of listed plain strings or booleans (``enum``/``const``, maybe with its
    type) refuses: the other types, and strings that spell none of them (see
    :func:`excluded_strings`) or the other boolean; None for any other schema."""
    said = set(schema) - ANNOTATIONS
    if not said or not said <= {"enum", "const", "type"} or "enum" in said and "const" in said:
        return None
    listed = _values_listed(schema)
    if not listed:
        return None
    kind = "string" if all(isinstance(v, str) for v in listed) else "boolean" if all(
        isinstance(v, bool) for v in listed) else None
    if kind is None or schema.get("type", kind) != kind:
        return None
    others: Union = [_types_but({kind})]
    if kind == "boolean":
        return others + [{"const": b} for b in (False, True) if b not in listed]
    if excluded_strings({"not": {"enum": listed}}) is None:
        return None  # a string with escapes: the grammar cannot exclude it
    return [*others, {"type": "string", "not": {"enum": listed}}]


def _keys_missing(keys: list[str]) -> Union:
    """Objects without one of ``keys``: the first absent, those before it there."""
    return [{"type": "object", "properties": {k: False}, "required": keys[:i]} for i, k in enumerate(keys)]


MOST_REFUSALS = 16
"""The most alternatives :func:`_not` gives an object schema's refusal (a member's own are nested
under its key, one alternative each)."""
MOST_NESTED_NOT = 3
"""How deep :func:`_not` follows members into objects (a recursive ``$ref`` would not end)."""


def _not(value: Any, path: str, root: Any = None, depth: int = 0) -> Union | None:
    """``not`` of required keys (an object missing one: the first absent, those before it
    there), of types (the other types), of a boolean, of an object schema of those with
    declared members (the other types, a required key missing, or a member its schema refuses),
    or of an array's items (the other types, or an array that contains an item they refuse),
    as a union; with ``root``, a local ``$ref`` is followed first. None for any other ``not``,
    or past :data:`MOST_REFUSALS` alternatives."""
    if root is not None:
        try:
            value = deref(value, root, path)
        except (SchemaError, Unsatisfiable):
            return None
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
        return [_types_but(excluded)]
    if (said <= {"type", "required", "properties"} and said & {"required", "properties"}
            and inner.get("type", "object") == "object" and isinstance(inner.get("properties", {}), dict)
            and isinstance(inner.get("required", []), list) and depth < MOST_NESTED_NOT):
        refused = _members_refused(inner.get("properties", {}), root, depth)
        if refused is None:
            return None
        others = [_types_but({"object"})] if "type" in inner else []
        union = others + _keys_missing(_keys(inner.get("required", []))) + refused
        return union if len(union) <= MOST_REFUSALS else None
    if (said <= {"type", "items"} and "items" in said and inner.get("type", "array") == "array"
            and isinstance(inner["items"], (dict, bool)) and depth < MOST_NESTED_NOT):  # an item refused
        refused_items = _refusal(inner["items"], root, depth)
        if refused_items is None:
            return None
        union = [_types_but({"array"})] if "type" in inner else []
        if refused_items:
            union.append({"type": "array", HAS_ITEM: _one_schema(refused_items)})
        return union or None
    return None
