"""Text compared loosely: case, spaces and punctuation left out."""

from __future__ import annotations

import re
from collections import Counter

_NOT_WORD = re.compile(r"[^a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def fold(text: str) -> str:
    """``text`` lowercased, with letters and digits only (``"Get-Now "`` -> ``"getnow"``)."""
    return "".join(c for c in text.lower() if c.isalnum())


def word_key(text: str) -> str:
    """``text``'s words, lowercased and one space apart (``"six_months"`` and ``"Six-months"``
    -> ``"six months"``)."""
    return _NOT_WORD.sub(" ", text.lower()).strip()


def mentions(text: str, value: str) -> bool:
    """Whether ``text`` mentions ``value``: its words appear in ``text`` in a row (loosely, as
    :func:`word_key` compares them)."""
    key = word_key(value)
    return bool(key) and f" {key} " in f" {word_key(text)} "


def identifier_words(text: str) -> str:
    """Identifiers as words: ``get_weather`` and ``getWeather`` both read "get weather"."""
    return re.sub(r"[_\-./]+", " ", _CAMEL.sub(" ", text))


def name_words(name: str) -> set[str]:
    """An identifier's words, lowercased: ``from_currency`` and ``fromCurrency`` -> {"from", "currency"}."""
    return set(word_key(identifier_words(name)).split())


def own_words(word_sets: list[set[str]]) -> list[set[str]]:
    """Each of ``word_sets``' words that no other of them has."""
    counts = Counter(word for words in word_sets for word in words)
    return [{word for word in words if counts[word] == 1} for words in word_sets]


ELISION = r"(?:[dlnjmst]|qu|[dns]?ell|d?all|sull|un)['’](?=\w)"
"""An article, a preposition or a pronoun written onto the next word with an apostrophe, as
French and Italian write them ("l'après-midi", "d'Orsay", "dell'hotel", "all'Osteria")."""
_ELIDED = re.compile(f"^{ELISION}", re.IGNORECASE)


def without_elision(text: str) -> str:
    """``text`` without an elided article or preposition written onto its first word, as French
    and Italian write them ("l'après-midi", "d'Orsay", "dell'hotel")."""
    return _ELIDED.sub("", text)
