"""Whole multiples of a step (``"type": "integer", "multipleOf": 12``) as exact GBNF: the
decimal digits read as an automaton of remainders (one rule per remainder that a later digit
can tell apart), or, between two bounds, the multiples listed."""

from __future__ import annotations

import functools

from gbnf.compiler._literals import class_char
from gbnf.compiler._rules import RuleTable
from gbnf.compiler._schema import key_path
from gbnf.errors import Unsatisfiable

MOST_REMAINDERS = 100
"""The most rules one step's automaton may take; past it, the step is left to the validator."""
MOST_LISTED = 256
"""The most multiples written out between two bounds."""


def multiples(table: RuleTable, step: int, low: int | None, high: int | None, name: str, path: str) -> str | None:
    """GBNF for the multiples of ``step`` (> 1) from ``low`` to ``high`` (None: unbounded), or
    None where that takes more than :data:`MOST_LISTED` listed values or
    :data:`MOST_REMAINDERS` rules, or the multiples run on past a bound of more than a step.
    :class:`Unsatisfiable` (at ``path``'s ``multipleOf``) when no multiple lies between the bounds."""
    if low is not None and high is not None:
        return _spelled_out(step, low, high, path)
    sign, zero, between = '"-"? ', True, (0, -1)  # unbounded: either sign, 0, nothing listed
    if low is not None:  # the positive multiples, 0, and the negative ones down to low
        sign, zero, between = "", low <= 0, (low, -step)
    elif high is not None:  # the negative multiples, 0, and the positive ones up to high
        sign, zero, between = '"-" ', high >= 0, (step, high)
    if (low is not None and low > step) or (high is not None and high < -step):
        return None  # from far off zero on to infinity: not a few rules
    listed = _spelled_out(step, *between, path) if between[0] <= between[1] else ""
    classes = _remainder_classes(step)
    if listed is None or classes is None:
        return None
    names = [table.reserve(f"{name}Mod") for _ in range(max(classes) + 1)]
    for cls in range(len(names)):
        r = classes.index(cls)
        table.define(names[cls], " | ".join(_digits_to(classes, names, r, range(10)) + (['""'] if r == 0 else [])))
    magnitude = " | ".join(_digits_to(classes, names, 0, range(1, 10)))
    return " | ".join([f"{sign}({magnitude})", *(['"0"'] if zero else []), *([listed] if listed else [])])


def _spelled_out(step: int, low: int, high: int, path: str) -> str | None:
    """The multiples of ``step`` from ``low`` to ``high`` as literals; None past :data:`MOST_LISTED`."""
    first, last = -(-low // step), high // step
    if first > last:
        raise Unsatisfiable(key_path(path, "multipleOf"), f"no multiple of {step} lies between {low} and {high}")
    return None if last - first >= MOST_LISTED else " | ".join(f'"{n * step}"' for n in range(first, last + 1))


def _digits_to(classes: tuple[int, ...], names: list[str], r: int, digits: range) -> list[str]:
    """From remainder ``r``, one option per rule the next digit leads to: ``[0369] name``."""
    step = len(classes)
    by_target: dict[int, list[int]] = {}
    for d in digits:
        by_target.setdefault(classes[(10 * r + d) % step], []).append(d)
    return [f"[{''.join(class_char(str(d)) for d in ds)}] {names[t]}" for t, ds in sorted(by_target.items())]


@functools.lru_cache(maxsize=256)
def _remainder_classes(step: int) -> tuple[int, ...] | None:
    """Each remainder's class: remainders no string of further digits tells apart share one
    (Moore's refinement; for 100, the remainders ending in the same digit but 0). None past
    :data:`MOST_REMAINDERS` classes."""
    if step > 10 * MOST_REMAINDERS:  # the work grows with the step, and so, mostly, do the classes
        return None
    classes = [0 if r == 0 else 1 for r in range(step)]
    count = 2
    while count <= MOST_REMAINDERS:
        signatures = [(classes[r], *(classes[(10 * r + d) % step] for d in range(10))) for r in range(step)]
        numbered: dict[tuple[int, ...], int] = {}
        refined = [numbered.setdefault(sig, len(numbered)) for sig in signatures]
        if len(numbered) == count:
            return tuple(refined)
        classes, count = refined, len(numbered)
    return None
