"""An enum of parts of the day (``morning``, ``afternoon``, ``evening``, ``night``) narrowed to the
ones the conversation names in the CLDR's words for them, in sixteen languages ("l'après-midi",
"di pomeriggio", "po południu", "上午", "저녁"), or whose hours hold a time it writes ("at 14:30").
A sentence encoder finds the parts of the day all close to each other ("après-midi" is 0.80 from
``afternoon``, 0.70 from ``evening``); the CLDR says which hours each word covers."""

from __future__ import annotations

import functools
import re
from typing import Any

from gbnf._text import word_key
from gbnf.shape._dates import day_words
from gbnf.shape._segments import CJK_LETTERS
from gbnf.shape._times import written_times
from gbnf.shape._values import Values, listed_strings
from gbnf.shape.sources._source import Example, Source

LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "tr", "ru", "ar", "th", "zh", "zh_Hant", "ja", "ko")
"""Whose words for the parts of the day are read: the sentence encoder's sixteen."""
Hours = tuple[tuple[int, int], ...]
"""Spans of hours, each ``(from, before)``, in seconds since midnight."""
PARTS: dict[str, Hours] = {"morning": ((5 * 3600, 12 * 3600),), "afternoon": ((12 * 3600, 18 * 3600),),
                           "evening": ((18 * 3600, 22 * 3600),), "night": ((22 * 3600, 86400), (0, 5 * 3600))}
"""The parts of the day an enum's values are read as (by their English words), with the hours
each covers as people say them (the CLDR's English rules run the morning from midnight)."""


def _period_hours(code: str) -> dict[str, Hours]:
    """The hours of each of language ``code``'s day periods (``morning1``, ``afternoon2``...;
    "am" and "pm" the two halves of the day), from the CLDR's rules."""
    from babel import Locale

    spans: dict[str, Hours] = {"am": ((0, 43200),), "pm": ((43200, 86400),)}
    for period, rules in (Locale.parse(code).day_period_rules.get(None) or {}).items():
        pairs: list[tuple[int, int]] = []
        for rule in rules:
            if "from" in rule and "before" in rule:  # a period over midnight is two spans
                start, end = rule["from"], rule["before"]
                pairs += [(start, end)] if start < end else [(start, 86400), (0, end)]
        spans[period] = tuple(pairs)
    return spans


@functools.cache
def _words() -> dict[str, Hours]:
    """Each word (lowercase) the CLDR writes for a part of the day, in :data:`LANGUAGES`, with
    the hours it covers; not one abbreviated with a period, nor one that is also a word for a day
    ("morgen", "mañana": tomorrow; "дня": of days), nor one too short to be read alone
    (:func:`_too_short`)."""
    from babel import Locale

    days = day_words()
    found: dict[str, set[tuple[int, int]]] = {}
    for code in LANGUAGES:
        locale = Locale.parse(code)
        spans = _period_hours(code)
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for period, word in (locale.day_periods.get(context, {}).get(width) or {}).items():
                    word = word.lower().replace("\u2019", "'")
                    if spans.get(period) and "." not in word and word not in days and not _too_short(word):
                        found.setdefault(word, set()).update(spans[period])
    return {word: tuple(sorted(hours)) for word, hours in found.items()}


def _too_short(word: str) -> bool:
    """Whether ``word`` is too short to be read alone: two letters or fewer, but in a script whose
    words are found inside a text (:data:`_UNSPACED`: "上午", "오후")."""
    return len(word) <= 2 and not _UNSPACED.search(word)


_UNSPACED = re.compile(rf"[\u0e00-\u0e7f{CJK_LETTERS}]")
"""Thai, Chinese, Japanese and Korean letters: their words are found inside a text, not between
spaces (Thai and Chinese write none; Korean writes its particles onto its words: "저녁에")."""


@functools.cache
def _pattern() -> re.Pattern[str]:
    """A regular expression that finds any word of :func:`_words`: between word boundaries (after
    an elided article too: "l'après-midi"), or anywhere in a text in a script of :data:`_UNSPACED`."""
    latin = sorted((w for w in _words() if not _UNSPACED.search(w)), key=len, reverse=True)
    east = sorted((w for w in _words() if _UNSPACED.search(w)), key=len, reverse=True)
    apostrophe = "['\u2019]"
    latin_words = "|".join(re.escape(w).replace("'", apostrophe) for w in latin)
    return re.compile(rf"(?<!\w)(?:{latin_words})(?!\w)|{'|'.join(map(re.escape, east))}", re.IGNORECASE)


def day_parts_named(_name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The values of an enum of two parts of the day or more (:data:`PARTS`, by their words:
    ``morning``, ``in_the_evening``) that the last message of the conversation that writes a
    time or a word for a part of the day means: for each time (from 8:00: "at 3:00" may be either
    half of the day), the value whose hours hold it;
    for each word, the values whose hours overlap the word's own the most. None where the enum is
    not one of parts of the day or no message writes either."""
    if not listed_strings(part):
        return []
    hours = {value: PARTS[own[0]] for value in part["enum"]
             if len(own := [p for p in PARTS if p in word_key(value).split()]) == 1}
    if len(hours) < 2:
        return []
    for text in values.texts:
        spans: list[Hours] = [((t.hour * 3600 + t.minute * 60, t.hour * 3600 + t.minute * 60 + 1),)
                              for t in written_times(text) if t.hour >= _CLEAR_HOUR]
        spans += [_words().get(match.group().lower().replace("\u2019", "'"), ()) for match in _pattern().finditer(text)]
        meant = {value for span in spans for value in _closest(span, hours)}
        if meant:
            return [value for value in part["enum"] if value in meant]
    return []


_CLEAR_HOUR = 8
"""The first hour a time may be read at as written: "at 3:00" may be either half of the day."""


def _closest(span: Hours, hours: dict[str, Hours]) -> list[str]:
    """The values of ``hours`` (each with the hours its part of the day covers) that overlap
    ``span`` the most; none where none overlaps it."""
    def overlap(value: str) -> int:
        return sum(max(0, min(end, stop) - max(start, begin)) for start, end in span for begin, stop in hours[value])

    most = max(map(overlap, hours))
    return [value for value in hours if overlap(value) == most] if most > 0 else []


SOURCE = Source(
    "day-parts", "enum", "the parts of the day a conversation names in the CLDR's words in sixteen languages, "
    "or the one whose hours hold a time it writes",
    Example("Passez prendre le linge le 22 février l'après-midi", "pickup_slot",
            {"type": "string", "enum": ["morning", "afternoon", "evening"]}, ("afternoon",)),
    day_parts_named)
