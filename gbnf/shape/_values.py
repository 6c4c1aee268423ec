"""The values a request's own words offer for a tool's arguments: its stretches of words and
its numbers, so a small model copies an argument from the request instead of making one up."""

from __future__ import annotations

import datetime
import functools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from text_to_num import alpha2digit

from gbnf._text import ELISION, identifier_words, mentions
from gbnf.compiler import as_decimal, is_number
from gbnf.shape._dates import dates_in, days_from_today, moments, month_name
from gbnf.shape._english import STEMMER, STOPS, either, table, words
from gbnf.shape._language import foreign_function_words, is_english, unknown_latin, worded_languages
from gbnf.shape._segments import CJK_LETTERS, cjk_words, has_cjk

LONGEST = 8
"""The most words a stretch copied from a request may have."""
MOST_STRETCHES = 4000
"""The most stretches (or numbers) arguments are copied from; longer texts (a pasted document)
leave strings (numbers) free, since the grammar would grow with them."""

WHOLE_CHARS = 200
"""The longest tool result string offered whole (a translation, a name, an address), beside its
stretches; a longer one (a page) is offered by its stretches alone."""

MOST_RUNS = 200
"""The most runs of written numbers arrays are copied from: a text with more (a pasted table)
offers none, and several texts offer their first runs up to this many."""

Number = int | float
Labels = tuple[tuple[str, Number], ...]
"""Each number a request writes (and each percentage as a fraction too), with the words written
right before it as its name (:func:`labelled`)."""
Option = tuple[tuple[str, "str | Number"], ...]
"""One option a tool's result lists: its scalar values by key (:func:`~gbnf.shape._choices.options`)."""
Names = tuple[tuple[tuple[str, ...], str], ...]
"""Each name a request writes, with its labels: the words written right before it after a stop
word, and for a quoted one the word right after it too (:func:`named_strings`)."""
@dataclass(frozen=True)
class Values:
    """What arguments may be copied from: ``strings``, stretches of words (for strings);
    ``numbers``; ``runs``, runs of numbers written as one list (for arrays of numbers);
    ``percents``, the numbers written as percentages (``5%``: 5), which a rate may take as a
    fraction (0.05); the numbers' and names' ``labels`` and ``names``; ``in_dates``, the numbers
    written only in dates and times ("15th October, 2023": 15 and 2023); ``quoted``, the
    quotations (offered whole, whatever they hold); ``today``, the day dates written from today
    count from (None: the day the request is read on), and ``said_today``, whether the
    conversation says it is that day (then they count from it even where the request writes
    other dates); ``off``, the candidate sources switched
    off (:data:`gbnf.shape.sources.SOURCES`); ``texts``, the texts they were read from, in
    order (a source that reads its own kind of value, a time, reads these); in a follow-up, the
    values the last call sent that its result ``refused``, the ``options`` the result lists,
    and the strings and numbers the call ``sent``, by tool and argument (:mod:`gbnf.shape._choices`). Hashable: a
    shaped grammar is kept by it."""

    strings: tuple[str, ...] = ()
    numbers: tuple[Number, ...] = ()
    runs: tuple[tuple[Number, ...], ...] = ()
    percents: tuple[Number, ...] = ()
    labels: Labels = ()
    names: Names = ()
    in_dates: tuple[Number, ...] = ()
    quoted: tuple[str, ...] = ()
    today: datetime.date | None = None
    said_today: bool = False
    off: frozenset[str] = frozenset()
    texts: tuple[str, ...] = ()
    refused: tuple[str | Number, ...] = ()
    options: tuple[Option, ...] = ()
    sent: tuple[tuple[str, str, str | Number], ...] = ()

_WORD = re.compile(r"[^\s/-]+")
"""A word: hyphens and slashes part words too (``gas-fueled``, ``2022-2023``, ``a/b``), so either half
is a stretch of its own as well as the whole."""
_EDGES = "\"'`.,;:!?¿¡«»()[]{}<>"
ABBREVIATION = re.compile(rf"(?:[A-Za-z]\.){{2,}}|(?:{either('abbreviations')})\.")
"""A word whose last period is its own, not the sentence's (``D.C.``, ``Inc.``)."""
_QUOTED = re.compile(rf"""(?<![^\W{CJK_LETTERS}])(?:'(.+?)'|"(.+?)"|“(.+?)”|‘(.+?)’|`(.+?)`|„(.+?)[“”]|«\s?(.+?)\s?»)"""
                     rf"(?![^\W{CJK_LETTERS}])|《(.+?)》|「(.+?)」|『(.+?)』")
"""A quotation: quotes with no letter or digit just outside them (``It's``, "м'ясо" quote
nothing) but those of Chinese, Japanese and Korean, which write particles onto them
("'항상 감사합니다'라고", "写“六一快乐”")."""
CAPITALISED = r"(?!I\b)[A-Z][\w.&'-]*(?:\s+(?:of\s+)?[A-Z0-9][\w.&'-]*)*"
"""A name in capitals: capitalised words (not "I"), digits and "of" between them ("Bank of America")."""
INSIDE = r"(?<=[\w,;:] )"
"""Where a name written inside a sentence starts: after a word or a comma and a space, not as its first word."""
_NAMED_VALUE = re.compile(rf"{INSIDE}(?:{_QUOTED.pattern}|{CAPITALISED})")
"""A name written inside a sentence, not as its first word: quoted, or in capitals."""
_NO_START = frozenset(words("no_start"))
_NO_END = _NO_START | frozenset(words("no_end"))
"""Lowercase words a stretch that is a value neither starts nor ends with (``in San Francisco``,
``Oslo for``); written with a capital they may (``To Kill a Mockingbird``, ``Portland, OR``)."""
_ASKING = frozenset(words("asking"))
_FIRST_NO_START = _NO_START | _ASKING | frozenset(words("question_words"))
"""Lowercase words of the asking (``could``, ``find``) start no value either, nor does a
sentence's first word written with a capital only for being first (``How``, ``Could``, ``The``)."""
_TITLES = frozenset(words("abbreviations"))
"""Words written before a name that leave it whole (``Dr John Smith``: ``John Smith`` too)."""
_SENTENCE_START = re.compile(r"[.?!\n。？！]")
"""What, between two words, makes the second a sentence's first."""
NUMBER = re.compile(rf"(?<![^\W{CJK_LETTERS}])(?<!\.)(?<![^\W\d_]\^)(?<![^\W\d_]\^-)(?<![^\W\d_]-)"
                    r"-?(?!0\d\d)(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?"
                    rf"(?!(?:[^\W\d{CJK_LETTERS}]|\.)*+\d)")
"""A number as written: digits, thousands grouped by commas, a decimal point, an exponent; not
the power of a unit or a variable (``9.8 m/s^2``, ``x^3``: no 2, no 3), which is no value, nor
three digits or more led by a zero, a code (account ``00125648``, zip code ``02139``), nor the
digits of a code written with letters and a hyphen (``MTR-700214``, ``COVID-19``). Chinese, Japanese
and Korean write a number right after a word ("大人4名", "我们4个人"): those letters may lead one."""
NUMBER_WORDS = table("numbers")
"""The numbers written as one word ("three": 3), read as values and, after "these", as counts of calls."""
_LIST_GAP = re.compile(rf"(?:{either('ordinal_endings')})?[\s,;\[\]()]*"
                       rf"(?:\b(?:{either('list_joins')})\b[\s,;\[\]()]*)?", re.IGNORECASE)
"""What lies between two numbers of one written list: ``, `` ``; `` `` and `` ``, or `` brackets,
after an ordinal's ending (``2nd, 3rd and 4th``)."""
_LETTER = re.compile(r"[^\W\d_]")
_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)
_EAST_SCALES = {"千": 10**3, "천": 10**3, "万": 10**4, "萬": 10**4, "만": 10**4, "亿": 10**8, "億": 10**8, "억": 10**8}
_SCALES = {**table("scales"), "k": 10**3, "m": 10**6, "b": 10**9, **_EAST_SCALES}
_SCALE = re.compile(rf"(?i: ?({either('scales')})\b)|([KMB])\b|({'|'.join(_EAST_SCALES)})")
"""A scale after a number: ``213 million``, ``$1.2M``, ``5K`` (a lowercase ``m`` is metres), and
the thousands, ten thousands and hundred millions of Chinese, Japanese and Korean ("200万円",
"30만 원")."""
_PERCENT = re.compile(rf" ?(?:%|(?:{either('percent')})\b)", re.IGNORECASE)
_LINKS = frozenset([*words("value_links"), "=", ":", "$", "€", "£"])
_TOKEN = re.compile(r"[^\W\d_]+|\d+|[^\w\s]")
_LABEL_WORDS = 5


def spans(text: str, longest: int = LONGEST) -> list[str]:
    """Every stretch of ``text`` from one word to another, up to ``longest`` words, the quotes
    and punctuation at its two ends left off (``in San Francisco, CA?`` gives ``San Francisco``
    and ``San Francisco, CA``); what lies between its words as written. None starts or ends
    with a lowercase function word (``in San Francisco`` is no value). Each run of text between
    spaces with a slash or hyphen is a stretch too, those at its ends kept (``/etc/hostname``), and so is
    each quotation whole, however long (``'I love it! Fresh, always.'``), and each date with the time
    of day written right after it (``the 12th of March 2023 at 3 in the afternoon``,
    :func:`~gbnf.shape._dates.moments`). An abbreviation keeps
    its period (``Washington, D.C.``, ``Apple Inc.``). A possessive ends a stretch, without its
    ``'s`` (``Maria's email address`` gives ``Maria``, not ``Maria's email``), and with it too where
    it names a place of its own (:func:`_place_of`: "from McDonald's on Uber Eats" gives
    ``McDonald's``). Read once per text and kept."""
    return list(_spans(text, longest))


@functools.lru_cache(maxsize=1024)
def _spans(text: str, longest: int) -> tuple[str, ...]:
    """:func:`spans`, as a tuple."""
    bounds: list[tuple[int, int]] = []
    possessive: set[int] = set()
    ended: set[int] = set()  # a name with a case ending written on after an apostrophe ("Otel'de")
    turkish = _TURKISH.search(text) is not None
    function: set[int] = set()  # Chinese and Japanese function words: no stretch starts or ends with one
    for match in _WORD.finditer(text):
        word = match.group()
        if has_cjk(word):
            for start, end, particle in cjk_words(word, text, match.start()):
                if particle:
                    function.add(len(bounds))
                bounds.append((match.start() + start, match.start() + end))
            continue
        start = match.start() + len(word) - len(word.lstrip(_EDGES))
        end = match.end() - (len(word) - len(word.rstrip(_EDGES)))
        abbreviation = ABBREVIATION.match(text, start)
        if abbreviation and not text[abbreviation.end():match.end()].strip(_EDGES):
            end = abbreviation.end()
        if (elided := _ELISION.match(text, start, end)) and elided.end() < end:
            start = elided.end()
        if text.endswith(("'s", "’s"), start, end) and not (
                _NAME_GOES_ON.match(text, end) and bounds and not _SENTENCE_START.search(text, bounds[-1][1], start)):
            end -= 2
            possessive.add(len(bounds))
        elif turkish and (ending := _CASE_ENDING.search(text, start, end)) and ending.start() - start >= 2 \
                and (text[start].isupper() or text[start].isdigit()):
            end = ending.start()
            ended.add(len(bounds))
        if start < end:
            bounds.append((start, end))
    words = [text[start:end] for start, end in bounds]
    gaps = [text[bounds[k - 1][1]:start] if k else "." for k, (start, _) in enumerate(bounds)]
    firsts = [bool(_SENTENCE_START.search(gap)) for gap in gaps]
    sentence_ends = [len(bounds)] * len(bounds)  # for each word, the index of the next sentence's first
    for k in range(len(bounds) - 2, -1, -1):
        ends = _gap_ends_sentence(words[k], gaps[k + 1]) and not _ordinal_day(words[k], gaps[k + 1], words[k + 1])
        sentence_ends[k] = k + 1 if ends else sentence_ends[k + 1]
    tails = {k for k in range(1, len(bounds)) if not firsts[k] and not firsts[k - 1] and gaps[k].isspace()
             and _titled(words[k]) and _titled(words[k - 1]) and words[k - 1].rstrip(".") not in _TITLES}
    foreign = foreign_function_words(text)
    starts = [i not in tails and i not in function and not _starts_none(words[i], firsts[i], foreign)
              for i in range(len(bounds))]
    quoted = [(match.span(), match.span(next(i for i, group in enumerate(match.groups(), 1) if group)))
              for match in _QUOTED.finditer(text)]
    found = (text[bounds[i][0]:bounds[j][1]] for i in range(len(bounds)) if starts[i]
             for j in range(i, min(_stretch_end(i, len(bounds), longest, possessive | ended), sentence_ends[i]))
             if words[j] not in _NO_END and words[j] not in foreign and j not in function
             and _apart_from_quotes(bounds[i][0], bounds[j][1], quoted))
    owned = (text[bounds[i][0]:bounds[k][1] + 2] for k in sorted(possessive) if _place_of(k, words, gaps, sentence_ends)
             for i in range(max(0, k - longest + 1), k + 1)
             if starts[i] and sentence_ends[i] > k and not possessive.intersection(range(i, k))
             and _apart_from_quotes(bounds[i][0], bounds[k][1] + 2, quoted))
    whole = (token.strip(_EDGES) for token in text.split() if "/" in token or "-" in token)
    dotted = {match.start(): match.end() for match in _EXTENSION.finditer(text)}
    files = (text[bounds[i][0]:dotted[bounds[j][1]]] for i in range(len(bounds)) if starts[i]
             for j in range(i, min(i + _FILE_WORDS, len(bounds))) if bounds[j][1] in dotted)
    return tuple(dict.fromkeys([*found, *owned, *files, *(token for token in whole if token and token not in _NO_START),
                                *quotations(text), *moments(text), *dates_in(text), *days_from_today(text)]))


_NAME_GOES_ON = re.compile(r"[ \t]+[A-Z][a-z]")
"""A capitalised word after a possessive, mid-sentence: the possessive is a word of a name
("London King's Cross", "Queen's Road"), which goes on."""
_EXTENSION = re.compile(r"\.[a-z][a-z0-9]{1,4}(?![A-Za-z0-9])", re.IGNORECASE)
"""A file name's extension written onto a word (".docx"): in Chinese and Japanese, which its
word splitter reads apart, the words before it and it are a stretch too ("季度报告.docx")."""
_FILE_WORDS = 3
"""The most words of a file name before its extension."""
_ELISION = re.compile(ELISION)
"""An elided article, preposition or pronoun in small letters (:data:`~gbnf._text.ELISION`: "à
l'Hôtel du Lac", "all'Osteria Francescana"): a word (and a stretch) starts after it; inside a
stretch it stays ("musée d'Orsay"), and so does a name's capital ("L'Oréal")."""
_CASE_ENDING = re.compile(r"['’](?:[dt][ae]n?|[dt][ae]ki|n[dt][ae](?:n|ki)?|n?[ıiuü]n|y?[ıiuüea]|y?l[ae]|n[ae])$")
"""A Turkish case ending written after an apostrophe onto a name or a number ("Otel'de",
"Almanya'ya", "145'e", "İstanbul'un"), in a text that writes a letter only Turkish has
(:data:`_TURKISH`): the name ends before it, and so does a stretch ("Hawai'i" and "Sana'a"
elsewhere stay whole)."""
_TURKISH = re.compile("[ğışİĞŞ]")


def _apart_from_quotes(start: int, end: int, quoted: list[tuple[tuple[int, int], tuple[int, int]]]) -> bool:
    """Whether the stretch from ``start`` to ``end`` lies wholly outside each quotation (its
    marks included) or wholly inside its marks: "Karten für „Das Lehrerzimmer“" and "半《流浪"
    are no values (the quotation is offered whole on its own)."""
    return all(end <= outer[0] or start >= outer[1] or (inner[0] <= start and end <= inner[1])
               for outer, inner in quoted)


def _place_of(k: int, words: list[str], gaps: list[str], sentence_ends: list[int]) -> bool:
    """Whether the possessive ``words[k]`` names a place of its own, the ``'s`` its name's: a
    capitalised word, no function word, with nothing it owns after it (a function word,
    punctuation or the sentence's end follows): "order from McDonald's on Uber Eats", "a table at
    Nando's.", not "Maria's email address" nor "It's"."""
    word = words[k]
    if not word[:1].isupper() or word.lower() in _NO_START or word.lower() in _ASKING or word.lower() in STOPS:
        return False
    return sentence_ends[k] == k + 1 or words[k + 1].lower() in _NO_END or bool(gaps[k + 1].strip(" 's’"))


def punctuated_clauses(text: str) -> list[str]:
    """The clauses of ``text``: its parts between stops, colons, semicolons, question and
    exclamation marks (full-width ones too), a comma and a space, and full-width commas ("Mets
    France Inter, volume à 25.": "Mets France Inter", "volume à 25")."""
    return [clause.strip() for clause in _CLAUSE_MARK.split(text) if clause.strip()]


_CLAUSE_MARK = re.compile(r"[.;:!?。！？；]+|,\s|，|、")


@functools.lru_cache(maxsize=1024)
def quotations(text: str) -> tuple[str, ...]:
    """What ``text`` quotes (:data:`_QUOTED`), each stripped, in order (read once per text and kept)."""
    return tuple(quoted for _, quoted in quotation_spans(text))


@functools.lru_cache(maxsize=1024)
def quotation_spans(text: str) -> tuple[tuple[tuple[int, int], str], ...]:
    """Each quotation of ``text`` (:data:`_QUOTED`) with where it stands, its marks included,
    stripped, in order; none empty."""
    return tuple((match.span(), quoted) for match in _QUOTED.finditer(text)
                 if (quoted := next(filter(None, match.groups())).strip()))


def _starts_none(word: str, first: bool, foreign: frozenset[str]) -> bool:
    """Whether ``word`` starts no value: a lowercase word of ``no_start`` or ``asking``, or of
    the ``foreign`` function words (of the language other than English the request reads as),
    or, as a sentence's ``first`` word, one of those or a question word but for its capital."""
    if word in _NO_START or word in _ASKING or word in foreign:
        return True
    lowered = word[:1].lower() + word[1:]
    return first and word[:1].isupper() and (lowered in _FIRST_NO_START or lowered in foreign)


def _ordinal_day(word: str, gap: str, following: str) -> bool:
    """Whether ``word``, ``gap`` and the ``following`` word are a day written as an ordinal
    number and its month ("am 12. Juli", "den 3. maj"): the period is the number's, not a sentence's end."""
    return word.isdigit() and len(word) <= 2 and gap.strip() == "." and month_name(following)


def _titled(word: str) -> bool:
    """Whether ``word`` is written with a capital and then small letters (``Madrid``, not ``NBA``)."""
    return word[:1].isupper() and any(letter.islower() for letter in word[1:])


def _gap_ends_sentence(word: str, gap: str) -> bool:
    """Whether ``gap``, written after ``word``, ends a sentence: a question or exclamation mark,
    a line's end, a full-width comma, colon or semicolon (a Chinese or Japanese clause's end:
    "东京的酒店，2027年" is no value), or a period after a word of two letters or more, or of one
    outside the Latin script ("예약해 줘. 생일": ``Roe v. Wade`` runs on; an abbreviation's period is
    its word's own, not the gap's)."""
    return any(mark in gap for mark in "?!\n。？！，、；：") or ("." in gap and (len(word) > 1 or not word.isascii()))


def _stretch_end(first: int, count: int, longest: int, possessive: set[int]) -> int:
    """The index after the last word a stretch from word ``first`` may reach: ``longest``
    words on, the last word, or the first possessive."""
    last = min(first + longest, count) - 1
    return min([index for index in possessive if first <= index <= last] + [last]) + 1


def numbers(text: str) -> list[int | float]:
    """The numbers written in ``text``, in order (``1,000,000`` as one number, ``5,10`` as two,
    ``$5`` and ``5km`` as 5), as JSON reads them; one with a scale written after it in a word
    at that scale alone (``213 million``: 213000000; "200万": 2000000), and one with a scale's letter after it as
    written, then at that scale (``$1.2M``: 1.2, then 1200000; ``300K`` may be kelvins); then
    those written as one word (``two nights``, ``a dozen``), zero to twenty, the tens, a
    hundred and a thousand, but for the words of a longer number ("one thousand two hundred and
    six" is 1206 alone) and "one" for a thing (:func:`_pronoun`: "the cheaper one")."""
    text = comma_decimals(text)
    found: list[Number] = []
    for match in NUMBER.finditer(text):
        scale = _SCALE.match(text, match.end())
        if not scale or scale.group(2):
            found.append(_read(match.group()))
        if scale:
            found.append(_scaled(match.group(), _SCALES[next(filter(None, scale.groups())).lower()]))
    runs = [run.span() for run in _ENGLISH_RUN.finditer(text)]  # "one thousand two hundred and six": 1206 alone
    worded = [NUMBER_WORDS[match.group().lower()] for match in _NUMBER_WORD.finditer(text)
              if not any(start <= match.start() < end for start, end in runs) and not _pronoun(text, match)]
    unread: list[Number] = list(worded)
    return found + worded + [n for n in _foreign_worded(text) if not _take(unread, n)] + _han_worded(text) \
        + _korean_worded(text) + _unread_worded(text)


_COMMA_DECIMAL = re.compile(r"(?<![\d,.])(\d{1,3}(?:\.\d{3})+|\d+),(\d{1,2})(?!\d|,\d|\s+\w{1,3}\s+\d+(?![,\d]))")
"""A decimal comma: digits (their thousands grouped by points or not), a comma and one or two
digits, in no list of numbers ("1,10", "78,40", "1.500,50", "1,5 y 2,5"; not "1,2,3", "1,2 et
3", nor "1,500" of thousands)."""
_POINT_THOUSANDS = re.compile(r"(?<![\d,.])[1-9]\d{0,2}(?:[.\u00a0\u202f]\d{3})+(?![\d\u00a0\u202f]|[.,]\d)")
"""Digits whose thousands are grouped by points or by no-break spaces ("143.200", "15.000", "1
250" written with U+00A0 or U+202F); not a date's, a time's or an address's parts ("15.05.2027",
"14.30", "192.168.0.1")."""
_CENTS = re.compile(r"(?<![\d,.])\d+,\d{2}(?![\d,])")
"""A decimal comma before two digits ("89,40"), which no English number writes: no thousands
(three digits), and a list of two numbers is written with a space ("5, 10")."""
_DECIMAL_COMMA_SCRIPTS = re.compile(r"[\u0370-\u03ff\u0400-\u04ff]")
"""Greek and Cyrillic letters: the languages written in them write decimals with a comma."""


def comma_decimals(text: str) -> str:
    """``text`` with its numbers written as JSON writes them, where it is written in a language
    that writes decimals with a comma: its decimal commas as points ("1,10 Euro": 1.10), its
    thousands grouped by points or no-break spaces written whole ("Kilometerstand 143.200":
    143200). Such a text is one in Greek or Cyrillic letters, or in Latin letters that does not
    read as English and has another language's function words or a two-digit decimal comma
    ("Tanken eintragen: 52 Liter, 89,40 Euro"); elsewhere it is as written ("5,10" in English may
    list two numbers, "1.500" is one and a half)."""
    if not (_COMMA_DECIMAL.search(text) or _POINT_THOUSANDS.search(text)) or not _writes_decimal_commas(text):
        return text  # the language is read only where a number may be written so
    text = _COMMA_DECIMAL.sub(lambda match: f"{match[1].replace('.', '')}.{match[2]}", text)
    return _POINT_THOUSANDS.sub(lambda match: re.sub(r"\D", "", match.group()), text)


def _writes_decimal_commas(text: str) -> bool:
    """Whether ``text`` is written in a language that writes decimals with a comma (see
    :func:`comma_decimals`)."""
    return bool(_DECIMAL_COMMA_SCRIPTS.search(text)) or not is_english(text) and bool(
        worded_languages(text) or foreign_function_words(text) or _CENTS.search(text))


def _pronoun(text: str, word: re.Match[str]) -> bool:
    """Whether ``word`` (a number word of ``text``) is "one" standing for a thing named before,
    after "the", "that", "this"... and up to two words ("the cheaper one", "that one", "the
    earlier English one"): no number."""
    return word.group().lower() == "one" and _POINTED.search(text, max(0, word.start() - 60), word.start()) is not None


_POINTED = re.compile(r"\b(?:the|that|this|which|another|each)\s+(?:[^\W\d_]+\s+){0,2}$", re.IGNORECASE)


def worded_in_digits(text: str) -> str:
    """``text`` with its number words written in digits: English's, and text2num's for the
    language its function words say it is in ("um", "un" are left: an article as often as one)."""
    for language in ("en", *worded_languages(text)):
        text = alpha2digit(text, language, threshold=2)
    return text


def _foreign_worded(text: str) -> list[Number]:
    """The numbers ``text`` writes in words, two and more (text2num: "un", "ein" are articles as
    often as numbers), in the language it reads as (:func:`~gbnf.shape._language.worded_languages`:
    "drei", "vingt-deux", "dos") or else, in runs of English number words, English ("one thousand
    two hundred and six"), and in a short text that reads as no language, each language's
    (:func:`~gbnf.shape._language.unknown_latin`: "drei Nächte")."""
    found: list[Number] = []
    languages = worded_languages(text)
    parts = [(language, text) for language in languages] or [
        *(("en", run.group()) for run in _ENGLISH_RUN.finditer(text)), *((code, text) for code in unknown_latin(text))]
    for language, part in parts:
        written = alpha2digit(part, language, threshold=2)
        digits = [_read(match.group()) for match in NUMBER.finditer(part)]
        found += [n for n in (_read(match.group()) for match in NUMBER.finditer(written)) if not _take(digits, n)]
    return list(dict.fromkeys(found))


_ENGLISH_RUN = re.compile(rf"\b(?:{'|'.join(NUMBER_WORDS)}|hundred|thousand|million)(?:(?:\s+and\s+|[\s-]+)"
                          rf"(?:{'|'.join(NUMBER_WORDS)}|hundred|thousand|million))+\b", re.IGNORECASE)
"""A run of two or more English number words ("one thousand two hundred and six", "twenty-five"),
which the single words do not read."""


_UNREAD = {form: number for word, number in table("numbers_unread").items() for form in (word, word.capitalize())}
_UNREAD_WORD = re.compile(rf"(?<!\w)(?:{'|'.join(sorted(_UNREAD, key=len, reverse=True))})(?!\w)")
"""The words of ``numbers_unread``, small or capitalised, matched letter for letter (Turkish
"altı" is no Italian "alti")."""


def _unread_worded(text: str) -> list[Number]:
    """The numbers ``text`` writes in the Polish and Turkish words of ``numbers_unread``
    (``data/english.toml``: "dla trzech osób", "iki saat"; none of them is an English word)."""
    return [_UNREAD[match.group()] for match in _UNREAD_WORD.finditer(text)]


def _take(numbers: list[Number], number: Number) -> bool:
    """Whether ``number`` is among ``numbers`` (taking it out)."""
    if number in numbers:
        numbers.remove(number)
        return True
    return False


_HAN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
               "八": 8, "九": 9}
_COUNTERS = "个個张張位件本只隻次人天晚杯份台辆輛间間种種名瓶盒箱枚つ冊回泊日分秒克岁歳米"
_HAN_DIGIT, _HAN_NUMERAL = "[零〇一二两兩三四五六七八九]", "[零〇一二两兩三四五六七八九十百]"
HAN_NUMERALS = f"{_HAN_NUMERAL}+"
"""Han numerals as :func:`han_number` reads them, as a regular expression."""
_HAN_NUMBER = re.compile(rf"({HAN_NUMERALS})(?=[{_COUNTERS}])|({_HAN_DIGIT}*[十百]{_HAN_NUMERAL}*)"
                         r"(?=[。，、；！？,.;!?]|\s*$)")
"""A number written in Han numerals before a counter ("三张票", "两个人", "二泊", "三枚"), or with
tens or hundreds at a clause's end ("音量调到三十。")."""


def _han_worded(text: str) -> list[Number]:
    """The numbers ``text`` writes in Han numerals before a counter or with tens at a clause's
    end, up to 999 ("三张", "十二个", "调到三十。")."""
    return [han_number(match.group(1) or match.group(2)) for match in _HAN_NUMBER.finditer(text)]


_KOREAN_NUMBERS = {"한": 1, "하나": 1, "두": 2, "둘": 2, "세": 3, "셋": 3, "네": 4, "넷": 4, "다섯": 5, "여섯": 6,
                   "일곱": 7, "여덟": 8, "아홉": 9, "열": 10, "열한": 11, "열두": 12, "스무": 20}
_KOREAN_NUMBER = re.compile(rf"(?<![가-힣])({'|'.join(sorted(_KOREAN_NUMBERS, key=len, reverse=True))})"
                            r"\s?(?=(?:명|장|개|시간|잔|권|대|마리|병|그릇|박|달|주)"
                            r"(?:[^가-힣]|$|이|가|을|를|은|는|에|의|도|만|으로|로|씩|짜리|요|이요|만요))")
"""A number in Korean's own numerals before a counter that ends its word or takes a particle ("네
명", "표 두 장", "세 시간"; not "네 주문할게요", "yes, I'll order", nor "한 병원", "a hospital")."""


def _korean_worded(text: str) -> list[Number]:
    """The numbers ``text`` writes in Korean's own numerals before a counter, up to 20."""
    return [_KOREAN_NUMBERS[match.group(1)] for match in _KOREAN_NUMBER.finditer(text)]


def han_number(numerals: str) -> int:
    """The number Han ``numerals`` write, up to 999 ("十二" 12, "二十五" 25, "两" 2)."""
    total, digit = 0, 0
    for char in numerals:
        if char in _HAN_DIGITS:
            digit = _HAN_DIGITS[char]
        else:
            total += (digit or 1) * (100 if char == "百" else 10)
            digit = 0
    return total + digit


def numbers_alone(text: str) -> list[Number]:
    """The numbers written on their own in ``text``, as :func:`numbers` reads them but without
    those a letter follows (``5km``, ``10th``, ``3x``) and without words: what a request gives
    as values, counted."""
    return [_read(match.group()) for match in _alone_matches(text)]


def _alone_matches(text: str) -> list[re.Match[str]]:
    """Where each of :func:`numbers_alone` is written in ``text``."""
    return [match for match in NUMBER.finditer(text) if not _LETTER.match(text, match.end())]


_SIGNS = re.compile(r"[$€£¥%]")
"""Signs written by numbers ("$1000 and $2000", "5% and 6%")."""
Row = tuple[tuple[Number, ...], int, int]
"""One call's numbers, and where they start and end in the text (:func:`number_rows`)."""


def number_rows(text: str, width: int, calls: int) -> list[Row]:
    """Each of ``calls`` calls' numbers, and where they are written, when ``text`` writes
    ``width`` numbers alone for each call in turn (:func:`numbers_alone`) and no others: "John
    weighs 85 kilograms and is 1.8 meters tall, and Sarah weighs 60 kilograms and is 1.65 meters
    tall" is 85 and 1.8, then 60 and 1.65, and "the pairs (45, 60) and (81, 27)" 45 and 60,
    then 81 and 27. None when one call's numbers are written as a list, unbracketed ("$1000 and
    $2000 at 5% and 6%": each amount may go with each rate)."""
    found = _alone_matches(text)
    if width < 1 or calls < 2 or len(found) != width * calls:
        return []
    rows = [found[k * width:(k + 1) * width] for k in range(calls)]
    for row in rows:
        listed = any(_LIST_GAP.fullmatch(_SIGNS.sub(" ", text[before.end():after.start()]))
                     for before, after in zip(row, row[1:]))
        bracketed = text[:row[0].start()].rstrip().endswith(("(", "[")) \
            and text[row[-1].end():].lstrip().startswith((")", "]"))
        if listed and not bracketed:
            return []
    return [(tuple(_read(match.group()) for match in row), row[0].start(), row[-1].end()) for row in rows]


_TERM = r"\d*(?:\.\d+)?(?:(?!e[-+]?\d)[a-z])(?:\^\d+)?"
_FORMULA = re.compile(rf"\^\s*\d+|(?<![\w.]){_TERM}(?:\s*[-+*/]\s*(?:{_TERM}|\d+(?:\.\d+)?))+(?!\w)")
"""A formula's terms ("3x^2 + 2x - 1") and any exponent ("m^3"); not a number's ("1e-9")."""
_NAMED_NUMBER = re.compile(r"(?<![.?!]\s)(?<!^)(\b[A-Z](?:[a-z]+|&[A-Z])\s+)(\d+)\b")
"""A number that ends a name: a capitalised word, not a sentence's first, right before it
("Windows 10", "S&P 500", "Toy Story 4"); not an abbreviation's ("user ID 12345", "CA 94704")."""
_NUMBERED_NAME = re.compile(r"\b\d+(?=\s+[A-Z][a-z][\w'.-]*\s+[A-Z])")
"""A number that starts a name: right before two capitalised words, the first not an
abbreviation ("123 Main St", "2150 Shattuck Ave", "3 Below Theaters"; not "10 AM PST")."""


_PHONE = re.compile(r"(?<![\w+])(?:\+|00)\d{1,3}(?:[ .-]\(?\d{1,7}\)?){2,6}+(?![\w.])")
"""A phone number written with its country's code and groups apart ("+34 612 34 56 78", "0044
7700 900123"): each group after a space, dot or hyphen, so no long run of digits is split two
ways (and "+100" or "+15.5" is no phone number)."""


def without_parts(text: str) -> str:
    """``text`` with the digits that are parts of something else blanked out, so that they are
    not counted as values: those of a formula ("the derivative of 3x^2 + 2x - 1", "2 m^3": not
    2 and 1, nor 3) and those that end or start a name ("compatible with Windows 10", "a ride
    from 2020 Addison Street"), and those of a phone number written with its country's code
    ("+34 612 34 56 78": no list of four)."""
    text = _PHONE.sub(lambda match: " " * len(match.group()), text)
    text = _FORMULA.sub(lambda match: " " * len(match.group()), text)
    text = _NUMBERED_NAME.sub(lambda match: " " * len(match.group()), text)
    return _NAMED_NUMBER.sub(lambda match: match.group(1) + " " * len(match.group(2)), text)


def percents(text: str) -> list[Number]:
    """The numbers ``text`` writes as percentages (``5%``, ``2.5 percent``, "3,5 %" in a text of
    another language), as written."""
    text = comma_decimals(text)
    return [_read(match.group()) for match in NUMBER.finditer(text) if _PERCENT.match(text, match.end())]


def unpercented_numbers(text: str) -> list[Number]:
    """The numbers ``text`` writes other than as percentages ("10 chairs with a 10% discount": 10)."""
    text = comma_decimals(text)
    spans = [(match.start(), sign.end()) for match in NUMBER.finditer(text)
             if (sign := _PERCENT.match(text, match.end()))]
    for start, end in reversed(spans):
        text = text[:start] + " " * (end - start) + text[end:]
    return numbers(text)


def as_fraction(percent: Number) -> float:
    """A percentage as a fraction, exactly where it can be (5 -> 0.05, 3.5 -> 0.035)."""
    return float(as_decimal(percent) / 100)


@functools.lru_cache(maxsize=1024)
def labelled(text: str) -> Labels:
    """Each number of ``text`` with its label: the words written right before it, up to
    :data:`_LABEL_WORDS`, less the words that link a name to its value ("a width of 30":
    ``width``, "annual rate of 5%": ``annual rate`` for 5 and 0.05), lowercase; the label is
    empty when punctuation or another number comes first ("3 bedrooms, 2 bathrooms": 2 has none).
    Read once per text and kept: the request and its copied values share it."""
    found: list[tuple[str, Number]] = []
    plain = re.sub(r"['’]s\b", "", text)  # "shareholder's equity" names shareholder_equity
    for match in NUMBER.finditer(plain):
        label = _label(plain, match.start())
        number = _read(match.group())
        found.append((label, number))
        if _PERCENT.match(plain, match.end()):
            found.append((label, as_fraction(number)))
    return tuple(found)


def _label(text: str, start: int) -> str:
    """The words written right before ``start`` in ``text``, as :func:`labelled` reads them."""
    before = _TOKEN.findall(text[max(0, start - 80):start].lower())
    while before and before[-1] in _LINKS:
        before.pop()
    label: list[str] = []
    while before and before[-1].isalpha() and len(label) < _LABEL_WORDS:
        label.insert(0, before.pop())
    return " ".join(label)


@functools.lru_cache(maxsize=1024)
def named_strings(text: str) -> Names:
    """Each name ``text`` writes inside a sentence (quoted, or in capitals) with its labels: the
    words written right before it after a stop word ("the suit 'Hearts'": ``suit``; "for case
    number XY1234": ``case number``; "play high quality Roar": ``play high quality``, none
    without a stop word), and for a quoted one the word right after it too ("'Stradivarius'
    maker": ``maker``). A name in capitals ends at a sentence's end ("Katy Perry. The"), not
    at an abbreviation's ("D.C."). Read once per text and kept."""
    found: list[tuple[tuple[str, ...], str]] = []
    for match in _NAMED_VALUE.finditer(text):
        quoted = next(filter(None, match.groups()), None)
        name = quoted.strip() if quoted else _to_sentence_end(match.group())
        before = _label(text, match.start()).split()
        stop = max((i for i, word in enumerate(before) if word in STOPS), default=None)
        after = _TOKEN.match(text, match.end() + 1) if quoted and text[match.end():match.end() + 1] == " " else None
        labels = (" ".join(before[stop + 1:]) if stop is not None else "",
                  *([after.group().lower()] if after and after.group().isalpha() else []))
        found.append((labels, name))
    return tuple(found)


def _to_sentence_end(name: str) -> str:
    """``name`` up to its first word whose period ends a sentence: not an initial's (``F.``,
    ``D.C.``) nor an abbreviation's (``Inc.``)."""
    for word in re.finditer(r"\S+\.(?=\s|$)", name):
        if not (ABBREVIATION.fullmatch(word.group()) or re.fullmatch(r"[A-Z]\.", word.group())):
            return name[:word.end() - 1]
    return name


def names_argument(label: str, key: str) -> bool:
    """Whether a number's ``label`` (:func:`labelled`) ends with the words of argument ``key``'s
    name (lowercase; at least three letters): "a length of 50" names ``length``."""
    name = argument_words(key)
    return len("".join(name)) >= 3 and tuple(label.split()[-len(name):]) == name


def labels_argument(label: str, key: str) -> bool:
    """Whether a name's ``label`` (:func:`named_strings`) is the words of argument ``key``'s name
    (lowercase; at least three letters): "the suit 'Hearts'" names ``suit``, "high quality Roar"
    names no ``quality``."""
    name = argument_words(key)
    return len("".join(name)) >= 3 and tuple(label.split()) == name


@functools.lru_cache(maxsize=1024)
def argument_words(key: str) -> tuple[str, ...]:
    """The words of an argument's name, lowercase (read once per name, not per number)."""
    return tuple(identifier_words(key).lower().split())


def numbers_named(labels: Labels, key: str) -> list[Number]:
    """The numbers ``labels`` name as argument ``key``'s (:func:`names_argument`), as written,
    in order, each once ("a rate of 5% ... a rate of 4%": 5, 4)."""
    found: list[Number] = []
    for i, (label, number) in enumerate(labels):
        fraction = i > 0 and labels[i - 1][0] == label and number == as_fraction(labels[i - 1][1])
        if names_argument(label, key) and not fraction and number not in found:
            found.append(number)
    return found


def counted(text: str) -> Labels:
    """Each number ``text`` writes, in digits or in words (:func:`worded_in_digits`), right
    before a word, with that word lowercase (the last part of a hyphenated one): what it
    counts ("2 rooms": ``rooms``, "two adults", "Two e-bikes": ``bikes``, "20GB": ``gb``)."""
    written = worded_in_digits(text)
    found: list[tuple[str, Number]] = []
    for match in NUMBER.finditer(written):
        noun = _NOUN.match(written, match.end())
        if noun and noun.group(1).lower() not in _ORDINAL_ENDINGS:  # "3rd" counts nothing
            found.append((noun.group(1).lower(), _read(match.group())))
    kinds = list(_KINDS_COUNTED.finditer(text))
    for counter in kinds:  # "两个大人一个小孩", "大人2名", "아이 1명"
        number = counter["after"] or counter["before"]
        found.append((_PEOPLE_KINDS[counter["kind"] or counter["first"]],
                      int(number) if number.isdecimal() else han_number(number)))
    for pattern in (_PEOPLE_COUNTED, _THINGS_COUNTED):  # "三个人", "4명", "一人で"; "三瓶", "2個", "3개"
        for counter in pattern.finditer(text):
            if any(kind.start() < counter.end() and counter.start() < kind.end() for kind in kinds):
                continue
            number = int(counter.group(1)) if counter.group(1).isdecimal() else han_number(counter.group(1))
            thing = PERSON if pattern is _PEOPLE_COUNTED else counter.group(2)
            if not any(read == number and word.startswith(thing) for word, read in found):  # "2本のペン" read once
                found.append((thing, number))
    return tuple(found)


def counted_first(string: str) -> bool:
    """Whether ``string`` begins with a count of people as Chinese, Japanese and Korean write them
    ("五个人", "两个大人", "4명"): no name."""
    return bool(_PEOPLE_COUNTED.match(string) or _KINDS_COUNTED.match(string))


_ORDINAL_ENDINGS = frozenset(words("ordinal_endings"))
PERSON = "people"
"""What a count of people counts, in any language (:data:`_PEOPLE_COUNTED`)."""
_PEOPLE_COUNTED = re.compile(rf"(\d+|{HAN_NUMERALS})\s*(?:个|個)?(?:人|名|位|명|사람)(?![民数數])")
"""A number of people as Chinese, Japanese and Korean write it, a counter after it ("三个人", "4명";
not "2000人民币", yuan, nor "2位数", digits)."""


_PEOPLE_KINDS = {"大人": "adults", "成人": "adults", "어른": "adults", "성인": "adults", "小孩": "children",
                 "孩子": "children", "儿童": "children", "兒童": "children", "子供": "children", "子ども": "children",
                 "こども": "children", "아이": "children", "어린이": "children"}
"""Chinese, Japanese and Korean words for adults and children, as the English word a count of them
counts."""
_KINDS = "|".join(_PEOPLE_KINDS)
_KINDS_COUNTED = re.compile(rf"(?<![\d.,])(?P<after>\d+|{HAN_NUMERALS})\s*(?:个|個|位|名)?(?P<kind>{_KINDS})(?![가-힣])"
                            rf"|(?P<first>{_KINDS})\s*(?P<before>\d+|{HAN_NUMERALS})\s*(?:人|名|명)")
"""A count of adults or children: Chinese writes the word after the number ("两个大人"), Japanese
and Korean before it ("大人2名", "아이 1명")."""
_THINGS_COUNTED = re.compile(rf"(?<![\d.,第])(\d+|{HAN_NUMERALS})\s*"
                             r"(瓶|杯|枚|冊|册|件|张|張|只|隻|台|份|盒|包|袋|箱|罐|支|双|雙|つ|匹|缶|병|잔|권|켤레|봉지|상자"
                             r"|(?:本|条|條)(?![\u4e00-\u9fff])|개(?!월)|(?:个|個)(?![人月小星礼禮钟鐘半]))")
"""A number of things as Chinese, Japanese and Korean write it, with the thing's counter after it
("三瓶", "2個", "3개", "2本の"); not a count of people, months or hours ("三个人", "两个月", "三个小时",
"3개월"), nor money ("8块"), an ordinal ("第3个") or a place's name ("六本木", "二条城")."""


_NOUN = re.compile(r"[ -]?(?:[^\W\d_]+-)*([A-Za-zÀ-ɏ]{2,}|[^\W\d_]{2,})")
"""The word a number counts, written right after it: ``rooms`` of "2 rooms", ``bikes`` of "2
e-bikes", ``gb`` of "20GB流量" (a run of Latin letters ends before another script's)."""


def strings_named(names: Names, key: str) -> list[str]:
    """The names ``names`` (:func:`named_strings`) name as argument ``key``'s, in order, each once
    ("case number XY1234 ... and case number GH5678": XY1234, GH5678)."""
    found = [name for labels, name in names if any(labels_argument(label, key) for label in labels)]
    return list(dict.fromkeys(found))


def _scaled(number: str, scale: int) -> Number:
    """``number`` (as written) times ``scale``, exactly: a whole number when it is one."""
    value = Decimal(number.replace(",", "")) * scale
    return int(value) if value == value.to_integral_value() else float(value)


def number_lists(text: str) -> list[list[Number]]:
    """The lists of numbers written in ``text``, in order: numbers with nothing but commas,
    semicolons, brackets, "and" or "or" between them are one list (``5, 10 and 15``), and so
    are numbers each followed by the same word (``10 years and 20 years``, ``1 week, 2 weeks``);
    a number alone is a list of one."""
    lists: list[list[Number]] = []
    before = None
    for match in NUMBER.finditer(text):
        if before is None or not _one_list(text, before, match):
            lists.append([])
        lists[-1].append(_read(match.group()))
        before = match
    return lists


def _one_list(text: str, before: re.Match[str], number: re.Match[str]) -> bool:
    """Whether ``number`` goes on the list of the number ``before`` it: a list's gap between
    them, or between the word after ``before`` and ``number``, which the same word follows."""
    if _APART.search(text, before.end(), number.start()):
        return False
    if _LIST_GAP.fullmatch(text, before.end(), number.start()):
        return True
    unit, again = _WORD_AFTER.match(text, before.end()), _WORD_AFTER.match(text, number.end())
    return (unit is not None and again is not None and bool(_LIST_GAP.fullmatch(text, unit.end(), number.start()))
            and STEMMER.stemWord(unit.group(1).lower()) == STEMMER.stemWord(again.group(1).lower()))


_APART = re.compile(r"[\])][^\[(]*[\[(]")
"""A bracket closed, then one opened: what parts two lists ("(40.7, -74.0) and (34.0, -118.2)")."""
_WORD_AFTER = re.compile(r"\s+([^\W\d_]{2,})\b")
"""The word written right after a number ("10 years"): its unit, perhaps."""


def number_runs(text: str, most: int = MOST_RUNS,
                lists: Sequence[Sequence[Number]] | None = None) -> list[tuple[Number, ...]]:
    """Each list of numbers written in ``text`` (:func:`number_lists`), whole: ``[3, 4, 5] and
    group B [7, 8]`` gives ``(3, 4, 5)`` and ``(7, 8)``, never ``(3,)`` or ``(5, 7)`` (a small
    model otherwise closes the array after its first number: ``[43.65]`` of ``[43.65,
    -79.38]``); a number alone is a list of one. None when there would be more than ``most``
    (a pasted table). A range's two ends are a run too (:data:`_RANGE`). ``lists``: the lists
    :func:`number_lists` reads in ``text``, when already read."""
    lists = number_lists(text) if lists is None else lists
    if len(lists) > most:
        return []
    ranges = [(_read(match.group(1)), _read(match.group(2))) for match in _RANGE.finditer(text)]
    return list(dict.fromkeys([*map(tuple, lists), *ranges]))


_RANGE = re.compile(rf"\b(?:{either('range_starts')})\s+(?:[^\W\d_]\w*\s*=\s*)?({NUMBER.pattern})\s*"
                    rf"(?:[^\W\d_]+\s*)?\b(?:{either('range_ends')})\s+(?:[^\W\d_]\w*\s*=\s*)?({NUMBER.pattern})",
                    re.IGNORECASE)
"""A range of two numbers ("from 2015 to 2021", "between x = -1 and x = 2"): its ends, a run an
array of numbers may take whole (a start and an end year), beside each number alone."""


def _read(number: str) -> Number:
    """A number as written (thousands separated by commas) as JSON reads it; one of more digits
    than Python turns into an integer (4,300) as a float (infinite where it is past a float's range)."""
    number = number.replace(",", "")
    return float(number) if any(c in number for c in ".eE") or len(number) > _MOST_DIGITS else int(number)


_MOST_DIGITS = 4000


def value_texts(value: object) -> list[str]:
    """The texts a tool's result holds, each on its own: a string as it is, a number or a
    boolean as JSON writes it, and those within lists and objects (an object's values, not its
    keys), so no stretch runs across the JSON between two values (``25.8, "currency": "GBP``)."""
    if isinstance(value, dict):
        return [text for item in value.values() for text in value_texts(item)]
    if isinstance(value, list | tuple):
        return [text for item in value for text in value_texts(item)]
    return [value] if isinstance(value, str) else [] if value is None else [json.dumps(value, default=str)]


def result_texts(content: str) -> list[str]:
    """The texts of a tool's result as a message writes it (``get_weather result: {...}`` as
    ``gbnf serve`` writes one, or bare): those of its JSON (:func:`value_texts`), or the whole
    result where it is no JSON."""
    result = RESULT_LEAD.sub("", content, count=1)
    try:
        return value_texts(json.loads(result))
    except ValueError:
        return [result]


RESULT_LEAD = re.compile(r"^[\w.-]+ result: ")
"""How ``gbnf serve`` writes the start of a tool's result in the conversation it reads."""


def call_texts(content: str) -> list[str]:
    """The argument values of the calls an assistant's message writes as JSON
    (``{"name": ..., "arguments": {...}}``, or a list of such); none for prose."""
    try:
        calls = json.loads(content)
    except ValueError:
        return []
    calls = calls if isinstance(calls, list) else [calls]
    return [text for call in calls if isinstance(call, dict) for text in value_texts(call.get("arguments"))]


def shared_value(one: object, other: object) -> str | Number | None:
    """What two values share: the same number, or the shorter of two strings when its words lie
    in a row in the other's ("Gold" of "Gold price"); None for anything else."""
    if isinstance(one, str) and isinstance(other, str):
        short, long = sorted((one, other), key=len)
        return short if mentions(long, short) else None
    if is_number(one) and is_number(other) and one == other:
        return other
    return None


def own_values(values: Values, items: Sequence[Sequence[str | Number]], call: int) -> Values:
    """``values`` for the ``call``-th (from 0) of calls that each ask for their own ``items``
    (:func:`~gbnf.shape.rules.asked_items`): without the stretches that mention another call's name
    or are part of it ("San" of "San Francisco"), unless part of its own name too, and the
    numbers (and percentages) of another call, unless they are its own too."""
    own = set(items[call])
    mine = [item for item in own if isinstance(item, str)]
    names = [item for k, found in enumerate(items) if k != call for item in found
             if isinstance(item, str) and item not in own]
    others = {item for k, found in enumerate(items) if k != call for item in found
              if not isinstance(item, str) and item not in own}
    return replace(values, strings=tuple(text for text in values.strings if not overlaps(text, names, mine)),
                   numbers=tuple(number for number in values.numbers if number not in others),
                   percents=tuple(number for number in values.percents if number not in others))


def overlaps(text: str, names: Sequence[str], mine: Sequence[str]) -> bool:
    """Whether stretch ``text`` mentions one of ``names`` or is part of one ("San" of "San
    Francisco"), unless it is part of one of ``mine`` too."""
    return any(mentions(text, name) or (mentions(name, text) and not any(mentions(m, text) for m in mine))
               for name in names)


def without_count(values: Values, text: str, calls: int) -> Values:
    """``values`` for ``calls`` calls of one tool, without that number where ``text`` writes it
    only as a word, which counts the calls ("the area of two triangles", "three different
    setups"), not a value of one: small models otherwise copy it into an argument."""
    written = {_read(match.group()) for match in NUMBER.finditer(text)}
    worded = {NUMBER_WORDS[match.group().lower()] for match in _NUMBER_WORD.finditer(text)}
    if calls < 2 or calls in written or calls not in worded:
        return values
    return replace(values, numbers=tuple(number for number in values.numbers if number != calls))


def copy_bias(texts: list[str], weight: float) -> tuple[tuple[str, float], ...]:
    """``Sampling.bias`` that favours copying: every word of ``texts`` (and every run of
    non-space characters, for paths), alone and after a space."""
    words = sorted({word for text in texts for word in re.findall(r"\w+|[^\s'\"]*\w", text)})
    return tuple((form, weight) for word in words for form in (word, " " + word))


def free_string(schema: Any) -> bool:
    """Whether a schema is a string the model writes freely."""
    return isinstance(schema, dict) and schema.get("type") == "string" \
        and not {"enum", "const", "pattern", "format"} & set(schema)


def listed_strings(schema: Any) -> bool:
    """Whether a schema lists its values, all strings (an ``enum`` of strings)."""
    listed = schema.get("enum") if isinstance(schema, dict) else None
    return isinstance(listed, list) and bool(listed) and all(isinstance(value, str) for value in listed)
