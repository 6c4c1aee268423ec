"""The same grammar for other engines: llguidance's Lark-like syntax and XGrammar's EBNF.

Both are written from the parsed GBNF, so they hold exactly the language llama.cpp decides.

llguidance lexes before it parses: string literals and ``/regex/`` s are lexemes, uppercase
rules are terminals (compiled to one regex each), lowercase rules are context-free, and its
lexer is greedy without backtracking. Every rule that reaches no recursion and is used by none
that does is written as a terminal, so a whole call without generic JSON is one regular
expression; the rules on a cycle (the generic ``jsonValue``), those that use one, and every rule
below them are lowercase with one-character lexemes, so no lexing choice can differ from
llama.cpp's character-level decision. Character classes are written for Rust's ``regex`` crate
(which llguidance uses): every character but ASCII letters and digits as ``\\x{...}``,
surrogates (which UTF-8 cannot carry) left out.

XGrammar's EBNF is GBNF's syntax, written back from the tree with the escapes XGrammar reads as
llama.cpp does (``\\uXXXX``: it reads every hex digit after ``\\x``).
"""

from __future__ import annotations

import functools
import re
from typing import Literal

from gbnf.compiler._syntax import Alt, AnyChar, Cls, Lit, Node, ParsedGrammar, Ref, Rep, Seq, parse_gbnf, refs_in
from gbnf.errors import GbnfError, GrammarError

Dialect = Literal["gbnf", "llguidance", "xgrammar"]
DIALECTS: tuple[Dialect, ...] = ("gbnf", "llguidance", "xgrammar")
_SURROGATES = (0xD800, 0xDFFF)


@functools.lru_cache(maxsize=64)
def translate(gbnf_text: str, dialect: Dialect) -> str:
    """``gbnf_text`` written for ``dialect``'s engine (unchanged for ``gbnf``); the last 64
    translations are kept, so a planner's or server's repeated grammar is parsed once."""
    if dialect == "gbnf":
        return gbnf_text
    if dialect not in DIALECTS:
        raise GbnfError(f"unknown dialect {dialect!r}: choose one of {', '.join(DIALECTS)}")
    grammar = parse_gbnf(gbnf_text)
    return to_llguidance(grammar) if dialect == "llguidance" else to_xgrammar(grammar)


# -- llguidance ------------------------------------------------------------------------

LLGUIDANCE_NESTING = 1500
"""The deepest chain of rules written for llguidance: llguidance 1.9 loads a chain of 2,000
nested rules and dies with SIGSEGV on one of 3,000 (its grammar passes recurse)."""
LLGUIDANCE_GROUPS = 16
"""The deepest nesting of parenthesized groups written in one llguidance rule: its Lark reader
refuses a rule with about 30 (a tuple of 30 optional items); a group deeper than this becomes a
rule of its own."""
LLGUIDANCE_TRIE_FROM = 32
"""In a context-free rule, an alternation of this many literals or more (a long ``enum``) is
written as a trie of their characters: cut into one-character lexemes, every literal would be
alive after the first character, and llguidance's parser gives up past 2,000 or so alive at once."""


def to_llguidance(grammar: ParsedGrammar) -> str:
    """The grammar in llguidance's Lark-like syntax (``start`` is ``root``)."""
    rules = grammar.by_name()
    if "root" not in rules:
        raise GbnfError("the grammar has no root rule")
    refs = {name: {ref.name for ref in refs_in(rule.body)} for name, rule in rules.items()}
    undefined = sorted(set().union(*refs.values()) - set(rules))
    if undefined:
        raise GbnfError(f"undefined rule {undefined[0]!r}")
    context_free = _lexed(refs)
    names = {name: _snake(name) if name in context_free else _snake(name).upper() for name in rules}
    names = {name: "start-" if value == "start" else value for name, value in names.items()}  # "start" is ours
    writer = _LarkWriter(names)
    lines = ["%llguidance {}", "", f"start: {names['root']}"]
    for name, rule in rules.items():
        writer.rule(names[name], rule.body, name in context_free)
    depth = _nesting(refs, "root") + sum(writer.lifted.values())  # a lifted group may deepen a chain by one
    if depth > LLGUIDANCE_NESTING:
        raise GrammarError(f"up to {depth} rules nest in one chain (an object with that many optional properties, "
                           f"a tuple of thousands of items): llguidance overflows its stack loading a chain past "
                           f"about 2,500 (SIGSEGV), so this grammar is not written for it past {LLGUIDANCE_NESTING}",
                           "")
    return "\n".join(lines + writer.lines + writer.char_rules()) + "\n"


def _lexed(refs: dict[str, set[str]]) -> set[str]:
    """The rules that must stay context-free: those on a reference cycle, those that refer to
    one, and every rule these refer to."""
    def reaches(start: str) -> set[str]:
        seen, stack = set(), list(refs[start])
        while stack:
            name = stack.pop()
            if name not in seen:
                seen.add(name)
                stack.extend(refs[name])
        return seen

    reach = {name: reaches(name) for name in refs}
    cyclic = {name for name in refs if name in reach[name]}
    above = {name for name in refs if name in cyclic or reach[name] & cyclic}
    return above | {below for name in above for below in reach[name]}


def _snake(name: str) -> str:
    """``jsonValue`` -> ``json_value``: one-to-one, since GBNF names here have no ``_``."""
    return re.sub(r"[A-Z]", lambda m: "_" + m.group().lower(), name).replace("-", "_-")


class _LarkWriter:
    """Writes rules in Lark syntax; in a ``lexed`` (lowercase) rule every literal is cut into
    one-character lexemes (see :func:`to_llguidance`), each a rule of its own (``lit__u22`` for
    ``"``) used wherever that character is: llguidance spends a grammar symbol on every literal
    written in a rule, and one on a rule however often it is used. A group nested deeper than
    :data:`LLGUIDANCE_GROUPS` is written as a rule of its own, named after its rule
    (``rule__1``: no GBNF name gives ``__``), of the same case."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.lines: list[str] = []
        self.lifted: dict[str, int] = {}
        self.chars: dict[str, str] = {}
        """The rule of each character a lexed rule uses, by character."""

    def char_rules(self) -> list[str]:
        """The rules of the characters used, one line each."""
        return [f"{name}: {_lark_literal(char)}" for char, name in self.chars.items()]

    def rule(self, name: str, body: Node, lexed: bool, owner: str | None = None) -> None:
        """Write rule ``name``; the rules lifted from its body follow it, named after ``owner``
        (the rule of the grammar they were lifted from; ``name`` itself when None)."""
        at = len(self.lines)
        self.lines.append("")  # its place, before the rules its body lifts
        self.lines[at] = f"{name}: {self._lark(body, lexed, owner or name, 0)}"

    def _lark(self, node: Node, lexed: bool, owner: str, depth: int) -> str:
        if isinstance(node, Lit):
            if not lexed or not node.text:
                return _lark_literal(node.text)
            return " ".join(self.chars.setdefault(char, f"lit__u{ord(char):x}") for char in node.text)
        if isinstance(node, Cls):
            return f"/{_rust_class(node)}/"
        if isinstance(node, AnyChar):
            return "/(?s:.)/"
        if isinstance(node, Ref):
            return self.names[node.name]
        if isinstance(node, Seq):
            return (" ".join(self._group(item, lexed, False, owner, depth) for item in node.items)
                    if node.items else '""')
        if isinstance(node, Alt):
            texts = [option.text for option in node.options if isinstance(option, Lit)]
            if lexed and LLGUIDANCE_TRIE_FROM <= len(texts) == len(node.options) and any(len(t) > 1 for t in texts):
                return self._lark(_trie(texts), lexed, owner, depth)
            return " | ".join(self._lark(option, lexed, owner, depth) for option in node.options)
        item = self._group(node.item, lexed, True, owner, depth)
        if (node.low, node.high) == (0, None):
            return f"{item}*"
        if (node.low, node.high) == (1, None):
            return f"{item}+"
        if (node.low, node.high) == (0, 1):
            return f"{item}?"
        return f"{item}{{{node.low},{'' if node.high is None else node.high}}}"

    def _group(self, node: Node, lexed: bool, repeated: bool, owner: str, depth: int) -> str:
        if depth >= LLGUIDANCE_GROUPS and isinstance(node, (Seq, Alt, Rep)):
            self.lifted[owner] = count = self.lifted.get(owner, 0) + 1
            name = f"{owner}__{count}"
            self.rule(name, node, lexed, owner)
            return name
        text = self._lark(node, lexed, owner, depth + 1)
        return f"({text})" if _compound(node, repeated) or repeated and " " in text else text


def _trie(texts: list[str]) -> Node:
    """The alternation of ``texts`` with common prefixes shared (the same language)."""
    ends = "" in texts
    branches: dict[str, list[str]] = {}
    for text in texts:
        if text:
            branches.setdefault(text[0], []).append(text[1:])
    options: list[Node] = []
    for char, rests in branches.items():
        prefix = char
        while len(rests) > 1 and all(rests) and len({rest[0] for rest in rests}) == 1:
            prefix += rests[0][0]
            rests = [rest[1:] for rest in rests]
        if len(rests) == 1 or not any(rests):
            options.append(Lit(prefix + rests[0]))
        else:
            options.append(Seq((Lit(prefix), _trie(rests))))
    alternation = options[0] if len(options) == 1 else Alt(tuple(options))
    return Rep(alternation, 0, 1, 0, 0) if ends else alternation


def _compound(node: Node, repeated: bool) -> bool:
    """Whether ``node`` needs parentheses as an item of a sequence (or of a repetition)."""
    return repeated and isinstance(node, Rep) or isinstance(node, (Seq, Alt)) and len(_items(node)) > 1


def _items(node: Seq | Alt) -> tuple[Node, ...]:
    return node.items if isinstance(node, Seq) else node.options


def _lark_literal(text: str) -> str:
    """A string literal: JSON-style escapes for quote, backslash and control characters."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return f'"{"".join(out)}"'


def _rust_class(node: Cls) -> str:
    """A character class for Rust's ``regex`` crate; an empty one matches nothing."""
    ranges = []
    for low, high in node.ranges:
        if low > high:
            continue
        first, last = _SURROGATES
        if low < first <= high or low <= last < high or first <= low <= high <= last:
            if low < _SURROGATES[0]:
                ranges.append((low, min(high, _SURROGATES[0] - 1)))
            if high > _SURROGATES[1]:
                ranges.append((max(low, _SURROGATES[1] + 1), high))
            continue
        ranges.append((low, high))
    if not ranges:
        return "(?s:.)" if node.negated else "[^\\x{0}-\\x{10FFFF}]"
    body = "".join(_rust_char(lo) if lo == hi else f"{_rust_char(lo)}-{_rust_char(hi)}" for lo, hi in ranges)
    return f"[{'^' if node.negated else ''}{body}]"


def _rust_char(code: int) -> str:
    return chr(code) if chr(code).isascii() and chr(code).isalnum() else f"\\x{{{code:X}}}"


# -- XGrammar --------------------------------------------------------------------------


def to_xgrammar(grammar: ParsedGrammar) -> str:
    """The grammar in XGrammar's EBNF (GBNF's syntax, escapes normalized)."""
    return "".join(f"{rule.name} ::= {_ebnf(rule.body)}\n" for rule in grammar.rules)


def _ebnf(node: Node) -> str:
    if isinstance(node, Lit):
        return '"' + "".join(_ebnf_char(c, '"') for c in node.text) + '"'
    if isinstance(node, Cls):
        body = "".join(_ebnf_char(chr(lo), "]-^") if lo == hi else
                       f"{_ebnf_char(chr(lo), ']-^')}-{_ebnf_char(chr(hi), ']-^')}" for lo, hi in node.ranges)
        return f"[{'^' if node.negated else ''}{body}]"
    if isinstance(node, AnyChar):
        return "[\\u0000-\\U0010FFFF]"
    if isinstance(node, Ref):
        return node.name
    if isinstance(node, Seq):
        return " ".join(_ebnf_group(item, False) for item in node.items) if node.items else '""'
    if isinstance(node, Alt):
        return " | ".join(_ebnf(option) for option in node.options)
    item = _ebnf_group(node.item, True)
    if (node.low, node.high) == (0, None):
        return f"{item}*"
    if (node.low, node.high) == (0, 1):
        return f"{item}?"
    return f"{item}{{{node.low},{'' if node.high is None else node.high}}}"


def _ebnf_group(node: Node, repeated: bool) -> str:
    text = _ebnf(node)
    return f"({text})" if _compound(node, repeated) else text


def _ebnf_char(char: str, special: str) -> str:
    code = ord(char)
    if char == "\\" or char in special:
        return "\\" + char
    if code < 0x20 or code == 0x7F:
        return f"\\u{code:04X}"  # XGrammar reads every hex digit after \\x: \\x1Fb would be U+01FB
    return char


def _nesting(refs: dict[str, set[str]], root: str) -> int:
    """The longest chain of rules from ``root``, each referring to the next (a rule met again on
    the way ends the chain); iterative, since the chain may be longer than Python's recursion."""
    depth: dict[str, int] = {}
    path = {root}
    stack = [(root, iter(sorted(refs[root])))]
    while stack:
        name, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            path.discard(name)
            depth[name] = 1 + max((depth.get(c, 0) for c in refs[name] if c not in path), default=0)
        elif child not in depth and child not in path:
            path.add(child)
            stack.append((child, iter(sorted(refs[child]))))
    return depth[root]
