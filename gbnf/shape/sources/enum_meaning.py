"""An enum of strings narrowed to the values the conversation names by meaning, in any of the
sentence encoder's sixteen languages ("Badezimmer", "salle de bain", "浴室": ``bathroom``), where
no value is named by its words."""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import Any

import numpy as np

from gbnf._text import identifier_words, without_elision
from gbnf.shape._english import STOPS
from gbnf.shape._meaning import phrase_vectors
from gbnf.shape._values import Values, listed_strings, punctuated_clauses
from gbnf.shape.sources._source import Example, Source
from gbnf.tools import Tool

NAMED = 0.55
"""How close (cosine) a phrase of the conversation and an enum value must be for the phrase to
name the value. Chosen on the cases of ``tests/test_sources.py`` (rooms, priorities, colours,
travel modes, genres, shipping speeds in six languages), written for it: a word and its
translation are 0.7 to 1.0 apart, a request that names no value 0.2 to 0.3 from the closest."""
MARGIN = 0.15
"""Values this much less close than the closest are kept beside it: the phrase may name either
("by bus": transit, 0.58, and driving, 0.55)."""
CLEAR = 0.45
"""Below :data:`NAMED`, how close the closest value must still be to be named where it stands
well apart from the rest (:data:`APART`): "피부과" is 0.50 from ``dermatology`` and at most 0.25
from the other specialties."""
APART = 0.2
"""How much closer than every other value the closest must be to be named below :data:`NAMED`."""
KIND = 0.8
"""How close (cosine) a value must be to a word of what its enum's values are kinds of to be a
kind of it itself ("cheesecake" and "cake": 0.86; "lemon" and "cake": 0.36)."""
KIND_OF_ALL = 3
"""How many values a stretch must be about as close to (within :data:`ALIKE`) for it to name
their kind, not one of them (:func:`enum_values_meant`)."""
ALIKE = 0.06
"""Values this close to the closest are about as close. Chosen on the cases of
``tests/test_sources.py``: "public transport" is 0.55 to 0.65 from four or three means of
transport; "on foot", "mit dem Fahrrad" and "寝室" have one other value within 0.06 or none."""
MOST_VALUES = 64
"""The most values an enum may list for its values to be read by meaning (each is encoded once)."""
MOST_WORDS = 2
AHEAD = 0.05
"""How much closer than the next value the closest must be for an enum to be listed closest first.
Of the development chats' enums that the request leaves several values of, the closest was the
value meant for 27 of 35 where it stood 0.05 apart from the next, and for 6 of 15 where it did
not: about as often as SmolLM2-135M wrote the value meant itself (23 of 50)."""


def enum_values_meant(_name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The values of an enum of strings that a short stretch (one or two words, without an elided
    article: "l'après-midi" reads as "après-midi") is closest to by meaning, at least
    :data:`NAMED` (or :data:`CLEAR`, where it is :data:`APART` closer than any other value), with
    those within :data:`MARGIN` of it, closest first; none where no stretch is that close, nor
    where :data:`KIND_OF_ALL` or more values are within :data:`ALIKE` of the closest: such a stretch
    names what they all are ("public transport": bus, ferry, train, tram), none of them."""
    if not listed_strings(part) or len(part["enum"]) > MOST_VALUES:
        return []
    ranked = _closeness(tuple(part["enum"]), values, _kind_words(_name, part))
    if not ranked:
        return []
    best = ranked[0][1]
    second = ranked[1][1] if len(ranked) > 1 else best
    if best < NAMED and not (best >= CLEAR and best - second >= APART):
        return []
    if sum(near >= best - ALIKE for _, near in ranked) >= KIND_OF_ALL:
        return []
    return [value for value, near in ranked if near >= best - MARGIN]


def values_meant_first(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The values of ``part`` (an enum of strings, argument ``name``'s) closest first by meaning to
    the conversation's short stretches, as :func:`enum_values_meant` reads them, where the closest
    is :data:`AHEAD` closer than the next (else, and where this source is switched off, in their own
    order). Where no stretch is that much closer to one value, nor :data:`NAMED` close to any, the
    values closest first to a clause of the last message (:func:`_by_clauses`), where the closest
    is as far ahead. A small model
    writes the first value its prompt lists far more often than the one the request means ("cita
    con el dentista": ``medical_appointment`` before ``illness``)."""
    listed = list(part["enum"])
    if len(listed) < 2 or len(listed) > MOST_VALUES or SOURCE.name in values.off:
        return listed
    ranked = _closeness(tuple(listed), values, _kind_words(name, part))
    if not ranked or ranked[0][1] < NAMED and ranked[0][1] - ranked[1][1] < AHEAD:
        ranked = _by_clauses(name, tuple(listed), values)
    if len(ranked) < 2 or ranked[0][1] - ranked[1][1] < AHEAD:
        return listed
    return [value for value, _ in ranked]


@functools.lru_cache(maxsize=256)
def _by_clauses(name: str | None, listed: tuple[str, ...], values: Values) -> tuple[tuple[str, float], ...]:
    """Each of ``listed`` (argument ``name``'s values) with its closeness, written with the
    argument's name ("reason: item not received"), to the closest clause of the last message or
    to the whole of it, closest first: a clause means a value that no word names ("il pacco non
    è mai arrivato"); none where the conversation has no text."""
    last = values.texts[0] if values.texts else ""
    if not last.strip():
        return ()
    kind = identifier_words(name or "").lower()
    vectors = phrase_vectors([f"{kind}: {identifier_words(value).lower()}" for value in listed])
    closeness = vectors @ phrase_vectors([*(clause for clause in punctuated_clauses(last) if len(clause) > 3), last]).T
    return tuple(sorted(zip(listed, map(float, closeness.max(axis=1))), key=lambda pair: -pair[1]))


def meant_by_both(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The one value of ``part`` (an enum of strings, argument ``name``'s) that both the
    conversation's short stretches (:func:`_closeness`) and the last message's clauses
    (:func:`_by_clauses`) put :data:`AHEAD` of every other, where they agree; none otherwise (and
    where this source is switched off). Of the development chats' enums where they agreed so and
    the request left several values, it was the value meant for 14 of 14, SmolLM2-135M wrote it
    for 12."""
    listed = tuple(part["enum"]) if listed_strings(part) else ()
    if len(listed) < 2 or len(listed) > MOST_VALUES or SOURCE.name in values.off:
        return []
    tops = [ranked[0][0] for ranked in (_closeness(listed, values, _kind_words(name, part)),
                                        _by_clauses(name, listed, values))
            if len(ranked) > 1 and ranked[0][1] - ranked[1][1] >= AHEAD]
    return tops[:1] if len(tops) == 2 and tops[0] == tops[1] else []


def enums_meant_first(tool: Tool, values: Values) -> Tool:
    """``tool`` with each top-level enum of strings listing first the values the conversation
    (``values``) means (:func:`values_meant_first`), as a prompt shows it: all of them kept, and an
    array's items in their own order."""
    properties = tool.parameters.get("properties")
    if not isinstance(properties, dict):
        return tool
    ordered = {key: {**part, "enum": values_meant_first(key, part, values)} if listed_strings(part) else part
               for key, part in properties.items()}
    return replace(tool, parameters={**tool.parameters, "properties": ordered})


def _kind_words(name: str | None, part: dict[str, Any]) -> tuple[str, ...]:
    """The words of an enum's ``name`` and description that are no word of its values: what its
    values are kinds of ("Flavour of the cake.": flavour, cake)."""
    own = {word for value in part["enum"] for word in identifier_words(str(value)).lower().split()}
    text = f"{identifier_words(name or '')} {part.get('description', '')}".lower()
    return tuple(dict.fromkeys(word for word in _KIND_WORD.findall(text) if word not in STOPS and word not in own))


_KIND_WORD = re.compile(r"[^\W\d_]{3,}")


@functools.lru_cache(maxsize=256)
def _closeness(listed: tuple[str, ...], values: Values, kinds: tuple[str, ...] = ()) -> tuple[tuple[str, float], ...]:
    """Each of ``listed`` with its closeness to the closest short stretch of ``values``, closest
    first (a stable sort); none where the conversation has no short stretch. A value that is
    itself a kind of one of ``kinds`` (what the values are kinds of: "cheesecake", a cake; :data:`KIND`)
    is not named by a stretch at least as close to that kind as to it ("un gâteau au citron",
    "草莓蛋糕": the cake, not ``cheesecake``; "Käsekuchen" still names it). Kept for the request:
    an enum is read so by its source, the prompt's order and :func:`meant_by_both`."""
    short = (s for s in values.strings if len(s.split()) <= MOST_WORDS and len(s) <= 24)
    phrases = list(dict.fromkeys(map(without_elision, short)))
    if not phrases:
        return ()
    near = phrase_vectors(phrases)
    vectors = phrase_vectors([identifier_words(v).lower() for v in listed])
    closeness = vectors @ near.T
    if kinds:  # a value that is a kind of what the enum's values are ("cheesecake", a cake)
        kind_vectors = phrase_vectors(list(kinds))
        to_kind = vectors @ kind_vectors.T
        nearest = to_kind.argmax(axis=1)
        by_kind = (kind_vectors @ near.T)[nearest]  # each stretch's closeness to each value's kind
        named_kind = (to_kind.max(axis=1) >= KIND)[:, None] & (by_kind >= closeness)
        closeness = np.where(named_kind, 0.0, closeness)
    return tuple(sorted(zip(listed, map(float, closeness.max(axis=1))), key=lambda pair: -pair[1]))


SOURCE = Source(
    "enum-meaning", "enum", "short stretches that mean one of an enum's values, in sixteen languages",
    Example("Mach die Heizung im Badezimmer an", "room",
            {"type": "string", "enum": ["kitchen", "bedroom", "bathroom", "office"]}, ("bathroom",)),
    enum_values_meant)
