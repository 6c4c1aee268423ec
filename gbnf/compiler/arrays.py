"""Arrays: ``prefixItems`` in order, then ``items``, within ``minItems``..``maxItems``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gbnf.errors import SchemaError
from gbnf.literals import repeat
from gbnf.schema import key_path

if TYPE_CHECKING:
    from gbnf.compiler.emit import Emitter


def emit_array(e: Emitter, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
    """An array: its prefix items, then further items, as many as the counts allow."""
    prefix = list(schema.get("prefixItems") or [])
    items = schema.get("items", True)
    if "items" not in schema and "contains" not in schema:
        items = schema.get("unevaluatedItems", True)
    if False in prefix:
        prefix = prefix[:prefix.index(False)]
        items = False
    low, high = e.counts(schema, path, "minItems", "maxItems")
    if items is False:
        high = len(prefix) if high is None else min(high, len(prefix))
    if high is not None and low > high:
        raise SchemaError(key_path(path, "minItems"), "minItems is larger than the items allowed")
    if high == 0:
        return e.rule(name, f'"["{e.ws} "]"')
    heads = [e.visit(p, f"{name}Item{i}", f"{path}[{i}]", depth + 1) for i, p in enumerate(prefix)]
    item = None if items is False else e.visit(items, name + "Item", f"{path}[]", depth + 1)

    def tail(i: int) -> str:
        if high is not None and i >= high:
            return ""
        if i >= len(heads):
            return repeat(f"{e.sep} {item}", max(low - i, 0), None if high is None else high - i)
        element = f"{e.sep} {heads[i]} {tail(i + 1)}".strip()
        return element if i < low else f"({element})?"

    first = f"{heads[0] if heads else item} {tail(1)}".strip() + e.ws
    return e.rule(name, f'"["{e.ws} {first if low else f"({first})?"} "]"')
