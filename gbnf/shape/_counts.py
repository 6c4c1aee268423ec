"""What a number counts: whether the word written right after a number (:func:`~gbnf.shape.rules.counted`:
"2 rooms", "Two e-bikes", "三个人") is what a number argument counts, by the words of the argument's
name, by people, or by meaning ("two kids": ``children``)."""

from __future__ import annotations

import functools

from gbnf.shape._english import STEMMER, words
from gbnf.shape._meaning import phrase_vectors
from gbnf.shape._values import PERSON, argument_words

SAME_NOUN = 0.8
"""How close (cosine, by the sentence encoder) a counted word and a word of an argument's name
must be to be one thing in other words ("kids" and ``children`` 0.93, "Fahrräder" and ``bikes``
0.81; "rooms" and ``guests`` 0.65, "hours" and ``days`` 0.64 are not)."""
_PEOPLE_WORDS = frozenset({"people", "person", "persons", "guest", "guests", "adult", "adults", "passenger",
                           "passengers", "traveler", "travelers", "traveller", "travellers", "pax", "personnes",
                           "personen", "personas", "persone", "pessoas"})
"""Words that count people, in the languages the stage reads: a count of them counts an argument
named so ("cuatro personas": ``passengers``)."""
_COUNTING = frozenset(words("counting"))


def counts_argument(noun: str, key: str) -> bool:
    """Whether ``noun`` (:func:`~gbnf.shape.rules.counted`) is what argument ``key`` counts: its
    stem is (or begins with: "euros" of ``price_eur``) the stem of a word of the name that is not
    a rate's ("nights" of ``price_per_night``) nor a word of counting itself (``number``, ``max``):
    "2 rooms" counts ``rooms``, "20GB" ``data_gb``; or it means that word (:data:`SAME_NOUN`: "two
    kids", ``children``); a count of people (:data:`_PEOPLE_WORDS`: "cuatro personas", "三个人")
    counts an argument named for people (``guests``, ``adults``)."""
    if noun == PERSON or noun in _PEOPLE_WORDS:
        return bool(_PEOPLE_WORDS & set(argument_words(key)))
    stem = STEMMER.stemWord(noun)
    own = _counted_words(key)
    if any(stem == mine or len(mine) >= 3 and stem.startswith(mine) for mine in own.values()):
        return True
    named = tuple(word for word in own if len(word) >= _FEWEST_LETTERS)
    return len(noun) >= _FEWEST_LETTERS and bool(named) and _means(noun, named)


_FEWEST_LETTERS = 3
"""The fewest letters of words compared by meaning: the encoder puts "rd" (of "3rd") near ``eur``."""


@functools.lru_cache(maxsize=4096)
def _means(noun: str, names: tuple[str, ...]) -> bool:
    """Whether ``noun`` means one of ``names`` (:data:`SAME_NOUN`)."""
    vectors = phrase_vectors([noun.lower(), *names])
    return bool(max(float(vectors[0] @ vector) for vector in vectors[1:]) >= SAME_NOUN)


@functools.lru_cache(maxsize=1024)
def _counted_words(key: str) -> dict[str, str]:
    """The words of ``key`` that say what it counts (:func:`counts_argument`), with their stems."""
    words_ = argument_words(key)
    rate = words_.index("per") if "per" in words_ else len(words_)
    return {word: STEMMER.stemWord(word) for word in words_[:rate] if word not in _COUNTING and len(word) > 1}
