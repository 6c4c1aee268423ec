"""The walk: each schema position canonicalized, then emitted by the emitter for its kind into
one rule table. Unions and enums are here; objects, arrays and scalars have modules of their own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gbnf import jsonread
from gbnf.compiler.arrays import emit_array
from gbnf.compiler.canonical import Node, canonicalize, count_bounds
from gbnf.compiler.objects import emit_object
from gbnf.compiler.rules import RuleTable
from gbnf.compiler.scalars import emit_integer, emit_number, emit_string
from gbnf.errors import SchemaError
from gbnf.literals import json_literal
from gbnf.schema import key_path, merge_all_of, validity

MAX_DEPTH = 4
"""Objects and arrays nested deeper than this below the root become generic JSON."""


class Emitter:
    """Emits the instances of one root schema (a tool's parameters) into a shared rule table;
    what the grammar holds loosely goes to ``looser``."""

    def __init__(self, table: RuleTable, root: Any, looser: list[str], *, max_depth: int = MAX_DEPTH) -> None:
        self.table = table
        self.root = root
        self.looser = looser
        self.max_depth = max_depth
        self.ws = "" if table.compact else " ws"
        """The whitespace reference to splice in (empty when compact)."""
        self.sep = '","' + self.ws

    def rule(self, name: str, body: str) -> str:
        return self.table.add(name, body)

    def loose(self, path: str, why: str) -> None:
        self.looser.append(f"{path or '(root)'}: {why}")

    def counts(self, schema: dict[str, Any], path: str, low_key: str, high_key: str) -> tuple[int, int | None]:
        """A count's bounds as whole numbers (see :func:`count_bounds`), its notes recorded."""
        low, high, notes = count_bounds(schema, path, low_key, high_key)
        for where, why in notes:
            self.loose(where, why)
        return low, high

    def visit(self, schema: Any, name: str, path: str, depth: int, refs: frozenset[str] = frozenset()) -> str:
        """A GBNF expression for the instances of ``schema`` (at ``path``, nested ``depth`` deep)."""
        node = canonicalize(schema, self.root, path, refs)
        for where, why in node.notes:
            self.loose(where, why)
        if node.kind == "any":
            return "jsonValue"
        if node.kind in ("anyOf", "oneOf"):
            return self._union(node, name, path, depth)
        if node.kind == "enum":
            return self._enum(node.schema, name, path)
        if depth > self.max_depth and ({"object", "array"} & set(node.types)):
            whole = "object" if node.types == ("object",) else "value"
            self.loose(path, f"nested deeper than {self.max_depth}: any JSON {whole}")
            return "jsonObject" if whole == "object" else "jsonValue"
        alternatives = [EMITTERS[kind](self, node.schema, name, path, depth) for kind in node.types]
        if len(alternatives) == 1:
            return alternatives[0]
        return self.rule(name, " | ".join(alternatives))

    def _union(self, node: Node, name: str, path: str, depth: int) -> str:
        """anyOf/oneOf: one alternative per branch, each merged with the keywords beside it."""
        keyword = node.kind
        rest = {k: v for k, v in node.schema.items() if k != keyword}
        branches = node.schema[keyword]
        if not isinstance(branches, list) or not branches:
            raise SchemaError(key_path(path, keyword), "must be a non-empty list of schemas")
        alternatives = []
        for i, branch in enumerate(branches):
            if branch is False:
                continue
            merged = merge_all_of([rest, branch], path) if rest else branch
            alternatives.append(self.visit(merged, f"{name}{i}", f"{key_path(path, keyword)}[{i}]", depth, node.refs))
        if not alternatives:
            raise SchemaError(key_path(path, keyword), "no branch can match")
        if keyword == "oneOf" and len(branches) > 1:
            self.loose(key_path(path, "oneOf"), "exclusivity left to the validator")
        return self.rule(name, " | ".join(dict.fromkeys(alternatives)))

    def _enum(self, schema: dict[str, Any], name: str, path: str) -> str:
        """const/enum: the listed values that also satisfy the schema's other keywords."""
        values = [schema["const"]] if "const" in schema else schema["enum"]
        if not isinstance(values, list) or not values:
            raise SchemaError(key_path(path, "enum"), "must be a non-empty list")
        if not all(jsonread.is_json(v) for v in values):
            raise SchemaError(key_path(path, "const" if "const" in schema else "enum"),
                              "NaN and Infinity are not JSON, nor is any value JSON cannot write")
        rest = {k: v for k, v in schema.items() if k not in ("enum", "const")}
        valid = validity(rest, self.root)
        kept = [v for v in values if valid(v)]
        if not kept:
            raise SchemaError(key_path(path, "enum"), "no listed value satisfies the rest of the schema")
        return self.rule(name, " | ".join(dict.fromkeys(json_literal(v) for v in kept)))


TypeEmitter = Callable[[Emitter, dict[str, Any], str, str, int], str]
EMITTERS: dict[str, TypeEmitter] = {
    "object": emit_object,
    "array": emit_array,
    "string": emit_string,
    "integer": emit_integer,
    "number": emit_number,
    "boolean": lambda emitter, schema, name, path, depth: "boolean",
    "null": lambda emitter, schema, name, path, depth: "null",
}
"""One emitter per JSON type: ``emit(emitter, schema, rule name, key path, depth)`` -> GBNF."""
