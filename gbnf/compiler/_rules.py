"""The rule table: rules deduplicated by body and named by schema path, written out in the
order a reader meets them, with only the primitives they reach."""

from __future__ import annotations

import functools
import re
import time
from dataclasses import dataclass

from gbnf.compiler import _primitives as primitives
from gbnf.compiler._literals import camel

_LITERALS = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"|\[[^\]\\]*+(?:\\.[^\]\\]*+)*+\]')  # unrolled: no backtracking
_NAMES = re.compile(r"[a-zA-Z][a-zA-Z0-9-]*+")
_TOKENS = re.compile(f"{_LITERALS.pattern}|{_NAMES.pattern}")
_REFERENCES = re.compile(rf'(?:{_LITERALS.pattern}|[^a-zA-Z"\[]++)*+(?:({_NAMES.pattern})|\Z)')
"""Everything up to the next rule name (literals and classes skipped whole), then that name; the
matches at the end of a body name nothing."""


@dataclass(frozen=True)
class Grammar:
    """A compiled grammar: ``text`` in ``dialect`` (GBNF: its start rule is ``root``), and its
    GBNF ``rules`` by name.

    ``looser`` lists the key paths where the grammar accepts more than the schema (the depth
    cap, keywords left to the validator); the validator checks those after decoding.
    """

    text: str
    rules: tuple[str, ...]
    looser: tuple[str, ...] = ()
    dialect: str = "gbnf"

    def __str__(self) -> str:
        return self.text


def references(body: str) -> list[str]:
    """Rule names a GBNF body refers to, in order (a name used twice is listed twice)."""
    return list(filter(None, _REFERENCES.findall(body)))


def renamed(body: str, names: dict[str, str]) -> str:
    """``body`` with the rule names in ``names`` replaced (literals and classes left alone)."""
    return _TOKENS.sub(lambda m: names.get(m.group(), m.group()), body)


@functools.lru_cache(maxsize=4096)
def rule_word(text: str, fallback: str = "p") -> str:
    """A name as a capitalized rule-name word (``get_inputs`` -> ``GetInputs``)."""
    word = camel(text, fallback)
    return word[0].upper() + word[1:]


COMPILE_SECONDS = 5.0
GRAMMAR_CHARS = 4_000_000
"""One compile's budget: past either, the parts not yet emitted become any JSON value (looser,
left to the validator), so a huge or pathological schema costs seconds, never minutes."""


class RuleTable:
    """Named rules, one per distinct body, within one compile's budget."""

    def __init__(self, layout: primitives.Layout) -> None:
        self.layout = layout
        self.spacing = primitives.Spacing(layout)
        self.deadline = time.monotonic() + COMPILE_SECONDS
        self.size = 0
        self.rules: dict[str, str] = {}
        self.refs: dict[str, list[str]] = {}
        self.by_body: dict[str, str] = {}
        self.suffix: dict[str, int] = {}  # the next number to try after a taken rule name
        self.log: list[tuple[str | None, str | None, str]] | None = None
        """While a list, every :meth:`add` as (name asked, body, name given), :meth:`reserve`
        as (name asked, None, name given) and :meth:`define` as (None, body, name)."""

    def add(self, name: str, body: str) -> str:
        """Add a rule (or reuse the one with the same body); returns its name."""
        unique = self.by_body.get(body)
        if unique is None:
            unique = self._fresh(name)
            self._set(unique, body)
        if self.log is not None:
            self.log.append((name, body, unique))
        return unique

    def reserve(self, name: str) -> str:
        """A rule name of its own, its body to come (:meth:`define`): rules that refer to each
        other in a cycle are reserved first."""
        unique = self._fresh(name)
        self.rules[unique] = ""
        if self.log is not None:
            self.log.append((name, None, unique))
        return unique

    def define(self, name: str, body: str) -> None:
        """Give a reserved rule its body."""
        self._set(name, body)
        if self.log is not None:
            self.log.append((None, body, name))

    def _fresh(self, name: str) -> str:
        unique, n = name, self.suffix.get(name, 1)
        while unique in self.rules or unique in primitives.PRIMITIVE_NAMES or unique == "root":
            n += 1
            unique = f"{name}{n}"
        self.suffix[name] = n
        return unique

    def _set(self, name: str, body: str) -> None:
        self.rules[name] = body
        self.size += len(body)
        self.refs[name] = references(body)
        self.by_body.setdefault(body, name)

    def spent(self) -> str | None:
        """Why this compile's budget is spent, or None while it is not."""
        if self.size > GRAMMAR_CHARS:
            return f"the grammar passed {GRAMMAR_CHARS:,} characters"
        if time.monotonic() > self.deadline:
            return f"the compile passed {COMPILE_SECONDS:g} s"
        return None

    def grammar(self, root_body: str, looser: list[str]) -> Grammar:
        """``root``, then the rules it reaches in the order a reader meets them, then the
        primitives those rules use, and ``looser`` with each spot once. A root that is one rule
        no other rule refers to becomes that rule's body."""
        if root_body in self.rules and not any(root_body in refs for refs in self.refs.values()):
            root_body = self.rules[root_body]
        ordered: dict[str, None] = {}
        used: set[str] = set()
        stack = references(root_body)[::-1]
        while stack:
            name = stack.pop()
            if name in ordered:
                continue
            if name in self.rules:
                ordered[name] = None
                stack.extend(reversed(self.refs[name]))
            elif name in primitives.PRIMITIVE_NAMES:
                used.add(name)
        prims = primitives.closure(frozenset(used), self.layout)
        lines = [f"root ::= {root_body}", *(f"{name} ::= {self.rules[name]}" for name in ordered)]
        lines += [f"{name} ::= {primitives.body(name, self.layout)}" for name in prims]
        return Grammar("\n".join(lines) + "\n", ("root", *ordered, *prims), tuple(dict.fromkeys(looser)))
