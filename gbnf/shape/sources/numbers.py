"""The numbers the conversation writes, digits and number words alike; for a rate, a percentage
as a fraction ("5%": 0.05)."""

from __future__ import annotations

import re
from typing import Any

from gbnf._text import identifier_words
from gbnf.shape._values import Number, Values, as_fraction
from gbnf.shape.sources._source import Example, Source


def numbers_written(name: str | None, part: dict[str, Any], values: Values) -> list[Number]:
    """The numbers written; for a percentage argument, those written as percentages (where
    any is: "con un 15 % de propina"); for a number (not an integer) whose name and description
    do not say "percent", the percentages as fractions in place of the numbers they were written
    as."""
    if takes_percent(name, part):
        return [number for number in values.numbers if number in values.percents] or list(values.numbers)
    if part.get("type") == "number":
        return [number for number in values.numbers if number not in values.percents] \
            + [as_fraction(number) for number in values.percents]
    return list(values.numbers)


def takes_percent(name: str | None, part: dict[str, Any]) -> bool:
    """Whether a number argument's name or description says it is a percentage (``tip_percent``,
    "Tip in %")."""
    said = f"{identifier_words(name or '')} {part.get('description', '')}".lower()
    return bool(re.search(r"%|\bper ?cent(?:age)?s?\b|\bpct\b", said))


SOURCE = Source(
    "numbers", "number", "numbers in digits or words, percentages as fractions for a rate",
    Example("Split three pizzas between 12 people", "people", {"type": "integer"}, (12, 3)),
    numbers_written)
