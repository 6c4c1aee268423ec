"""Dates the conversation writes, in the format a string's description asks ("YYYY-MM-DD"), or
in ISO 8601's for a string named for a date; "tomorrow" counted from the conversation's day."""

from __future__ import annotations

from typing import Any

from gbnf._text import name_words
from gbnf.shape._dates import date_format, written_dates
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source
from gbnf.shape.sources.shapes import DATE_NAMES, TIME_NAMES


def dates_written(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The dates written (:func:`~gbnf.shape._dates.written_dates`) in the format the
    description asks for, or, when it speaks of no format and the name asks for a date and no
    time (``start_date``), in ISO 8601's (``2020-01-01`` for "January 1, 2020")."""
    description = str(part.get("description", ""))
    named = name_words(name or "")
    iso = bool(named & DATE_NAMES) and not named & TIME_NAMES and "format" not in description.lower()
    form = date_format(description) or ("%Y-%m-%d" if iso else None)
    return written_dates(values.strings, form, values.today, values.said_today) if form else []


SOURCE = Source(
    "dates", "string", "dates written with a month's name, in digits or from today, in the format asked",
    Example("Any events on March 8th, 2023?", "date",
            {"type": "string", "description": "The day, in the format YYYY-MM-DD"}, ("2023-03-08",)),
    dates_written)
