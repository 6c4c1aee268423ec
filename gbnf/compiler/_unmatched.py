"""Keys an object's ``patternProperties`` leave to ``additionalProperties``: those matching none
of its patterns (as the validator matches them, ``re.search``) and spelling no declared key.

The language is built as a finite automaton (interegular: each pattern's search language, their
union with the declared keys, complemented) and written as rules, one per state. A state's
loop on itself becomes a repetition, so the rules form no cycle; an automaton with longer
cycles (an unanchored pattern of several characters), or past :data:`MOST_STATES`, is
:class:`Untranslatable`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
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
from gbnf.errors import Untranslatable

MOST_STATES = 300
"""The most automaton states (so rules) one object's unmatched keys may take."""
MOST_PATTERN_CHARS = 200
"""The longest patterns (in all) an automaton is built for: building one takes time that grows
fast with a pattern's groups and counts."""
MOST_KEY_CHARS = 2000
"""The most characters of declared keys (in all) an automaton is built around."""
_UNSUPPORTED = re.compile(r"\\[bBAZGz]|\(\?[=!<]|\\[1-9]|\(\?[a-zA-Z]")
"""Syntax whose meaning the automaton does not carry: word boundaries, string anchors,
lookarounds, backreferences, inline flags."""


@dataclass(frozen=True)
class State:
    """One live state: whether a key may end here, the characters that stay here, and the
    characters that lead on to each later state (by its index)."""

    final: bool
    loop: Ranges
    edges: tuple[tuple[Ranges, int], ...]


@functools.lru_cache(maxsize=256)
def unmatched(patterns: tuple[str, ...], declared: tuple[str, ...]) -> tuple[State, ...]:
    """The live states of the automaton of keys matching none of ``patterns`` and equal to
    none of ``declared``, the start first, each state's edges to later states only; empty when
    every key matches a pattern."""
    options, refused = [], None
    for option in (option for pattern in patterns for option in _alternatives(pattern)):
        try:
            searched = _searched(option)
        except Untranslatable as exc:
            refused = exc
            continue
        if searched is None:  # every key matches a pattern, whatever the others are
            return ()
        options.append(searched)
    if refused is not None:
        raise refused
    if sum(map(len, patterns)) > MOST_PATTERN_CHARS or sum(map(len, declared)) > MOST_KEY_CHARS:
        raise Untranslatable(f"more than {MOST_PATTERN_CHARS} characters of patterns or {MOST_KEY_CHARS} of "
                             "declared keys")
    options += [re.escape(key) for key in declared]
    try:
        machine = interegular.parse_pattern("|".join(f"(?:{option})" for option in options)).to_fsm()
    except Exception as exc:  # interegular's parse and build errors have no common base
        raise Untranslatable(f"not read as an automaton: {exc}") from None
    machine = machine.everythingbut()
    live = _live_states(machine)
    if machine.initial not in live:
        return ()
    if len(live) > MOST_STATES:
        raise Untranslatable(f"{len(live)} automaton states (more than {MOST_STATES})")
    chars = _symbol_ranges(machine)
    order = _topological(machine, chars, live)
    index = {state: i for i, state in enumerate(order)}
    states = []
    for state in order:
        targets: dict[int, Ranges] = {}
        for symbol, target in machine.map.get(state, {}).items():
            if target in index:
                targets.setdefault(index[target], []).extend(chars[symbol])
        loop = sorted(targets.pop(index[state], []))
        edges = tuple((sorted(ranges), target) for target, ranges in sorted(targets.items()))
        states.append(State(state in machine.finals, loop, edges))
    return tuple(states)


def unmatched_rule(states: tuple[State, ...], add: Callable[[int, str], str]) -> str:
    """The rule of the start state, each state's rule added as ``add(index, body)`` (which
    returns its name), the last state first."""
    names: dict[int, str] = {}
    for i in range(len(states) - 1, -1, -1):
        state = states[i]
        options = [f"{_json_char(ranges)} {names[target]}" for ranges, target in state.edges]
        if state.final:
            options.append('""')
        rest = options[0] if len(options) == 1 else f"({' | '.join(options)})"
        if state.loop:
            rest = f"{_json_char(state.loop)}*" + ("" if rest == '""' else f" {rest}")
        names[i] = add(i, rest)
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


def _searched(option: str, cycles: bool = False) -> str | None:
    """A regex of the strings ``re.search`` finds a match of ``option`` (one top-level
    alternative of a pattern, anchored at its own ends) in; None when that is every string.
    Unless ``cycles`` (the automaton will be written with rules that refer to each other), an
    unanchored option of several characters is :class:`Untranslatable`."""
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
    if not start and not cycles and not _ONE_ATOM.fullmatch(body):
        raise Untranslatable(f"{option!r} may match anywhere: its automaton loops through several states")
    return ("" if start else "[\\s\\S]*") + f"(?:{_ecma(body)})" + ("" if end else "[\\s\\S]*")


def _matches_empty(body: str) -> bool:
    try:
        return re.fullmatch(body, "") is not None
    except re.error:
        return False


_ONE_ATOM = re.compile(r"(?:\\.|\[(?:\\.|[^\]\\])*\]|[^\\\[\](){}|*+?^$])[*+?]?")
"""One character, class or escape, maybe repeated (``\\d+``): the only unanchored patterns whose
keys without a match an automaton holds without a cycle."""


def _live_states(machine: FSM) -> set[Node]:
    """The states from which some key is accepted."""
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


def _topological(machine: FSM, chars: dict[int, Ranges], alive: set[Node]) -> list[Node]:
    """The ``alive`` states reached from the start, ordered so every edge but a state's loop on
    itself leads to a later state; a state's targets are visited by the lowest character leading
    to each, so the order is the same in every process (interegular numbers symbols and states
    in the order of Python's sets of characters, which vary with the hash seed)."""
    order: list[Node] = []
    marks: dict[Node, int] = {}  # 1: on the path, 2: done

    def visit(state: Node) -> None:
        marks[state] = 1
        lowest: dict[Node, int] = {}
        for symbol, target in machine.map.get(state, {}).items():
            low = chars[symbol][0][0] if chars.get(symbol) else MAX_CODE + 1
            lowest[target] = min(lowest.get(target, low), low)
        for target in sorted(lowest, key=lowest.__getitem__):
            if target == state or target not in alive:
                continue
            if marks.get(target) == 1:
                raise Untranslatable("the keys' automaton has a cycle longer than one state")
            if target not in marks:
                visit(target)
        marks[state] = 2
        order.append(state)

    visit(machine.initial)
    return order[::-1]
