"""Keys an object's ``patternProperties`` leave to ``additionalProperties``: those matching none
of its patterns (as the validator matches them, ``re.search``) and spelling no declared key.

The language is built as a finite automaton (:mod:`~gbnf.compiler._automaton`: each pattern's
search language, their union with the declared keys, complemented) and written as rules, one
per state; past :data:`~gbnf.compiler._automaton.MOST_STATES` it is :class:`Untranslatable`.
"""

from __future__ import annotations

import functools
import re

import interegular

from gbnf.compiler._automaton import State, machine_states, searched
from gbnf.compiler._regex import _alternatives
from gbnf.errors import Untranslatable

MOST_PATTERN_CHARS = 200
"""The longest patterns (in all) an automaton is built for: building one takes time that grows
fast with a pattern's groups and counts."""
MOST_KEY_CHARS = 2000
"""The most characters of declared keys (in all) an automaton is built around."""


@functools.lru_cache(maxsize=256)
def unmatched(patterns: tuple[str, ...], declared: tuple[str, ...]) -> tuple[State, ...]:
    """The live states of the automaton of keys matching none of ``patterns`` and equal to
    none of ``declared``, the start first (see :func:`~gbnf.compiler._automaton.machine_states`);
    empty when every key matches a pattern."""
    options, refused = [], None
    for option in (option for pattern in patterns for option in _alternatives(pattern)):
        try:
            read = searched(option)
        except Untranslatable as exc:
            refused = exc
            continue
        if read is None:  # every key matches a pattern, whatever the others are
            return ()
        options.append(read)
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
    return machine_states(machine.everythingbut())
