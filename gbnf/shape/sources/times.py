"""Times of day the conversation writes (:func:`~gbnf.shape._times.written_times`), written as
the string's pattern or format asks (``05:15``, ``19:00:00``)."""

from __future__ import annotations

from typing import Any

from gbnf.shape._times import written_times
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source, first_form

_FORMS = ("%H:%M", "%H:%M:%S", "%I:%M %p")


def times_written(_name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The times written (:func:`written_times`, over the conversation's texts), in the first of
    a few forms (``HH:MM``, ``HH:MM:SS``, ``h:MM AM``: a clock's colon, so that no room number
    takes "2230") the string's pattern or format takes."""
    if "pattern" not in part and part.get("format") != "time":
        return []
    return first_form(part, list(dict.fromkeys(time for text in values.texts for time in written_times(text))), _FORMS)


SOURCE = Source(
    "times", "typed", "times of day in digits with a clock's word in several languages, in the form a pattern asks",
    Example("Wake me at 5:15 please", "at", {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}, ("05:15",)),
    times_written)
