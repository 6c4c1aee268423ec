"""Regular languages of JSON string contents as GBNF: a pattern read as the strings
``re.search`` finds a match in (ECMA-262's classes, as the pattern rules read them), built into
a finite automaton with interegular, and written one rule per state, the rules referring to
each other (a state's loop on itself a repetition). Used for the keys an object's patterns
leave over (:mod:`~gbnf.compiler._unmatched`) and for a pattern within lengths
(:mod:`~gbnf.compiler._lengths`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import interegular
from interegular.fsm import FSM, anything_else
from interegular.fsm import State as Node

from gbnf.compiler._regex import (
    _CLASS_ESCAPES,
    MAX_CODE,
    Ranges,
    _alternatives,
    _negate,
    _subtract,
    class_body,
    ranges_to_gbnf,
)
from gbnf.compiler._rules import RuleTable
from gbnf.errors import Untranslatable

MOST_STATES = 300
"""The most automaton states (so rules) one language may take."""
MOST_PATTERN_CHARS = 200
"""The longest patterns (in all) an automaton is built for: building one takes time that grows
fast with a pattern's groups and counts."""
MOST_LITERAL_CHARS = 2000
"""The most characters of literal strings (in all) an automaton is built around."""
_UNSUPPORTED = re.compile(r"\\[bBAZGz]|\(\?[=!<]|\\[1-9]|\(\?[a-zA-Z]")
"""Syntax whose meaning the automaton does not carry: word boundaries, string anchors,
lookarounds, backreferences, inline flags."""


def search_machine(patterns: Sequence[str], literals: Sequence[str] = ()) -> FSM | None:
    """The automaton of the strings in which ``re.search`` finds a match of one of ``patterns``,
    or that equal one of ``literals``; None when that is every string (one alternative of a
    pattern matches the empty string unanchored). :class:`Untranslatable` where a pattern is out
    of the automaton's reach, or past :data:`MOST_PATTERN_CHARS` / :data:`MOST_LITERAL_CHARS`."""
    ends: dict[tuple[str, str], list[str]] = {}  # bodies by what may come before and after them
    refused = None
    for option in (option for pattern in patterns for option in _alternatives(pattern)):
        try:
            read = searched(option)
        except Untranslatable as exc:
            refused = exc
            continue
        if read is None:  # every string matches, whatever the other options are
            return None
        before, body, after = read
        ends.setdefault((before, after), []).append(body)
    if refused is not None:
        raise refused
    if sum(map(len, patterns)) > MOST_PATTERN_CHARS or sum(map(len, literals)) > MOST_LITERAL_CHARS:
        raise Untranslatable(f"more than {MOST_PATTERN_CHARS} characters of patterns or {MOST_LITERAL_CHARS} of "
                             "declared keys")
    # one regex per kind of anchoring: the automaton of "[\s\S]*(?:en|de|...)[\s\S]*" is built
    # at once, where a union of one automaton per word grows exponentially before it is reduced
    options = [before + "(?:" + "|".join(bodies) + ")" + after for (before, after), bodies in ends.items()]
    return build([*options, *(re.escape(literal) for literal in literals)])


def build(regexes: Sequence[str]) -> FSM:
    """The automaton of the strings that fully match one of ``regexes`` (interegular's syntax)."""
    try:
        return interegular.parse_pattern("|".join(f"(?:{regex})" for regex in regexes)).to_fsm()
    except Exception as exc:  # interegular's parse and build errors have no common base
        raise Untranslatable(f"not read as an automaton: {exc}") from None


@dataclass(frozen=True)
class State:
    """One live state: whether the text may end here, the characters that stay here, and the
    characters that lead on to each other state (by its index)."""

    final: bool
    loop: Ranges
    edges: tuple[tuple[Ranges, int], ...]


def machine_states(machine: FSM) -> tuple[State, ...]:
    """The live states of ``machine`` reached from its start, the start first, breadth first and
    each state's targets by the lowest character leading to each (the same order in every
    process: interegular numbers symbols and states in the order of Python's sets of
    characters, which vary with the hash seed); empty when it accepts nothing.
    :class:`Untranslatable` past :data:`MOST_STATES`."""
    live = _live_states(machine)
    if machine.initial not in live:
        return ()
    chars = _symbol_ranges(machine)
    order, index = [machine.initial], {machine.initial: 0}
    moves: list[dict[Node, Ranges]] = []
    for state in order:
        targets: dict[Node, Ranges] = {}
        for symbol, target in machine.map.get(state, {}).items():
            if target in live:
                targets.setdefault(target, []).extend(chars.get(symbol, []))
        targets = {target: sorted(ranges) for target, ranges in targets.items() if ranges}
        for target in sorted(targets, key=lambda t: targets[t][0][0]):
            if target not in index:
                index[target] = len(order)
                order.append(target)
        moves.append(targets)
        if len(order) > MOST_STATES:
            raise Untranslatable(f"more than {MOST_STATES} automaton states")
    return tuple(State(state in machine.finals, targets.pop(state, []),
                       tuple(sorted((ranges, index[target]) for target, ranges in targets.items())))
                 for state, targets in zip(order, moves))


def automaton_rule(states: tuple[State, ...], table: RuleTable, name: str) -> str:
    """The rule of the start state, one rule per state (reserved first: they may refer to each
    other in a cycle)."""
    names = [table.reserve(name) for _ in states]
    for state, rule in zip(states, names):
        options = [f"{_json_char(ranges)} {names[target]}" for ranges, target in state.edges]
        if state.final:
            options.append('""')
        rest = options[0] if len(options) == 1 else f"({' | '.join(options)})"
        if state.loop:
            rest = f"{_json_char(state.loop)}*" + ("" if rest == '""' else f" {rest}")
        table.define(rule, rest)
    return names[0]


def _json_char(ranges: Ranges) -> str:
    """One character of ``ranges`` as a JSON string writes it; a set with every character a
    JSON string escapes is written as the characters it lacks, and any escape (an escape may
    spell one of those: the validator checks it), which keeps the grammar small."""
    if _subtract(_ESCAPED, ranges):
        return ranges_to_gbnf(ranges)
    return f'([^"\\\\\\x00-\\x1F{class_body(_negate(ranges))}] | stringEscape)'


_ESCAPED: Ranges = [(0x00, 0x1F), (0x22, 0x22), (0x5C, 0x5C)]
"""The characters a JSON string always writes as escapes."""


def searched(option: str) -> tuple[str, str, str] | None:
    """The strings ``re.search`` finds a match of ``option`` (one top-level alternative of a
    pattern, anchored at its own ends) in, as a regex in three parts: what may come before the
    match (nothing, or any text), the match, what may come after; None when that is every string."""
    if _UNSUPPORTED.search(option):
        raise Untranslatable(f"regex syntax the automaton does not carry in {option!r}")
    start, end = option.startswith("^"), option.endswith("$") and not option.endswith("\\$")
    body = option[1 if start else 0:len(option) - 1 if end else len(option)]
    if "^" in body.replace("[^", "").replace("\\^", "") or re.search(r"(?<!\\)\$", body):
        raise Untranslatable(f"an anchor inside {option!r}")
    if not end:
        body = re.sub(r"(?<!\\)\.\*\??$", "", body)  # "f.*" finds what "f" finds
    if not start:
        body = re.sub(r"^\.\*\??", "", body)
    if not (start and end) and _matches_empty(body):
        return None  # an empty match at the start or the end of any string
    return ("" if start else "[\\s\\S]*"), f"(?:{_ecma(body)})", ("" if end else "[\\s\\S]*")


def _matches_empty(body: str) -> bool:
    try:
        return re.fullmatch(body, "") is not None
    except re.error:
        return False


def _live_states(machine: FSM) -> set[Node]:
    """The states from which some text is accepted."""
    sources: dict[Node, set[Node]] = {}
    for state, moves in machine.map.items():
        for target in moves.values():
            sources.setdefault(target, set()).add(state)
    live, todo = set(machine.finals), list(machine.finals)
    while todo:
        for source in sources.get(todo.pop(), ()):
            if source not in live:
                live.add(source)
                todo.append(source)
    return live


def _ecma(pattern: str) -> str:
    """``pattern`` with ``.``, ``\\s`` and ``\\S`` spelled as ECMA-262 reads them (as the pattern
    rules do): ``.`` is no line terminator, ``\\s`` takes Unicode's spaces too."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            escaped = pattern[i + 1]
            if escaped in "sS" and in_class and escaped == "S":
                raise Untranslatable(f"\\S inside a class in {pattern!r}")
            if escaped in "sS":
                out.append(_SPACES if in_class else f"[{'^' if escaped == 'S' else ''}{_SPACES}]")
            else:
                out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = char != "]" or pattern[i - 1] == "["
        elif char == "[":
            in_class = True
        elif char == ".":
            char = "[^\n\r\u2028\u2029]"
        out.append(char)
        i += 1
    return "".join(out)


_SPACES = "".join(chr(lo) if lo == hi else f"{chr(lo)}-{chr(hi)}" for lo, hi in _CLASS_ESCAPES["s"])
"""ECMA-262's white space and line terminators, as the inside of a regex class."""


def _symbol_ranges(machine: FSM) -> dict[int, Ranges]:
    """The characters each of the automaton's symbols stands for."""
    named: dict[int, Ranges] = {}
    listed: Ranges = []
    other = None
    for symbol, chars in machine.alphabet.by_transition.items():
        for char in chars:
            if char is anything_else:
                other = symbol
            else:
                named.setdefault(symbol, []).append((ord(char), ord(char)))
                listed.append((ord(char), ord(char)))
    if other is not None:
        rest: Ranges = []
        low = 0
        for code, _ in sorted(listed):
            if code > low:
                rest.append((low, code - 1))
            low = code + 1
        if low <= MAX_CODE:
            rest.append((low, MAX_CODE))
        named.setdefault(other, []).extend(rest)
    return {symbol: sorted(ranges) for symbol, ranges in named.items()}
