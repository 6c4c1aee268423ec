"""Codes and identifiers the conversation writes as they are ("EDB", "ORD-88213", "LH400"), for a
string whose pattern takes them: its words and its runs of Latin letters and digits (inside
Chinese or Japanese text too), each whole."""

from __future__ import annotations

import functools
import re
from typing import Any

from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source, fitting

_EDGES = "\"'`.,;:!?¿¡«»()[]{}<>“”‘’「」『』（）。、，！？：；"
_LATIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_./:@+#-]*[A-Za-z0-9]|[A-Za-z0-9]")


@functools.lru_cache(maxsize=1024)
def written_tokens(text: str) -> tuple[str, ...]:
    """``text``'s words (parted at spaces, without the punctuation at their ends) and its runs of
    Latin letters and digits, in order, each once."""
    words = [word.strip(_EDGES) for word in text.split()]
    return tuple(dict.fromkeys([*filter(None, words), *_LATIN.findall(text)]))


def patterns_written(_name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The words, runs and stretches written that the string's pattern (and length) takes, in
    the order written, where it has a pattern."""
    if "pattern" not in part:
        return []
    fits = fitting(part)
    tokens = dict.fromkeys([*(token for text in values.texts for token in written_tokens(text)), *values.strings])
    return [token for token in tokens if fits(token)]


SOURCE = Source(
    "patterns", "typed",
    "words and runs of letters and digits written as they are, for a string whose pattern takes them",
    Example("Any trains to EDB from MAN?", "to_station", {"type": "string", "pattern": "^[A-Z]{3}$"}, ("EDB", "MAN")),
    patterns_written)
