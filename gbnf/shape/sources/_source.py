"""What a candidate source is: a name, what it reads, one example, and the function that reads it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import jsonschema

from gbnf.compiler import validity
from gbnf.shape._values import Values

Kind = Literal["enum", "typed", "string", "number", "array"]
"""The parts of a schema a source offers values to: an enum of strings (``enum``, which it
narrows), a string that takes a code or a typed form (``typed``: currencies, time zones, a
pattern's or a format's strings), a free string (``string``), an integer or a number
(``number``), an array of numbers (``array``)."""


@dataclass(frozen=True)
class Example:
    """One request, one argument (its name and schema) and the values the source offers it."""

    request: str
    name: str
    schema: dict[str, Any]
    offered: tuple[Any, ...]


@dataclass(frozen=True)
class Source:
    """A named source of candidate values: what it reads (``reads``, one sentence), the parts
    it offers values to (``kind``), an :class:`Example`, and ``offers(name, part, values)``: the
    values it offers the part of a schema that is property ``name``'s value, from a
    conversation's :class:`~gbnf.shape._values.Values` (none: the next source of its kind is
    asked). Values a part's schema refuses are dropped after. A source that ``asks`` offers a
    value only of the argument's own kind (a length of time in the unit it counts in), so where
    it offers one, the request asks for that argument, optional or not."""

    name: str
    kind: Kind
    reads: str
    example: Example
    offers: Callable[[str | None, dict[str, Any], Values], Sequence[Any]]
    asks: bool = False


_FORMATS = jsonschema.FormatChecker()


def fitting(part: dict[str, Any]) -> Callable[[Any], bool]:
    """Whether a value fits ``part``, its ``format`` checked too (a typed source offers only
    values that fit, so that the next source is asked where none does)."""
    valid = validity(part, part)
    form = part.get("format")
    return lambda value: valid(value) and (form is None or _FORMATS.conforms(value, form))


def first_form(part: dict[str, Any], found: Sequence[Any], forms: Sequence[str]) -> list[str]:
    """``found`` (dates or times) written in the first of ``forms`` (``strftime``'s) that some of
    them take in ``part`` (:func:`fitting`), those that fit; none where no form fits any."""
    fits = fitting(part)
    for form in forms:
        written = [text for value in found if fits(text := value.strftime(form))]
        if written:
            return list(dict.fromkeys(written))
    return []
