"""Dates the conversation writes, for a string whose ``format`` is ``date`` or whose pattern takes
a date: in ISO 8601's form or the first of a few others the pattern takes."""

from __future__ import annotations

import datetime
from typing import Any

from gbnf.shape._dates import written_dates
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source, first_form

_FORMS = ("%Y-%m-%d", "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%Y/%m/%d", "%Y%m%d")


def typed_dates_written(_name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The dates written (:func:`~gbnf.shape._dates.written_dates`, read once, "tomorrow" from
    the conversation's day) in the first form the string takes."""
    if "pattern" not in part and part.get("format") != "date":
        return []
    dates = [datetime.date.fromisoformat(date) for date in written_dates(values.strings, "%Y-%m-%d", values.today,
                                                                           values.said_today)]
    return first_form(part, dates, _FORMS)


SOURCE = Source(
    "typed-dates", "typed", "dates written with a month's name, in digits or from today, for a date format or pattern",
    Example("Deliver it on March 8th, 2026", "day", {"type": "string", "format": "date"}, ("2026-03-08",)),
    typed_dates_written)
