"""The one shape every acceptance oracle has, and the cache that gives it to per-grammar deciders."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Protocol


class Oracle(Protocol):
    """An engine's verdict on a GBNF grammar: does it load, does it accept a text?"""

    def check(self, grammar: str) -> None:
        """Raise :class:`~gbnf.errors.GrammarError` (or another ``GbnfError``) unless the engine loads ``grammar``."""

    def accepts(self, grammar: str, text: str) -> bool:
        """Whether ``grammar`` accepts exactly ``text``."""


class Decider(Protocol):
    """One grammar, loaded by an engine: does it accept a text?"""

    def accepts(self, text: str) -> bool: ...


class PerGrammar:
    """An :class:`Oracle` over a decider built once per grammar text (the last 64 are kept)."""

    def __init__(self, build: Callable[[str], Decider]) -> None:
        self.decider = functools.lru_cache(maxsize=64)(build)

    def check(self, grammar: str) -> None:
        self.decider(grammar)

    def accepts(self, grammar: str, text: str) -> bool:
        return self.decider(grammar).accepts(text)
