"""The conversation's stretches of words, for a free string: a value copied, not made up."""

from __future__ import annotations

from typing import Any

from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source


def all_stretches(_name: str | None, _part: dict[str, Any], values: Values) -> tuple[str, ...]:
    """Every stretch (:func:`~gbnf.shape._values.spans`) and quotation."""
    return values.strings


SOURCE = Source(
    "stretches", "string", "stretches of up to eight words, quotations whole",
    Example("How is the weather in Oslo?", "place", {"type": "string"}, ("weather", "weather in Oslo", "Oslo")),
    all_stretches)
