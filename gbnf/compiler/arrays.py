"""Arrays: ``prefixItems`` in order, then ``items``, within ``minItems``..``maxItems``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gbnf.errors import Unsatisfiable
from gbnf.literals import repeat
from gbnf.schema import key_path

if TYPE_CHECKING:
    from gbnf.compiler.emit import Emitter


def emit_array(e: Emitter, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
    """An array: its prefix items, then further items, as many as the counts allow; the array
    ends before the first position that no value satisfies."""
    spacing, level = e.spacing, e.base + depth
    items = schema.get("items", True)
    if "items" not in schema and "contains" not in schema:
        items = schema.get("unevaluatedItems", True)
    heads: list[str] = []
    for i, sub in enumerate(schema.get("prefixItems") or []):
        head = e.visit_or_none(sub, f"{name}Item{i}", f"{path}[{i}]", depth + 1)
        if head is None:
            items = False
            break
        heads.append(head)
    item = e.visit_or_none(items, name + "Item", f"{path}[]", depth + 1)
    low, high = e.counts(schema, path, "minItems", "maxItems")
    if item is None:
        high = len(heads) if high is None else min(high, len(heads))
    if high is not None and low > high:
        raise Unsatisfiable(key_path(path, "minItems"), "minItems is larger than the items allowed")
    if high == 0:
        return e.rule(name, f'"["{spacing.lead()} "]"')

    def tail(i: int) -> str:
        if high is not None and i >= high:
            return ""
        if i >= len(heads):
            return repeat(f"{spacing.sep(level)} {item}", max(low - i, 0), None if high is None else high - i)
        element = f"{spacing.sep(level)} {heads[i]} {tail(i + 1)}".strip()
        return element if i < low else f"({element})?"

    first = f"{spacing.open(level)} {heads[0] if heads else item} {tail(1)}".strip() + spacing.close(level)
    return e.rule(name, f'"["{spacing.lead()} {first if low else f"({first})?"} "]"')
