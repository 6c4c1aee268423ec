"""Which way a pair of arguments runs (``from_station`` and ``to_station``, ``source_lang`` and
``target_lang``, ``origin`` and ``destination``): the values a request writes after "from" go to
the first, those after "to" to the second, by the words each language marks them with, before the
value ("from", "von", "desde", "从") or after it ("から", "에서"): "to EDB from MAN" keeps MAN
from the destination and EDB from the origin. A pair that runs in time (``pickup_date`` and
``return_date``, ``check_in`` and ``check_out``) starts before it ends, whatever the order the
request writes them in (:func:`time_pair`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from gbnf._text import name_words

_SOURCE_NAMES = frozenset({"from", "source", "src", "origin", "orig", "pickup", "departure", "depart", "sender",
                           "payer", "debit", "base", "input", "start", "begin", "checkin"})
"""Words of a property's name that make it the first of a pair (where the value comes from)."""
_TARGET_NAMES = frozenset({"to", "target", "tgt", "dest", "destination", "dropoff", "arrival", "arrive", "recipient",
                           "payee", "credit", "into", "output", "end", "until", "return", "checkout"})
"""Words of a property's name that make it the second of a pair (where the value goes)."""
_BEFORE_SOURCE = ("from", "since", "von", "vom", "aus", "ab", "de", "du", "des", "depuis", "desde", "del", "da", "dal",
                  "dalla", "do", "dos", "van", "vanaf", "z", "ze", "od", "从", "由", "自")
"""Words written right before a value that mark where it comes from."""
_BEFORE_TARGET = ("to", "into", "towards", "until", "till", "through", "nach", "zu", "zum", "zur", "in", "ins", "bis",
                  "à", "au", "aux", "vers", "en", "jusqu'au", "hasta",
                  "pour", "a", "al", "hacia", "para", "verso", "per", "alla", "al", "naar", "do", "na", "到", "去",
                  "往", "至", "成", "为", "→")
"""Words written right before a value that mark where it goes (a word of both lists marks neither)."""
_PHRASE_SOURCE = ("instead of", "rather than", "au lieu de", "au lieu d'", "en lugar de", "en vez de", "statt",
                  "invece di", "anziché", "in plaats van", "而不是")
"""Words written right before a value that mark it as the one replaced: where it comes from ("for
twelve people instead of four")."""
_AFTER_SOURCE = ("から", "より", "에서", "부터", "'den", "'dan", "'ten", "'tan", "den", "dan", "ten", "tan")
"""Words written right after a value (Japanese, Korean, Turkish) that mark where it comes from."""
_AFTER_TARGET = ("まで", "へ", "に", "까지", "로", "으로", "에", "'e", "'a", "'ye", "'ya")
"""Words written right after a value that mark where it goes."""


def pairs(keys: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs (first, second) among property names ``keys``: one named with a word of
    where a value comes from, one with a word of where it goes, the rest of their names alike
    (``from_station`` and ``to_station``; ``origin`` and ``destination``)."""
    found = []
    for first in keys:
        mine = name_words(first)
        if not mine & _SOURCE_NAMES:
            continue
        for second in keys:
            theirs = name_words(second)
            if theirs & _TARGET_NAMES and (mine - _SOURCE_NAMES) == (theirs - _TARGET_NAMES):
                found.append((first, second))
    return found


_STARTS = frozenset({"start", "begin", "from", "since", "pickup", "checkin", "departure", "depart", "outbound",
                     "first"})
"""Words (or two words written as one: ``check_in``) of a property's name that make it the start of a span of time."""
_ENDS = frozenset({"end", "until", "to", "till", "return", "dropoff", "checkout", "inbound", "last"})
"""Words of a property's name that make it the end of a span of time."""


def time_pair(keys: Sequence[str]) -> tuple[str, str] | None:
    """Among property names ``keys``, the one that starts a span of time and the one that ends
    it (``pickup_date`` and ``return_date``; ``checkIn`` and ``checkOut``), where exactly one of
    each is named so; None otherwise."""
    starts = [key for key in keys if _time_role(key) == "start"]
    ends = [key for key in keys if _time_role(key) == "end"]
    return (starts[0], ends[0]) if len(starts) == len(ends) == 1 else None


def _time_role(key: str) -> str | None:
    """``start`` or ``end`` where ``key``'s words (each, and each two written as one) name one
    end of a span of time and not the other."""
    words = [word.lower() for word in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", key)]
    parts = set(words) | {a + b for a, b in zip(words, words[1:])}
    start, end = bool(parts & _STARTS), bool(parts & _ENDS)
    return "start" if start and not end else "end" if end and not start else None


def marked(texts: Sequence[str], value: str, number: bool = False) -> str | None:
    """Which way ``texts`` mark ``value`` (as written there, case aside; a ``number`` in digits,
    not inside another: "6" of "from 6 servings", not of "2026"): ``"source"`` or ``"target"``
    where each time it is written with a marker the marker says one way; None where it is not
    written, unmarked, or marked both ways."""
    ways = {way for text in texts for way in _ways(text, value, number)}
    return ways.pop() if len(ways) == 1 else None


@functools.lru_cache(maxsize=4096)
def _ways(text: str, value: str, number: bool) -> frozenset[str]:
    """The ways the markers around each place ``text`` writes ``value`` point."""
    found = set()
    pattern = rf"(?<![\d.,]){re.escape(value)}(?![\d]|[.,]\d)" if number else re.escape(value)
    for match in re.finditer(pattern, text, re.IGNORECASE):
        before = text[:match.start()].rstrip()
        after = text[match.end():]
        word = re.search(r"(\w+)$", before)
        last = word.group(1).lower() if word else ""
        east = before[-1:] if before and not before[-1].isascii() else ""
        ways = {way for way, marks in (("source", _BEFORE_SOURCE), ("target", _BEFORE_TARGET))
                if last in marks or east in marks}
        if before.lower().endswith(_PHRASE_SOURCE):
            ways = {"source"}
        ways |= {way for way, marks in (("source", _AFTER_SOURCE), ("target", _AFTER_TARGET))
                 if after.lower().startswith(marks)}
        if len(ways) == 1:
            found |= ways
    return frozenset(found)
