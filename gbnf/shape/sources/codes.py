"""The codes of currencies, time zones, languages and countries that the conversation names in
words ("Swiss francs": ``CHF``), for a string that takes one (even with a pattern)."""

from __future__ import annotations

from typing import Any

from gbnf.shape._codes import code_kind, named_codes
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source


def codes_named(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The codes of the kind a string takes (:func:`~gbnf.shape._codes.code_kind`) that the
    stretches name (:func:`~gbnf.shape._codes.named_codes`)."""
    if part.get("type") != "string" or {"enum", "const", "format"} & set(part):
        return []
    coded = code_kind(name, part)
    return named_codes(coded, values.strings, name) if coded else []


SOURCE = Source(
    "codes", "typed", "currencies, time zones, languages and countries named in words, as their codes",
    Example("Change £20 into Swiss francs", "target",
            {"type": "string", "description": "ISO 4217 currency code"}, ("CHF",)),
    codes_named)
