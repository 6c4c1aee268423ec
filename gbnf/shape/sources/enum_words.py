"""An enum of strings narrowed to the values the conversation names (``six months`` names
``six_months``)."""

from __future__ import annotations

import functools
from typing import Any

from gbnf._text import own_words, word_key
from gbnf.shape._english import STEMMER
from gbnf.shape._language import every_function_word
from gbnf.shape._values import Values, listed_strings
from gbnf.shape.sources._source import Example, Source


@functools.lru_cache(maxsize=16)
def _word_keys(strings: tuple[str, ...]) -> frozenset[str]:
    """The :func:`word_key` of each of a request's stretches, once per request (not per tool)."""
    return frozenset(word_key(string) for string in strings) - {""}


@functools.lru_cache(maxsize=16)
def _stem_keys(strings: tuple[str, ...]) -> frozenset[str]:
    """The :func:`_stem_key` of each of a request's stretches, once per request."""
    return frozenset(_stem_key(string) for string in strings) - {""}


@functools.lru_cache(maxsize=16)
def _joined_keys(strings: tuple[str, ...]) -> frozenset[str]:
    """Each of a request's stretches of two words or more, as :func:`word_key` writes them, its
    words written as one ("to-do": "todo"; "wi fi": "wifi"), once per request."""
    return frozenset(key.replace(" ", "") for key in map(word_key, strings) if " " in key)


def _stem_key(text: str) -> str:
    """``text``'s words as :func:`word_key` writes them, each stemmed ("moving out" and
    ``move_out``: "move out"; "weekly": "week")."""
    return " ".join(STEMMER.stemWords(word_key(text).split()))


def _initials(text: str) -> str:
    """The first letters of ``text``'s words, in capitals (``measles_mumps_rubella``: "MMR"),
    for a value of three words or more ("PM" and "US" are words of their own); empty otherwise."""
    words = word_key(text).split()
    return "".join(word[0] for word in words).upper() if len(words) >= 3 else ""


def enum_values_named(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The values of an enum of strings that a stretch names, loosely (case, spaces, ``_``);
    of values alike but for their case ("AA", "Aa", "aa"), those a stretch writes as they are.
    Where none is, those a stretch names with its words stemmed ("moving out": ``move_out``;
    "every week": ``weekly``), by their initials in capitals ("MMR": ``measles_mumps_rubella``),
    or with its words written apart that the value writes as one ("to-do list": ``todo``; "e-mail":
    ``email``).
    Where none is named whole, the one value a stretch writes a word of that no other value has
    ("palco VIP": ``vip_box``, not ``front_of_stage``), but for the words of the argument's own
    name (``living_room`` of ``room``) and function words."""
    if not listed_strings(part):
        return []
    keys = _word_keys(values.strings)
    named = [value for value in part["enum"] if word_key(value) in keys]
    exact = [value for value in named if value in values.strings]
    alike = len({word_key(value) for value in named}) < len(named)
    if named:
        return exact if alike and exact else named
    stems = _stem_keys(values.strings)
    shouted = any(text.isupper() for text in values.texts)  # "WHERE IS MY ORDER": no initials
    initials = set() if shouted else {string for string in values.strings if string.isupper() and 3 <= len(string) <= 5}
    joined = _joined_keys(values.strings)
    loosely = [value for value in part["enum"]
               if _stem_key(value) in stems or _initials(value) in initials or word_key(value) in joined]
    return loosely or _named_by_a_word(name, part["enum"], keys)


def _named_by_a_word(name: str | None, listed: list[str], keys: frozenset[str]) -> list[str]:
    """The one value of ``listed`` with a word of its own among ``keys`` (a request's stretches
    as :func:`word_key` writes them), none where two or none have one (see :func:`enum_values_named`)."""
    common = set(word_key(name or "").split()) | every_function_word()
    own = own_words([set(word_key(value).split()) for value in listed])
    hit = [value for value, mine in zip(listed, own) if {w for w in mine if len(w) >= 3} & keys - common]
    return hit if len(hit) == 1 else []


SOURCE = Source(
    "enum-words", "enum", "the stretches of the conversation that write one of an enum's values, loosely",
    Example("Vegan dishes for the next six months", "period",
            {"type": "string", "enum": ["one_month", "six_months", "one_year"]}, ("six_months",)),
    enum_values_named)
