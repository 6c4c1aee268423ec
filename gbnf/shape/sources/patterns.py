"""Codes and identifiers the conversation writes as they are ("EDB", "ORD-88213", "LH400"), for a
string whose pattern takes them: its words and its runs of Latin letters and digits (inside
Chinese or Japanese text too), each whole."""

from __future__ import annotations

import functools
import re
from typing import Any

from gbnf.shape._codes import code_kind
from gbnf.shape._language import every_function_word
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source, fitting

_EDGES = "\"'`.,;:!?¿¡«»()[]{}<>“”‘’「」『』（）。、，！？：；"
_DIGIT = re.compile(r"\d")
_LATIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_./:@+#-]*[A-Za-z0-9]|[A-Za-z0-9]")


@functools.lru_cache(maxsize=1024)
def written_tokens(text: str) -> tuple[str, ...]:
    """``text``'s words (parted at spaces, without the punctuation at their ends) and its runs of
    Latin letters and digits, in order, each once."""
    words = [word.strip(_EDGES) for word in text.split()]
    return tuple(dict.fromkeys([*filter(None, words), *_LATIN.findall(text)]))


_FORMATS = frozenset({"email", "idn-email", "uri", "iri", "hostname", "idn-hostname", "ipv4", "ipv6", "uuid"})
"""The formats whose values a request writes as they are (an address, a link, an identifier)."""


def patterns_written(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The words, runs and stretches written that the string's pattern (and length) or format
    (:data:`_FORMATS`) takes, in the order written, where it has either: each as written, else
    joined to the next word ("LH 401" for ``^[A-Z]{2}[0-9]{1,4}$``, and then neither word
    alone), else, one with a digit, in capitals ("k9dl4p" for ``^[A-Z0-9]{6}$``: codes are
    typed in any case; a word without digits is no code); for a format, only words without
    spaces."""
    if "pattern" not in part and part.get("format") not in _FORMATS or code_kind(name, part):
        return []  # a currency, language or country: only the codes its names say (sources.codes)
    fits = fitting(part)
    tokens = list(dict.fromkeys([*(token for text in values.texts for token in written_tokens(text)),
                                 *values.strings]))
    if "pattern" not in part:  # a format: a word, whole
        tokens = [token for token in tokens if not any(c.isspace() for c in token)]
    stops = every_function_word()
    found = []
    parts: set[str] = set()  # the words of a pair joined into one code: "401" of "LH 401" is no code alone
    for token in tokens:
        if token.islower() and token in stops:  # "at", "in", "me" are no codes, whatever a pattern takes
            continue
        joined = token.replace(" ", "") if token.count(" ") == 1 else None
        forms = (token, joined, *(form.upper() for form in (token, joined) if form and _DIGIT.search(form)))
        form = next((form for form in forms if form and fits(form)), None)
        if form is not None and joined is not None and form in (joined, joined.upper()):
            parts.update(token.split())
        found.append(form)
    return list(dict.fromkeys(form for form in found if form and form not in parts and form.lower() not in parts))


SOURCE = Source(
    "patterns", "typed",
    "words and runs of letters and digits written as they are, for a string whose pattern takes them",
    Example("Any trains to EDB from MAN?", "to_station", {"type": "string", "pattern": "^[A-Z]{3}$"}, ("EDB", "MAN")),
    patterns_written)
