"""JSON Schema to GBNF: one bare schema, or a pool of tools as a discriminated union."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gbnf import primitives
from gbnf.errors import SchemaError
from gbnf.literals import camel, gbnf_literal, json_literal, json_text
from gbnf.schema import follow_ref, key_path, merge_all_of

if TYPE_CHECKING:
    from gbnf.manifest import Tool

MAX_DEPTH = 4
"""Objects and arrays nested deeper than this below the root become generic JSON."""

# Keywords that only annotate, or that the compiler turns into grammar.
_HANDLED = {
    "type", "properties", "required", "items", "enum", "const", "$ref", "$defs", "definitions",
    "anyOf", "oneOf", "allOf", "minItems", "maxItems", "minLength", "maxLength", "nullable",
    "additionalProperties", "title", "description", "default", "examples", "$schema", "$id",
    "$comment", "deprecated", "readOnly", "writeOnly",
}
_TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")


@dataclass(frozen=True)
class Grammar:
    """A compiled grammar: GBNF ``text`` whose start rule is ``root``.

    ``looser`` lists the key paths where the grammar accepts more than the schema (the depth
    cap, keywords left to the validator); the validator checks those after decoding.
    """

    text: str
    rules: tuple[str, ...]
    looser: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.text


def compile_schema(schema: dict[str, Any] | bool, *, compact: bool = False, max_depth: int = MAX_DEPTH) -> str:
    """Compile one bare JSON Schema to GBNF whose ``root`` is one instance of it."""
    return compile_schema_grammar(schema, compact=compact, max_depth=max_depth).text


def compile_schema_grammar(
    schema: dict[str, Any] | bool, *, compact: bool = False, max_depth: int = MAX_DEPTH
) -> Grammar:
    """Like :func:`compile_schema`, returning the :class:`Grammar` with its looser spots."""
    compiler = _Compiler(schema, compact=compact, max_depth=max_depth)
    body = compiler.visit(schema, "root", "", 0)
    return compiler.finish(body)


def compile_pool(
    tools: list[Tool], *, parallel: int = 1, compact: bool = False, max_depth: int = MAX_DEPTH
) -> Grammar:
    """Compile tools to one grammar for ``{"name": <tool>, "arguments": <its args>}``.

    The name literal selects the arguments rule, so one tool's name never carries another's
    arguments. With ``parallel`` > 1 a step is a JSON array of 1..parallel such calls.
    """
    if not tools:
        raise SchemaError("", "cannot compile an empty pool: no tool to call")
    if parallel < 1:
        raise SchemaError("", f"parallel must be at least 1, not {parallel}")
    compiler = _Compiler({}, compact=compact, max_depth=max_depth)
    calls = []
    for tool in tools:
        compiler.root_schema = tool.parameters
        base = camel(tool.name, "tool")
        args = compiler.visit(tool.parameters, "args" + base[0].upper() + base[1:], tool.name, 0)
        head = gbnf_literal(json_text(tool.name) + ",") + compiler.ws + ' "\\"arguments\\":"' + compiler.ws
        calls.append(compiler.rule("call" + base[0].upper() + base[1:], f"{head} {args}"))
    ws = compiler.ws
    call = f'"{{"{ws} "\\"name\\":"{ws} ({" | ".join(calls)}){ws} "}}"'
    if parallel == 1:
        return compiler.finish(call)
    one = compiler.rule("toolCall", call)
    more = f' ("," {ws.strip()} {one}){{0,{parallel - 1}}}'.replace("  ", " ")
    return compiler.finish(f'"["{ws} {one}{more}{ws} "]"')


_LITERALS = re.compile(r'"(?:\\.|[^"\\])*"|\[(?:\\.|[^\]\\])*\]')
_NAMES = re.compile(r"[a-zA-Z][a-zA-Z0-9-]*")


def references(body: str) -> list[str]:
    """Rule names a GBNF body refers to, in order of first appearance."""
    return list(dict.fromkeys(_NAMES.findall(_LITERALS.sub(" ", body))))


class _Compiler:
    """Walks a schema and collects rules, deduplicated by body, named by schema path."""

    def __init__(self, root_schema: dict[str, Any] | bool, *, compact: bool, max_depth: int) -> None:
        self.root_schema = root_schema
        self.compact = compact
        self.max_depth = max_depth
        self.rules: dict[str, str] = {}
        self.by_body: dict[str, str] = {}
        self.used: set[str] = set()
        self.looser: list[str] = []

    @property
    def ws(self) -> str:
        """The whitespace reference to splice in (empty when compact)."""
        if self.compact:
            return ""
        self.used.add("ws")
        return " ws"

    def sep(self) -> str:
        return '","' + self.ws

    def prim(self, name: str) -> str:
        self.used.add(name)
        return name

    def rule(self, name: str, body: str) -> str:
        """Add a rule (or reuse the one with the same body); returns its name."""
        if body in self.by_body:
            return self.by_body[body]
        unique, n = name, 1
        while unique in self.rules or unique in primitives.PRIMITIVE_NAMES or unique == "root":
            n += 1
            unique = f"{name}{n}"
        self.rules[unique] = body
        self.by_body[body] = unique
        return unique

    def finish(self, root_body: str) -> Grammar:
        """Emit ``root``, then the rules in the order a reader meets them, then the primitives."""
        top = self.rules.get(root_body)
        if top is not None and not any(root_body in references(b) for b in self.rules.values()):
            del self.rules[root_body]
            root_body = top
        ordered: dict[str, None] = {}

        def walk(body: str) -> None:
            for name in references(body):
                if name in self.rules and name not in ordered:
                    ordered[name] = None
                    walk(self.rules[name])

        walk(root_body)
        prims = primitives.closure(self.used, self.compact)
        lines = [f"root ::= {root_body}", *(f"{name} ::= {self.rules[name]}" for name in ordered)]
        lines += [f"{name} ::= {primitives.body(name, self.compact)}" for name in prims]
        return Grammar("\n".join(lines) + "\n", ("root", *ordered, *prims), tuple(self.looser))

    def loose(self, path: str, why: str) -> None:
        self.looser.append(f"{path or '(root)'}: {why}")

    # -- the walk -------------------------------------------------------------------

    def visit(self, schema: Any, name: str, path: str, depth: int) -> str:
        """Return a GBNF expression for instances of ``schema``."""
        if schema is True or schema == {}:
            return self.prim("jsonValue")
        if schema is False:
            raise SchemaError(path, "the schema 'false' matches no value")
        if not isinstance(schema, dict):
            raise SchemaError(path, f"a schema must be an object or a boolean, not {json_text(schema)}")
        if "$ref" in schema:
            target = follow_ref(self.root_schema, schema["$ref"], path)
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            return self.visit(merge_all_of([target, rest], path) if rest else target, name, path, depth)
        if "allOf" in schema:
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            return self.visit(merge_all_of([rest, *schema["allOf"]], path), name, path, depth)
        for keyword in ("anyOf", "oneOf"):
            if keyword in schema:
                return self._union(schema, keyword, name, path, depth)
        for keyword in sorted(set(schema) - _HANDLED):
            self.loose(key_path(path, keyword), "left to the validator")
        if "const" in schema:
            return json_literal(schema["const"])
        if "enum" in schema:
            return self._enum(schema, name, path)
        types = self._types(schema, path)
        if depth > self.max_depth and ({"object", "array"} & set(types)):
            self.loose(path, f"nested deeper than {self.max_depth}: any JSON {'object' if types == ['object'] else 'value'}")
            return self.prim("jsonObject" if types == ["object"] else "jsonValue")
        alternatives = [self._typed(t, schema, name, path, depth) for t in types]
        if len(alternatives) == 1:
            return alternatives[0]
        return self.rule(name, " | ".join(alternatives))

    def _types(self, schema: dict[str, Any], path: str) -> list[str]:
        declared = schema.get("type")
        if declared is None:
            if {"properties", "required", "additionalProperties"} & set(schema):
                types = ["object"]
            elif "items" in schema:
                types = ["array"]
            else:
                types = list(_TYPES)
        else:
            types = [declared] if isinstance(declared, str) else list(declared)
        unknown = [t for t in types if t not in _TYPES]
        if unknown:
            raise SchemaError(key_path(path, "type"), f"unknown type {unknown[0]!r}")
        if schema.get("nullable") is True and "null" not in types:
            types.append("null")
        if "integer" in types and "number" in types:
            types.remove("integer")
        return types

    def _typed(self, kind: str, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
        if kind == "object":
            return self._object(schema, name, path, depth)
        if kind == "array":
            return self._array(schema, name, path, depth)
        if kind == "string":
            return self._string(schema, name)
        return self.prim(kind)

    def _union(self, schema: dict[str, Any], keyword: str, name: str, path: str, depth: int) -> str:
        rest = {k: v for k, v in schema.items() if k != keyword}
        branches = schema[keyword]
        if not isinstance(branches, list) or not branches:
            raise SchemaError(key_path(path, keyword), "must be a non-empty list of schemas")
        alternatives = []
        for i, branch in enumerate(branches):
            merged = merge_all_of([rest, branch], path) if rest else branch
            alternatives.append(self.visit(merged, f"{name}{i}", f"{key_path(path, keyword)}[{i}]", depth))
        if keyword == "oneOf" and len(branches) > 1:
            self.loose(key_path(path, "oneOf"), "exclusivity left to the validator")
        return self.rule(name, " | ".join(dict.fromkeys(alternatives)))

    def _enum(self, schema: dict[str, Any], name: str, path: str) -> str:
        values = schema["enum"]
        if not isinstance(values, list) or not values:
            raise SchemaError(key_path(path, "enum"), "must be a non-empty list")
        return self.rule(name, " | ".join(dict.fromkeys(json_literal(v) for v in values)))

    def _object(self, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
        props = schema.get("properties")
        extra = schema.get("additionalProperties", True)
        required = schema.get("required", [])
        if props is None and not required:
            if extra is False:
                return self.rule(name, f'"{{"{self.ws} "}}"')
            if isinstance(extra, dict) and extra:
                self.loose(key_path(path, "additionalProperties"),
                           "values of undeclared properties left to the validator")
            return self.prim("jsonObject")
        props = dict(props or {})
        for key in required:
            props.setdefault(key, True)
        pairs: list[tuple[str, bool]] = []
        for key, sub in props.items():
            if sub is False:
                continue
            sub_name = name + camel(key, "p")[0].upper() + camel(key, "p")[1:]
            value = self.visit(sub, sub_name, key_path(path, key), depth + 1)
            pairs.append((f"{gbnf_literal(json_text(key) + ':')}{self.ws} {value}", key in required))
        if not pairs:
            return self.rule(name, f'"{{"{self.ws} "}}"')
        return self.rule(name, f'"{{"{self.ws} {self._members(pairs)} "}}"')

    def _members(self, pairs: list[tuple[str, bool]]) -> str:
        """Members in schema order: required ones always, optional ones maybe, commas between."""
        ws = self.ws
        sep = self.sep()

        def after(start: int) -> str:
            parts = [f"{sep} {kv}" if req else f"({sep} {kv})?" for kv, req in pairs[start:]]
            return " ".join(parts)

        branches = []
        for i, (kv, req) in enumerate(pairs):
            branches.append(f"{kv} {after(i + 1)}".strip())
            if req:
                break
        else:
            return f"({' | '.join(branches)}{ws})?" if len(branches) == 1 else f"(({' | '.join(branches)}){ws})?"
        return f"{branches[0]}{ws}" if len(branches) == 1 else f"({' | '.join(branches)}){ws}"

    def _array(self, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
        low = int(schema.get("minItems", 0))
        high = schema.get("maxItems")
        items = schema.get("items", True)
        if "prefixItems" in schema:
            self.loose(key_path(path, "prefixItems"), "left to the validator")
        if items is False or high == 0:
            return self.rule(name, f'"["{self.ws} "]"')
        item = self.visit(items, name + "Item", f"{path}[]", depth + 1)
        high_more = "" if high is None else str(int(high) - 1)
        more_low = max(low - 1, 0)
        more = "" if high_more == "0" else f" ({self.sep()} {item}){{{more_low},{high_more}}}"
        more = more.replace("{0,}", "*")
        inner = f"{item}{more}{self.ws}"
        return self.rule(name, f'"["{self.ws} {inner if low else f"({inner})?"} "]"')

    def _string(self, schema: dict[str, Any], name: str) -> str:
        low, high = int(schema.get("minLength", 0)), schema.get("maxLength")
        if low == 0 and high is None:
            return self.prim("string")
        self.used.add("stringChar")
        return self.rule(name, f'"\\"" stringChar{{{low},{"" if high is None else int(high)}}} "\\""')
