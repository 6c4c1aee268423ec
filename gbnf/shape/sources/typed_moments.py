"""Dates with a time of day for a string whose ``format`` is ``date-time`` (RFC 3339): each date
the conversation writes (with its words, in digits or from today) at each time of day it writes,
in the UTC offset it states ("UTC+01:00", "GMT-5", "16:00 UTC"), or the clock's where it states
none; date-times it writes whole in that form are offered as written."""

from __future__ import annotations

import datetime
import re
from typing import Any

from gbnf.shape._dates import written_dates
from gbnf.shape._times import UTC_OFFSET, written_times
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source

MOST = 8
"""The most date-times offered (dates times times of day, in the order written)."""
_WHOLE = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})(?!\w)")
"""A date-time written whole in RFC 3339's form."""


def typed_moments_written(_name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The date-times written whole, then each date written at each time of day written, in
    the offset the conversation states (:func:`stated_offset`), for a ``date-time`` format."""
    if part.get("format") != "date-time":
        return []
    whole = [found for text in values.texts for found in _WHOLE.findall(text)]
    dates = written_dates(values.strings, "%Y-%m-%d", values.today, values.said_today)
    times = list(dict.fromkeys(time for text in values.texts for time in written_times(text)))
    offset = stated_offset(values.texts)
    joined = [f"{date}T{time.strftime('%H:%M:%S')}{offset}" for date in dates for time in times]
    return list(dict.fromkeys([*whole, *joined]))[:MOST]


def stated_offset(texts: tuple[str, ...]) -> str:
    """The UTC offset the first of ``texts`` that states one states (``+01:00``; ``Z`` for UTC
    alone); else the offset of this machine's clock."""
    for text in texts:
        found = UTC_OFFSET.search(text)
        if found:
            if not found["sign"] or int(found["hours"]) == int(found["minutes"] or 0) == 0:
                return "Z"
            sign = "-" if found["sign"] in "-−" else "+"
            return f"{sign}{int(found['hours']):02d}:{found['minutes'] or '00'}"
    local = datetime.datetime.now().astimezone().utcoffset() or datetime.timedelta()
    minutes = int(local.total_seconds() // 60)
    return "Z" if minutes == 0 else f"{'-' if minutes < 0 else '+'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


SOURCE = Source(
    "typed-moments", "typed", "dates at the times of day written, in the UTC offset stated, for a date-time format",
    Example("The meeting is on 2027-02-16 from 14:00, my calendar is in UTC+01:00", "start",
            {"type": "string", "format": "date-time"}, ("2027-02-16T14:00:00+01:00",)),
    typed_moments_written)
