"""JSON Schema to GBNF: one bare schema, or a pool of tools as a discriminated union."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from gbnf import jsonread, primitives
from gbnf.errors import SchemaError, Untranslatable
from gbnf.literals import COUNT_LIMIT, camel, class_char, gbnf_literal, json_literal, json_text, repetition
from gbnf.formats import EXACT, FORMATS
from gbnf.ranges import int_range
from gbnf.regex import pattern_to_gbnf
from gbnf.schema import check_schema, follow_ref, key_path, merge_all_of, validity
from gbnf.tool import Tool

MAX_DEPTH = 4
"""Objects and arrays nested deeper than this below the root become generic JSON."""

# Keywords that only annotate, or that the compiler turns into grammar.
_HANDLED = {
    "type", "properties", "required", "items", "prefixItems", "enum", "const", "$ref", "$defs",
    "definitions", "anyOf", "oneOf", "allOf", "minItems", "maxItems", "minLength", "maxLength",
    "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "nullable",
    "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties",
    "multipleOf", "title", "description", "default", "examples", "$schema", "$comment",
    "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "contentSchema",
}
_APPLICATORS = {"$ref", "allOf", "anyOf", "oneOf", "if", "not", "dependentSchemas"}
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
    """Like :func:`compile_schema`, returning the :class:`Grammar` with its looser spots; a
    schema the compiler cannot read is a :class:`SchemaError` naming the key path (found by the
    metaschema, checked only then: it costs more than compiling)."""
    try:
        compiler = _Compiler(schema, compact=compact, max_depth=max_depth)
        return compiler.finish(compiler.visit(schema, "root", "", 0))
    except (TypeError, AttributeError, ValueError, KeyError, IndexError, RecursionError) as exc:
        check_schema(schema)
        raise SchemaError("", f"cannot compile this schema ({type(exc).__name__}: {exc})") from None


def compile_pool(
    tools: list[Tool], *, parallel: int = 1, single: bool = False, text: bool = False, compact: bool = False,
    max_depth: int = MAX_DEPTH
) -> Grammar:
    """Compile tools to one grammar for ``{"name": <tool>, "arguments": <its args>}``.

    The name literal selects the arguments rule, so one tool's name never carries another's
    arguments. With ``parallel`` > 1 a reply is a JSON array of 1..parallel such calls (with
    ``single``, one bare call is admitted too). With ``text`` it may instead be plain text:
    anything that does not open with ``{``, ``[`` or whitespace (so a reply is a call, or
    text, from its first character).
    """
    if not tools:
        raise SchemaError("", "cannot compile an empty pool: no tool to call")
    if parallel < 1:
        raise SchemaError("", f"parallel must be at least 1, not {parallel}")
    compiler = _Compiler({}, compact=compact, max_depth=max_depth)
    calls = []
    for tool in tools:
        compiler.root_schema = tool.parameters
        word = _word(tool.name, "tool")
        args = compiler.visit(tool.parameters, f"args{word}", tool.name, 0)
        head = gbnf_literal(json_text(tool.name) + ",") + compiler.ws + ' "\\"arguments\\":"' + compiler.ws
        calls.append(compiler.rule(f"call{word}", f"{head} {args}"))
    ws = compiler.ws
    call = f'"{{"{ws} "\\"name\\":"{ws} ({" | ".join(calls)}){ws} "}}"'
    one = compiler.rule("toolCall", call) if parallel > 1 or text else call
    choices = [one] if parallel == 1 or single else []
    if parallel > 1:
        more = _repeat(f"{compiler.sep()} {one}", 0, parallel - 1)
        choices.append(compiler.rule("toolCalls", f'"["{ws} {one}{more}{ws} "]"'))
    if text:
        choices.append(compiler.rule("plainText", '[^{[ \\t\\n] [^\\x00]*'))
    return compiler.finish(" | ".join(choices))


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
        self.refs: dict[str, list[str]] = {}
        self.by_body: dict[str, str] = {}
        self.suffix: dict[str, int] = {}  # the next number to try after a taken rule name
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
        unique, n = name, self.suffix.get(name, 1)
        while unique in self.rules or unique in primitives.PRIMITIVE_NAMES or unique == "root":
            n += 1
            unique = f"{name}{n}"
        self.suffix[name] = n
        self.rules[unique] = body
        self.refs[unique] = [r for r in references(body) if r in self.rules]
        self.by_body[body] = unique
        return unique

    def finish(self, root_body: str) -> Grammar:
        """Emit ``root``, then the rules in the order a reader meets them, then the primitives."""
        top = self.rules.get(root_body)
        if top is not None and not any(root_body in refs for refs in self.refs.values()):
            root_refs = self.refs.pop(root_body)
            del self.rules[root_body]
            root_body = top
        else:
            root_refs = [r for r in references(root_body) if r in self.rules]
        ordered: dict[str, None] = {}
        stack = list(reversed(root_refs))
        while stack:
            name = stack.pop()
            if name not in ordered:
                ordered[name] = None
                stack.extend(reversed(self.refs[name]))
        prims = primitives.closure(self.used, self.compact)
        lines = [f"root ::= {root_body}", *(f"{name} ::= {self.rules[name]}" for name in ordered)]
        lines += [f"{name} ::= {primitives.body(name, self.compact)}" for name in prims]
        return Grammar("\n".join(lines) + "\n", ("root", *ordered, *prims), tuple(self.looser))

    def loose(self, path: str, why: str) -> None:
        self.looser.append(f"{path or '(root)'}: {why}")

    # -- the walk -------------------------------------------------------------------

    def visit(self, schema: Any, name: str, path: str, depth: int, refs: frozenset[str] = frozenset()) -> str:
        """Return a GBNF expression for instances of ``schema``."""
        if schema is True or schema == {}:
            return self.prim("jsonValue")
        if schema is False:
            raise SchemaError(path, "the schema 'false' matches no value")
        if not isinstance(schema, dict):
            raise SchemaError(path, f"a schema must be an object or a boolean, not {schema!r:.60}")
        unevaluated = {"unevaluatedProperties", "unevaluatedItems"} & set(schema)
        if unevaluated and _APPLICATORS & set(schema):
            for keyword in sorted(unevaluated):
                self.loose(key_path(path, keyword), "beside applicators: left to the validator")
            schema = {k: v for k, v in schema.items() if k not in unevaluated}
        if "$ref" in schema:
            ref = schema["$ref"]
            if ref in refs:
                raise SchemaError(key_path(path, "$ref"), f"{ref!r} refers to itself without nesting")
            target = follow_ref(self.root_schema, ref, path)
            rest = {k: v for k, v in schema.items() if k not in ("$ref", "$defs", "definitions")}
            return self.visit(merge_all_of([target, rest], path) if rest else target, name, path, depth, refs | {ref})
        if "allOf" in schema:
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            parts = [_without_unevaluated(self._deref(part, path)) for part in schema["allOf"]]
            return self.visit(merge_all_of([rest, *parts], path), name, path, depth, refs)
        for keyword in ("anyOf", "oneOf"):
            if keyword in schema:
                return self._union(schema, keyword, name, path, depth, refs)
        for keyword in sorted(set(schema) - _HANDLED):
            self.loose(key_path(path, keyword), "left to the validator")
        if "const" in schema or "enum" in schema:
            return self._enum(schema, name, path)
        types = self._types(schema, path)
        if depth > self.max_depth and ({"object", "array"} & set(types)):
            self.loose(path, f"nested deeper than {self.max_depth}: any JSON {'object' if types == ['object'] else 'value'}")
            return self.prim("jsonObject" if types == ["object"] else "jsonValue")
        alternatives = [self._typed(t, schema, name, path, depth) for t in types]
        if len(alternatives) == 1:
            return alternatives[0]
        return self.rule(name, " | ".join(alternatives))

    def _deref(self, schema: Any, path: str) -> Any:
        """An allOf part with its top-level local ``$ref`` followed (so two refs can merge)."""
        seen = set()
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"] not in seen:
            seen.add(schema["$ref"])
            target = follow_ref(self.root_schema, schema["$ref"], path)
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            if not isinstance(target, dict):
                return target if not rest else merge_all_of([target, rest], path)
            schema = {**target, **rest} if not set(rest) & set(target) else merge_all_of([target, rest], path)
        return schema

    def _types(self, schema: dict[str, Any], path: str) -> list[str]:
        declared = schema.get("type")
        types = list(_TYPES) if declared is None else ([declared] if isinstance(declared, str) else list(declared))
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
            return self._string(schema, name, path)
        if kind == "integer":
            return self._integer(schema, name, path)
        if kind == "number":
            return self._number(schema, name, path)
        return self.prim(kind)

    def _union(self, schema: dict[str, Any], keyword: str, name: str, path: str, depth: int,
               refs: frozenset[str]) -> str:
        rest = {k: v for k, v in schema.items() if k != keyword}
        branches = schema[keyword]
        if not isinstance(branches, list) or not branches:
            raise SchemaError(key_path(path, keyword), "must be a non-empty list of schemas")
        alternatives = []
        for i, branch in enumerate(branches):
            if branch is False:
                continue
            merged = merge_all_of([rest, branch], path) if rest else branch
            alternatives.append(self.visit(merged, f"{name}{i}", f"{key_path(path, keyword)}[{i}]", depth, refs))
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
        valid = validity(rest, self.root_schema)
        kept = [v for v in values if valid(v)]
        if not kept:
            raise SchemaError(key_path(path, "enum"), "no listed value satisfies the rest of the schema")
        return self.rule(name, " | ".join(dict.fromkeys(json_literal(v) for v in kept)))

    # -- objects ----------------------------------------------------------------------

    def counts(self, schema: dict[str, Any], path: str, low_key: str, high_key: str) -> tuple[int, int | None]:
        """A count's bounds (``minLength``/``maxLength`` and the like) as whole numbers; a bound
        past ``COUNT_LIMIT`` is left to the validator (and reported); a minimum above the
        maximum is a :class:`SchemaError`."""
        bounds: list[int | None] = []
        for key, default in ((low_key, 0), (high_key, None)):
            value = schema.get(key, default)
            if value is None:
                bounds.append(None)
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 or (
                    math.isfinite(value) and value != int(value)):
                raise SchemaError(key_path(path, key), f"{key} must be a whole number >= 0, not {value!r}")
            if value > COUNT_LIMIT:
                self.loose(key_path(path, key), f"past {COUNT_LIMIT}: left to the validator")
                bounds.append(COUNT_LIMIT if key == low_key else None)
            else:
                bounds.append(int(value))
        low, high = bounds
        if high is not None and low is not None and low > high:
            raise SchemaError(key_path(path, low_key), f"{low_key} is larger than {high_key}")
        return low or 0, high

    def _object(self, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
        props = dict(schema.get("properties") or {})
        required = [k for k in schema.get("required", []) if isinstance(k, str)]
        for key in required:
            props.setdefault(key, True)
        pairs: list[tuple[str, bool]] = []
        for key, sub in props.items():
            if sub is False:
                if key in required:
                    raise SchemaError(key_path(path, key), "required, but its schema is 'false'")
                continue
            value = self.visit(sub, name + _word(key), key_path(path, key), depth + 1)
            pairs.append((f"{gbnf_literal(json_text(key) + ':')}{self.ws} {value}", key in required))
        extra = self._extra_member(schema, list(props), name, path, depth)
        if extra is None and not pairs:
            return self.rule(name, f'"{{"{self.ws} "}}"')
        if not pairs:
            low, high = self.counts(schema, path, "minProperties", "maxProperties")
            more = _repeat(f"{self.sep()} {extra}", max(low - 1, 0), None if high is None else high - 1)
            inner = f"{extra}{more}{self.ws}"
            return self.rule(name, f'"{{"{self.ws} {inner if low else f"({inner})?"} "}}"')
        for keyword in ("minProperties", "maxProperties"):
            if keyword in schema:
                self.loose(key_path(path, keyword), "left to the validator")
        if extra is not None:
            pairs.append((f"{extra}", False))
        return self.rule(name, f'"{{"{self.ws} {self._members(pairs, extra, name)} "}}"')

    def _extra_member(self, schema: dict[str, Any], declared: list[str], name: str, path: str,
                      depth: int) -> str | None:
        """The rule for one undeclared member ``"key": value``, or None when none is allowed.

        Without applicators beside it (see :meth:`visit`), ``unevaluatedProperties`` means
        ``additionalProperties``.
        """
        extra = schema.get("additionalProperties", schema.get("unevaluatedProperties", True))
        patterns = schema.get("patternProperties") or {}
        options = []
        for i, (pattern, sub) in enumerate(patterns.items()):
            if sub is False:
                continue
            try:
                key = f'"\\"" {pattern_to_gbnf(pattern)} "\\""'
            except Untranslatable as exc:
                self.loose(key_path(path, "patternProperties"), f"pattern {pattern!r} not translated ({exc})")
                key = self.prim("string")
            self.used.add("stringChar")
            value = self.visit(sub, f"{name}Pattern{i}", key_path(path, f"/{pattern}/"), depth + 1)
            options.append(f"{key} \":\"{self.ws} {value}")
        if patterns and declared:
            self.loose(key_path(path, "patternProperties"), "declared keys matching a pattern: left to the validator")
        if extra is not False:
            if patterns:
                self.loose(key_path(path, "patternProperties"), "keys matching no pattern: left to the validator")
            key = self._key(schema, declared, name, path)
            value = self.visit(extra, f"{name}Extra", key_path(path, "*"), depth + 1)
            options.append(f"{key} \":\"{self.ws} {value}")
        if not options:
            return None
        return self.rule(f"{name}Member", " | ".join(options))

    def _key(self, schema: dict[str, Any], declared: list[str], name: str, path: str) -> str:
        """A property name: constrained by propertyNames, and never a declared key's spelling."""
        names = schema.get("propertyNames")
        if isinstance(names, dict) and names:
            if declared:
                self.loose(key_path(path, "propertyNames"), "undeclared keys may repeat a declared one")
            return self.visit({**names, "type": "string"}, f"{name}Key", key_path(path, "propertyNames"), 0)
        plain = [k for k in declared if not any(c in k for c in '"\\') and all(ord(c) >= 0x20 for c in k)]
        if len(plain) < len(declared):
            self.loose(path, "undeclared keys may repeat a declared key that needs escapes")
        if not plain:
            return self.prim("string")
        self.used.add("stringChar")
        return self.rule(f"{name}Key", f'"\\"" {self._not_keys(plain, name + "KeyText")} "\\""')

    def _not_keys(self, suffixes: list[str], name: str) -> str:
        """String contents that spell none of the keys (a trie walk: stop where no key ends,
        deviate from every key, or follow one next character). ``suffixes`` are what the keys
        still need from this point."""
        children: dict[str, list[str]] = {}
        for suffix in suffixes:
            if suffix:
                children.setdefault(suffix[0], []).append(suffix[1:])
        options = [] if "" in suffixes else ['""']
        excluded = "".join(class_char(c) for c in sorted(children))
        options.append(f'([^"\\\\\\x00-\\x1F{excluded}] | stringEscape) stringChar*')
        for i, char in enumerate(sorted(children)):
            options.append(f"{gbnf_literal(char)} {self._not_keys(children[char], f'{name}{i}')}")
        return self.rule(name, " | ".join(options))

    def _members(self, pairs: list[tuple[str, bool]], repeat_last: str | None = None, name: str = "members") -> str:
        """Members in schema order: required ones always, optional ones maybe, commas between.

        With ``repeat_last``, the last pair (undeclared members) may repeat. Each optional member
        that may come first starts a branch followed by the members after it; past
        ``LINEAR_FROM`` such members, those tails are shared rules (``...Rest``), so the grammar
        grows linearly with the number of optional properties, not quadratically.
        """
        ws = self.ws
        sep = self.sep()

        def one(kv: str, req: bool, first: bool) -> str:
            lead = "" if first else f"{sep} "
            if kv == repeat_last:
                return f"{kv} ({sep} {kv})*" if first else f"({sep} {kv})*"
            return f"{lead}{kv}" if req else f"({lead}{kv})?"

        leading = next((i for i, (_, req) in enumerate(pairs) if req), len(pairs))
        tails: dict[int, str] = {}
        if leading > LINEAR_FROM:
            tail = ""
            for i in range(len(pairs) - 1, 0, -1):
                tail = tails[i] = self.rule(f"{name}Rest", f"{one(*pairs[i], False)} {tail}".strip())

        def after(start: int) -> str:
            if tails or start >= len(pairs):
                return tails.get(start, "")
            return " ".join(one(kv, req, False) for kv, req in pairs[start:])

        branches = []
        for i, (kv, req) in enumerate(pairs):
            head = f"{kv} ({sep} {kv})*" if kv == repeat_last else kv
            branches.append(f"{head} {after(i + 1)}".strip())
            if req:
                break
        else:
            if tails:  # one symbol under "?": llama.cpp refuses to repeat thousands of alternatives
                return f"({self.rule(f'{name}First', ' | '.join(branches))}{ws})?"
            return f"({' | '.join(branches)}{ws})?" if len(branches) == 1 else f"(({' | '.join(branches)}){ws})?"
        return f"{branches[0]}{ws}" if len(branches) == 1 else f"({' | '.join(branches)}){ws}"

    # -- arrays -------------------------------------------------------------------------

    def _array(self, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
        prefix = list(schema.get("prefixItems") or [])
        items = schema.get("items", True)
        if "items" not in schema and "contains" not in schema:
            items = schema.get("unevaluatedItems", True)
        if False in prefix:
            prefix = prefix[:prefix.index(False)]
            items = False
        low, high = self.counts(schema, path, "minItems", "maxItems")
        if items is False:
            high = len(prefix) if high is None else min(high, len(prefix))
        if high is not None and low > high:
            raise SchemaError(key_path(path, "minItems"), "minItems is larger than the items allowed")
        if high == 0:
            return self.rule(name, f'"["{self.ws} "]"')
        heads = [self.visit(p, f"{name}Item{i}", f"{path}[{i}]", depth + 1) for i, p in enumerate(prefix)]
        item = None if items is False else self.visit(items, name + "Item", f"{path}[]", depth + 1)
        sep = self.sep()

        def tail(i: int) -> str:
            if high is not None and i >= high:
                return ""
            if i >= len(heads):
                return _repeat(f"{sep} {item}", max(low - i, 0), None if high is None else high - i)
            element = f"{sep} {heads[i]} {tail(i + 1)}".strip()
            return element if i < low else f"({element})?"

        first = f"{heads[0] if heads else item} {tail(1)}".strip() + self.ws
        return self.rule(name, f'"["{self.ws} {first if low else f"({first})?"} "]"')

    # -- scalars -------------------------------------------------------------------------

    def _string(self, schema: dict[str, Any], name: str, path: str) -> str:
        low, high = self.counts(schema, path, "minLength", "maxLength")
        pattern, fmt = schema.get("pattern"), schema.get("format")
        if pattern is not None:
            try:
                content = pattern_to_gbnf(pattern)
            except Untranslatable as exc:
                self.loose(key_path(path, "pattern"), f"not translated ({exc}): any string")
            else:
                self.used.add("stringChar")
                for keyword in ("minLength", "maxLength", "format"):
                    if keyword in schema:
                        self.loose(key_path(path, keyword), "beside a pattern: left to the validator")
                return self.rule(name, f'"\\"" {content} "\\""')
        if fmt is not None:
            if fmt in FORMATS:
                if fmt not in EXACT:
                    self.loose(key_path(path, "format"), f"{fmt!r} is approximated; the validator checks it")
                for keyword in ("minLength", "maxLength"):
                    if keyword in schema:
                        self.loose(key_path(path, keyword), "beside a format: left to the validator")
                return self.rule(name, f'"\\"" {FORMATS[fmt]} "\\""')
            self.loose(key_path(path, "format"), f"{fmt!r} is not in the grammar: any string")
        if low == 0 and high is None:
            return self.prim("string")
        self.used.add("stringChar")
        return self.rule(name, f'"\\"" {_repeat("stringChar", low, high)} "\\""')

    def _integer(self, schema: dict[str, Any], name: str, path: str) -> str:
        low, high = _bounds(schema, integer=True)
        if "multipleOf" in schema:
            self.loose(key_path(path, "multipleOf"), "left to the validator")
        if low is None and high is None:
            return self.prim("integer")
        if low is not None and high is not None and low > high:
            raise SchemaError(path, f"no integer lies between {low} and {high}")
        return self.rule(name, int_range(low, high))

    def _number(self, schema: dict[str, Any], name: str, path: str) -> str:
        if "multipleOf" in schema:
            self.loose(key_path(path, "multipleOf"), "left to the validator")
        bounded = [k for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") if k in schema]
        if not bounded:
            return self.prim("number")
        for keyword in bounded:
            self.loose(key_path(path, keyword), "only the sign is in the grammar; the validator checks the bound")
        low, _ = _bounds(schema, integer=False)
        if low is not None and low >= 0:
            return self.rule(name, '("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [-+]? [0-9]+)?')
        return self.prim("number")


def _without_unevaluated(schema: Any) -> Any:
    """An allOf part without unevaluated* (they cannot be judged once parts are merged)."""
    if isinstance(schema, dict):
        return {k: v for k, v in schema.items() if k not in ("unevaluatedProperties", "unevaluatedItems")}
    return schema


def _word(text: str, fallback: str = "p") -> str:
    """A name as a capitalized rule-name word (``get_inputs`` -> ``GetInputs``)."""
    word = camel(text, fallback)
    return word[0].upper() + word[1:]


LINEAR_FROM = 8
"""Objects with more optional properties than this before the first required one share their
members' tails as rules (see ``_members``)."""


def _repeat(item: str, low: int, high: int | None) -> str:
    """``item`` repeated low..high times (high None: unbounded), in GBNF's bounded form."""
    if high is not None and high <= 0:
        return ""
    body = item if " " not in item or item.startswith("(") and item.endswith(")") else f"({item})"
    return " " + repetition(body, low, high)


def _bounds(schema: dict[str, Any], integer: bool) -> tuple[Any, Any]:
    """(low, high) from minimum/maximum/exclusive*: whole numbers for integers."""
    low = high = None
    for key, strict in (("minimum", False), ("exclusiveMinimum", True)):
        if isinstance(schema.get(key), (int, float)) and not isinstance(schema.get(key), bool):
            value = schema[key]
            value = (math.floor(value) + 1 if strict else math.ceil(value)) if integer else value
            low = value if low is None else max(low, value)
    for key, strict in (("maximum", False), ("exclusiveMaximum", True)):
        if isinstance(schema.get(key), (int, float)) and not isinstance(schema.get(key), bool):
            value = schema[key]
            value = (math.ceil(value) - 1 if strict else math.floor(value)) if integer else value
            high = value if high is None else min(high, value)
    return low, high
