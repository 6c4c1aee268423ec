"""Dates with their time of day, in the format a string's description asks
("YYYY-MM-DD HH:mm:ss"): "March 19, 2024, at 12:00 PM" is ``2024-03-19 12:00:00``."""

from __future__ import annotations

from typing import Any

from gbnf.shape._dates import moment_format, written_moments
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source


def moments_written(_name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The dates with a time of day written (:func:`~gbnf.shape._dates.written_moments`), where
    the description asks for both in a format."""
    moment = moment_format(str(part.get("description", "")))
    return written_moments(values.strings, moment, values.today, values.said_today) if moment else []


SOURCE = Source(
    "moments", "string", "dates with their time of day, in the format asked",
    Example("Remind me on March 19, 2024, at 12:00 PM", "when",
            {"type": "string", "description": "When, as YYYY-MM-DD HH:mm:ss"}, ("2024-03-19 12:00:00",)),
    moments_written)
