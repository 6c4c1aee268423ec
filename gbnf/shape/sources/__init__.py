"""Where an argument's candidate values come from: a table of named sources (:data:`SOURCES`),
each a module that reads one kind of value in a conversation, with its own data, example and
tests. For each part of a tool's schema, the sources of its kind are asked in the table's order
and the first that offers anything gives the candidates; a source switched off
(``Shaping.sources_off``) is passed over. ``python -m gbnf.shape.sources`` writes the reference
page (``docs/sources.md``) from the table."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from gbnf.shape._values import Values, free_string
from gbnf.shape.sources import (
    cities,
    codes,
    dates,
    day_parts,
    defaults,
    durations,
    enum_meaning,
    enum_words,
    files,
    formulas,
    globs,
    labelled,
    moments,
    numbers,
    patterns,
    regions,
    runs,
    shapes,
    stretches,
    times,
    typed_dates,
    typed_moments,
)
from gbnf.shape.sources._source import Example, Kind, Source

SOURCES: tuple[Source, ...] = tuple(module.SOURCE for module in (
    enum_words, day_parts, enum_meaning, codes, times, typed_dates, typed_moments, patterns, globs, files, moments,
    dates, formulas, shapes, labelled, regions, cities, stretches, durations, numbers, defaults, runs))
"""Every candidate source, in the order they are asked."""
NAMES = frozenset(source.name for source in SOURCES)
"""The sources' names."""
_SHAPED = ("moments", "dates", "formulas", "shapes")


def candidates(kind: Kind, name: str | None, part: dict[str, Any], values: Values) -> tuple[str, list[Any]]:
    """The first source of ``kind`` not switched off that offers ``part`` (property ``name``'s
    value) anything, and what it offers; ``("", [])`` when none does."""
    for source in SOURCES:
        if source.kind == kind and source.name not in values.off:
            found = list(source.offers(name, part, values))
            if found:
                return source.name, found
    return "", []


def shaped_values(name: str | None, part: Any, strings: Sequence[str]) -> list[str]:
    """The ``strings`` of the shape a free string property asks for (the first of the moments,
    dates, formulas and shapes sources that offers any); none when it asks for no shape or none
    is written."""
    if not free_string(part):
        return []
    values = Values(tuple(strings))
    return next((found for source in SOURCES if source.name in _SHAPED
                 if (found := list(source.offers(name, part, values)))), [])


def reference() -> str:
    """The reference page of the candidate sources, as Markdown: each source's name, what it
    reads, one example, and how to switch it off."""
    lines = ["# Candidate sources", "",
             "Under the `small` profile, each argument of a tool is held to the values the conversation",
             "offers it, where any fits its schema. The sources below are asked in this order, for the",
             "parts of a schema of their kind; the first that offers anything gives the candidates, and a",
             "part none offers anything stays as the schema allows. Under `capable` the same values are",
             "listed in a reply's decisions (`explain`), never imposed.", "",
             "Switch a source off with `--shaping sources_off=NAME[,NAME...]` (`gbnf serve`, `gbnf plan`)",
             "or `Shaping(sources_off=frozenset({...}))`; the next source of its kind is asked instead.",
             "This page is written from the table in `gbnf/shape/sources/` (`python -m gbnf.shape.sources`).", ""]
    for source in SOURCES:
        example = source.example
        lines += [f"## `{source.name}`", "", f"Reads {source.reads}; for {_KINDS[source.kind]}.", "",
                  f"- request: \"{example.request}\"",
                  f"- argument `{example.name}`: `{json.dumps(example.schema, ensure_ascii=False)}`",
                  f"- offered: `{json.dumps(list(example.offered), ensure_ascii=False)}`",
                  f"- off: `--shaping sources_off={source.name}`", ""]
    return "\n".join(lines)


_KINDS: dict[str, str] = {"enum": "an enum of strings, which it narrows",
                          "typed": "a string that takes a code or a typed form", "string": "a free string",
                          "number": "an integer or a number", "array": "an array of numbers"}

__all__ = ["NAMES", "SOURCES", "Example", "Kind", "Source", "candidates", "reference", "shaped_values"]
