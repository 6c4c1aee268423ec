"""Whether a request is written in English, the one language the word rules read.

The rules that read a request's words (which optional arguments it asks for, which booleans it
switches on) know English words only. On a request in another language they would find nothing
asked and drop what the user did ask for, so they apply only where the request reads as
English, and elsewhere the schema is offered as declared. The guess counts each language's
function words among the request's words (the stop-word lists ``bm25s`` ships, for English and
ten other languages): English when it has some and no other language has more; a request in a
script other than Latin is not English. Where a request reads as one of the other languages,
its function words are known too (:func:`foreign_function_words`): no value starts or ends
with one, as none does with an English one.
"""

from __future__ import annotations

import functools
import re

import bm25s.stopwords as stopwords

_OTHERS = ("DANISH", "DUTCH", "FRENCH", "GERMAN", "ITALIAN", "NORWEGIAN", "PORTUGUESE", "SPANISH", "SWEDISH",
           "TURKISH")
_WORD = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-z\u00C0-\u024F]")


@functools.lru_cache(maxsize=16384)
def is_english(query: str) -> bool:
    """Whether ``query`` reads as English (see the module's text)."""
    words = [w.lower() for w in _WORD.findall(query)]
    if not _latin(words):
        return False
    english, *others = function_words()
    count = sum(w in english for w in words)
    return count > 0 and all(count >= sum(w in other for w in words) for other in others)


@functools.lru_cache(maxsize=1024)
def foreign_function_words(query: str) -> frozenset[str]:
    """The function words of the languages other than English that ``query`` may read as
    (those with the most of their function words among the query's words, English's left
    out; "en" is French's and Spanish's), lowercase; none for English, a script other than
    Latin, or fewer than two such words of two letters or more (the "vi" of a chord
    progression, the "em" alone of "Vai chover em Lisboa?", the "dir" of "list file in desktop
    using dir Desktop": too little to tell)."""
    words = [w.lower() for w in _WORD.findall(query)]
    if not _latin(words) or is_english(query):
        return frozenset()
    english, *others = function_words()
    own = {w for w in words if w not in english and len(w) > 1}
    counts = [len(own & listed) for listed in others]
    best = max(counts)
    if best < 2:
        return frozenset()
    return frozenset().union(*(listed for listed, count in zip(others, counts) if count == best))


_CODES = {"DUTCH": "nl", "FRENCH": "fr", "GERMAN": "de", "ITALIAN": "it", "PORTUGUESE": "pt", "SPANISH": "es"}
"""The ISO 639-1 codes of the languages whose number words are read (text2num's)."""


@functools.lru_cache(maxsize=1024)
def worded_languages(text: str) -> tuple[str, ...]:
    """The languages of :data:`_CODES` that ``text`` may be written in: those with the most of
    their function words among its words, at least one ("Zwei Tickets nach Berlin": German);
    none for English or another script."""
    words = [w.lower() for w in _WORD.findall(text)]
    if not _latin(words) or is_english(text):
        return ()
    english, *others = function_words()
    own = {w for w in words if w not in english}
    counts = {name: len(own & listed) for name, listed in zip(_OTHERS, others) if name in _CODES}
    best = max(counts.values(), default=0)
    return tuple(_CODES[name] for name, count in counts.items() if count == best) if best else ()


def unknown_latin(text: str) -> tuple[str, ...]:
    """Every language of :data:`_CODES` where ``text`` is written in the Latin script, reads as
    no language (no function words: "drei Nächte", "quinze minutes") and is not English: its
    number words are read in each of them ("drei" is a number in German alone; a name may read
    as one too: "Elf Bar")."""
    words = [w.lower() for w in _WORD.findall(text)]
    if not _latin(words) or is_english(text) or worded_languages(text) or foreign_function_words(text):
        return ()
    return tuple(_CODES.values())


def reads_as_other_language(text: str) -> bool:
    """Whether ``text`` reads as a language other than English: written in another script
    (Chinese, Japanese, Korean...), or with another language's function words; a few words
    without any ("weather", "time?") read as none."""
    words = [w.lower() for w in _WORD.findall(text)]
    return bool(words) and not is_english(text) and (not _latin(words) or bool(worded_languages(text))
                                                     or bool(foreign_function_words(text)))


@functools.lru_cache(maxsize=1024)
def verb_first(text: str) -> bool:
    """Whether ``text`` is written in the Latin script in a language whose requests open with their
    verb ("Book a table...", "Zet Radio 538 aan", "Mets France Inter"): any that :func:`function_words`
    knows but Turkish, whose verbs come last ("Grand Bosphorus Otel'de ... ayırt"), read by its
    function words or its own letters (ı, ğ, İ)."""
    words = [w.lower() for w in _WORD.findall(text)]
    if not _latin(words) or _TURKISH_LETTERS.search(text):
        return False
    counts = dict(zip(_OTHERS, (len(set(words) & listed) for listed in function_words()[1:])))
    return counts["TURKISH"] == 0 or counts["TURKISH"] < max(counts.values()) or is_english(text)


_TURKISH_LETTERS = re.compile("[ıİğĞ]")


@functools.cache
def every_function_word() -> frozenset[str]:
    """The function words of every language :func:`function_words` holds, lowercase."""
    return frozenset().union(*function_words())


def _latin(words: list[str]) -> bool:
    """Whether ``words`` are some, written nine letters in ten or more in the Latin script."""
    letters = [c for w in words for c in w]
    return bool(words) and sum(bool(_LATIN.match(c)) for c in letters) >= 0.9 * len(letters)


@functools.cache
def function_words() -> tuple[frozenset[str], ...]:
    """English's function words, then each other language's (of those ``bm25s`` ships)."""
    return tuple(frozenset(getattr(stopwords, f"STOPWORDS_{name}"))
                 for name in ("EN_PLUS", *_OTHERS))
