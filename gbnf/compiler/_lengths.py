"""Strings that match a pattern and have a length within bounds (``"pattern":
"^[a-z]+(-[a-z0-9]+)*$", "minLength": 3``) as exact GBNF: the pattern's automaton, read as the
automaton of unmatched keys reads it (:mod:`~gbnf.compiler._unmatched`: ``re.search``'s
language, ECMA-262's classes), crossed with a count of characters, one rule per state. A
pattern loops through several states (``(-[a-z0-9]+)*``), so the rules may refer to each
other in a cycle."""

from __future__ import annotations

import functools

import interegular
from interegular.fsm import FSM
from interegular.fsm import State as Node

from gbnf.compiler._regex import _alternatives
from gbnf.compiler._rules import RuleTable
from gbnf.compiler._unmatched import (
    MOST_PATTERN_CHARS,
    MOST_STATES,
    _json_char,
    _live_states,
    _searched,
    _symbol_ranges,
)
from gbnf.errors import Untranslatable

MOST_LENGTH = 128
"""The longest bound crossed with a pattern: the states grow with it (past it, the validator
checks the length)."""


def pattern_within(table: RuleTable, pattern: str, low: int, high: int | None, name: str) -> str | None:
    """The GBNF of a JSON string's content that matches ``pattern`` and has ``low`` to ``high``
    characters (an escape is one), or None where every string matches the pattern (the
    lengths alone then decide). :class:`Untranslatable` where the automaton is out of reach;
    ValueError when no string of those lengths matches."""
    machine = _machine(pattern, low, high)
    if machine is None:
        return None
    live = _live_states(machine)
    if machine.initial not in live:
        raise ValueError("no string of this length matches the pattern")
    chars = _symbol_ranges(machine)
    order = _reached(machine, chars, live)
    names = {state: table.reserve(f"{name}Text") for state in order}
    for state in order:
        targets: dict[Node, list[tuple[int, int]]] = {}
        for symbol, target in machine.map.get(state, {}).items():
            if target in names:
                targets.setdefault(target, []).extend(chars[symbol])
        loop = sorted(targets.pop(state, []))
        edges = sorted((sorted(ranges), target) for target, ranges in targets.items())  # by lowest character
        options = [f"{_json_char(ranges)} {names[target]}" for ranges, target in edges]
        if state in machine.finals:
            options.append('""')
        if not loop:
            table.define(names[state], " | ".join(options))
        else:
            rest = "" if options == ['""'] else f" {options[0]}" if len(options) == 1 else f" ({' | '.join(options)})"
            table.define(names[state], f"{_json_char(loop)}*{rest}")
    return names[machine.initial]


@functools.lru_cache(maxsize=256)
def _machine(pattern: str, low: int, high: int | None) -> FSM | None:
    if len(pattern) > MOST_PATTERN_CHARS or (high or low) > MOST_LENGTH:
        raise Untranslatable(f"a pattern of more than {MOST_PATTERN_CHARS} characters, or a length past {MOST_LENGTH}")
    searched = [_searched(option, cycles=True) for option in _alternatives(pattern)]
    if None in searched:
        return None
    counted = f"[\\s\\S]{{{low},{'' if high is None else high}}}"
    try:
        matching = interegular.parse_pattern("|".join(f"(?:{option})" for option in searched)).to_fsm()
        machine = (matching & interegular.parse_pattern(counted).to_fsm()).reduce()
    except Exception as exc:  # interegular's parse and build errors have no common base
        raise Untranslatable(f"not read as an automaton: {exc}") from None
    if len(machine.states) > MOST_STATES:
        raise Untranslatable(f"{len(machine.states)} automaton states (more than {MOST_STATES})")
    return machine


def _reached(machine: FSM, chars: dict[int, list[tuple[int, int]]], live: set[Node]) -> list[Node]:
    """The live states reached from the start, breadth first, each state's targets by the lowest
    character leading to each (the same order in every process, as in the key automaton)."""
    order, seen = [machine.initial], {machine.initial}
    for state in order:
        lowest: dict[Node, int] = {}
        for symbol, target in machine.map.get(state, {}).items():
            if target in live and chars.get(symbol):
                lowest[target] = min(lowest.get(target, chars[symbol][0][0]), chars[symbol][0][0])
        for target in sorted(lowest, key=lowest.__getitem__):
            if target not in seen:
                seen.add(target)
                order.append(target)
    return order
