"""Dates the conversation writes, for a string whose ``format`` is ``date`` or whose pattern takes
a date: in ISO 8601's form or the first of a few others the pattern takes."""

from __future__ import annotations

import datetime
import re
from typing import Any

from gbnf._text import name_words
from gbnf.shape._dates import written_dates
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source, first_form
from gbnf.shape.sources.shapes import DATE_NAMES

_FORMS = ("%Y-%m-%d", "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%Y/%m/%d", "%Y%m%d")


def typed_dates_written(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The dates written (:func:`~gbnf.shape._dates.written_dates`, read once, "tomorrow" from
    the conversation's day) in the first form the string takes, for a ``date`` format, or a
    pattern whose property speaks of a date (:func:`_dated_part`: a plate's pattern may take
    "20270718", and is no date)."""
    if part.get("format") != "date" and not ("pattern" in part and _dated_part(name, part)):
        return []
    dates = [datetime.date.fromisoformat(date) for date in written_dates(values.strings, "%Y-%m-%d", values.today,
                                                                           values.said_today)]
    return first_form(part, dates, _FORMS)


_DATE_WORDS = re.compile(r"\b(?:dates?|yyyy)\b|\bday of\b", re.IGNORECASE)


def _dated_part(name: str | None, part: dict[str, Any]) -> bool:
    """Whether property ``name``'s name or description speaks of a date (``pickup_date``,
    "Day of the visit", "YYYYMMDD"; not "How many days")."""
    return bool(name_words(name or "") & DATE_NAMES) or bool(_DATE_WORDS.search(str(part.get("description", ""))))


SOURCE = Source(
    "typed-dates", "typed", "dates written with a month's name, in digits or from today, for a date format or pattern",
    Example("Deliver it on March 8th, 2026", "day", {"type": "string", "format": "date"}, ("2026-03-08",)),
    typed_dates_written)
