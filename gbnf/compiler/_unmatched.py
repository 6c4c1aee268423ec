"""Keys an object's ``patternProperties`` leave to ``additionalProperties``: those matching none
of its patterns (as the validator matches them, ``re.search``) and spelling no declared key; and
the keys a pattern governs alone: those matching it that spell no declared key (a declared key
takes its property's schema and the pattern's together, through its own rule).

The language is built as a finite automaton (:mod:`~gbnf.compiler._automaton`: each pattern's
search language, their union with the declared keys, complemented) and written as rules, one
per state; past :data:`~gbnf.compiler._automaton.MOST_STATES` it is :class:`Untranslatable`.
"""

from __future__ import annotations

import functools
import re

from gbnf.compiler._automaton import State, build, machine_states, search_machine


@functools.lru_cache(maxsize=256)
def unmatched(patterns: tuple[str, ...], declared: tuple[str, ...]) -> tuple[State, ...]:
    """The live states of the automaton of keys matching none of ``patterns`` and equal to
    none of ``declared``, the start first (see :func:`~gbnf.compiler._automaton.machine_states`);
    empty when every key matches a pattern."""
    machine = search_machine(patterns, declared)
    return () if machine is None else machine_states(machine.everythingbut())


@functools.lru_cache(maxsize=256)
def matching_but(pattern: str, declared: tuple[str, ...]) -> tuple[State, ...]:
    """The live states of the automaton of keys matching ``pattern`` and equal to none of
    ``declared``, the start first; empty when no such key exists."""
    machine, taken = search_machine((pattern,)), build([re.escape(key) for key in declared])
    return machine_states(taken.everythingbut() if machine is None else machine.difference(taken))
