"""Keywords the grammar holds once rewritten in keywords it has: ``dependentRequired``,
``dependentSchemas`` and draft 4's ``dependencies`` become a union per key (the key absent,
or present with what it needs), ``not`` of required keys a union of which key is absent,
``not`` of types the types left, ``not`` of a boolean nothing or everything, and a ``oneOf``
over required keys a union per branch of the keys the others need that it lacks. Pure
functions, used by :func:`~gbnf.compiler._canonical.canonicalize` and the emitter's unions;
what stays as written goes to the validator."""

from __future__ import annotations

import math
from typing import Any

from gbnf.compiler._schema import ANNOTATIONS, TYPES, key_path, merge_all_of
from gbnf.errors import SchemaError, Unsatisfiable

REWRITTEN = frozenset({"dependentRequired", "dependentSchemas", "dependencies", "not"})
"""The keywords :func:`rewrite` reads."""
MOST_BRANCHES = 8
"""The most alternatives the unions of one schema may multiply it into (each is a copy of the
object's members in the grammar); past it, they stay as written, for the validator."""

Union = list[Any]
"""Schemas one of which holds (a one-schema union is merged as it is)."""


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


def only_one_required(branches: list[Any]) -> list[dict[str, Any] | None] | None:
    """For a ``oneOf`` whose branches only require keys (``[{"required": ["id"]}, {"required":
    ["series", "index"]}]``): per branch, what makes it the only branch that matches, as a
    schema to add (for each other branch, one of the keys it needs and this one does not is
    absent; objects only, where no branch has a type and any other value would match them all),
    or None where another branch matches whenever it does. None when the branches are
    otherwise, or when that takes more than :data:`MOST_BRANCHES` alternatives for a branch."""
    if not all(isinstance(b, dict) and isinstance(b.get("required"), list) and b.get("type", "object") == "object"
               and set(b) <= ANNOTATIONS | {"type", "required"} for b in branches):
        return None
    typed = sum("type" in b for b in branches)
    if 0 < typed < len(branches):
        return None
    required = [list(dict.fromkeys(k for k in b["required"] if isinstance(k, str))) for b in branches]
    out: list[dict[str, Any] | None] = []
    for i, mine in enumerate(required):
        missing = [[k for k in theirs if k not in mine] for j, theirs in enumerate(required) if j != i]
        if not all(missing):
            out.append(None)
            continue
        unions = [_keys_missing(keys) for keys in missing]
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
