"""The numbers the conversation writes, digits and number words alike; for a rate, a percentage
as a fraction ("5%": 0.05)."""

from __future__ import annotations

from typing import Any

from gbnf.shape._values import Number, Values, as_fraction
from gbnf.shape.sources._source import Example, Source


def numbers_written(_name: str | None, part: dict[str, Any], values: Values) -> list[Number]:
    """The numbers written; for a number (not an integer) whose description does not say
    "percent", the percentages as fractions in place of the numbers they were written as."""
    if part.get("type") == "number" and "percent" not in str(part.get("description", "")).lower():
        return [number for number in values.numbers if number not in values.percents] \
            + [as_fraction(number) for number in values.percents]
    return list(values.numbers)


SOURCE = Source(
    "numbers", "number", "numbers in digits or words, percentages as fractions for a rate",
    Example("Split three pizzas between 12 people", "people", {"type": "integer"}, (12, 3)),
    numbers_written)
