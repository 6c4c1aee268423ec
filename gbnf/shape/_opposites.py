"""Opposites: a request for the opposite of what a tool is named for ("When is sunset in
Beijing?" beside ``get_sunrise_time``) does not ask for that tool, however close the two are in
words and meaning. The pairs are Princeton WordNet 3.0's antonyms (``data/opposites.txt``)."""

from __future__ import annotations

import functools
from collections import defaultdict

from gbnf._text import name_words
from gbnf.shape._english import STEMMER, data_lines
from gbnf.shape._request import TEXTS_KEPT, Request
from gbnf.tools import Tool

_ENDINGS = ("est", "er")
"""The endings of comparatives and superlatives: "lowest" is read as "low" too."""
_PREFIX = 3
"""How many first letters a word of a tool's name shares with the opposite it is read as:
"Dri" (in ``ChaDri``, change drink) stems as "dry" does, but is not "dry"."""


@functools.cache
def _opposites() -> dict[str, dict[str, str]]:
    """Each word's stem: its opposites' stems, each with its word."""
    found: dict[str, dict[str, str]] = defaultdict(dict)
    for line in data_lines("opposites.txt"):
        first, second = line.split()
        found[STEMMER.stemWord(first)][STEMMER.stemWord(second)] = second
        found[STEMMER.stemWord(second)][STEMMER.stemWord(first)] = first
    return dict(found)


def _plain_forms(word: str) -> set[str]:
    """``word``, and the plain forms a comparative or superlative may have: lowest: low;
    earliest: early; biggest: big."""
    forms = {word}
    for ending in _ENDINGS:
        plain = word.removesuffix(ending)
        if plain != word and len(plain) > 2:
            forms.add(plain)
            if plain.endswith("i"):
                forms.add(plain[:-1] + "y")
            if plain[-1] == plain[-2]:
                forms.add(plain[:-1])
    return forms


@functools.lru_cache(maxsize=TEXTS_KEPT)
def _forms(text: str) -> dict[str, frozenset[str]]:
    """The stems of ``text``'s words in their plain forms (:func:`_plain_forms`), each with the
    words it was read from."""
    found: dict[str, set[str]] = defaultdict(set)
    for word in name_words(text):
        for form in _plain_forms(word):
            found[STEMMER.stemWord(form)].add(word)
    return {stem: frozenset(words) for stem, words in found.items()}


def opposed_tools(tools: list[Tool], request: Request) -> list[Tool]:
    """The ``tools`` whose names ``request`` asks for the opposite of: it writes a word that no
    tool's name or description writes, whose opposite a word of the tool's name is, and which
    the request does not write itself. Read in English only: none for a request in another
    language."""
    if not request.english:
        return []
    written = _forms(request.text)
    described = set().union(*(_forms(f"{tool.name} {tool.description}") for tool in tools))
    opposites = _opposites()
    asked = [opposites.get(stem, {}) for stem in written.keys() - described]
    wanted = {stem: word for others in asked for stem, word in others.items() if stem not in written}
    return [tool for tool in tools
            if any(word[:_PREFIX] == named[:_PREFIX] for stem, names in _forms(tool.name).items()
                   if (word := wanted.get(stem)) for named in names)]
