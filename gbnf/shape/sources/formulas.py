"""Formulas the conversation writes, for a string named for one (``function``,
``math_expression``), with powers written ``**``."""

from __future__ import annotations

import re
from typing import Any

from gbnf._text import identifier_words
from gbnf.shape._english import words
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source
from gbnf.shape.sources.shapes import outermost

_FORMULA_TOKEN = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+|\S")
_OPERATORS = frozenset("+-*/^")
_FORMULA_NAMES = frozenset(words("formula_names"))
_FORMULA_FUNCTIONS = frozenset(words("formula_functions"))


def is_formula(text: str) -> bool:
    """Whether ``text`` is wholly a formula: numbers, one-letter variables and the functions of
    ``formula_functions`` joined by at least one operator (``3x^2 + 2x - 1``, ``x^3``,
    ``sin(x) / x``; not ``5m``, not ``the function x^3``)."""
    tokens = _FORMULA_TOKEN.findall(text)
    return any(token.isalpha() for token in tokens) and bool(_OPERATORS & set(tokens)) and all(
        token[0].isdigit() or token in _OPERATORS or token in "()"
        or (token.isalpha() and (len(token) == 1 or token in _FORMULA_FUNCTIONS)) for token in tokens)


def formulas_written(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """For a property whose name ends in a word of a formula ("function", ``math_expression``;
    not ``function_variable``), the formulas among the stretches, each whole
    (:func:`is_formula`; of ``y=x^2``, what follows the equals sign), with each power written
    ``**`` ("3x^2 + 2x - 1": ``3x**2 + 2x - 1``), the power operator of Python and JavaScript,
    where ``^`` is exclusive or; unless the description itself writes powers with ``^``."""
    head = identifier_words(name or "").lower().split()
    if not head or head[-1] not in _FORMULA_NAMES:
        return []
    sides = dict.fromkeys(string.rsplit("=", 1)[-1].strip() for string in values.strings)  # "y=x^2": x^2
    found = outermost([side for side in sides if is_formula(side)])
    if "^" in str(part.get("description", "")):
        return found
    return list(dict.fromkeys(s.replace("^", "**") for s in found))


SOURCE = Source(
    "formulas", "string", "formulas, for a string named for one, powers written **",
    Example("Integrate 3x^2 + 2x - 1 from 1 to 2", "function", {"type": "string"}, ("3x**2 + 2x - 1",)),
    formulas_written)
