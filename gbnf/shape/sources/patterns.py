"""Codes and identifiers the conversation writes as they are ("EDB", "ORD-88213", "LH400"), for a
string whose pattern takes them: its words and its runs of Latin letters and digits (inside
Chinese or Japanese text too), each whole."""

from __future__ import annotations

import functools
import re
from typing import Any

from gbnf.shape._codes import code_kind
from gbnf.shape._language import every_function_word
from gbnf.shape._times import written_times
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
    (:data:`_FORMATS`) takes, in the order written, where it has either: codes written in groups
    first, joined (:func:`_grouped_codes`: "LH 401" for ``^[A-Z]{2}[0-9]{1,4}$``, and then no
    group alone), then each as written, else, one with a digit, in capitals ("k9dl4p" for
    ``^[A-Z0-9]{6}$``: codes are typed in any case; a word without digits is no code); for a
    format, only words without spaces."""
    if "pattern" not in part and part.get("format") not in _FORMATS or code_kind(name, part):
        return []  # a currency, language or country: only the codes its names say (sources.codes)
    fits = fitting(part)
    tokens = list(dict.fromkeys([*(token for text in values.texts for token in written_tokens(text)),
                                 *values.strings]))
    if "pattern" not in part:  # a format: a word, whole
        tokens = [token for token in tokens if not any(c.isspace() for c in token)]
    stops = every_function_word()
    found = []
    for token in tokens:
        if token.islower() and token in stops:  # "at", "in", "me" are no codes, whatever a pattern takes
            continue
        if token.isdecimal() and token.isascii() and int(token) in values.in_dates:
            continue  # "2027" of "10 mai 2027" is no house number
        forms = (token, *((token.upper(),) if _DIGIT.search(token) else ()))
        found.append(next((form for form in forms if fits(form)), None))
    grouped, parts = _grouped_codes(values.texts, fits, stops, values.in_dates) if "pattern" in part else ([], set())
    return list(dict.fromkeys(form for form in [*grouped, *found]
                              if form and form not in parts and form.lower() not in parts))


_GROUP = re.compile(r"\+?[A-Za-z0-9]+")
_SEPARATORS = frozenset(" .-/")
_MOST_GROUPS = 6


def _grouped_codes(texts: tuple[str, ...], fits: Any, stops: frozenset[str],
                   dated: tuple[int | float, ...] = ()) -> tuple[list[str], set[str]]:
    """The codes written in groups, each after one space, dot, hyphen or slash, that the pattern
    takes once the groups are written together, with a hyphen, or as written, in capitals too
    ("+44 7700 900 123" as ``+447700900123``, "ST 0087" as ``ST-0087``, "RX-0092817" as
    ``RX0092817``, "1017 ab" as ``1017AB``; "0044" leads like "+"), the longest run of groups
    first, but for numbers that are each a code alone ("orders 48213 48214"); and the groups of
    each, which are no codes alone. A group holds a digit or is three letters at most, and is
    no function word; one group of a code at least holds a digit, and a time of day is none
    ("8 uur"), nor a run with a number written only in dates (``dated``: "Mai 2027")."""
    found: list[str] = []
    parts: set[str] = set()
    for text in texts:
        for run in _runs(text, stops):
            used: set[int] = set()  # the groups of a longer code found: no shorter one is read in them
            for size in range(min(len(run), _MOST_GROUPS), 1, -1):
                for start in range(len(run) - size + 1):
                    groups = run[start:start + size]
                    if used.intersection(range(start, start + size)) or all(
                            group.isdigit() and fits(group) for group in groups):
                        continue  # "orders 48213 48214": numbers that are each a code alone, not one together
                    if not any(_DIGIT.search(group) for group in groups) or written_times(" ".join(groups)) \
                            or any(group.isdecimal() and int(group) in dated for group in groups):
                        continue  # "The one", "EDB MAN": words, or codes each alone; "8 uur": a time; "Mai 2027"
                    form = next((form for form in _group_forms(groups) if fits(form)), None)
                    if form is not None:
                        found.append(form)
                        parts.update(group.lstrip("+") for group in groups)
                        used.update(range(start, start + size))
    return found, parts


def _runs(text: str, stops: frozenset[str]) -> list[list[str]]:
    """The runs of two groups or more (:func:`_grouped_codes`) that ``text`` writes."""
    runs: list[list[str]] = []
    run: list[str] = []
    end = -2
    for match in _GROUP.finditer(text):
        group = match.group()
        fit = bool(_DIGIT.search(group)) or len(group.lstrip("+")) <= 3 and not (group.islower() and group in stops)
        joined = fit and bool(run) and match.start() == end + 1 and text[end] in _SEPARATORS
        if joined and group.isdigit() and run[-1].isdigit() and text[end] != " ":
            joined = False  # "2027-07-18", "22/11", "19.30": a date or a time, no code
            run = []
        if joined and len(run) == 1 and run[0].isalpha() and run[0].islower() and group[:1].isupper():
            run = []  # "reg AB12 CDE": a word before a code in capitals is no part of it
        if not joined and len(run) > 1:
            runs.append(run)
        run = ([*run, group] if joined else [group]) if fit else []
        end = match.end()
    return [*runs, run] if len(run) > 1 else runs


def _group_forms(groups: list[str]) -> list[str]:
    """A run of groups written together, with hyphens, with spaces, each in capitals too, and
    with "+" for a leading "00"."""
    forms = ["".join(groups), "-".join(groups), " ".join(groups)]
    forms += ["+" + form[2:] for form in forms if form.startswith("00")]
    return [*forms, *(form.upper() for form in forms)]


SOURCE = Source(
    "patterns", "typed",
    "words and runs of letters and digits written as they are, for a string whose pattern takes them",
    Example("Any trains to EDB from MAN?", "to_station", {"type": "string", "pattern": "^[A-Z]{3}$"}, ("EDB", "MAN")),
    patterns_written)
