"""Times of day a text writes, in any of several languages and clocks ("5:15", "7 pm", "19h30",
"19 Uhr", "à 19 heures 30", "alle ore 21", "下午3点", "午後3時", "오후 3시"), and the text without
them (its hours are no counts)."""

from __future__ import annotations

import datetime
import functools
import re

from gbnf.shape._dates import AFTER_NOON, BEFORE_NOON, CLOCK_TIMES, EAST_AFTER, EAST_BEFORE, month_name
from gbnf.shape._language import is_english
from gbnf.shape._values import HAN_NUMERALS, han_number, worded_in_digits

_WORDED = re.compile(
    r"(?<![\d:.])\b(?:(?P<part>half|quarter)\s+(?P<way>past|after|to)\s+(?P<hour>\d{1,2})"
    r"|(?P<clock>\d{1,2})\s+o'?clock"
    r"|(?P<bare>\d{1,2})(?::(?P<bare_minute>[0-5]\d))?\s+(?:in\s+the\s+(?P<day_part>morning|afternoon|evening)"
    r"|at\s+night|tonight))"
    r"(?:\s+(?:in\s+the\s+(?P<later_part>morning|afternoon|evening)|at\s+night|tonight))?",
    re.IGNORECASE)
"""An English time in words ("half past six", "quarter to eight", "ten o'clock", "7 in the
evening", "9:30 at night"), its number words already written in digits."""
_HALVES = r"media|demie|mezza|meia|cuarto|quart|quarto"
"""The half and the quarter past an hour in Romance languages."""
_ROMANCE_HALF = re.compile(rf"(?P<hour>\d{{1,2}})(?:\s+(?:heures?|uhr|horas?|ore))?\s+(?:y|et|e)\s+(?P<part>{_HALVES})",
                           re.IGNORECASE)
""""7 y media", "8 heures et demie", "9 e mezza", "10 e um quarto": the half or the quarter past."""
_LATER = re.compile(rf"\s*(?:{AFTER_NOON})", re.IGNORECASE)
_GERMANIC = re.compile(r"(?<![\w:])(?:(?P<quarter>kwart|viertel)\s+(?P<way>over|na|nach|voor|vor)|(?P<half>halb|half))"
                       r"\s+(?P<hour>\d{1,2})(?![\d:]|\.\d)", re.IGNORECASE)
""""kwart over 5", "Viertel vor 8", "halb 6" (5:30; Dutch "half 6" too, where the request is no English one),
at the end of a sentence too ("um halb 6.")."""
_NOON = re.compile(r"(?<![\w-])(?:noon|midday|mittag|mittags|midi|mediodía|mezzogiorno|meio-dia)(?!\w)"
                   r"|(?:正午|中午|정오)(?![\d一二三四五六七八九十两])", re.IGNORECASE)
_MIDNIGHT = re.compile(r"(?<!\w)(?:midnight|mitternacht|minuit|medianoche|mezzanotte|meia-noite|middernacht)(?!\w)"
                       r"|午夜|真夜中|자정", re.IGNORECASE)


UTC_OFFSET = re.compile(r"\b(?:UTC|GMT)(?:\s*(?P<sign>[+\-−])\s*(?P<hours>\d{1,2})(?::?(?P<minutes>\d{2}))?)?"
                        r"(?![\w+\-])")
"""A UTC offset as people write it ("UTC+01:00", "GMT-5", "UTC+5:30", "UTC" alone): no time of day."""


@functools.lru_cache(maxsize=1024)
def written_times(text: str) -> tuple[datetime.time, ...]:
    """The times of day ``text`` writes, in order: an hour with minutes ("5:15", "19.30", "19h30",
    "19 Uhr 30"), an hour with a word of the clock ("19h", "19 Uhr", "3点", "3時", "3시"), an
    hour before "pm" or "am" in a language's words, an English time in words ("half past six",
    "quarter to eight", "ten o'clock", "seven in the evening") and the half or quarter past an
    hour in Romance languages ("siete y media"), number words read as numbers first (English's
    and, for the language a request's function words say, text2num's); an hour of 12 or less
    with a word for the afternoon or evening (before it in Chinese, Japanese and Korean, after
    it elsewhere) is after noon; "半" and "반" are half past; German and Dutch quarters and halves
    (:func:`_germanic_times`); an hour after a word that says when in Russian, Turkish and Polish
    (:data:`_MARKED_HOUR`: "в 19 часов", "akşam 7'de", "o godzinie 19"); noon and midnight by
    their words. Dates in digits ("2025.03.04")
    are no times, nor UTC offsets (:data:`UTC_OFFSET`)."""
    written = text
    text = _one_half_of_day(_in_digits(UTC_OFFSET.sub(lambda match: " " * len(match.group()), text)))
    quarters = [match.span() for pattern in (_WORDED, _GERMANIC) for match in pattern.finditer(text)]
    found = [*_clock_times(text, quarters), *_worded_times(text), *_dotted_times(text), *_germanic_times(text, written),
             *(datetime.time(int(match["hour"]), 0) for match in _AT_HOUR.finditer(text) if int(match["hour"]) <= 23),
             *_marked_times(text),
             *(datetime.time(12, 0) for _ in _NOON.finditer(text)),
             *(datetime.time(0, 0) for _ in _MIDNIGHT.finditer(text))]
    return tuple(dict.fromkeys(found))


_HOUR = rf"\d{{1,2}}(?:[:.h]\d{{2}})?(?:\s+(?:y|et|e)\s+(?:{_HALVES}))?"
_CLOCK_WORD = r"(?:\s?(?:h|uhr|uur|heures?|horas?|ore|o'clock)(?!\w))?"
_LATIN_RANGE = re.compile(
    rf"(?<![\w:./-])(?P<first>{_HOUR})(?P<first_clock>{_CLOCK_WORD})"
    r"(?P<between>\s*[-–—]\s*|\s+(?:to|till|until|bis|à|au|a|al|às|até|tot|alle|fino\s+alle)\s+)"
    rf"(?P<second>{_HOUR})(?P<second_clock>{_CLOCK_WORD})"
    rf"\s?(?:(?P<after>{AFTER_NOON}|in the afternoon|in the evening|at night|tonight)|{BEFORE_NOON}|in the morning)"
    r"(?![\w])",
    re.IGNORECASE)
"""Two hours of a range, the second with a word that puts it before or after noon ("from 10 to 11
pm", "de 10 y media a 11 y media de la noche", "von 9 bis 10 Uhr abends")."""
_CLOCK_RANGE = re.compile(
    r"(?<![\w:./-])(?P<first>[01]?\d|2[0-4])"
    r"(?P<between>\s*[-–—]\s*|\s+(?:to|till|until|bis|à|au|a|al|às|até|tot|alle|fino\s+alle)\s+)"
    rf"(?P<second>{_HOUR})(?P<clock>\s?(?:h|uhr|uur|heures?|horas?|ore|o'clock))(?!\w)",
    re.IGNORECASE)
"""Two hours of a range, the word of the clock written at the second alone ("von 18 bis 22 Uhr",
"van 8 tot 10 uur")."""
_EAST_RANGE = re.compile(rf"(?P<east>{EAST_AFTER}|{EAST_BEFORE})(?P<space>\s?)"
                         r"(?P<first>\d{1,2})(?P<clock>[点點時时]|\s?시)"
                         r"(?P<between>[^\d]{0,6}?(?:到|至|から|부터|~|〜|～|-)\s*)(?P<second>\d{1,2})(?=[点點時时]|\s?시)")
"""Two hours of a range in Chinese, Japanese or Korean, the first after a word for a part of
the day ("晚上8点到9点", "午後3時から5時", "오후 3시부터 5시")."""


def _one_half_of_day(text: str) -> str:
    """``text`` with the word of the clock written once for a range of two hours written at both
    ("von 18 bis 22 Uhr": "von 18 Uhr bis 22 Uhr"), and the half of the day written once too:
    after the first hour too where it is written after the second (the first in the same half
    where it is 12 or the smaller of two hours before 12, else in the other: "from 11 to 1 pm"
    and "from 10 to 12 pm" start before noon), but not after a month's name ("March 3 - 5 pm");
    and before the second too where it is written before the first, the second the later and
    before 12 (Chinese, Japanese, Korean: "晚上8点到9点")."""
    def latin(match: re.Match[str]) -> str:
        first, second = (int(re.match(r"\d+", match[side])[0]) for side in ("first", "second"))  # type: ignore[index]
        before = text[:match.start()].split()[-1:]
        if first > 12 or second > 12 or before and month_name(before[0]):  # "March 3 - 5 pm" is a day
            return match.group()
        same = first < second < 12 or first == 12
        half = "pm" if bool(match["after"]) == same else "am"
        clock = match["first_clock"] or match["second_clock"]
        rest = match.group()[match.start("second") - match.start():]
        return f"{match['first']}{clock} {half}{match['between']}{rest}"

    def east(match: re.Match[str]) -> str:
        if not int(match["first"]) < int(match["second"]) < 12:  # "午前10時から12時" ends at noon
            return match.group()
        return f"{match['east']}{match['space']}{match['first']}{match['clock']}{match['between']}" \
            f"{match['east']}{match['space']}{match['second']}"

    def clock(match: re.Match[str]) -> str:
        before = text[:match.start()].split()[-1:]
        if before and month_name(before[0]):  # "März 3 - 5 Uhr" is a day
            return match.group()
        return f"{match['first']}{match['clock']}{match['between']}{match['second']}{match['clock']}"

    return _EAST_RANGE.sub(east, _LATIN_RANGE.sub(latin, _CLOCK_RANGE.sub(clock, text)))


_AT_HOUR = re.compile(r"(?<![\w:])(?:at|um|om)\s+(?P<hour>[01]?\d|2[0-3])(?=\s*(?:[,.;!?)](?!\d)|$)|"
                      r"\s+(?:today|tomorrow|on|next|then|please|heute|morgen|vandaag|op)\b(?!\s+(?:abend|avond)))",
                      re.IGNORECASE)
"""An hour alone after "at" (German "um", Dutch "om") that ends the clause or comes before a
day ("this Saturday at 11.", "at 7 tomorrow"; not "at 5 locations", "at 12.50 each", nor "at 8
this evening", which is no morning hour): that hour, as written. A time to read, not to blank
from counts: "sell 5 at 12, please" may ask for a price of 12."""


_RU_PARTS = r"утра|дня|вечера|ночи"
_MARKED_HOUR = re.compile(
    r"(?<!\w)(?:"
    r"(?:в|к|около|после|до|с)\s+(?P<ru>\d{1,2})(?:[:.](?P<ru_minute>[0-5]\d))?"
    rf"(?:\s*(?:час(?:а|ов|ам|у)?|ч)(?!\w)(?:\s+(?P<ru_part>{_RU_PARTS}))?|\s+(?P<ru_only_part>{_RU_PARTS}))"
    r"|(?:(?P<tr_part>sabah|öğleden\s+sonra|akşam|gece)\s+(?:saat\s+)?|saat\s+)(?P<tr>\d{1,2})(?![\d:.,])"
    r"(?P<tr_half>\s+buçuk)?"
    r"|o\s+godz(?:inie|\.)?\s+(?P<pl>\d{1,2})(?:[:.](?P<pl_minute>[0-5]\d))?"
    r")(?!\d)", re.IGNORECASE)
"""An hour after a word that says when, in Russian ("в 19 часов", "к 8 часам", "в 7 вечера":
the clock's word or a part of the day after it), Turkish ("saat 9'da", "akşam 7'de", "saat 7
buçukta": "saat" or a part of the day before it) and Polish ("o godzinie 19"); not "на 2 часа",
two hours long, nor a Russian hour with neither the clock's word nor a part of the day ("в 2")."""


def _marked_times(text: str) -> list[datetime.time]:
    """The times :data:`_MARKED_HOUR` finds in ``text``: after noon with a word for the afternoon
    or evening ("вечера", "дня", "akşam", "öğleden sonra"), or for the night from six ("в 11
    ночи", "gece 11'de": 23:00; "в 2 ночи": 2:00)."""
    found = []
    for match in _MARKED_HOUR.finditer(text):
        hour = int(match["ru"] or match["tr"] or match["pl"])
        minute = int(match["ru_minute"] or match["pl_minute"] or (30 if match["tr_half"] else 0))
        part = (match["ru_part"] or match["ru_only_part"] or match["tr_part"] or "").lower()
        if hour < 12 and (part in ("вечера", "дня", "akşam") or part.startswith("öğleden")
                          or part in ("ночи", "gece") and hour >= 6):
            hour += 12
        if hour <= 23:
            found.append(datetime.time(hour, minute))
    return found


def without_times(text: str) -> str:
    """``text`` with its number words written in digits and the times of day it writes in
    words or with a clock's word blanked out ("a table for four at half past seven": "for 4"
    alone), so that their hours are not counted as values."""
    text = _in_digits(text)
    for pattern in (_WORDED, _GERMANIC, _ROMANCE_HALF, CLOCK_TIMES, _DOTTED, _MARKED_HOUR):
        text = pattern.sub(lambda match: match.group() if match.group().strip().isdigit() else " " * len(match.group()),
                           text)
    return text


def _germanic_times(text: str, written: str) -> list[datetime.time]:
    """The quarter past or to an hour, and the half before it, as German and Dutch write them
    ("kwart over 5", "Viertel vor 8", "halb 6": 5:30), after noon with a word for the afternoon
    or evening after them ("'s middags", "abends") in ``text`` (``written`` with its number words
    in digits); where ``written`` reads as English or writes its hour in English words ("half
    eleven"), "half 5" is the half after the hour, as British English says it."""
    found = []
    for match in _GERMANIC.finditer(text):
        if match["half"] and match["half"].lower() == "half" and (is_english(written) or _BRITISH_HALF.search(written)):
            hour, minute = int(match["hour"]), 30
        elif match["half"]:
            hour, minute = int(match["hour"]) - 1, 30
        elif match["way"].lower() in ("over", "na", "nach"):
            hour, minute = int(match["hour"]), 15
        else:
            hour, minute = int(match["hour"]) - 1, 45
        if _LATER.match(text, match.end()) and hour < 12:
            hour += 12
        if 0 <= hour <= 23:
            found.append(datetime.time(hour, minute))
    return found


_BRITISH_HALF = re.compile(r"\bhalf\s+(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b",
                           re.IGNORECASE)
"""The half after an hour written in English words ("half eleven": 11:30), which no Dutch text writes."""


def _in_digits(text: str) -> str:
    """``text`` with its number words written in digits, the Han numerals of an hour ("五点"),
    the words of an hour in Korean, Russian and Turkish (:data:`_HOUR_WORDS`: "일곱 시", "в семь
    вечера", "sabah dokuzda"), an hour and its minutes written apart before "am" or "pm" ("seven
    thirty pm": 7:30 pm), and an hour of the clock in French, Spanish, Portuguese or Italian words
    with its minutes (:data:`_ROMANCE_HOUR`: "à 19 heures 30", "alle ore 21") as ``19:30``."""
    text = _HAN_HOUR.sub(lambda match: str(han_number(match.group())), worded_in_digits(text))
    text = _HOUR_WORD.sub(_hour_in_digits, text)
    text = _SPOKEN_MINUTES.sub(r"\1:\2", text)
    return _ROMANCE_HOUR.sub(lambda match: f"{match['lead']}{match['hour']}:{match['minute'] or '00'}", text)


def _hour_in_digits(match: re.Match[str]) -> str:
    """An hour :data:`_HOUR_WORD` found in words, in digits after its marker."""
    word = match["word"] or match["ru_word"] or match["tr_word"]
    return f"{match['ru_lead'] or match['tr_lead'] or ''}{_HOUR_WORDS[' '.join(word.lower().split())]}"


_HOUR_WORDS = {
    **dict(zip("한 두 세 네 다섯 여섯 일곱 여덟 아홉 열 열한 열두".split(), range(1, 13))),
    **dict(zip("один два три четыре пять шесть семь восемь девять десять одиннадцать двенадцать".split(),
               range(1, 13))),
    **dict(zip("bir iki üç dört beş altı yedi sekiz dokuz on".split(), range(1, 11))),
    "on bir": 11, "on iki": 12}
"""The words of the hours of the clock in Korean (its native numbers: "일곱 시"), Russian and Turkish,
which text2num does not read."""
_HOUR_WORD = re.compile(
    r"(?<![가-힣])(?P<word>열한|열두|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)(?=\s?시(?!간))"
    r"|(?P<ru_lead>(?<!\w)(?:в|к|около)\s+)"
    r"(?P<ru_word>одиннадцать|двенадцать|один|два|три|четыре|пять|шесть|семь|восемь|девять|десять)"
    rf"(?=\s+(?:час|{_RU_PARTS}))"
    r"|(?P<tr_lead>(?<!\w)(?:sabah|akşam|gece|sonra|saat)\s+)"
    r"(?P<tr_word>on\s+bir|on\s+iki|bir|iki|üç|dört|beş|altı|yedi|sekiz|dokuz|on)(?=(?:da|de|ta|te)(?!\w))",
    re.IGNORECASE)
"""An hour in words: in Korean before "시" (not "시간", hours long), in Russian after "в" and
before the clock's word or a part of the day, in Turkish after "saat" or a part of the day and
with the ending of "at" ("dokuzda"; "sabah bir kahve" is a coffee); each language's words only
after its own markers ("Onde fica", Portuguese, is no Turkish ten)."""
_SPOKEN_MINUTES = re.compile(r"(?<![\d:.])(\d{1,2}) ([0-5]\d)(?=\s?[ap]\.?m\b)", re.IGNORECASE)
"""An hour and its minutes written apart before "am" or "pm", as "seven thirty pm" reads in digits."""


_ROMANCE_HOUR = re.compile(
    r"(?P<lead>\b(?:à|vers|dès|a\s+las?|hacia\s+las?|desde\s+las?|sobre\s+las?|às|pelas|alle\s+ore|alle|ore|"
    r"verso\s+le|dalle|entro\s+le)\s+)(?P<hour>\d{1,2})"
    r"(?:\s*(?:heures?|horas?|ore)\b|(?=\s+(?:[0-5]\d\b|(?:et|e|y)\s+[0-5]\d\b)|\s*(?:$|[,.;!?)])"
    r"|\s(?:de|du|di|da|del|della|in|para|pour|per|por|en)\s))"
    r"(?:\s+(?:et\s+|y\s+|e\s+)?(?P<minute>[0-5]\d)\b)?"
    r"(?!\s+(?:(?:y|et|e)\s+(?:media|demie|mezza|meia|cuarto|quart|quarto|un\s+quart|um\s+quarto|un\s+quarto)"
    r"|moins|meno|menos)\b)",
    re.IGNORECASE)
"""An hour after a word that says when ("à", "a las", "às", "alle", "ore"), with the word of the
clock after it and its minutes ("à 19 heures 30", "alle 21 e 30"), or with none where the
sentence ends or goes on with a preposition ("alle 19", "ore 21 per due", "a las 8 de la
noche"); not the hour of a half, a quarter or a time to the hour ("alle 9 e mezza", "à 9 heures
moins le quart"), which other rules read: "pendant 2 heures", two hours long, has no such word
before it, and "a las 5 personas" and "vers 7 ou 8 personnes" count people."""


_HAN_HOUR = re.compile(rf"(?<![早晚快慢多少好大小高低近远遠])(?:{HAN_NUMERALS})(?=[点點時时])")
"""A Han numeral before a clock's word: an hour ("五点"), but not "一点" after an adjective, "a
little" ("早一点": a bit earlier)."""


def _clock_times(text: str, words: list[tuple[int, int]]) -> list[datetime.time]:
    """The hours with minutes or a clock's word, but those whose hour is part of a time in
    ``words`` (the spans of "quarter past 5", "kwart over 5": 5:15, not 5:00 too)."""
    found = []
    for match in CLOCK_TIMES.finditer(text):
        start, end = match.start("hour"), match.end()
        if text[end:end + 1].isdigit() or text[max(start - 1, 0):start].isdigit():
            continue
        if any(first <= start < last for first, last in words):
            continue
        hour, minute = int(match["hour"]), int(match["minute"] or match["clock_minute"] or (30 if match["half"] else 0))
        later = match["after"] or (match["east"] and re.fullmatch(EAST_AFTER, match["east"]))
        if later and hour < 12:
            hour += 12
        elif not later and (match["before"] or match["east"]) and hour == 12:  # "午前12時" is midnight, "中午12点" noon
            hour = 0
        if hour <= 23 and minute <= 59:
            found.append(datetime.time(hour, minute))
    return found


_DOTTED = re.compile(r"(?<![\d.,])([01]?\d|2[0-3])\.([0-5]\d)(?![\d.,]|\s?(?:%|[^\W\d_]))")
"""A time written with a dot ("19.30"), not a number with a unit ("0.05 m", "10.30 euros")."""


def _dotted_times(text: str) -> list[datetime.time]:
    return [datetime.time(int(match.group(1)), int(match.group(2))) for match in _DOTTED.finditer(text)]


def _worded_times(text: str) -> list[datetime.time]:
    found = []
    for match in _WORDED.finditer(text):
        hour = int(match["hour"] or match["clock"] or match["bare"])
        minute = int(match["bare_minute"] or 0)
        if match["part"]:
            minute = 30 if match["part"].lower() == "half" else 15
            if match["way"].lower() == "to":
                hour, minute = hour - 1, 60 - minute
        part = (match["day_part"] or match["later_part"] or "").lower()
        evening = (part in ("afternoon", "evening") or "night" in match.group().lower()
                   or bool(_LATER.match(text, match.end())))
        if evening and hour < 12:
            hour += 12
        if 0 <= hour <= 23:
            found.append(datetime.time(hour, minute))
    for match in _ROMANCE_HALF.finditer(text):
        hour = int(match["hour"]) + (12 if _LATER.match(text, match.end()) and int(match["hour"]) < 12 else 0)
        half = match["part"].lower() in ("media", "demie", "mezza", "meia")
        if hour <= 23:
            found.append(datetime.time(hour, 30 if half else 15))
    return found
