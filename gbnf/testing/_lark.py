"""A second acceptance oracle in pure Python: a GBNF grammar translated into a lark grammar.

Every literal and character class becomes a one-match regex terminal and every GBNF rule a
lark rule, parsed character by character with lark's Earley parser (which takes ambiguous
grammars, as GBNF ones often are). Bounded repetitions become chains of optional rules, so
``x{0,1000}`` stays linear in size.
"""

from __future__ import annotations

import functools

from lark import Lark, LarkError

from gbnf.compiler import Alt, AnyChar, Cls, Lit, Node, ParsedGrammar, Ref, Rep, Seq, parse_gbnf
from gbnf.errors import GbnfError
from gbnf.testing._oracle import PerGrammar

_EMPTY = "<empty>"  # an expression that matches only the empty string


class LarkGrammar:
    """One GBNF grammar as a lark parser: does it accept a text? (no llama.cpp needed)"""

    def __init__(self, gbnf_text: str) -> None:
        grammar = parse_gbnf(gbnf_text)
        self._translation = _Translator(grammar)
        self.lark_text = self._translation.text()
        self._parser = Lark(self.lark_text, start="start", parser="earley", lexer="dynamic")

    def accepts(self, text: str) -> bool:
        """Whether ``text`` is in the grammar's language."""
        try:
            self._parser.parse(text)
        except LarkError:
            return False
        return True


@functools.cache
def lark_oracle() -> PerGrammar:
    """The pure-Python oracle (each grammar translated once)."""
    return PerGrammar(LarkGrammar)


class _Translator:
    def __init__(self, grammar: ParsedGrammar) -> None:
        rules = grammar.by_name()
        if "root" not in rules:
            raise GbnfError("the grammar has no root rule")
        self.names = {name: f"r{i}" for i, name in enumerate(rules)}
        self.terminals: dict[str, str] = {}
        self.extra: list[str] = []
        self.lines = ["start: r%d" % list(rules).index("root")]
        for name, rule in rules.items():
            body = self.expr(rule.body)
            self.lines.append(f"{self.names[name]}: {'' if body == _EMPTY else body}")

    def text(self) -> str:
        terms = [f"{name}: /{pattern}/" for pattern, name in self.terminals.items()]
        return "\n".join(self.lines + self.extra + terms) + "\n"

    def terminal(self, pattern: str) -> str:
        if pattern not in self.terminals:
            self.terminals[pattern] = f"T{len(self.terminals)}"
        return self.terminals[pattern]

    def helper(self, body: str) -> str:
        name = f"h{len(self.extra)}"
        self.extra.append(f"{name}: {'' if body == _EMPTY else body}")
        return name

    def expr(self, node: Node) -> str:
        if isinstance(node, Lit):
            if not node.text:
                return _EMPTY
            return self.terminal("".join(_char(c) for c in node.text))
        if isinstance(node, Cls):
            body = "".join(_char(chr(lo)) if lo == hi else f"{_char(chr(lo))}-{_char(chr(hi))}"
                           for lo, hi in node.ranges)
            if not body:
                return self.terminal("(?s:.)" if node.negated else "(?!)")
            return self.terminal(f"[{'^' if node.negated else ''}{body}]")
        if isinstance(node, AnyChar):
            return self.terminal("(?s:.)")
        if isinstance(node, Ref):
            if node.name not in self.names:
                raise GbnfError(f"{node.line}:{node.column}: undefined rule {node.name!r}")
            return self.names[node.name]
        if isinstance(node, Seq):
            parts = [self.expr(item) for item in node.items]
            parts = [p for p in parts if p != _EMPTY]
            return " ".join(parts) if parts else _EMPTY
        if isinstance(node, Alt):
            options = [self.expr(option) for option in node.options]
            if _EMPTY in options:
                rest = [o for o in options if o != _EMPTY]
                return f"({' | '.join(rest)})?" if rest else _EMPTY
            return "(" + " | ".join(options) + ")"
        return self.repeat(node)

    def repeat(self, node: Rep) -> str:
        item = self.expr(node.item)
        if item == _EMPTY:
            return _EMPTY
        item = self.helper(item)
        fixed = [item] * node.low
        if node.high is None:
            tail = f"{item}*"
        else:
            tail = ""
            for _ in range(node.high - node.low):
                tail = self.helper(f"({item} {tail})?" if tail else f"{item}?")
        parts = fixed + ([tail] if tail else [])
        return " ".join(parts) if parts else _EMPTY


def _char(char: str) -> str:
    """One character as it must be written inside a lark regex terminal.

    Lark evaluates escapes in the terminal text before compiling the regex: ``\\uXXXX``
    becomes the raw character (safe for anything but ASCII punctuation), and a backslash
    before punctuation survives as a regex escape.
    """
    code = ord(char)
    if code < 128 and char.isalnum():
        return char
    if 32 <= code < 127:
        return "\\" + char
    return f"\\U{code:08x}" if code > 0xFFFF else f"\\u{code:04x}"
