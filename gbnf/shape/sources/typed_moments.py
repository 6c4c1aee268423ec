"""Dates with a time of day for a string whose ``format`` is ``date-time`` (RFC 3339): each date
the conversation writes (with its words, in digits or from today) at each time of day it writes,
in the UTC offset it states ("UTC+01:00", "GMT-5", "16:00 UTC"), or where it states none, the one
this machine's clock keeps on that date; date-times it writes whole in that form are offered as
written."""

from __future__ import annotations

import datetime
import re
from typing import Any

from gbnf.shape._dates import written_dates
from gbnf.shape._times import UTC_OFFSET, written_times
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source

MOST = 24
"""The most date-times offered (each date written at each time written, in the order written)."""
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
    joined = []
    for date in dates:
        for time in times:
            moment = datetime.datetime.combine(datetime.date.fromisoformat(date), time)
            joined.append(f"{moment.isoformat(timespec='seconds')}{offset or _clock_offset(moment)}")
    return list(dict.fromkeys([*whole, *joined]))[:MOST]


def stated_offset(texts: tuple[str, ...]) -> str | None:
    """The UTC offset the first of ``texts`` that states one states (``+01:00``; ``Z`` for UTC
    alone), one a clock can show (up to 14 hours, minutes under 60); None where none does."""
    for text in texts:
        for found in UTC_OFFSET.finditer(text):
            hours, minutes = int(found["hours"] or 0), int(found["minutes"] or 0)
            if hours > 14 or minutes > 59:
                continue
            if hours == minutes == 0:
                return "Z"
            return f"{'-' if found['sign'] in '-−' else '+'}{hours:02d}:{minutes:02d}"
    return None


def _clock_offset(moment: datetime.datetime) -> str:
    """The offset this machine's clock keeps at ``moment`` (its zone's, summer time read)."""
    local = moment.astimezone().utcoffset() or datetime.timedelta()
    minutes = int(local.total_seconds() // 60)
    return "Z" if minutes == 0 else f"{'-' if minutes < 0 else '+'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


SOURCE = Source(
    "typed-moments", "typed", "dates at the times of day written, in the UTC offset stated, for a date-time format",
    Example("The meeting is on 2027-02-16 from 14:00, my calendar is in UTC+01:00", "start",
            {"type": "string", "format": "date-time"}, ("2027-02-16T14:00:00+01:00",)),
    typed_moments_written)
