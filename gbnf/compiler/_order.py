"""The order in which a grammar writes an object's members (the schema's), for comparing
instances with what decoding writes."""

from __future__ import annotations

import re
from typing import Any

from gbnf.compiler._rewrite import REWRITTEN, rewrite, with_conditionals
from gbnf.compiler._schema import all_of_parts, follow_ref, is_valid, merge_all_of, reads_conditionals
from gbnf.errors import SchemaError, Unsatisfiable


def in_grammar_order(value: Any, schema: Any, root: Any = None) -> Any:
    """``value`` with object keys in the order the grammar emits them (the schema's order).

    Follows ``properties`` (then ``required`` keys they do not declare), ``items``,
    ``prefixItems``, local ``$ref``, every ``allOf`` part and the first ``anyOf``/``oneOf``
    branch that ``value`` is valid against (a branch's members after the parts', where a part
    holds the union), dependencies, ``not`` and conditionals read as the
    compiler rewrites them; keys the schema does not declare keep their order, after the declared ones.
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
        rest = {k: v for k, v in schema.items() if k not in ("$ref", "$defs", "definitions")}
        try:
            schema = merge_all_of([target, rest], "") if rest else target
        except SchemaError:
            return value
    parts = schema.get("allOf")
    conditional = "if" in schema or isinstance(parts, list) and any(isinstance(p, dict) and "if" in p for p in parts)
    if conditional or isinstance(parts, list):
        try:
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            expanded = all_of_parts(parts, root, "") if isinstance(parts, list) else []
            if conditional and reads_conditionals(root):  # conditionals become unions of the whole
                schema = merge_all_of(with_conditionals([rest, *expanded]), "")
            elif any(isinstance(p, dict) and ("anyOf" in p or "oneOf" in p) for p in expanded):
                schema = merge_all_of([rest, *expanded], "")  # a part's union: its branch's members after the parts'
        except (SchemaError, Unsatisfiable):
            return value
    if not REWRITTEN.isdisjoint(schema):
        try:
            unions = rewrite({k: v for k, v in schema.items() if k in REWRITTEN}, "")
        except (SchemaError, Unsatisfiable):
            return value
        branch = next((b for b in unions.get("anyOf", []) if is_valid(value, b, root)), None)
        schema = {k: v for k, v in schema.items() if k not in REWRITTEN}
        if branch is not None:
            schema["allOf"] = [*schema.get("allOf", []), branch]
    for keyword in ("anyOf", "oneOf"):
        branch = next((b for b in schema.get(keyword, []) if is_valid(value, b, root)), None)
        if isinstance(branch, dict):  # merged as the compiler's unions merge it: its $ref followed, after the rest
            rest = {k: v for k, v in schema.items() if k != keyword}
            try:
                merged = merge_all_of([rest, *all_of_parts([branch], root, "")], "")
            except (SchemaError, Unsatisfiable):
                return value
            return in_grammar_order(value, merged, root)
    props = _declared(schema, root)
    if isinstance(value, dict):
        keys = [k for k in props if k in value] + [k for k in value if k not in props]
        return {k: in_grammar_order(value[k], props[k] if k in props else _extra_schema(schema, k), root)
                for k in keys}
    if isinstance(value, list):
        prefix = schema.get("prefixItems", [])
        items = schema.get("items", {})
        return [in_grammar_order(v, prefix[i] if i < len(prefix) else items, root) for i, v in enumerate(value)]
    return value


def _declared(schema: dict[str, Any], root: Any) -> dict[str, Any]:
    """The properties ``schema`` declares, with those of its ``allOf`` parts as the grammar
    merges them (:func:`all_of_parts`; a key declared twice takes both schemas), then the
    required keys none declares, in the order the grammar emits them; its own alone when its
    parts cannot be read."""
    props: dict[str, Any] = dict(schema.get("properties") or {})
    try:
        parts = all_of_parts(schema.get("allOf", []), root, "")
    except (SchemaError, Unsatisfiable):
        return props
    for part in parts:
        for key, sub in ((part.get("properties") or {}) if isinstance(part, dict) else {}).items():
            props[key] = {"allOf": [props[key], sub]} if key in props else sub  # both hold, as merged
    for part in (schema, *parts):
        for key in part.get("required", []) if isinstance(part, dict) else []:
            if isinstance(key, str):
                props.setdefault(key, {})
    return props


def _extra_schema(schema: dict[str, Any], key: str) -> Any:
    """The schema an undeclared key's value follows: a matching pattern's, else additionalProperties."""
    for pattern, sub in (schema.get("patternProperties") or {}).items():
        try:
            if re.search(pattern, key):
                return sub
        except re.error:
            continue
    extra = schema.get("additionalProperties", {})
    return extra if isinstance(extra, dict) else {}
