"""The English words the word rules read, as data (``data/english.toml``), and the lines of the
shaping stage's other data files, each read once."""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable
from importlib import resources
from typing import Any

import Stemmer
from bm25s.stopwords import STOPWORDS_EN_PLUS

STOPS = frozenset(STOPWORDS_EN_PLUS)
"""English stop words ("the", "of", "for"...), as bm25s lists them: what the word rules skip."""
STEMMER = Stemmer.Stemmer("english")
"""The one English stemmer: "weeks" and "week" are one word to every rule."""


@functools.cache
def _english() -> dict[str, Any]:
    return tomllib.loads(resources.files("gbnf.shape").joinpath("data/english.toml").read_text(encoding="utf-8"))


def words(name: str) -> tuple[str, ...]:
    """One list of ``data/english.toml``."""
    return tuple(_english()[name])


def table(name: str) -> dict[str, int]:
    """One table of ``data/english.toml`` (word: number)."""
    return dict(_english()[name])


def either(*names: str) -> str:
    """A regular expression that matches any word of the lists ``names`` (longest first)."""
    return alternation(word for name in names for word in words(name))


def alternation(texts: Iterable[str]) -> str:
    """A regular expression that matches any of ``texts``, the longest first."""
    return "|".join(re.escape(text) for text in sorted(set(texts), key=lambda text: (-len(text), text)))


@functools.cache
def data_lines(name: str) -> tuple[str, ...]:
    """The lines of the data file ``data/<name>``, without blank lines and ``#`` comments."""
    text = resources.files("gbnf.shape").joinpath("data", name).read_text(encoding="utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))
