"""Units of measurement a request writes ("a radius of 4 inches", "the speed in km/h"), which
a tool's optional ``unit`` argument asks for. Pint's registry tells a unit from any other word."""

from __future__ import annotations

import functools
import re
from typing import Any

from gbnf.shape._english import STOPS, either, table, words
from gbnf.shape._values import NUMBER

_LEADS = frozenset(words("unit_leads"))
_RAISED = table("unit_powers")
_WORD = re.compile(rf"(?P<number>{NUMBER.pattern})?(?P<unit>(?:(?:{either('unit_powers')})\.?\s+)?"
                   rf"(?P<word>°?[^\W\d_][^\s,;:!?()\"']*))|(?P<alone>{NUMBER.pattern})", re.IGNORECASE)
"""A word, perhaps with a number written before it (``5cm``) and a power word (``square meters``), or a number alone."""
_POWERS = {"²": "**2", "³": "**3"}


def units_written(text: str) -> tuple[str, ...]:
    """The units ``text`` asks an answer in ("in km/h", "into square miles") or, when it asks
    none, those its numbers are written in ("5cm", "10 meters") when all of one kind (lengths,
    times...): "50 kilometers in 2 hours" names no one unit. As written, each once."""
    asked, measured = _units_read(text)
    if asked:
        return asked
    return measured if len({_dimension(unit) for unit in measured}) == 1 else ()


_EXAMPLE = re.compile(r"[^\W\d_][^\s,;:!?()\"']*")
"""A word of a description, kept whole with what follows it up to a space (``km/h``, ``kg/m³``)."""


def units_like(text: str, examples: str) -> tuple[str, ...]:
    """The units ``text`` writes its numbers in that measure what a unit ``examples`` names
    measures ("a radius of 5.6 feet ... from 0 to 3.14 radians" with "defaults to meters":
    feet): for an argument whose description names a unit, where the request mixes kinds. As
    written, each once; empty where ``examples`` names no unit."""
    written = [word.rstrip(".") for word in _EXAMPLE.findall(examples)]
    kinds = {_dimension(word) for word in written if word.lower() not in STOPS}
    kinds.discard(None)
    return tuple(unit for unit in _units_read(text)[1] if _dimension(unit) in kinds)


@functools.lru_cache(maxsize=64)
def _units_read(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The units ``text`` asks an answer in, and those it writes its numbers in, each once."""
    tokens = list(_WORD.finditer(text))
    asked, measured = [], []
    for before, token in zip([None, *tokens], tokens):
        unit = (token.group("unit") or "").rstrip(".")
        # stop words are units to Pint and function words to a reader: "a" (a year), "at", "are", "in"
        if not unit or token.group("word").lower() in STOPS or _dimension(unit) is None:
            continue
        if before is not None and (before.group("word") or "").lower() in _LEADS:
            asked.append(unit)
        elif token.group("number") or (before is not None and before.group("alone")
                                       and not text[before.end():token.start()].strip()):
            measured.append(unit)
    return tuple(dict.fromkeys(asked)), tuple(dict.fromkeys(measured))


@functools.lru_cache(maxsize=4096)
def _dimension(unit: str) -> str | None:
    """What ``unit`` measures (Pint's dimensionality, as text: ``km/h`` a length over a time,
    ``square meters`` and ``m²`` a length squared), None for words that are no unit. A prefix
    counts written whole ("kilometers") or in a short symbol ("km"), not hidden in a longer
    word ("units" is no micro-nits)."""
    *power, word = unit.split()
    parts = word.split("/")
    if len(parts) > 2:
        return None
    registry = _registry()
    measures = []
    for part in parts:  # a prefix is written whole or as a short symbol
        bare = part.rstrip("".join(_POWERS))
        readings = [read for form in dict.fromkeys((bare, bare.lower())) for read in registry.parse_unit_name(form)]
        units = [unit for prefix, unit, _ in readings if not prefix or len(bare) < 4 or bare.lower().startswith(prefix)]
        if not units:
            return None
        powers = "".join(_POWERS[mark] for mark in part[len(bare):])
        measures.append(f"{registry.get_dimensionality(units[0])}{powers}")
    raised = f"**{_RAISED[power[0].lower().rstrip('.')]}" if power else ""
    return "/".join(measures) + raised


@functools.cache
def _registry() -> Any:
    import pint

    return pint.UnitRegistry()
