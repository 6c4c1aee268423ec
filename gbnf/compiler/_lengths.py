"""Strings that match a pattern and have a length within bounds (``"pattern":
"^[a-z]+(-[a-z0-9]+)*$", "minLength": 3``) as exact GBNF: the pattern's automaton
(:mod:`~gbnf.compiler._automaton`: ``re.search``'s language, ECMA-262's classes) crossed with a
count of characters, one rule per state."""

from __future__ import annotations

import functools

from gbnf.compiler._automaton import State, automaton_rule, build, machine_states, search_machine
from gbnf.compiler._rules import RuleTable
from gbnf.errors import Untranslatable

MOST_LENGTH = 128
"""The longest bound crossed with a pattern: the states grow with it (past it, the validator
checks the length)."""


def pattern_within(table: RuleTable, pattern: str, low: int, high: int | None, name: str) -> str | None:
    """The GBNF of a JSON string's content that matches ``pattern`` and has ``low`` to ``high``
    characters (an escape is one), or None where every string matches the pattern (the
    lengths alone then decide). :class:`Untranslatable` where the automaton is out of reach;
    ValueError when no string of those lengths matches."""
    states = _states(pattern, low, high)
    if states is None:
        return None
    if not states:
        raise ValueError("no string of this length matches the pattern")
    return automaton_rule(states, table, f"{name}Text")


@functools.lru_cache(maxsize=256)
def _states(pattern: str, low: int, high: int | None) -> tuple[State, ...] | None:
    if (high or low) > MOST_LENGTH:
        raise Untranslatable(f"a length past {MOST_LENGTH}")
    matching = search_machine((pattern,))
    if matching is None:
        return None
    counted = build([f"[\\s\\S]{{{low},{'' if high is None else high}}}"])
    return machine_states((matching & counted).reduce())
