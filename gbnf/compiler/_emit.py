"""The walk: each schema position canonicalized, then emitted by the emitter for its kind into
one rule table. Unions and enums are here; objects, arrays and scalars have modules of their own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gbnf import _jsonread as jsonread
from gbnf.compiler._arrays import emit_array
from gbnf.compiler._canonical import Node, canonicalize, count_bounds
from gbnf.compiler._literals import json_text, literal_choice
from gbnf.compiler._objects import emit_object
from gbnf.compiler._primitives import value_literal
from gbnf.compiler._rewrite import only_one
from gbnf.compiler._rules import RuleTable
from gbnf.compiler._scalars import emit_integer, emit_number, emit_string
from gbnf.compiler._schema import ANNOTATIONS, key_path, validity
from gbnf.errors import SchemaError, Unsatisfiable

MAX_DEPTH = 4
"""Objects and arrays nested deeper than this below a tool's arguments become generic JSON."""
SCHEMA_MAX_DEPTH = 8
"""The same cap for one bare schema (:func:`~gbnf.compiler.compile_schema`): a whole document
for structured output (a Kubernetes manifest, a compose file) nests deeper than the arguments
of a tool call do."""


class Emitter:
    """Emits the instances of one root schema (a tool's parameters) into a shared rule table;
    what the grammar holds loosely goes to ``looser``.

    Each part of the schema is emitted once per depth: a part reached again (a ``$ref`` used in
    many places, a recursive union) reuses its rule, and its looser spots are reported at the
    first path that reached it. Without this, recursive unions cost time exponential in depth.
    """

    def __init__(self, table: RuleTable, root: Any, looser: list[str], *, max_depth: int = MAX_DEPTH,
                 base: int = 0) -> None:
        self.table = table
        self.root = root
        self.looser = looser
        self.max_depth = max_depth
        self.spacing = table.spacing
        """The GBNF of the layout's whitespace."""
        self.base = base
        """The nesting level of the root's value in the reply (a tool's arguments: 1)."""
        self._done: dict[tuple[int, int, frozenset[str]], tuple[Any, str | Unsatisfiable]] = {}
        """Each visit's result by (id of its schema, depth, refs), with the schema kept alive."""
        self.cut = False
        """Whether the compile's budget was spent (see :data:`~gbnf.compiler._rules.COMPILE_SECONDS`)."""
        self.key_rules: dict[tuple[str, ...], str] = {}
        """The rule for keys other than these declared ones, by the declared keys."""
        self.key_nodes = 0
        """The rules spent on key rules so far."""

    def rule(self, name: str, body: str) -> str:
        return self.table.add(name, body)

    def loose(self, path: str, why: str) -> None:
        self.looser.append(f"{path or '(root)'}: {why}")

    def counts(self, schema: dict[str, Any], path: str, low_key: str, high_key: str) -> tuple[int, int | None]:
        """A count's bounds as whole numbers (see :func:`count_bounds`), its notes recorded."""
        if low_key not in schema and high_key not in schema:
            return 0, None
        low, high, notes = count_bounds(schema, path, low_key, high_key)
        for where, why in notes:
            self.loose(where, why)
        return low, high

    def visit(self, schema: Any, name: str, path: str, depth: int, refs: frozenset[str] = frozenset()) -> str:
        """A GBNF expression for the instances of ``schema`` (at ``path``, nested ``depth`` deep)."""
        key = (id(schema), depth, refs)
        if key not in self._done:
            try:
                self._done[key] = (schema, self._emit(schema, name, path, depth, refs))
            except Unsatisfiable as exc:
                self._done[key] = (schema, exc.with_traceback(None))  # no frames kept alive
        result = self._done[key][1]
        if isinstance(result, Unsatisfiable):
            raise result
        return result

    def visit_or_none(self, schema: Any, name: str, path: str, depth: int, refs: frozenset[str] = frozenset()
                      ) -> str | None:
        """Like :meth:`visit`, or None when no value satisfies ``schema``."""
        if schema is False:  # the common case (additionalProperties: false), without an exception
            return None
        try:
            return self.visit(schema, name, path, depth, refs)
        except Unsatisfiable:
            return None

    def _emit(self, schema: Any, name: str, path: str, depth: int, refs: frozenset[str]) -> str:
        spent = self.table.spent()
        if spent:
            if not self.cut:
                self.loose(path, f"{spent}: this part and every part not yet emitted are any JSON value")
                self.cut = True
            return "jsonValue"
        kind = schema.get("type") if type(schema) is dict else None
        if type(kind) is str and kind in _PRIMITIVE_TYPES and _LEAF_KEYS.issuperset(schema):
            return kind  # the commonest leaf ({"type": "string", "description": ...}), at once
        node = canonicalize(schema, self.root, path, refs)
        for where, why in node.notes:
            self.loose(where, why)
        if node.kind == "any":
            return "jsonValue"
        if node.kind in ("anyOf", "oneOf"):
            return self._union(node, name, path, depth)
        if node.kind == "enum":
            return self._enum(node.schema, name, path)
        alternatives, empty = [], None
        for kind in node.types:  # a type no value of which satisfies the rest drops out
            if kind in _GENERIC and depth > self.max_depth:
                self.loose(path, f"nested deeper than {self.max_depth}: any JSON {kind}")
                alternatives.append(_GENERIC[kind])
                continue
            try:
                alternatives.append(EMITTERS[kind](self, node.schema, name, path, depth))
            except Unsatisfiable as exc:
                empty = exc
        if empty is not None and not alternatives:
            raise empty
        if len(alternatives) == 1:
            return alternatives[0]
        return self.rule(name, " | ".join(alternatives))

    def _union(self, node: Node, name: str, path: str, depth: int) -> str:
        """anyOf/oneOf: one alternative per branch, each merged with the keywords beside it."""
        keyword = node.kind
        rest = {k: v for k, v in node.schema.items() if k != keyword and k not in ANNOTATIONS}
        branches = node.schema[keyword]
        if not isinstance(branches, list) or not branches:
            raise SchemaError(key_path(path, keyword), "must be a non-empty list of schemas")
        exclusive = only_one(branches, self.root) if keyword == "oneOf" and len(branches) > 1 else None
        alternatives = []
        for i, branch in enumerate(branches):
            if exclusive is not None and exclusive[i] is None:
                continue  # never the only branch that matches
            where = f"{key_path(path, keyword)}[{i}]"
            parts = [part for part in (rest, branch, exclusive and exclusive[i]) if part]
            merged = {"allOf": parts} if len(parts) > 1 else branch
            alternative = self.visit_or_none(merged, f"{name}{i}", where, depth, node.refs)
            if alternative is not None:
                alternatives.append(alternative)
        if not alternatives:
            raise Unsatisfiable(key_path(path, keyword), "no branch can match")
        if keyword == "oneOf" and len(branches) > 1 and exclusive is None:
            self.loose(key_path(path, "oneOf"), "exclusivity left to the validator")
        return self.rule(name, " | ".join(dict.fromkeys(alternatives)))

    def _enum(self, schema: dict[str, Any], name: str, path: str) -> str:
        """const/enum: the listed values that also satisfy the schema's other keywords; scalars
        none of whose texts begins another's are written as a trie (each shared prefix once, as
        tool names are: :func:`literal_choice`), which llama.cpp's engine masks far faster."""
        values = self._kept(schema, path)
        texts = [json_text(v) for v in values if not isinstance(v, (dict, list))]
        if len(texts) == len(values) > 1 and not _one_begins_another(texts):
            return self.rule(name, literal_choice(dict.fromkeys(texts, "")))
        return self.rule(name, " | ".join(self.listed(schema, path)))

    def listed(self, schema: dict[str, Any], path: str) -> list[str]:
        """The JSON literals of a const/enum schema's values that satisfy its other keywords."""
        return list(dict.fromkeys(value_literal(v, self.table.layout) for v in self._kept(schema, path)))

    def _kept(self, schema: dict[str, Any], path: str) -> list[Any]:
        """A const/enum schema's values that satisfy its other keywords."""
        values = [schema["const"]] if "const" in schema else schema["enum"]
        if not isinstance(values, list):
            raise SchemaError(key_path(path, "enum"), "must be a list")
        if not values:
            raise Unsatisfiable(key_path(path, "enum"), "an empty list matches no value")
        if not all(jsonread.is_json(v) for v in values):
            raise SchemaError(key_path(path, "const" if "const" in schema else "enum"),
                              "NaN and Infinity are not JSON, nor is any value JSON cannot write")
        rest = {k: v for k, v in schema.items() if k not in ("enum", "const")}
        valid = validity(rest, self.root)
        kept = [v for v in values if valid(v)]
        if not kept:
            raise Unsatisfiable(key_path(path, "enum"), "no listed value satisfies the rest of the schema")
        return kept


_PRIMITIVE_TYPES = frozenset({"string", "integer", "number", "boolean", "null"})
"""Types whose schema, with nothing but annotations beside, is a primitive rule of that name."""
_LEAF_KEYS = ANNOTATIONS | {"type"}
"""The keys of such a schema."""

_GENERIC = {"object": "jsonObject", "array": "jsonArray"}
"""The generic rule a container nested past the depth cap becomes."""

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


def _one_begins_another(texts: list[str]) -> bool:
    """Whether one of ``texts`` begins another (equal texts aside): in sorted order, a text that
    begins any other begins the next one, so neighbours are all that is compared."""
    ordered = sorted(set(texts))
    return any(b.startswith(a) for a, b in zip(ordered, ordered[1:]))
