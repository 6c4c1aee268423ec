"""The values a request's own words offer for a tool's arguments: its stretches of words and
its numbers, so a small model copies an argument from the request instead of making one up."""

from __future__ import annotations

import re
from collections.abc import Sequence

LONGEST = 8
"""The most words a stretch copied from a request may have."""
MOST_STRETCHES = 4000
"""The most stretches string arguments are copied from; longer texts (a pasted document) leave
strings free, since the grammar would grow with them."""

Values = tuple[tuple[str, ...], tuple[int | float, ...]]
"""What arguments may be copied from: stretches of words (for strings) and numbers."""

_WORD = re.compile(r"[^\s/-]+")
"""A word: hyphens and slashes part words too (``gas-fueled``, ``2022-2023``, ``a/b``), so either half
is a stretch of its own as well as the whole."""
_EDGES = "\"'`.,;:!?()[]{}<>"
_NO_START = frozenset("a an and as at by for from in into is of on or that the to was what which who with".split())
_NO_END = _NO_START | frozenset("are be can could i me my please you".split())
"""Lowercase words a stretch that is a value neither starts nor ends with (``in San Francisco``,
``Oslo for``); written with a capital they may (``To Kill a Mockingbird``, ``Portland, OR``)."""
_NUMBER = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.]*\d)")


def spans(text: str, longest: int = LONGEST) -> list[str]:
    """Every stretch of ``text`` from one word to another, up to ``longest`` words, the quotes
    and punctuation at its two ends left off (``in San Francisco, CA?`` gives ``San Francisco``
    and ``San Francisco, CA``); what lies between its words as written. None starts or ends
    with a lowercase function word (``in San Francisco`` is no value)."""
    bounds = []
    for match in _WORD.finditer(text):
        word = match.group()
        start = match.start() + len(word) - len(word.lstrip(_EDGES))
        end = match.end() - (len(word) - len(word.rstrip(_EDGES)))
        if start < end:
            bounds.append((start, end))
    words = [text[start:end] for start, end in bounds]
    found = (text[bounds[i][0]:bounds[j][1]] for i in range(len(bounds)) if words[i] not in _NO_START
             for j in range(i, min(i + longest, len(bounds))) if words[j] not in _NO_END)
    return list(dict.fromkeys(found))


def numbers(text: str) -> list[int | float]:
    """The numbers written in ``text``, in order (``1,000,000`` as one number, ``5,10`` as two,
    ``$5`` and ``5km`` as 5), as JSON reads them."""
    written = (match.group().replace(",", "") for match in _NUMBER.finditer(text))
    return [float(number) if any(c in number for c in ".eE") else int(number) for number in written]


def offered_values(texts: Sequence[str], most: int = MOST_STRETCHES) -> Values:
    """The stretches (:func:`spans`) and numbers of ``texts``, in order, each once; no stretch
    when there are more than ``most`` of them (strings stay free)."""
    stretches = list(dict.fromkeys(stretch for text in texts for stretch in spans(text)))
    found = tuple(dict.fromkeys(number for text in texts for number in numbers(text)))
    return (tuple(stretches) if len(stretches) <= most else (), found)
