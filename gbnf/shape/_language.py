"""Whether a request is written in English, the one language the word rules read.

The rules that read a request's words (which optional arguments it asks for, which booleans it
switches on) know English words only. On a request in another language they would find nothing
asked and drop what the user did ask for, so they apply only where the request reads as
English, and elsewhere the schema is offered as declared. The guess counts each language's
function words among the request's words (the stop-word lists ``bm25s`` ships, for English and
ten other languages): English when it has some and no other language has more; a request in a
script other than Latin is not English.
"""

from __future__ import annotations

import functools
import re

import bm25s.stopwords as stopwords

_OTHERS = ("DANISH", "DUTCH", "FRENCH", "GERMAN", "ITALIAN", "NORWEGIAN", "PORTUGUESE", "SPANISH", "SWEDISH",
           "TURKISH")
_WORD = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-z\u00C0-\u024F]")


def is_english(query: str) -> bool:
    """Whether ``query`` reads as English (see the module's text)."""
    words = [w.lower() for w in _WORD.findall(query)]
    letters = [c for w in words for c in w]
    if not words or sum(bool(_LATIN.match(c)) for c in letters) < 0.9 * len(letters):
        return False
    english, *others = function_words()
    count = sum(w in english for w in words)
    return count > 0 and all(count >= sum(w in other for w in words) for other in others)


@functools.cache
def function_words() -> tuple[frozenset[str], ...]:
    """English's function words, then each other language's (of those ``bm25s`` ships)."""
    return tuple(frozenset(getattr(stopwords, f"STOPWORDS_{name}"))
                 for name in ("EN_PLUS", *_OTHERS))
