"""The stretches of the shape a string's name asks for: a path, an email address, a URL, a phone
number, a date, a time (``path``: ``/etc/hostname``, not ``file``)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from gbnf._text import name_words
from gbnf.shape._dates import TIME, written_date
from gbnf.shape._english import either, words
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source

DATE_NAMES = frozenset(words("date_names"))
"""The words of a property's name that ask for a date."""
TIME_NAMES = frozenset(words("time_names"))
"""The words of a property's name that ask for a time."""


@functools.cache
def _shapes() -> tuple[tuple[frozenset[str], Callable[[str], bool]], ...]:
    """The words of a property name that ask for a shape, and whether a stretch is wholly of that shape."""
    def whole(pattern: str) -> Callable[[str], bool]:
        shape = re.compile(pattern, re.IGNORECASE)
        return lambda string: shape.fullmatch(string) is not None
    return (
        (frozenset(words("path_names")), whole(r"[^\s]*[/\\][^\s]*|[\w-]+\.[a-z0-9]{1,5}")),
        (frozenset(words("email_names")), whole(r"[^\s@]+@[^\s@]+")),
        (frozenset(words("url_names")), whole(r"(?:https?://|www\.)[^\s]+")),
        (frozenset(words("phone_names")), whole(r"\+?\d[\d\s().-]{5,}\d")),
        (DATE_NAMES, written_date),
        (TIME_NAMES, whole(rf"{TIME}|{either('day_times')}")),
    )


def outermost(found: Sequence[str]) -> list[str]:
    """``found`` less each string that is part of a longer one of them (``December 3`` beside
    ``December 3, 2026``)."""
    return [s for s in found if not any(s in other and s != other for other in found)]


def shaped_stretches(name: str | None, _part: dict[str, Any], values: Values) -> list[str]:
    """The stretches of the shape property ``name`` asks for, each whole (not a part of a
    longer one: ``December 3, 2026``, not ``December 3``); none when it asks for none or none
    has it."""
    named = name_words(name or "")
    for hint, shaped in _shapes():
        if named & hint:
            return outermost([s for s in values.strings if shaped(s)])
    return []


SOURCE = Source(
    "shapes", "string",
    "paths, email addresses, URLs, phone numbers, dates and times, for a string whose name asks for one",
    Example("Show me the first lines of /etc/hostname", "path", {"type": "string"}, ("/etc/hostname",)),
    shaped_stretches)
