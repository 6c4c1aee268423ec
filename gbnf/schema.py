"""Small JSON Schema helpers: local ``$ref`` lookup and ``allOf`` merging."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import jsonschema
from referencing.exceptions import Unresolvable

from gbnf.errors import SchemaError


def key_path(path: str, key: str) -> str:
    """Join a dotted key path (``a.b`` + ``c`` -> ``a.b.c``)."""
    return f"{path}.{key}" if path else key


def follow_ref(root: Any, ref: str, path: str) -> Any:
    """Resolve a local ``$ref`` (``#``, ``#/$defs/x``, ``#/definitions/x``) against ``root``."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        raise SchemaError(key_path(path, "$ref"), f"only local references ('#/...') are supported, not {ref!r}")
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


def merge_all_of(schemas: list[Any], path: str) -> dict[str, Any]:
    """Merge schemas that must all hold into one (properties merged, required joined)."""
    merged: dict[str, Any] = {}
    for schema in schemas:
        if schema is True:
            continue
        if schema is False:
            raise SchemaError(key_path(path, "allOf"), "contains 'false', which matches no value")
        for key, value in schema.items():
            if key == "properties":
                merged["properties"] = {**merged.get("properties", {}), **value}
            elif key == "required":
                merged["required"] = list(dict.fromkeys([*merged.get("required", []), *value]))
            elif key == "allOf":
                merged = merge_all_of([merged, *value], path)
            else:
                merged[key] = value
    return merged


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


def in_grammar_order(value: Any, schema: Any, root: Any = None) -> Any:
    """``value`` with object keys in the order the grammar emits them (the schema's order).

    Follows ``properties``, ``items``, ``prefixItems``, local ``$ref``, every ``allOf`` part
    and the first ``anyOf``/``oneOf`` branch that ``value`` is valid against; keys the schema
    does not declare keep their order, after the declared ones.
    """
    root = schema if root is None else root
    if not isinstance(schema, dict):
        return value
    if isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#"):
        try:
            target = follow_ref(root, schema["$ref"], "")
        except SchemaError:
            return value
        if not isinstance(target, dict):
            return value
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    for keyword in ("anyOf", "oneOf"):
        branch = next((b for b in schema.get(keyword, []) if _valid(value, b, root)), None)
        if isinstance(branch, dict):
            rest = {k: v for k, v in schema.items() if k != keyword}
            return in_grammar_order(value, merge_all_of([rest, branch], ""), root)
    props: dict[str, Any] = dict(schema.get("properties", {}))
    for part in schema.get("allOf", []):
        if isinstance(part, dict):
            props = {**props, **part.get("properties", {})}
    if isinstance(value, dict):
        keys = [k for k in props if k in value] + [k for k in value if k not in props]
        return {k: in_grammar_order(value[k], props.get(k, {}), root) for k in keys}
    if isinstance(value, list):
        prefix = schema.get("prefixItems", [])
        items = schema.get("items", {})
        return [in_grammar_order(v, prefix[i] if i < len(prefix) else items, root) for i, v in enumerate(value)]
    return value


def _valid(value: Any, schema: Any, root: Any) -> bool:
    """Whether ``value`` is valid against ``schema``, whose local refs point into ``root``."""
    if isinstance(schema, bool):
        return schema
    with_defs = {**{k: root[k] for k in ("$defs", "definitions") if isinstance(root, dict) and k in root}, **schema}
    try:
        return jsonschema.Draft202012Validator(with_defs).is_valid(value)
    except (Unresolvable, jsonschema.exceptions.SchemaError):
        return False
