"""Small JSON Schema helpers: local ``$ref`` lookup and ``allOf`` merging."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any
from urllib.parse import unquote

import jsonschema
from referencing.exceptions import Unresolvable

from gbnf._text import word_key
from gbnf.errors import SchemaError, Unsatisfiable

TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")
ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$schema", "$comment", "deprecated",
                         "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "contentSchema"})
"""Keywords that say what a value means, never which values are valid."""
_TYPE_CHECKER = jsonschema.Draft202012Validator.TYPE_CHECKER

def key_path(path: str, key: str) -> str:
    """Join a dotted key path (``a.b`` + ``c`` -> ``a.b.c``)."""
    return f"{path}.{key}" if path else key


def check_schema(schema: Any, *, formats: bool = False) -> None:
    """Raise :class:`SchemaError` (naming the key path) unless ``schema`` is valid JSON Schema
    (its dialect by ``$schema``, else draft 2020-12); ``formats`` also checks formats such as
    a ``pattern``'s regex syntax."""
    if not isinstance(schema, (dict, bool)):
        raise SchemaError("", f"a schema must be an object or a boolean, not {type(schema).__name__}")
    try:
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        checker = cls.FORMAT_CHECKER if formats else None
        error = jsonschema.exceptions.best_match(cls(cls.META_SCHEMA, format_checker=checker).iter_errors(schema))
    except (TypeError, ValueError, RecursionError) as exc:
        raise SchemaError("", f"not valid JSON Schema ({type(exc).__name__}: {exc})") from None
    if error is not None:
        path = ".".join(str(p) for p in error.absolute_path)
        raise SchemaError(path, f"not valid JSON Schema: {error.message}")


def follow_ref(root: Any, ref: str, path: str) -> Any:
    """Resolve a local ``$ref`` against ``root``: a JSON pointer (``#``, ``#/$defs/x``), a plain
    name (``#x``: an ``$anchor``, or a draft-4 to 7 ``id`` of ``#x``), or either after the root's
    own ``$id``."""
    if isinstance(ref, str) and not ref.startswith("#") and is_local(root, ref):
        ref = "#" + ref.partition("#")[2]
    if not isinstance(ref, str) or not ref.startswith("#"):
        raise SchemaError(key_path(path, "$ref"), f"only local references ('#/...') are supported, not {ref!r}")
    if ref[1:2] not in ("", "/"):
        found = _anchored(root, ref[1:])
        if found is None:
            raise SchemaError(key_path(path, "$ref"), f"{ref!r} points to nothing")
        return found
    node = root
    for token in [t for t in ref[1:].split("/") if t != ""]:
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise SchemaError(key_path(path, "$ref"), f"{ref!r} points to nothing")
    return node


def is_local(root: Any, ref: str) -> bool:
    """Whether ``ref`` points into ``root``: a fragment, or the root's own ``$id`` and a fragment."""
    own = root.get("$id", root.get("id")) if isinstance(root, dict) else None
    return ref.startswith("#") or isinstance(own, str) and own.partition("#")[0] == ref.partition("#")[0] != ""


def _anchored(schema: Any, name: str, top: bool = True) -> Any:
    """The subschema named ``name`` by ``$anchor`` (or an ``id``/``$id`` of ``#name``) in this
    resource (not inside an embedded schema with an ``$id`` of its own), or None."""
    if isinstance(schema, list):
        return next((found for part in schema if (found := _anchored(part, name, False)) is not None), None)
    if not isinstance(schema, dict):
        return None
    own = schema.get("$id", schema.get("id"))
    if not top and isinstance(own, str) and not own.startswith("#"):
        return None
    if schema.get("$anchor") == name or own == f"#{name}":
        return schema
    return next((found for key, part in schema.items() if key not in _DATA
                 and (found := _anchored(part, name, False)) is not None), None)


_DATA = frozenset({"enum", "const", "default", "examples"})
"""Keywords whose values are data, never schemas."""
_LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
UNMERGED = "allOf-unmerged"
"""Where :func:`merge_all_of` keeps parts it cannot merge (the compiler reports them as looser)."""


def merge_all_of(schemas: list[Any], path: str) -> dict[str, Any]:
    """One schema that holds exactly when all of ``schemas`` hold, as far as keywords merge.

    Bounds take the tighter value, types and enums intersect, properties and items merge
    recursively (each side's additionalProperties applies to the other side's extra keys),
    unions distribute. What cannot merge is kept under ``allOf-unmerged`` for the validator.
    """
    merged: dict[str, Any] = {}
    for schema in schemas:
        if schema is True:
            continue
        if schema is False:
            raise Unsatisfiable(key_path(path, "allOf"), "contains 'false', which matches no value")
        if "allOf" in schema:
            schema = merge_all_of([{k: v for k, v in schema.items() if k != "allOf"}, *schema["allOf"]], path)
        merged = _merge_two(merged, schema, path)
    return merged


def _merge_two(a: dict[str, Any], b: dict[str, Any], path: str) -> dict[str, Any]:
    out = dict(a)
    for key, value in b.items():
        if key not in out:
            out[key] = value
        elif out[key] == value:
            continue
        elif key in _LOWER:
            out[key] = max(out[key], value)
        elif key in _UPPER:
            out[key] = min(out[key], value)
        elif key == "required":
            out[key] = list(dict.fromkeys([*out[key], *value]))
        elif key == "type":
            mine = {out[key]} if isinstance(out[key], str) else set(out[key])
            theirs = {value} if isinstance(value, str) else set(value)
            if "number" in mine:
                mine.add("integer")
            if "number" in theirs:
                theirs.add("integer")
            both = sorted(mine & theirs)
            if not both:
                raise Unsatisfiable(key_path(path, "allOf"), "the parts allow no common type")
            out[key] = both[0] if len(both) == 1 else both
        elif key == "enum":
            out[key] = [v for v in out[key] if v in value]
        elif key in ("items", "additionalProperties", "propertyNames"):
            out[key] = {"allOf": [out[key], value]} if False not in (out[key], value) else False
        elif key == "prefixItems":
            longer, shorter = (out[key], value) if len(out[key]) >= len(value) else (value, out[key])
            out[key] = [{"allOf": [x, shorter[i]]} if i < len(shorter) else x for i, x in enumerate(longer)]
        elif key in ("anyOf", "oneOf"):
            out[key] = [{"allOf": [x, y]} for x in out[key] for y in value]
        elif key in ("properties", "patternProperties"):
            continue  # merged below, with each side's additionalProperties
        else:
            out.setdefault(UNMERGED, []).append({key: value})
    if "properties" in a or "properties" in b:
        out["properties"] = _merge_properties(a, b)
    if "patternProperties" in a and "patternProperties" in b:
        pa, pb = a["patternProperties"], b["patternProperties"]
        out["patternProperties"] = {k: {"allOf": [pa[k], pb[k]]} if k in pa and k in pb else pa.get(k, pb.get(k))
                                    for k in dict.fromkeys([*pa, *pb])}
    return out


def _merge_properties(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Merged properties: a key one side declares must also satisfy the other side's
    additionalProperties (when that side has no pattern that could claim it)."""
    pa, pb = a.get("properties", {}), b.get("properties", {})
    out: dict[str, Any] = {}
    for key in dict.fromkeys([*pa, *pb]):
        parts = [side_props[key] if key in side_props else _extra_for(side)
                 for side, side_props in ((a, pa), (b, pb))]
        parts = [p for p in parts if p is not True]
        out[key] = False if False in parts else ({"allOf": parts} if len(parts) > 1 else (parts[0] if parts else True))
    return out


def _extra_for(side: dict[str, Any]) -> Any:
    if side.get("patternProperties"):
        return True
    return side.get("additionalProperties", True)


_SUBSCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "prefixItems")


def close_objects(schema: Any) -> Any:
    """A copy where every object that declares properties refuses undeclared ones.

    Tool arguments are closed by default; an explicit ``additionalProperties`` is kept, and
    ``allOf`` parts are left open (closing each part would refuse the others' properties).
    """
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    if "properties" in out and "additionalProperties" not in out and "allOf" not in out:
        out["additionalProperties"] = False
    for key in _SUBSCHEMA_MAPS:
        if isinstance(out.get(key), dict):
            out[key] = {k: close_objects(v) for k, v in out[key].items()}
    for key in _SUBSCHEMA_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [close_objects(v) for v in out[key]]
    for key in ("items", "additionalProperties"):
        if isinstance(out.get(key), dict):
            out[key] = close_objects(out[key])
    return out


def all_of_parts(parts: list[Any], root: Any, path: str, expanded: frozenset[int] = frozenset()) -> list[Any]:
    """An allOf's parts, each with its top-level local ``$ref`` followed, and a part's own allOf
    given as its parts (each followed too: merged first, a ``$ref`` would sit beside keywords
    that drafts 3 to 7 then ignore). An allOf met again inside itself is left to merge as is."""
    out = []
    for part in parts:
        part = _deref(part, root, path)
        inner = part.get("allOf") if isinstance(part, dict) else None
        if isinstance(inner, list) and id(inner) not in expanded:
            out.append({k: v for k, v in part.items() if k != "allOf"})
            out += all_of_parts(inner, root, path, expanded | {id(inner)})
        else:
            out.append(part)
    return out


def _deref(schema: Any, root: Any, path: str) -> Any:
    """An allOf part with its top-level local ``$ref`` followed (so two refs can merge)."""
    seen = set()
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"] not in seen:
        seen.add(schema["$ref"])
        target = follow_ref(root, schema["$ref"], path)
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        if not isinstance(target, dict):
            return target if not rest else merge_all_of([target, rest], path)
        schema = {**target, **rest} if not set(rest) & set(target) else merge_all_of([target, rest], path)
    return schema


def is_valid(value: Any, schema: Any, root: Any) -> bool:
    """Whether ``value`` is valid against ``schema``, whose local refs point into ``root``."""
    return validity(schema, root)(value)


def validity(schema: Any, root: Any) -> Callable[[Any], bool]:
    """A reusable check of values against ``schema`` (local refs into ``root``); a value the
    schema cannot judge (an unresolvable ref, refs that loop without nesting) counts as invalid."""
    if isinstance(schema, bool):
        return lambda value: schema
    asserting = [k for k in schema if k not in ANNOTATIONS]
    if not asserting:
        return lambda value: True
    if asserting == ["type"] and schema["type"] in TYPES:  # the common case, without building a validator
        return lambda value: _TYPE_CHECKER.is_type(value, schema["type"])
    validator = jsonschema.Draft202012Validator(root if isinstance(root, dict) else schema).evolve(schema=schema)

    def check(value: Any) -> bool:
        try:
            return validator.is_valid(value)
        except (Unresolvable, jsonschema.exceptions.SchemaError, RecursionError):
            return False

    return check


def bounded(schema: Any, chars: int | None, items: int | None, digits: int | None = None) -> Any:
    """``schema`` with every free string (no enum, const, pattern, format or tighter bound)
    limited to ``chars`` characters, every array to ``items`` items, and every integer or
    number side left open to ``digits`` digits before the point (None: no limit)."""

    def bound(out: dict[str, Any]) -> dict[str, Any]:
        if chars is not None and _free_string(out) and out.get("maxLength", chars + 1) > chars:
            out["maxLength"] = max(chars, out.get("minLength", 0))
        if items is not None and out.get("type") == "array" and out.get("maxItems", items + 1) > items:
            out["maxItems"] = max(items, out.get("minItems", 0))
        if digits is not None and out.get("type") in ("integer", "number") and not {"enum", "const"} & set(out):
            if "minimum" not in out and "exclusiveMinimum" not in out:
                out["exclusiveMinimum"] = -(10**digits)
            if "maximum" not in out and "exclusiveMaximum" not in out:
                out["exclusiveMaximum"] = 10**digits
        return out

    return _each_part(schema, bound)


def copied(schema: Any, strings: Sequence[str], numbers: Sequence[int | float],
           runs: Sequence[Sequence[int | float]] = (), percents: Sequence[int | float] = ()) -> Any:
    """``schema`` with every free string one of ``strings``, every free integer or number (no
    enum or const) one of ``numbers``, and every array of such numbers one of ``runs`` (runs of
    numbers written as one list), where any of them satisfies the part (a part none satisfies
    stays as it was): values copied from a request, not made up. An enum of strings some of
    ``strings`` name (loosely: ``six months`` names ``six_months``) is narrowed to those. A
    number (not an integer) whose description does not say "percent" takes the ``percents``
    (numbers written as percentages) as fractions: a rate of ``5%`` is 0.05. An array of such
    strings (listed or copied) takes each at most once (``uniqueItems``, where the schema does
    not say), so a small model's loop (``["Area", "Area", ...]``) ends. A string whose
    description asks for a code (an ISO code, a ticker symbol, an abbreviation) stays free: the
    request names what it encodes ("Swiss francs", not ``CHF``)."""
    keys = {word_key(string) for string in strings} - {""}
    shares = [float(Decimal(str(number)) / 100) for number in percents]
    rates = [number for number in numbers if number not in percents] + shares

    def copy(out: dict[str, Any]) -> dict[str, Any]:
        kind, items = out.get("type"), out.get("items")
        if _listed_strings(out):
            named = [value for value in out["enum"] if word_key(value) in keys]
            return {**out, "enum": named} if named else out
        if kind == "array" and isinstance(items, dict) and _listed_strings(items):
            return {"uniqueItems": True, **out} if len(items["enum"]) >= out.get("minItems", 0) else out
        if _free_string(out) and not _ENCODED.search(str(out.get("description", ""))):
            values: Sequence[Any] = strings
        elif kind in ("integer", "number") and not {"enum", "const"} & set(out):
            values = rates if kind == "number" and "percent" not in str(out.get("description", "")).lower() else numbers
        elif kind == "array" and _copied_number(out.get("items")) and not {"enum", "const"} & set(out):
            values = [list(run) for run in runs]
        else:
            return out
        valid = validity(out, out)
        kept = [value for value in values if valid(value)]
        return {**out, "enum": kept} if kept else out

    return _each_part(schema, copy)


def _listed_strings(schema: Any) -> bool:
    """Whether a schema lists its values, all strings (an ``enum`` of strings)."""
    listed = schema.get("enum") if isinstance(schema, dict) else None
    return isinstance(listed, list) and bool(listed) and all(isinstance(value, str) for value in listed)


_ENCODED = re.compile(r"\b(?:code|codes|ISO|ticker|symbol|abbreviation)\b", re.IGNORECASE)
"""What a string's description says when its value encodes what a request writes."""


def _each_part(schema: Any, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """``schema`` with ``change`` applied to each part (a copy, innermost parts first), through
    properties, items, unions and additionalProperties."""
    if isinstance(schema, list):
        return [_each_part(part, change) for part in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: _each_part(value, change) if key in _SUBSCHEMAS else value for key, value in schema.items()}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {k: _each_part(v, change) for k, v in out["properties"].items()}
    return change(out)


_SUBSCHEMAS = {"items", "prefixItems", "anyOf", "oneOf", "allOf", "additionalProperties"}


def _copied_number(schema: Any) -> bool:
    """Whether an array's items are numbers copied from a request (a number's enum)."""
    return isinstance(schema, dict) and schema.get("type") in ("integer", "number") and "enum" in schema


def _free_string(schema: dict[str, Any]) -> bool:
    """Whether a schema is a string the model writes freely."""
    return schema.get("type") == "string" and not {"enum", "const", "pattern", "format"} & set(schema)

def skeleton(schema: Any, name: str = "value") -> Any:
    """A placeholder instance of ``schema``: required keys only, strings as ``"<name>"``."""
    if not isinstance(schema, dict):
        return f"<{name}>"
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return "<" + "|".join(str(v) for v in schema["enum"]) + ">"
    for keyword in ("anyOf", "oneOf"):
        if schema.get(keyword):
            return skeleton(schema[keyword][0], name)
    kind = schema.get("type")
    kind = str(kind[0]) if isinstance(kind, list) and kind else str(kind)
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {key: skeleton(props.get(key, {}), key) for key in schema.get("required", [])}
    if kind == "array":
        return [skeleton(schema.get("items", {}), name.rstrip("s") or name)]
    return {"integer": 0, "number": 0.0, "boolean": False, "null": None}.get(kind, f"<{name}>")
