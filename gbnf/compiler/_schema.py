"""Small JSON Schema helpers: local ``$ref`` lookup and ``allOf`` merging."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import jsonschema
from referencing.exceptions import Unresolvable

from gbnf.errors import SchemaError, Unsatisfiable

TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")
ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$schema", "$comment", "deprecated",
                         "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "contentSchema"})
"""Keywords that say what a value means, never which values are valid."""
_TYPE_CHECKER = jsonschema.Draft202012Validator.TYPE_CHECKER

CONDITIONAL = frozenset({"if", "then", "else"})
"""The keywords of a conditional (drafts 7 on; earlier drafts do not have them)."""
_BEFORE_CONDITIONALS = re.compile(r"draft-0[3-6]/schema")
_BEFORE_CONTAINS = re.compile(r"draft-0[34]/schema")


def _declared_before(root: Any, drafts: re.Pattern[str]) -> bool:
    """Whether ``root`` declares (``$schema``) one of ``drafts``."""
    declared = root.get("$schema") if isinstance(root, dict) else None
    return isinstance(declared, str) and drafts.search(declared) is not None


def reads_conditionals(root: Any) -> bool:
    """Whether ``root``'s draft has ``if``/``then``/``else`` (every draft from 7 on, and one
    not declared)."""
    return not _declared_before(root, _BEFORE_CONDITIONALS)


HAS_ITEM = "$gbnfContains"
"""``contains`` in a schema the compiler writes itself (a refusal, see
:func:`~gbnf.compiler._rewrite.only_one`): read in every draft, where a schema's own
``contains`` is read from draft 6 on (:func:`reads_contains`)."""


def reads_contains(root: Any) -> bool:
    """Whether ``root``'s draft has ``contains`` (every draft from 6 on, and one not declared)."""
    return not _declared_before(root, _BEFORE_CONTAINS)


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
        elif out[key] == value or key in ANNOTATIONS:
            continue  # an annotation keeps the first part's
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
        part = deref(part, root, path)
        inner = part.get("allOf") if isinstance(part, dict) else None
        if isinstance(inner, list) and id(inner) not in expanded:
            out.append({k: v for k, v in part.items() if k != "allOf"})
            out += all_of_parts(inner, root, path, expanded | {id(inner)})
        else:
            out.append(part)
    return out


def deref(schema: Any, root: Any, path: str) -> Any:
    """``schema`` with its top-level local ``$ref`` followed (an allOf part: so two refs can merge)."""
    seen = set()
    while (isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"] not in seen
           and is_local(root, schema["$ref"])):  # one not fetched is left to canonicalize, which says so
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
    schema cannot judge (an unresolvable ref, refs that loop without nesting, a pattern that is no
    regular expression) counts as invalid."""
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
        except (Unresolvable, jsonschema.exceptions.SchemaError, RecursionError, re.error):
            return False

    return check


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
