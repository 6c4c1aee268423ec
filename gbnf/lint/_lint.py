"""``gbnf lint``: what makes llama.cpp refuse a grammar, or a small model loop in it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gbnf.compiler import (
    REPETITION_LIMIT,
    Alt,
    AnyChar,
    Cls,
    Lit,
    Node,
    ParsedGrammar,
    Ref,
    Rep,
    Seq,
    parse_gbnf,
    refs_in,
)
from gbnf.errors import GbnfSyntaxError

_WHITESPACE = {" ", "\t", "\n", "\r"}
_LLAMA_NAME = re.compile(r"^[a-zA-Z0-9-]+$")


@dataclass(frozen=True)
class Problem:
    """One finding, with the place it refers to."""

    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


def lint(text: str) -> list[Problem]:
    """Every problem in a GBNF text, in file order; empty when the grammar is sound."""
    try:
        grammar = parse_gbnf(text)
    except GbnfSyntaxError as exc:
        return [Problem(exc.line, exc.column, str(exc).split(": ", 1)[1])]
    problems = _rule_names(grammar)
    rules = grammar.by_name()
    if "root" not in rules:
        problems.append(Problem(1, 1, "no 'root' rule"))
    for rule in grammar.rules:
        for ref in refs_in(rule.body):
            if ref.name not in rules:
                problems.append(Problem(ref.line, ref.column, f"undefined rule '{ref.name}'"))
    if "root" in rules:
        reachable = _reachable(rules)
        problems += [Problem(r.line, r.column, f"rule '{r.name}' is unreachable from root")
                     for r in grammar.rules if r.name not in reachable]
    problems += _left_recursion(grammar)
    problems += _unbounded_whitespace(grammar)
    problems += _bad_bounds(grammar)
    return sorted(set(problems), key=lambda p: (p.line, p.column, p.message))


def _rule_names(grammar: ParsedGrammar) -> list[Problem]:
    problems, seen = [], set()
    for rule in grammar.rules:
        if "_" in rule.name:
            problems.append(Problem(rule.line, rule.column,
                                    f"rule name '{rule.name}' has '_', which llama.cpp refuses (use camelCase)"))
        elif not _LLAMA_NAME.match(rule.name):
            problems.append(Problem(rule.line, rule.column, f"rule name '{rule.name}' is not one llama.cpp accepts"))
        if rule.name in seen:
            problems.append(Problem(rule.line, rule.column, f"rule '{rule.name}' is defined twice"))
        seen.add(rule.name)
    return problems


def _reachable(rules: dict) -> set[str]:
    seen, stack = {"root"}, ["root"]
    while stack:
        for ref in refs_in(rules[stack.pop()].body):
            if ref.name in rules and ref.name not in seen:
                seen.add(ref.name)
                stack.append(ref.name)
    return seen


def _nullable_rules(rules: dict) -> set[str]:
    """Rules that can match the empty string (a fixed point)."""
    nullable: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, rule in rules.items():
            if name not in nullable and _nullable(rule.body, nullable):
                nullable.add(name)
                changed = True
    return nullable


def _nullable(node: Node, nullable: set[str]) -> bool:
    if isinstance(node, Lit):
        return node.text == ""
    if isinstance(node, (Cls, AnyChar)):
        return False
    if isinstance(node, Ref):
        return node.name in nullable
    if isinstance(node, Seq):
        return all(_nullable(item, nullable) for item in node.items)
    if isinstance(node, Alt):
        return any(_nullable(option, nullable) for option in node.options)
    return node.low == 0 or _nullable(node.item, nullable)


def _leftmost(node: Node, nullable: set[str]) -> list[Ref]:
    """Rules that can be expanded first, before any character is consumed."""
    if isinstance(node, Ref):
        return [node]
    if isinstance(node, Seq):
        out = []
        for item in node.items:
            out += _leftmost(item, nullable)
            if not _nullable(item, nullable):
                break
        return out
    if isinstance(node, Alt):
        return [ref for option in node.options for ref in _leftmost(option, nullable)]
    if isinstance(node, Rep):
        return _leftmost(node.item, nullable)
    return []


def _left_recursion(grammar: ParsedGrammar) -> list[Problem]:
    rules = grammar.by_name()
    nullable = _nullable_rules(rules)
    edges = {name: {r.name for r in _leftmost(rule.body, nullable) if r.name in rules} for name, rule in rules.items()}
    problems = []
    for name, rule in rules.items():
        seen, stack = set(), list(edges[name])
        while stack:
            current = stack.pop()
            if current == name:
                problems.append(Problem(rule.line, rule.column, f"rule '{name}' is left-recursive"))
                break
            if current not in seen:
                seen.add(current)
                stack.extend(edges[current])
    return problems


def _whitespace_only(node: Node, rules: dict, visiting: frozenset[str] = frozenset()) -> bool:
    """Whether everything ``node`` matches is whitespace (and it can match something)."""
    if isinstance(node, Lit):
        return bool(node.text) and set(node.text) <= _WHITESPACE
    if isinstance(node, Cls):
        return not node.negated and all(chr(c) in _WHITESPACE for lo, hi in node.ranges for c in range(lo, hi + 1))
    if isinstance(node, AnyChar):
        return False
    if isinstance(node, Ref):
        if node.name in visiting or node.name not in rules:
            return False
        return _whitespace_only(rules[node.name].body, rules, visiting | {node.name})
    if isinstance(node, Seq):
        return all(_whitespace_only(i, rules, visiting) or _empty_only(i) for i in node.items) and any(
            _whitespace_only(i, rules, visiting) for i in node.items)
    if isinstance(node, Alt):
        return all(_whitespace_only(o, rules, visiting) or _empty_only(o) for o in node.options) and any(
            _whitespace_only(o, rules, visiting) for o in node.options)
    return _whitespace_only(node.item, rules, visiting)


def _empty_only(node: Node) -> bool:
    return isinstance(node, Lit) and node.text == ""


def _repetitions(grammar: ParsedGrammar) -> list[Rep]:
    """Every repetition node of the grammar."""
    found: list[Rep] = []

    def walk(node: Node) -> None:
        if isinstance(node, Rep):
            found.append(node)
            walk(node.item)
        elif isinstance(node, (Seq, Alt)):
            for child in node.items if isinstance(node, Seq) else node.options:
                walk(child)

    for rule in grammar.rules:
        walk(rule.body)
    return found


def _unbounded_whitespace(grammar: ParsedGrammar) -> list[Problem]:
    rules = grammar.by_name()
    return [Problem(rep.line, rep.column, "unbounded whitespace: a small model can loop here; bound it, e.g. {0,20}")
            for rep in _repetitions(grammar) if rep.high is None and _whitespace_only(rep.item, rules)]


def _bad_bounds(grammar: ParsedGrammar) -> list[Problem]:
    """Repetition bounds llama.cpp refuses: a minimum above the maximum, or above its limit."""
    problems = []
    for rep in _repetitions(grammar):
        if rep.high is not None and rep.low > rep.high:
            problems.append(Problem(rep.line, rep.column, f"repetition {{{rep.low},{rep.high}}}: the minimum is "
                                    "above the maximum"))
        elif rep.low > REPETITION_LIMIT:
            problems.append(Problem(rep.line, rep.column, f"llama.cpp refuses more than {REPETITION_LIMIT} required "
                                    f"repetitions ({rep.low}); split it, e.g. x{{{REPETITION_LIMIT}}} x{{...}}"))
    return problems
