"""Lengths of time the conversation writes ("for an hour", "45-minute", "une demi-heure",
"anderthalb Stunden", "二十五分钟", "1時間半"), in the unit a number argument counts in (its name
or description says minutes, seconds, hours, days or weeks): "for an hour" is 60 for
``minutes``, where the numbers written ("at 9 pm") are not lengths at all."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from gbnf._text import identifier_words
from gbnf.shape._times import written_times
from gbnf.shape._values import HAN_NUMERALS, Values, han_number, numbers, worded_in_digits
from gbnf.shape.sources._source import Example, Source

_UNITS = {
    1: r"seconds?|secs?|sekunden?|secondes?|segundos?|secondi|seconden?|秒钟|秒鐘|秒間|秒|초",
    60: r"minutes?|mins?|minuten?|minutos?|minuti|minuut|分钟|分鐘|分間|分|분",
    3600: r"hours?|hrs?|stunden?|std|heures?|horas?|ore|uur|个小时|個小時|小时|小時|钟头|鐘頭|時間|시간",
    86400: r"days?|tage?n?|jours?|d[ií]as?|giorni|dagen|天|日間|nights?|n[äa]chte?n?|nuits?|noches?|notti|nachten|"
           r"晚|泊|박",
    604800: r"weeks?|wochen?|semaines?|semanas?|settimane|weken|週間|星期|周|주",
}
"""Each unit's seconds, and its words after a number, in the languages the stage reads (no
``h`` or ``日``: "20h15" and "23日" are a time and a date)."""
_NUMBERED = re.compile(
    r"(?<![0-9A-Za-z.,:時时点點시])(?P<number>\d+(?:[.,]\d+)?)[\s'-]*"
    rf"(?:{'|'.join(f'(?P<u{seconds}>{words})' for seconds, words in _UNITS.items())})(?![A-Za-zÀ-ÿ])"
    r"(?P<half>\s*(?:and\s+a\s+half|et\s+demie?|y\s+medi[ao]|e\s+mezz[oa]|e\s+meia|und\s+eine?\s+halbe?|半|반))?",
    re.IGNORECASE)
"""A number of units ("45 minutes", "45-minute", "2 Stunden", "25分钟", "1時間半"), the number
words already in digits."""
_UNIT_WORD = re.compile("|".join([*_UNITS.values(), r"months?|monate?n?|mois|mes(?:es)?|mesi|maand(?:en)?|"
                                   r"years?|jahre?n?|ans?|años?|anni|jaar|jaren|개월|个月|個月|ヶ月|か月|년"]),
                        re.IGNORECASE)


def time_unit(word: str) -> bool:
    """Whether ``word`` is a unit of time in a language the stage reads ("hours", "Tage", "分钟",
    "months", "개월")."""
    return bool(_UNIT_WORD.fullmatch(word))


_WORDED = {
    "an hour": 3600, "one hour": 3600, "half an hour": 1800, "half hour": 1800, "a half hour": 1800,
    "an hour and a half": 5400, "a quarter of an hour": 900, "quarter of an hour": 900, "a quarter hour": 900,
    "a minute": 60, "one minute": 60, "a second": 1, "a day": 86400, "one day": 86400, "one night": 86400,
    "a week": 604800, "one week": 604800, "a fortnight": 1209600,
    "une heure": 3600, "une demi-heure": 1800, "une demi heure": 1800, "une heure et demie": 5400,
    "un quart d'heure": 900, "une minute": 60, "une seconde": 1, "un jour": 86400, "une journée": 86400,
    "une semaine": 604800,
    "eine stunde": 3600, "einer stunde": 3600, "eine halbe stunde": 1800, "einer halben stunde": 1800,
    "anderthalb stunden": 5400, "eineinhalb stunden": 5400, "eine viertelstunde": 900, "eine minute": 60,
    "einen tag": 86400, "einem tag": 86400, "eine woche": 604800, "einer woche": 604800,
    "una hora": 3600, "media hora": 1800, "una hora y media": 5400, "un cuarto de hora": 900, "un minuto": 60,
    "un día": 86400, "un dia": 86400, "una semana": 604800,
    "un'ora": 3600, "mezz'ora": 1800, "mezza ora": 1800, "un'ora e mezza": 5400, "un quarto d'ora": 900,
    "un giorno": 86400, "una settimana": 604800,
    "een uur": 3600, "een half uur": 1800, "half uur": 1800, "anderhalf uur": 5400, "een kwartier": 900,
    "een minuut": 60, "een dag": 86400, "een week": 604800,
    "uma hora": 3600, "meia hora": 1800, "uma hora e meia": 5400, "um minuto": 60, "um dia": 86400,
    "uma semana": 604800,
    "半小时": 1800, "半小時": 1800, "半个小时": 1800, "半個小時": 1800, "半時間": 1800,
    "한 시간": 3600, "반 시간": 1800,
}
"""Lengths written in words alone, without a number, in the languages the stage reads."""
_LONGEST_FIRST = sorted(_WORDED, key=len, reverse=True)
_WORDED_RE = re.compile(r"(?<![A-Za-zÀ-ɏ])(?:" + "|".join(map(re.escape, _LONGEST_FIRST)) + r")(?![A-Za-zÀ-ɏ])",
                        re.IGNORECASE)
"""A length written in words, not inside a longer Latin word (Korean writes a suffix on: "한 시간짜리")."""
_JOINED = re.compile(r"[\s,]*(?:and|et|und|y|e|en)?[\s,]*", re.IGNORECASE)
"""What may stand between two lengths that are one ("1 hour 30 minutes", "an hour and 15 minutes")."""
_HAN = re.compile(rf"({HAN_NUMERALS})(?=个?(?:分|小时|小時|時間|秒|天|周|週|晚|泊))")
_NAMED = {"second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3600, "hours": 3600, "day": 86400,
          "days": 86400, "week": 604800, "weeks": 604800, "millisecond": 0.001, "milliseconds": 0.001}
"""The words of an argument's name that say the unit it counts in."""
_ABBREVIATED = {"s": 1, "sec": 1, "secs": 1, "min": 60, "mins": 60, "h": 3600, "hr": 3600, "hrs": 3600, "ms": 0.001}
"""The same as the last word of a name only ("duration_min", "timeout_s"; not "min_price")."""
_DESCRIBED = re.compile(r"\b(?:in|of)\s+(seconds|minutes|hours|days|weeks|milliseconds)\b", re.IGNORECASE)
"""A description that says the unit ("Timeout in seconds.", "Number of minutes.")."""


def lengths_written(text: str) -> tuple[float, ...]:
    """The lengths of time ``text`` writes, in seconds, in order; lengths written one after
    another in smaller units ("1 hour 30 minutes", "an hour and 15 minutes") are one length."""
    return _lengths(text)[0]


@functools.lru_cache(maxsize=1024)
def _lengths(text: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The lengths of time ``text`` writes, in seconds, and the numbers written in them."""
    text = _HAN.sub(lambda match: str(han_number(match.group(1))), worded_in_digits(text))  # "二十五分钟"
    spans: list[tuple[int, int, float, float]] = []  # where, the seconds, the unit's seconds
    counts: list[float] = []
    for match in _NUMBERED.finditer(text):
        unit = float(next(int(key[1:]) for key, value in match.groupdict().items() if key.startswith("u") and value))
        counts.append(float(match["number"].replace(",", ".")))
        spans.append((match.start(), match.end(), counts[-1] * unit + (unit / 2 if match["half"] else 0), unit))
    for match in _WORDED_RE.finditer(text):
        if not any(start < match.end() and match.start() < end for start, end, _, _ in spans):
            seconds = float(_WORDED[match.group().lower()])
            spans.append((match.start(), match.end(), seconds, seconds))
    found: list[float] = []
    last, larger = -1, 0.0
    for start, end, seconds, unit in sorted(spans):
        if found and unit < larger and _JOINED.fullmatch(text[last:start]):  # "1 hour 30 minutes", not "20 and 15"
            found[-1] += seconds
        else:
            found.append(seconds)
        last, larger = end, unit
    return tuple(found), tuple(counts)


def days_written(texts: Sequence[str]) -> list[int]:
    """The lengths of time ``texts`` write in whole days (a night counts as one: "for three nights",
    "住五晚", "for a week": 3, 5, 7), in order, each once."""
    found = [seconds / 86400 for text in texts for seconds in lengths_written(text)]
    return list(dict.fromkeys(int(days) for days in found if days >= 1 and days.is_integer()))


def counted_in(name: str | None, part: dict[str, Any]) -> float | None:
    """The seconds of the unit a number argument counts in, as its name or description says
    ("minutes", "duration_min", "Timeout in seconds."); None when they name no unit of time, or
    a rate ("meals_per_week")."""
    words = identifier_words(name or "").lower().split()
    named = next((_NAMED[word] for i, word in enumerate(words) if word in _NAMED and words[i - 1:i] != ["per"]), None)
    if named is None and words and words[-1] in _ABBREVIATED and len(words) > 1:
        named = _ABBREVIATED[words[-1]]
    described = _DESCRIBED.search(str(part.get("description", "")))
    return named if named is not None else _NAMED[described.group(1).lower()] if described else None


def lengths_in_unit(name: str | None, part: dict[str, Any], values: Values) -> list[float | int]:
    """The lengths of time the conversation writes, in the unit the argument counts in (only the
    whole ones for an integer; where it writes none, the spans of time it writes from one time of
    day to a later one: "from 10:00 to 16:00" is 6 hours, :func:`_time_spans`), then, where it writes
    any, the other numbers of the texts that write no length ("for an hour at 9 pm": 60, not 9;
    "Two bikes for three hours": 3, not 2; a tool's result may give a length in a number alone:
    ``"recommended_minutes": 25``), but those of a time of day."""
    unit = counted_in(name, part)
    if unit is None:
        return []
    read = [_lengths(text) for text in values.texts]
    found = [seconds / unit for lengths, _ in read for seconds in lengths] or [
        seconds / unit for text in values.texts for seconds in _time_spans(text)]
    whole = [n for n in found if abs(n - round(n)) < 1e-9]
    kept = [int(round(n)) if n in whole else n for n in (whole if part.get("type") == "integer" else found)]
    if not kept:
        return []
    used = {count for _, counts in read for count in counts} | {
        n for text in values.texts for time in written_times(text) for n in (time.hour, time.hour % 12, time.minute)}
    unmeasured = {n for text, (lengths, _) in zip(values.texts, read) if not lengths for n in numbers(text)}
    return list(dict.fromkeys([*kept, *(n for n in values.numbers if n in unmeasured and n not in used)]))


def _time_spans(text: str) -> list[float]:
    """The seconds of each span of time ``text`` writes from a time of day to a later one, after a
    word that says where it starts ("from 10:00 to 16:00", "von 9 bis 12 Uhr", "de 10h à 16h",
    "从10点到12点") or joined by a dash ("10:00-16:00"); not two times apart ("Move my 9:00
    meeting to 11:00")."""
    found = []
    for match in _SPAN.finditer(text):
        starts, ends = written_times(match["start"]), written_times(match["end"])
        if len(starts) == 1 and ends and ends[0] > starts[0]:
            found.append(float((ends[0].hour - starts[0].hour) * 3600 + (ends[0].minute - starts[0].minute) * 60))
    return found


_SPAN = re.compile(
    r"(?:(?<![\w])(?:from|von|vom|ab|de|des|desde|dalle|dalla|da|van|vanaf|od)\s+|从|自|(?=\d{1,2}[:.h]\d{2}\s*[-–~]))"
    r"(?P<start>[^,;.!?]{1,14}?)\s*(?:(?<![\w])(?:to|until|till|bis|à|a|al|alle|hasta|tot|às|do)(?![\w])|[-–~到至])\s*"
    r"(?P<end>[^,;!?]{1,24})", re.IGNORECASE)
"""A span of time: a word that says where it starts, the start, a word or a dash that says where
it ends, and the end (each read for a time of day)."""


SOURCE = Source(
    "durations", "number", "lengths of time, in the unit the argument counts in (\"for an hour\": 60 minutes)",
    Example("Water the garden for an hour at 9 pm", "minutes", {"type": "integer"}, (60,)),
    lengths_in_unit, asks=True)
