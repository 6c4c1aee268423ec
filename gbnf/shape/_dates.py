"""Dates a request writes in words ("March 8th, 2023", "8. März 2023", "the 4th of march") or by
where they lie from today ("tomorrow", "übermorgen", "next Friday"), and dates with the time of
day written right after them ("March 19, 2024, at 12:00 PM"), written as an argument's
description asks ("in the format 'YYYY-MM-DD'", "'YYYY-MM-DD HH:mm:ss'"). A small model copies
the words as written, and can neither reformat them nor count days; the names of months,
weekdays and days from today come from the Unicode CLDR (through Babel) in the languages whose
lists the word rules read. The digits of dates and times are no values to count calls by
(:func:`without_dates`)."""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Sequence
from typing import Any

from gbnf.shape._english import alternation, either, table
from gbnf.shape._language import function_words
from gbnf.shape._segments import has_cjk

_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "pl", "tr", "ru", "zh", "ja", "ko")
"""Whose month names are read (wide and abbreviated)."""
_STRINGS_KEPT = 16384
"""How many strings' readings as dates :func:`_parts` (and with a time, :func:`_moment`) keeps."""
_FORMAT = re.compile(r"\b(YYYY|MM|DD)([-/.])(YYYY|MM|DD)\2(YYYY|MM|DD)\b", re.IGNORECASE)
_ISO_EXAMPLE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_FIELDS = {"YYYY": "%Y", "MM": "%m", "DD": "%d"}
_DAY = r"(?P<day>\d{1,2})(?!\d)(?:st|nd|rd|th|er|\.|º)?"
_YEAR = r"(?P<year>\d{4})"


def date_format(description: str) -> str | None:
    """The ``strftime`` format a string's description asks dates in: one it spells out
    (``YYYY-MM-DD``, ``MM/DD/YYYY``...) or gives an example of (``2023-04-15``); None for none."""
    spelled = _FORMAT.search(description)
    if spelled:
        fields = [spelled.group(i).upper() for i in (1, 3, 4)]
        if sorted(fields) == ["DD", "MM", "YYYY"]:
            return spelled.group(2).join(_FIELDS[field] for field in fields)
    return "%Y-%m-%d" if _ISO_EXAMPLE.search(description) else None


_MOMENT_FORMAT = re.compile(r"\b(YYYY|MM|DD)([-/.])(YYYY|MM|DD)\2(YYYY|MM|DD)([T ])HH:MM(:SS)?(Z)?(?!\w)",
                            re.IGNORECASE)
_ISO_MOMENT = re.compile(r"\b\d{4}-\d{2}-\d{2}([T ])\d{2}:\d{2}(:\d{2})?(Z)?(?!\w)")
_HALF_DAY = r"(?P<hour>\d{1,2})(?:[:.](?P<minute>\d{2}))?(?::(?P<second>\d{2}))?"
_CLOCK = (rf"(?:{_HALF_DAY}(?:\s*(?P<half>[ap]\.?m\b\.?)|\s+in\s+the\s+(?P<part>{alternation(table('day_parts'))})\b)"
          rf"|(?P<hour24>\d{{1,2}}):(?P<minute24>\d{{2}})(?::(?P<second24>\d{{2}}))?(?![\d:])"
          rf"|(?P<word>{alternation(table('clock_words'))})\b)")
"""A time of day: on a 12-hour clock ("4pm", "11.00 a.m."), a 24-hour one ("14:30"), an hour and
a part of the day ("3 in the afternoon") or a word ("noon")."""
_TIME_AFTER = re.compile(rf",?\s*(?:(?:{either('moment_leads')})\s+)?{_CLOCK}", re.IGNORECASE)
"""What writes a time of day right after a date: a comma, "at" or "time" perhaps, then the time."""
_TIME_BEFORE = re.compile(rf"(?<![\w:.]){_CLOCK},?\s+(?:(?:{either('date_leads')})\s+)?", re.IGNORECASE)
"""A time of day written right before a date, "on" perhaps between them ("4pm on March 3")."""


def moment_format(description: str) -> str | None:
    """The ``strftime`` format a string's description asks a date with its time of day in: one
    it spells out (``YYYY-MM-DD HH:mm:ss``, ``dd/mm/yyyy HH:MM``, ``YYYY-MM-DDTHH:MM:SSZ``) or
    gives an ISO 8601 example of (``2023-04-15T13:45:00Z``); None for none."""
    spelled = _MOMENT_FORMAT.search(description)
    if spelled:
        fields = [spelled.group(i).upper() for i in (1, 3, 4)]
        if sorted(fields) == ["DD", "MM", "YYYY"]:
            date = spelled.group(2).join(_FIELDS[field] for field in fields)
            return _with_time(date, spelled.group(5).upper(), spelled.group(6), spelled.group(7))
    example = _ISO_MOMENT.search(description)
    return _with_time("%Y-%m-%d", *example.groups()) if example else None


def _with_time(date: str, between: str, seconds: str | None, zone: str | None) -> str:
    """A date's format with the time's after it (``between`` them, with ``seconds``, then ``zone``)."""
    return f"{date}{between}%H:%M{':%S' if seconds else ''}{(zone or '').upper()}"


def moments(text: str) -> list[str]:
    """Each date ``text`` writes (:func:`dates_at`) with a time of day right after or right before
    it, whole, as written: "March 19, 2024, at 12:00 PM", "the 12th of March 2023 at 3 in the
    afternoon", "2023-04-02 07:30:00", "7:30 pm on December 24, 2024"."""
    dated = dates_at(text)
    ends = dict(dated)
    return [text[start:after.end()] for start, end in dated if (after := _TIME_AFTER.match(text, end))] + \
        [text[before.start():ends[before.end()]] for before in _TIME_BEFORE.finditer(text) if before.end() in ends]


def dates_in(text: str) -> list[str]:
    """Each date ``text`` writes (:func:`dates_at`) whole, as written, though the words around it
    run on ("1 Mart 2027'den": 1 Mart 2027; "预约2027年12月3日换机油": 2027年12月3日)."""
    return [text[start:end] for start, end in dates_at(text)]


def month_name(word: str) -> bool:
    """Whether ``word`` names a month (wide or abbreviated, in the languages read)."""
    return word.lower().rstrip(".") in _names("months")


def calendar_name(word: str) -> bool:
    """Whether ``word`` names a month or a day of the week (wide or abbreviated, in the languages
    read): a date's word, not a place's."""
    return month_name(word) or word.lower().rstrip(".") in _names("days")


def days_from_today(text: str) -> list[str]:
    """The phrases by which ``text`` writes a date from today ("tomorrow", "this Friday", "el
    próximo viernes": :func:`_relative`), as written."""
    return [match.group() for match in _relative_pattern().finditer(text)]


def from_today(string: str) -> bool:
    """Whether ``string`` wholly writes a date from today ("tomorrow", "next Friday", "in 3 days")."""
    return _reading(string) is not None


def today_alone(string: str) -> bool:
    """Whether ``string`` wholly writes today, by its word for it ("today", "heute", "aujourd'hui")."""
    return _reading(string) == (None, 0)


def written_moments(strings: Sequence[str], form: str, day: datetime.date | None = None, said: bool = False
                    ) -> list[str]:
    """The dates with a time of day among ``strings`` (a request's stretches, each wholly one:
    :func:`moments`) in ``form`` (:func:`moment_format`), in the order written, those written
    from today counted from ``day`` (None: :func:`today`); one without its
    year, with a time no clock shows ("25:00", "13 PM"), or cut short of what the request writes
    ("March 25, 2024, 2:30" of "March 25, 2024, 2:30 PM"), is left out."""
    found = {}
    day_first = _day_first(strings)
    counted, _ = _counted_from(strings, day_first, day, said)
    for string in strings:
        read = _moment(string)
        parts = _read_date(read[0], day_first) or _from_day(read[0], counted) if read else None
        date = _valid(*parts) if parts else None
        clock = _clock(read[1]) if read else None
        if date and clock:
            found[string] = datetime.datetime.combine(date, clock).strftime(form)
    whole = [value for string, value in found.items()  # "2:30" is no time where "2:30 PM" is written
             if not any(longer.startswith(string) and longer != string for longer in found)]
    return list(dict.fromkeys(whole))


@functools.lru_cache(maxsize=_STRINGS_KEPT)
def _moment(string: str) -> tuple[str, re.Match[str]] | None:
    """The date and the time of day ``string`` is wholly written of, the time after or before
    the date (:func:`moments`); None for any other string (each string read once, of the
    :data:`_STRINGS_KEPT` most recent, as :func:`_parts` reads them)."""
    dated = _date_spans(string)
    if not dated:
        return None
    (start, end), (first, last) = dated[0], dated[-1]
    if start == 0 and (after := _TIME_AFTER.fullmatch(string, end)):
        return string[:end], after
    if last == len(string) and (before := _TIME_BEFORE.fullmatch(string, 0, first)):
        return string[first:], before
    return None


def _clock(match: re.Match[str]) -> datetime.time | None:
    """The time of day a match of :data:`_CLOCK` writes; None for one no clock shows."""
    found = match.groupdict()
    if found["word"]:
        return datetime.time(table("clock_words")[found["word"].lower()])
    if found["hour24"]:
        hour, minute, second = int(found["hour24"]), int(found["minute24"]), int(found["second24"] or 0)
    else:
        hour, minute, second = int(found["hour"]), int(found["minute"] or 0), int(found["second"] or 0)
        if found["half"]:
            if not 1 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if found["half"][0].lower() == "p" else 0)
        elif hour < 12:
            hour += table("day_parts")[found["part"].lower()]
    try:
        return datetime.time(hour, minute, second)
    except ValueError:
        return None


def written_dates(strings: Sequence[str], form: str, day: datetime.date | None = None, said: bool = False
                  ) -> list[str]:
    """The dates among ``strings`` (a request's stretches, each wholly a date) in ``form``
    (:func:`date_format`), in the order written, those written from today counted from ``day``
    (None: :func:`today`; ``said``: the conversation says today is ``day``), not one that a
    longer one holds ("Friday" of "next Friday"), nor the date the request says today is where
    it asks for another day from today ("this Sunday? Today is Friday 2023-09-29" is
    2023-10-01; a day stated elsewhere, in a system message, leaves "today and tomorrow" two
    days); a day of a range written with the month and year of the other (:func:`_range_end`:
    "from the 3rd to the 7th of August 2027") is a date too, and so is a weekday that ends a range
    from a day written from today, counted from that day (:func:`_weekday_range_ends`: "next Monday
    through Friday"). A date written without its year
    takes the year of the request's other dates, when they are all of one year ("from 2023
    April 4th to April 8th"); else it is left out (a number alone is no year: "$2000 on March
    3rd")."""
    day_first = _day_first(strings)
    counted, stated = _counted_from(strings, day_first, day, said)
    whole = _not_within_dates(strings)
    ends = _weekday_range_ends(strings, counted) if counted else {}
    found = [parts for string in whole if (parts := _read_date(string, day_first) or ends.get(_fold(string))
                                           or _from_day(string, counted) or _range_end(string, day_first)) is not None]
    years = {year for year, _, _ in found if year is not None}
    dates = [date for year, month, day in found
             if (date := _valid(year or (min(years) if len(years) == 1 else None), month, day)) is not None]
    asked = {date for string in whole if counted and not today_alone(string)
             and (date := _relative_date(string, counted)) is not None}
    written = {_valid(*parts) for string in whole if (parts := _read_date(string, day_first)) is not None}
    if stated and asked and counted not in asked and counted in written:  # "this Sunday? Today is Friday 2023-09-29"
        dates = [date for date in dates if date != counted]
    return list(dict.fromkeys(date.strftime(form) for date in dates))


_NUMERIC_DATE = r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}"
"""A date written in digits ("2023-04-20", "03/07/2023", "19.03.24"), as a regular expression."""
TIME = r"\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}(?::\d{2})?"
"""A time of day ("14:00", "10:30:00", "10:00 AM", "7 PM"), as a regular expression."""
_DIGITS_DATE = re.compile(_NUMERIC_DATE)
_IN_DIGITS = re.compile(rf"(?<![\w.:])(?:{_NUMERIC_DATE}|{TIME})(?!\w)", re.IGNORECASE)


def _not_within_dates(strings: Sequence[str]) -> list[str]:
    """``strings`` without those that write a date from today as part of a longer date ("Friday"
    of "next Friday", of "Friday, June 30th 2023")."""
    relative = {string: _spaced(string) for string in strings if _reading(string)}
    dates = [relative.get(string) or _spaced(string) for string in strings
             if string in relative or written_date(string)]
    return [string for string in strings
            if string not in relative or not any(relative[string] in longer != relative[string] for longer in dates)]


def _spaced(string: str) -> str:
    """``string``'s words, folded (:func:`_fold`), with a space before and after each, so that one
    string's words can be found among another's in a row."""
    return f" {' '.join(_WORDS.findall(_fold(string)))} "


_WORDS = re.compile(r"[\w']+")


AFTER_NOON = r"p\.?\s?m\.?|nachmittags|abends|de la tarde|de la noche|du soir|de l'après-midi|di sera|del pomeriggio" \
    r"|di pomeriggio|di stasera|stasera" \
    r"|da tarde|da noite|'s avonds|'s middags|po południu|wieczorem|akşam|öğleden sonra"
"""Words written after an hour that put it after noon ("7 pm", "7 Uhr abends", "7 de la tarde")."""
BEFORE_NOON = r"a\.?\s?m\.?|morgens|vormittags|du matin|de la mañana|di mattina|da manhã|'s ochtends|rano"
"""Words written after an hour that put it before noon ("7 am", "7 Uhr morgens")."""
EAST_AFTER = r"下午|中午|晚上|傍晚|午後|夜|오후|저녁|밤"
"""Words written before an hour, in Chinese, Japanese and Korean, that put it after noon."""
EAST_BEFORE = r"上午|早上|凌晨|午前|朝|오전|아침|새벽"
"""Words written before an hour, in Chinese, Japanese and Korean, that put it before noon."""
CLOCK_TIMES = re.compile(
    rf"(?P<east>{EAST_AFTER}|{EAST_BEFORE})?\s?(?P<hour>\d{{1,2}})"
    r"(?:[:](?P<minute>\d{2})"
    r"|\s?(?:h\s?|Uhr\s?|uur\s?|時(?!間)|时|点|點|시(?!간)\s?)(?P<clock_minute>\d{2})?(?:\s?(?:分|분))?(?P<half>半|반)?"
    r"|(?=\s?(?:" + AFTER_NOON + "|" + BEFORE_NOON + r")))"
    rf"(?:\s?(?P<after>{AFTER_NOON})|\s?(?P<before>{BEFORE_NOON}))?(?![A-Za-z0-9:])",
    re.IGNORECASE)
"""An hour of the clock with its minutes, and what puts it before or after noon (not a count of
hours: "1時間", "3시간")."""


def without_dates(text: str, stretches: Sequence[str]) -> str:
    """``text`` with the dates and times it writes blanked out, so that their digits are not
    counted as values: the ``stretches`` (a request's, :func:`~gbnf.shape.rules.spans`) that are
    wholly a date with a year or a month's full name ("April 25, 2023", "the 7th of March",
    "2023-04-20"; not "Set 5", whose "set" is September only abbreviated, in Italian), dates
    in digits ("03/07/2023") and times ("14:00", "7 PM", "7h", "19 Uhr", "下午3点": :data:`CLOCK_TIMES`)."""
    for stretch in sorted(filter(_is_date, stretches), key=len, reverse=True):
        text = text.replace(stretch, " " * len(stretch))
    text = _IN_DIGITS.sub(lambda match: " " * len(match.group()), text)
    return CLOCK_TIMES.sub(lambda match: match.group() if match.group().strip().isdigit() else " " * len(match.group()),
                           text)


def written_date(string: str) -> bool:
    """Whether ``string`` is wholly a date: in digits ("2023-04-20", "03/07/2023") or with a
    month's name in any of :data:`_LANGUAGES` ("March 8th, 2023", "Friday, June 30th", "8. März")."""
    return _DIGITS_DATE.fullmatch(string.strip()) is not None or _parts(string) is not None


@functools.lru_cache(maxsize=64)
def dates_at(text: str) -> tuple[tuple[int, int], ...]:
    """Where ``text`` writes dates, in turn: in digits ("2020-12-25", "03/07/2023"), with a
    year or a month's full name ("March 3, 2024", "the 7th of March"; not "Set 5") or by where
    they lie from today ("tomorrow", "next Friday"), each the longest written there (read once
    per request, not once per tool and rule)."""
    return _date_spans(text)


def _date_spans(text: str) -> tuple[tuple[int, int], ...]:
    """:func:`dates_at`, unkept: for a request's stretches, which :func:`_moment` keeps itself. A
    date from today goes where no other date is written ("this Saturday, 2023-03-04": the date
    is "Saturday, 2023-03-04")."""
    found = []
    for pattern in (*_patterns(), _DIGITS_DATE):
        for match in pattern.finditer(text):
            start, end = match.span()
            apart = _apart(text[start - 1:start]) and _apart(text[end:end + 1])
            if apart and (pattern is _DIGITS_DATE or _is_date(match.group())):
                found.append((start, end))
    kept: list[tuple[int, int]] = []
    for start, end in sorted(found, key=lambda span: (span[0], -span[1])):
        if not kept or start >= kept[-1][1]:
            kept.append((start, end))
    relative = [(start, end) for start, end in (match.span() for match in _relative_pattern().finditer(text))
                if not any(start < other_end and other_start < end for other_start, other_end in kept)]
    return tuple(sorted(kept + relative))


def _apart(neighbour: str) -> bool:
    """Whether a date may end or start beside ``neighbour`` (a character, or none): not a letter
    or digit of its own word, but for one of Chinese, Japanese or Korean, which write no spaces
    ("预约2027年12月3日换机油")."""
    return not neighbour.isalnum() or has_cjk(neighbour)


_RANGE_WORD = (r"(?:\s+(?:to|till|until|through|thru|au|bis|al|tot(?: en met)?|t/m|até|do|fino al)\s+(?:the\s+)?"
               r"|\s*(?:-|–|—|~|〜|～|到|至|から)\s*)")
"""A word or mark between the two days of a range ("3rd to the 7th", "3 au 7", "3. bis 7.")."""
_RANGE_DAY = r"(\d{1,2})(?:st|nd|rd|th|er|e|\.|º|日)?"
"""A day of a range, alone: its number and an ordinal's ending."""
_DAY_THEN_DATE = re.compile(rf"(?:the\s+)?{_RANGE_DAY}{_RANGE_WORD}(.+)", re.IGNORECASE)
_DATE_THEN_DAY = re.compile(rf"(.+?){_RANGE_WORD}{_RANGE_DAY}(?:,?\s*(\d{{4}}))?", re.IGNORECASE)


def _range_end(string: str, day_first: bool | None) -> tuple[int | None, int, int] | None:
    """The day of a range that writes its month and year once, at the other day, as (year or
    None, month, day): "the 3rd to the 7th of August 2027", "3 au 7 août 2027" give August
    3rd; "August 3 to 7, 2027" and "8月3日到7日" give the 7th; None for any other string, and
    for a range that would run back ("2027-08-07 - 3 boxes")."""
    ahead = _DAY_THEN_DATE.fullmatch(string.strip())
    if ahead and (read := _read_date(ahead.group(2), day_first)) is not None and int(ahead.group(1)) < read[2]:
        return read[0], read[1], int(ahead.group(1))
    behind = _DATE_THEN_DAY.fullmatch(string.strip())
    if behind and (read := _read_date(behind.group(1), day_first)) is not None and int(behind.group(2)) > read[2]:
        return int(behind.group(3)) if behind.group(3) else read[0], read[1], int(behind.group(2))
    return None


def _weekday_range_ends(strings: Sequence[str], day: datetime.date) -> dict[str, tuple[int, int, int]]:
    """The weekdays that end a range from a day written from ``day`` (a stretch of ``strings``
    wholly such a range: "next Monday through Friday", "du lundi au vendredi", "from tomorrow
    until Friday"), folded (:func:`_fold`), each with the first such weekday on or after the range's
    first day, as (year, month, day): Friday is the 25th of "next Monday through Friday" read on
    Monday the 14th, not the 18th that "Friday" alone writes."""
    ends: dict[str, tuple[int, int, int]] = {}
    for string in strings:
        ranged = _WEEKDAY_RANGE.fullmatch(string.strip())
        last = _reading(ranged.group(2)) if ranged else None
        if ranged is None or last is None or last[0] is None or last[1] is not None \
                or (start := _relative_date(ranged.group(1), day)) is None:
            continue  # a range from a day written from today to a weekday's name alone
        end = start + datetime.timedelta(days=(last[0] - start.weekday()) % 7)
        ends[_fold(ranged.group(2))] = (end.year, end.month, end.day)
    return ends


_WEEKDAY_RANGE = re.compile(rf"(.+?){_RANGE_WORD}(.+)", re.IGNORECASE)
"""A range of two days written by words ("next Monday through Friday")."""


def _is_date(string: str) -> bool:
    parts = _parts(string)
    return parts is not None and (parts[0] is not None or any(
        word.lower() in _names("months", ("wide",)) for word in re.findall(r"[^\W\d_]+", string)))


@functools.lru_cache(maxsize=_STRINGS_KEPT)
def _parts(string: str) -> tuple[int | None, int, int] | None:
    """(year or None, month, day) of a string that is wholly a date; None for any other (each
    string read once, of the :data:`_STRINGS_KEPT` most recent: a request's stretches are read
    for its numbers and again for the values a date is kept from)."""
    if not any(char.isdigit() for char in string):  # every date writes its day or its year in digits
        return None
    for pattern in _patterns():
        match = pattern.fullmatch(string.strip())
        if match:
            parts = match.groupdict()
            name = parts["month"]
            month = int(name) if name.isdigit() else _names("months").get(name.lower().rstrip("."))
            return (int(parts["year"]) if parts.get("year") else None, month, int(parts["day"])) if month else None
    return _day_and_month(string)


_DIGITS_ORDERED = re.compile(r"(\d{1,2})([/.])(\d{1,2})\2(\d{4})")


def _day_and_month(string: str, day_first: bool | None = None) -> tuple[int, int, int] | None:
    """(year, month, day) of a date written in digits with its year last, in the one order that
    reads (:func:`_order`: "19/03/2024" day first, "03/19/2024" month first), or where both would
    ("03/07/2023"), as ``day_first`` says (None: none); None for any other string."""
    digits = _digit_date(string)
    if digits is None:
        return None
    first, second, year = digits
    order = _order(first, second)
    order = day_first if order is None else order
    if order is None:
        return None
    return (year, second, first) if order else (year, first, second)


def _order(first: int, second: int) -> bool | None:
    """Whether a date's two numbers before its year read day first (True) or month first
    (False), where only one order reads (there is no 19th month); None where both or neither do."""
    if first > 12 >= second:
        return True
    if second > 12 >= first:
        return False
    return None


def _day_first(strings: Sequence[str]) -> bool | None:
    """Whether the dates ``strings`` write in digits with their year last put the day first, as
    those that only one order reads say ("from 05/12/2023 to 05/18/2023": month first, so
    05/12 is May 12th); None where none says or they disagree."""
    orders = {order for string in strings
              if (digits := _digit_date(string)) and (order := _order(*digits[:2])) is not None}
    return orders.pop() if len(orders) == 1 else None


def _digit_date(string: str) -> tuple[int, int, int] | None:
    """The two numbers before the year and the year of a date written in digits with its year
    last ("19/03/2024": 19, 3, 2024); None for any other string."""
    match = _DIGITS_ORDERED.fullmatch(string.strip())
    return (int(match.group(1)), int(match.group(3)), int(match.group(4))) if match else None


def _read_date(string: str, day_first: bool | None) -> tuple[int | None, int, int] | None:
    """(year or None, month, day) of ``string`` (:func:`_parts`), a date in digits whose order is
    open read as ``day_first`` says (:func:`_day_and_month`)."""
    return _parts(string) or (_day_and_month(string, day_first) if day_first is not None else None)


def today() -> datetime.date:
    """The day a request is read on (this machine's local date)."""
    return datetime.date.today()


def _counted_from(strings: Sequence[str], day_first: bool | None, day: datetime.date | None = None,
                  said: bool = False) -> tuple[datetime.date | None, bool]:
    """The day the dates ``strings`` (a request's stretches) write from today count from, and
    whether the request says it: the one it says today is (:func:`_stated_today`), else ``day``
    (the conversation's, said so where ``said``) or this machine's (:func:`today`), unless the
    request writes a date with its year and the conversation does not say the day (None: it may
    speak of another time than now, and a date counted from this machine's day would stand
    beside the one it means)."""
    stated = _stated_today(strings, day_first)
    if stated is not None:
        return stated, True
    if said and day is not None:
        return day, True
    dated = any((parts := _read_date(string, day_first)) and parts[0] for string in strings)
    return (None if dated else day or today()), False


@functools.cache
def _now_pattern() -> re.Pattern[str]:
    """A sentence that says what day it is with a word of ``now_leads`` and a date ("It's Monday
    the 1st of February 2027."): the date is the group."""
    return re.compile(rf"(?:{either('now_leads')})\s+([^.!?。]+?)\s*[.!?。]?", re.IGNORECASE)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")
"""Where a sentence may end: a Latin mark and a space, a Chinese or Japanese mark, a line's end."""
_DAY_END = re.compile(r"(?:^|\s)\d{1,2}\.$")


def sentences(text: str) -> list[str]:
    """``text``'s sentences, stripped, the empty left out; the period of a day followed by a
    month's name or a lowercase word ends none ("am 5. Mai", "le 3. juin"), that of a count does
    ("Table for 4. Can you book it?")."""
    found: list[str] = []
    for part in (part.strip() for part in _SENTENCE_END.split(text)):
        if not part:
            continue
        first = part.split(maxsplit=1)[0]
        if found and _DAY_END.search(found[-1]) and (first[0].islower() or month_name(first)):
            found[-1] = f"{found[-1]} {part}"
        else:
            found.append(part)
    return found


def said_now(text: str) -> datetime.date | None:
    """The date a sentence of ``text`` says it is, wholly ("It's Monday the 1st of February
    2027.", "Nous sommes le 3 mars 2027."); None where none does."""
    for sentence in sentences(text):
        now = _now_pattern().fullmatch(sentence)
        parts = _read_date(now.group(1), None) if now else None
        if parts and parts[0] and (said := _valid(*parts)):
            return said
    return None


def stated_today(strings: Sequence[str]) -> datetime.date | None:
    """The date ``strings`` (a text's stretches) say today is ("Today is Tuesday 2025-03-04");
    None where they say none."""
    return _stated_today(strings, _day_first(strings))


def _stated_today(strings: Sequence[str], day_first: bool | None) -> datetime.date | None:
    """The date ``strings`` (a request's stretches) say today is: a date with its year at most
    two words after a word for today ("today is 2023.10.1", "assuming today is April 4th,
    2023", "today is Tuesday 2023.10.10"); None where they say none."""
    for string in strings:
        lead = _relative_pattern().match(string)
        if lead is None or not today_alone(lead.group()):
            continue
        rest = string[lead.end():]
        for _ in range(3):
            rest = rest.strip(" ,:;")
            parts = _read_date(rest, day_first)
            if parts and (stated := _valid(*parts)):
                return stated
            rest = rest.partition(" ")[2]
    return None


def _from_day(string: str, day: datetime.date | None) -> tuple[int, int, int] | None:
    """(year, month, day) of a date ``string`` wholly writes by where it lies from ``day``
    (:func:`_relative_date`); None for any other string, or where ``day`` is None."""
    found = _relative_date(string, day) if day else None
    return (found.year, found.month, found.day) if found else None


def _relative_date(string: str, day: datetime.date) -> datetime.date | None:
    """The date ``string`` wholly writes by where it lies from ``day`` (:func:`_reading`):
    "tomorrow" the next day, "übermorgen" and "in 2 days" the one after; "this Friday" the first Friday from
    ``day`` on (``day`` itself, on a Friday), "Friday" alone the first after it, "next Friday"
    the Friday of the week after ``day``'s (weeks start on Monday), "last Friday" the latest
    before ``day``; None for any other string."""
    found = _reading(string)
    if found is None:
        return None
    weekday, offset = found
    if weekday is None:
        return day + datetime.timedelta(days=offset or 0)
    ahead = (weekday - day.weekday()) % 7
    if offset is None:
        ahead = ahead or 7
    elif offset > 0:
        ahead = 7 - day.weekday() + weekday
    elif offset < 0:
        ahead = -((day.weekday() - weekday - 1) % 7 + 1)
    return day + datetime.timedelta(days=ahead)


_WEEKDAY_FIELDS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
"""The CLDR's fields of the weekdays, Monday first (as Python numbers them)."""


@functools.cache
def _relative() -> dict[str, tuple[int | None, int | None]]:
    """The phrases that write a date by where it lies from today, in :data:`_LANGUAGES` (folded:
    :func:`_fold`), each with its weekday (Monday 0; None for a day counted) and its offset: the
    CLDR's days counted from today ("tomorrow", "übermorgen", "après-demain": None and 1, 2, 2;
    English's "the day after tomorrow" and "tonight", which it lacks, from ``[days_from_today]``),
    its weekdays counted in weeks ("next Friday", "diesen Freitag", "el próximo viernes": 4 and
    1, 0, 1) and the weekdays' own names ("Friday", "vendredi": 4 and None). Not a phrase of one
    word that is a function word of a language the rules read ("hier": here, in German)."""
    common = frozenset().union(*function_words())
    found: dict[str, tuple[int | None, int | None]] = {
        **{name: (number, None) for name, number in _names("days", ("wide",)).items()},
        **{phrase: (None, days) for phrase, days in table("days_from_today").items()}}
    for fields in _date_fields():
        for weekday, field in [(None, "day"), *enumerate(_WEEKDAY_FIELDS)]:
            for offset, phrase in fields[field]["relative"].items():
                found.setdefault(_fold(phrase), (weekday, int(offset)))
    return {phrase: read for phrase, read in found.items() if phrase not in common}


@functools.lru_cache(maxsize=4096)
def _reading(string: str) -> tuple[int | None, int | None] | None:
    """How ``string`` wholly writes a date from today: its weekday and offset as :func:`_relative`
    keeps them, or, for a count of days or weeks ("in 3 days", "vor 2 Tagen", "dans 2 semaines":
    :func:`_day_counts`), no weekday and the days it counts; None for any other string."""
    folded = _fold(string)
    if (found := _relative().get(folded)) is not None:
        return found
    count = _COUNT.search(folded)
    unit = _squeezed_counts().get(_COUNT.sub("{0}", folded, count=1).replace(" ", "")) if count else None
    return (None, unit * int(count.group())) if count and unit is not None else None


@functools.cache
def _squeezed_counts() -> dict[str, int]:
    """:func:`_day_counts` by their phrases without spaces: "3日後" and "3일후" are written with
    none where the CLDR writes "{0} 日後"."""
    return {phrase.replace(" ", ""): days for phrase, days in _day_counts().items()}


_COUNT = re.compile(r"\d{1,3}")


@functools.cache
def _day_counts() -> dict[str, int]:
    """The CLDR's phrases that count days or weeks from today, in :data:`_LANGUAGES` (folded, the
    count written ``{0}``: "in {0} days", "vor {0} Tagen", "{0} giorni fa"), each with the days
    one of its count stands for (7 a week; negative before today)."""
    found: dict[str, int] = {}
    for fields in _date_fields():
        for field, days in (("day", 1), ("week", 7)):
            for way, sign in (("future", 1), ("past", -1)):
                for phrase in fields[field][way].values():
                    found.setdefault(_fold(phrase), sign * days)
    return found


@functools.cache
def day_words() -> frozenset[str]:
    """The words of the CLDR's phrases for a day from today and for a count of days, in
    :data:`_LANGUAGES`, lowercase ("morgen", "mañana", "pasado mañana", "дня", "Tagen"): words that
    name a day, not a part of one."""
    words: set[str] = set()
    for fields in _date_fields():
        day = fields["day"]
        phrases = [*day["relative"].values(), *(p for way in ("future", "past") for p in day[way].values())]
        words.update(word for phrase in phrases for word in phrase.lower().replace("{0}", " ").split())
        words.update(phrase.lower() for phrase in day["relative"].values())
    return frozenset(words)


def _date_fields() -> list[Any]:
    """The CLDR's date fields ("day", "week", "fri": their words relative to today) of each of
    :data:`_LANGUAGES`; Babel keeps them on its locales' data only."""
    from babel import Locale

    return [Locale.parse(code)._data["date_fields"] for code in _LANGUAGES]


def _fold(phrase: str) -> str:
    """A phrase as :func:`_relative` keeps it: in small letters, its apostrophes straight, its
    spaces single."""
    return " ".join(phrase.lower().replace("\u2019", "'").split())


@functools.cache
def _relative_pattern() -> re.Pattern[str]:
    """A regular expression that matches a phrase of :func:`_relative` or :func:`_day_counts` as a
    request writes it (any case, either apostrophe, any spaces between its words, a count in
    digits)."""
    phrases = alternation([*_relative(), *_day_counts()]).replace("'", "['\u2019]").replace(r"\ ", r"\s*")
    phrases = phrases.replace(re.escape("{0}"), _COUNT.pattern)
    return re.compile(rf"(?<![\w'\u2019])(?:{phrases})(?![\w'\u2019])", re.IGNORECASE)


def _valid(year: int | None, month: int, day: int) -> datetime.date | None:
    try:
        return datetime.date(year, month, day) if year else None
    except ValueError:
        return None


@functools.cache
def _names(kind: str, widths: tuple[str, ...] = ("wide", "abbreviated")) -> dict[str, int]:
    """The CLDR's names of ``kind`` (``months`` or ``days``; of ``widths``, lowercased,
    without a final period) in :data:`_LANGUAGES`, each with its number (the first language's)."""
    from babel import Locale

    names: dict[str, int] = {}
    for code in _LANGUAGES:
        table = getattr(Locale.parse(code), kind)
        for context in ("format", "stand-alone"):
            for width in widths:
                for number, name in table[context][width].items():
                    names.setdefault(name.lower().rstrip("."), number)
    return names


@functools.cache
def _month_names() -> str:
    """A regular expression that matches a month's name, wide or abbreviated, in any of
    :data:`_LANGUAGES` ("March", "Mar", "März", "sept")."""
    return alternation(_names("months"))


@functools.cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    month = rf"(?P<month>{_month_names()})\.?"
    year = rf"(?:,?\s*(?:de\s+|del\s+)?{_YEAR})"
    # Friday, June 30th 2023; Monday the 1st of February 2027
    weekday = rf"(?:(?:{alternation(_names('days'))})\.?,?\s+(?:the\s+|der\s+|le\s+|el\s+|il\s+)?)?"
    return tuple(re.compile(weekday + pattern, re.IGNORECASE) for pattern in (
        rf"{month}\s*{_DAY},?{year}?",  # March 8th, 2023; Mar.17,1915; April 25th
        rf"{_DAY}\s*(?:of\s+|de\s+|di\s+)?{month}{year}?",  # 10th march 2023; 8. März 2023; 8 de marzo de 2023
        rf"{_YEAR}\s+{month}\s+{_DAY}",  # 2023 April 4th
        rf"{_YEAR}[-./](?P<month>\d{{1,2}})[-./]{_DAY}",  # 2023.4.17; 2023-10-1
        rf"(?:{_YEAR}\s*年\s*)?(?P<month>\d{{1,2}})\s*月\s*{_DAY}\s*[日号號]",  # 2025年3月8日; 3月8号
        rf"(?:{_YEAR}\s*년\s*)?(?P<month>\d{{1,2}})\s*월\s*{_DAY}\s*일",  # 2025년 3월 8일
    ))
