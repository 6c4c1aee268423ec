"""Arrays: ``prefixItems`` in order, then ``items``, within ``minItems``..``maxItems``.

``contains`` is exact where no ``prefixItems``, ``maxItems``, ``minItems`` past 1,
``minContains``/``maxContains`` or ``uniqueItems`` stand beside it: items, one that also
matches it, items. Elsewhere it is left to the validator.

``uniqueItems`` over items that are a few listed values (``enum``/``const``, at most
:data:`UNIQUE_VALUES`) is exact: one rule per set of values already written. Over anything
else it is left to the validator, which drops repeated items.
"""

from __future__ import annotations

from typing import Any

from gbnf.compiler._canonical import canonicalize
from gbnf.compiler._literals import repeat
from gbnf.compiler._schema import HAS_ITEM, key_path, reads_contains
from gbnf.compiler._walk import Walk
from gbnf.errors import Unsatisfiable

UNIQUE_VALUES = 6
"""The most listed values whose ``uniqueItems`` the grammar holds (2**n rules at most)."""
_CONTAINS_COUNTS = frozenset({"minContains", "maxContains"})
"""How many items match ``contains``: the validator's."""
NESTED_ITEMS = 100
"""The most optional prefix items nested in one rule; the rest of a longer tuple continues in a
rule of its own (llama.cpp refuses about 1,000 nested optional groups, and deep nesting overflows
the parsers of the other dialects)."""


def emit_array(e: Walk, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
    """An array: its prefix items, then further items, as many as the counts allow; the array
    ends before the first position that no value satisfies."""
    spacing, level = e.spacing, e.base + depth
    items, prefix = schema.get("items", True), schema.get("prefixItems") or []
    if isinstance(items, list):  # drafts 4 to 2019-09: a list of items is a tuple, additionalItems the rest
        items, prefix = schema.get("additionalItems", True), items
    if "items" not in schema and "contains" not in schema:
        items = schema.get("unevaluatedItems", True)
    heads: list[str] = []
    for i, sub in enumerate(prefix):
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
    contains = schema[HAS_ITEM] if HAS_ITEM in schema else schema.get("contains") if reads_contains(e.root) else None
    if contains is not None:
        counted = heads or high is not None or low > 1 or schema.get("uniqueItems") is True
        if counted or not _CONTAINS_COUNTS.isdisjoint(schema):
            e.loose(key_path(path, "contains"), "left to the validator (beside prefixItems, maxItems, minItems past "
                                                 "1, minContains, maxContains or uniqueItems)")
        else:
            return _containing(e, items, contains, item, name, path, depth)
    if high == 0:
        return e.rule(name, f'"["{spacing.lead()} "]"')
    if schema.get("uniqueItems") is True and (high is None or high > 1):
        values = _listed(e, items, f"{path}[]") if not heads and item is not None else None
        if values is not None and len(values) <= UNIQUE_VALUES:
            return _unique(e, values, low, high, name, path, level)
        e.loose(key_path(path, "uniqueItems"), "left to the validator (which drops repeated items)")

    def tail(start: int) -> str:
        """The items from position ``start`` on, built from the last (a loop: tuples of
        thousands of prefix items are deeper than Python's recursion)."""
        stop = max(start, len(heads) if high is None else min(len(heads), high))
        if high is not None and stop >= high:
            text = ""
        else:
            text = repeat(f"{spacing.sep(level)} {item}", max(low - stop, 0), None if high is None else high - stop)
        for i in range(stop - 1, start - 1, -1):
            if text and (stop - i) % NESTED_ITEMS == 0:
                text = e.rule(f"{name}Rest", text)
            element = f"{spacing.sep(level)} {heads[i]} {text}".strip()
            text = element if i < low else f"({element})?"
        return text

    first = f"{spacing.open(level)} {heads[0] if heads else item} {tail(1)}".strip() + spacing.close(level)
    return e.rule(name, f'"["{spacing.lead()} {first if low else f"({first})?"} "]"')


def _containing(e: Walk, items: Any, contains: Any, item: str | None, name: str, path: str, depth: int) -> str:
    """An array of ``items`` of which at least one matches ``contains``: items, that one, items."""
    where = key_path(path, "contains")
    matched = e.visit_or_none({"allOf": [items, contains]}, name + "Match", where, depth + 1)
    if matched is None or item is None:
        raise Unsatisfiable(where, "no item can match it")
    level, sep = e.base + depth, e.spacing.sep(e.base + depth)
    body = f"({item} {sep})* {matched} ({sep} {item})*"
    return e.rule(name, f'"["{e.spacing.lead()} {e.spacing.open(level)} {body}{e.spacing.close(level)} "]"')


def _listed(e: Walk, items: Any, path: str) -> list[str] | None:
    """The literals of the values ``items`` lists, or None when it is not an enum or const."""
    node = canonicalize(items, e.root, path)
    return e.listed(node.schema, path) if node.kind == "enum" else None


def _unique(e: Walk, values: list[str], low: int, high: int | None, name: str, path: str, level: int) -> str:
    """An array of distinct ``values``, ``low``..``high`` of them: after each set of values
    written, a rule offers the ones not yet written."""
    spacing, most = e.spacing, len(values) if high is None else min(high, len(values))
    if low > most:
        raise Unsatisfiable(key_path(path, "minItems"), "minItems is larger than the distinct values allowed")
    rest: dict[int, str] = {}

    def after(used: int) -> str:
        if used not in rest:
            count = bin(used).count("1")
            options = [f"{spacing.sep(level)} {value} {after(used | 1 << i)}".strip()
                       for i, value in enumerate(values) if not used >> i & 1] if count < most else []
            body = " | ".join(options)
            rest[used] = "" if not options else e.rule(f"{name}Rest", body if count < low else f"({body})?")
        return rest[used]

    first = " | ".join(f"{spacing.open(level)} {value} {after(1 << i)}".strip() for i, value in enumerate(values))
    first = f"({first})" + spacing.close(level)
    return e.rule(name, f'"["{spacing.lead()} {first if low else f"({first})?"} "]"')
