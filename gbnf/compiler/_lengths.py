"""Strings that match a pattern and have a length within bounds (``"pattern":
"^[a-z]+(-[a-z0-9]+)*$", "minLength": 3``) as exact GBNF: the pattern's automaton
(:mod:`~gbnf.compiler._automaton`: ``re.search``'s language, ECMA-262's classes) crossed with a
count of characters, one rule per state."""

from __future__ import annotations

import functools

from gbnf.compiler._automaton import State, automaton_rule, build, machine_states, search_machine
from gbnf.compiler._literals import repeat
from gbnf.compiler._rules import RuleTable
from gbnf.compiler._schema import key_path
from gbnf.errors import Unsatisfiable, Untranslatable

MOST_LENGTH = 128
"""The longest bound crossed with a pattern: the states grow with it (past it, the validator
checks the length)."""
MOST_PRODUCT = 2_000
"""The most states a pattern's automaton crossed with a count may take before it is reduced (its
states times the longest length, plus one): past it, building and reducing them can take
seconds (up to ten words, ``^(?:\\S+\\s+){0,9}\\S+$``, and at most 120 characters: 39 states
crossed, 1.8 s, to find 1,939 states, past :data:`~gbnf.compiler._automaton.MOST_STATES`), and
the validator checks the length."""


def pattern_within(table: RuleTable, pattern: str, low: int, high: int | None, name: str, path: str) -> str:
    """The GBNF of a JSON string's content that matches ``pattern`` and has ``low`` to ``high``
    characters (an escape is one). :class:`Untranslatable` where the automaton is out of reach;
    :class:`Unsatisfiable` (at ``path``'s ``pattern``) when no string of those lengths matches."""
    states = _states(pattern, low, high)
    if states is None:  # every string matches the pattern: the lengths alone decide
        return repeat("stringChar", low, high)
    if not states:
        raise Unsatisfiable(key_path(path, "pattern"), "no string of this length matches the pattern")
    return automaton_rule(states, table, f"{name}Text")


@functools.lru_cache(maxsize=256)
def _states(pattern: str, low: int, high: int | None) -> tuple[State, ...] | None:
    if (high or low) > MOST_LENGTH:
        raise Untranslatable(f"a length past {MOST_LENGTH}")
    matching = search_machine((pattern,))
    if matching is None:
        return None
    if len(matching.states) * ((high or low) + 1) > MOST_PRODUCT:
        raise Untranslatable(f"past {MOST_PRODUCT} states crossed with the length")
    counted = build([f"[\\s\\S]{{{low},{'' if high is None else high}}}"])
    return machine_states((matching & counted).reduce())
