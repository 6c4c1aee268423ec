"""GBNF itself, parsed with a lark grammar into a small tree (for the linter and the lark oracle).

It accepts what llama.cpp's parser accepts (and ``_`` in names, so the linter can report it):
rules ``name ::= alternatives`` one per line, newlines allowed inside parentheses and after
``|``, literals, character classes, ``.``, groups, and ``* + ? {m} {m,} {m,n}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import VisitError

from gbnf.errors import GbnfError, GbnfSyntaxError

_META = r"""
start: _NL? (rule _NL?)*
rule: NAME DEFINE alts
alts: seq ("|" _NL? seq)*
seq: item*
nalts: nseq ("|" _NL? nseq)*
nseq: (item _NL?)*
item: atom QUANT?
?atom: STRING | CLASS | NAME -> ref | "(" _NL? nalts ")" -> group | DOT
QUANT: "*" | "+" | "?" | /\{[ \t]*\d+[ \t]*(,[ \t]*\d*[ \t]*)?\}/
NAME: /[a-zA-Z0-9_-]+/
STRING: /"(\\.|[^"\\\n])*"/
CLASS: /\[(\\.|[^\]\\\n])*\]/
DOT: "."
DEFINE: "::="
COMMENT: /#[^\n]*/
_NL: /([ \t]*(#[^\n]*)?\r?\n)+[ \t]*/
%ignore /[ \t]+/
%ignore COMMENT
"""
_PARSER = Lark(_META, parser="lalr", propagate_positions=True, maybe_placeholders=False)
_TERMINALS = {"DEFINE": "'::='", "LPAR": "'('", "RPAR": "')'", "VBAR": "'|'", "STRING": "a literal",
              "CLASS": "a character class", "NAME": "a rule name", "DOT": "'.'", "QUANT": "a quantifier",
              "_NL": "a new line", "$END": "the end"}
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"', "[": "[", "]": "]"}  # llama.cpp's set


@dataclass(frozen=True)
class Lit:
    text: str


@dataclass(frozen=True)
class Cls:
    ranges: tuple[tuple[int, int], ...]
    negated: bool

    def matches(self, char: str) -> bool:
        inside = any(lo <= ord(char) <= hi for lo, hi in self.ranges)
        return inside != self.negated


@dataclass(frozen=True)
class AnyChar:
    pass


@dataclass(frozen=True)
class Ref:
    name: str
    line: int
    column: int


@dataclass(frozen=True)
class Seq:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    options: tuple[Node, ...]


@dataclass(frozen=True)
class Rep:
    item: Node
    low: int
    high: int | None
    line: int
    column: int


Node = Union[Lit, Cls, AnyChar, Ref, Seq, Alt, Rep]


@dataclass(frozen=True)
class Rule:
    name: str
    body: Node
    line: int
    column: int


@dataclass(frozen=True)
class ParsedGrammar:
    """Rules in file order (a name defined twice appears twice; the linter reports it)."""

    rules: tuple[Rule, ...]

    def by_name(self) -> dict[str, Rule]:
        return {rule.name: rule for rule in self.rules}


def refs_in(node: Node) -> list[Ref]:
    """The rule references in ``node``, in order."""
    if isinstance(node, Ref):
        return [node]
    if isinstance(node, (Seq, Alt)):
        children = node.items if isinstance(node, Seq) else node.options
        return [ref for child in children for ref in refs_in(child)]
    if isinstance(node, Rep):
        return refs_in(node.item)
    return []


def parse_gbnf(text: str) -> ParsedGrammar:
    """Parse GBNF text; raise :class:`GbnfSyntaxError` with line and column."""
    try:
        tree = _PARSER.parse(text + "\n")
    except UnexpectedInput as exc:
        expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()
        names = sorted({_TERMINALS.get(str(e), str(e)) for e in expected})
        hint = f" (expected {', '.join(names)})" if names else ""
        lines = text.splitlines() or [""]
        line, column = (exc.line, exc.column) if exc.line > 0 else (len(lines), len(lines[-1]) + 1)
        near = lines[line - 1][column - 1:][:20] if line <= len(lines) else ""
        message = f"syntax error at {near!r}" if near else "unexpected end of input"
        raise GbnfSyntaxError(message + hint, line, column) from None
    try:
        return _ToTree().transform(tree)
    except (RecursionError, VisitError) as exc:
        if isinstance(exc, VisitError) and not isinstance(exc.orig_exc, RecursionError):
            raise
        raise GbnfSyntaxError("nested too deeply to read", 1, 1) from None


def decode_literal(token: str) -> str:
    """The text a GBNF string literal (quotes included) stands for."""
    chars, _ = _decode(token[1:-1], 0, len(token) - 2)
    return "".join(chars)


def decode_class(token: str) -> Cls:
    """The character set a GBNF class (brackets included) stands for."""
    body = token[1:-1]
    negated = body.startswith("^")
    chars, _ = _decode(body[1:] if negated else body, 0, None, keep_dash=True)
    ranges = []
    i = 0
    while i < len(chars):
        if i + 2 < len(chars) and chars[i + 1] == _DASH:
            ranges.append((ord(chars[i]), ord(chars[i + 2])))
            i += 3
        else:
            ranges.append((ord(chars[i] if chars[i] != _DASH else "-"),) * 2)
            i += 1
    return Cls(tuple(ranges), negated)


_DASH = object()


def _decode(body: str, start: int, end: int | None, keep_dash: bool = False) -> tuple[list, int]:
    """Decode escapes; in classes an unescaped ``-`` becomes the range marker ``_DASH``."""
    out: list = []
    i = start
    end = len(body) if end is None else end
    while i < end:
        char = body[i]
        if char == "\\" and i + 1 < end:
            kind = body[i + 1]
            width = {"x": 2, "u": 4, "U": 8}.get(kind)
            if width:
                digits = body[i + 2:i + 2 + width]
                if len(digits) != width or not re.fullmatch(r"[0-9a-fA-F]+", digits):
                    raise GbnfError(f"bad escape \\{kind}{digits}")
                out.append(chr(int(digits, 16)))
                i += 2 + width
                continue
            if kind not in _ESCAPES:
                raise GbnfError(f"unknown escape \\{kind}")
            out.append(_ESCAPES[kind])
            i += 2
            continue
        out.append(_DASH if keep_dash and char == "-" and out and i + 1 < end else char)
        i += 1
    return out, i


class _ToTree(Transformer):
    def start(self, rules: list[Rule]) -> ParsedGrammar:
        return ParsedGrammar(tuple(rules))

    def rule(self, children: list) -> Rule:
        name, _, body = children
        return Rule(str(name), body, name.line, name.column)

    def alts(self, options: list[Node]) -> Node:
        return options[0] if len(options) == 1 else Alt(tuple(options))

    nalts = alts

    def seq(self, items: list[Node]) -> Node:
        return items[0] if len(items) == 1 else Seq(tuple(items))

    nseq = seq

    def item(self, children: list) -> Node:
        if len(children) == 1:
            return children[0]
        atom, quant = children
        text = str(quant)
        if text == "*":
            low, high = 0, None
        elif text == "+":
            low, high = 1, None
        elif text == "?":
            low, high = 0, 1
        else:
            parts = text[1:-1].replace(" ", "").replace("\t", "").split(",")
            low = int(parts[0])
            high = low if len(parts) == 1 else (int(parts[1]) if parts[1] else None)
        return Rep(atom, low, high, quant.line, quant.column)

    def ref(self, children: list[Token]) -> Ref:
        token = children[0]
        return Ref(str(token), token.line or 0, token.column or 0)

    def group(self, children: list[Node]) -> Node:
        return children[0]

    def STRING(self, token: Token) -> Lit:
        return Lit(decode_literal(str(token)))

    def CLASS(self, token: Token) -> Cls:
        return decode_class(str(token))

    def DOT(self, token: Token) -> AnyChar:
        return AnyChar()
