"""An enum of strings narrowed to the values the conversation names by meaning, in any of the
sentence encoder's sixteen languages ("Badezimmer", "salle de bain", "浴室": ``bathroom``), where
no value is named by its words."""

from __future__ import annotations

from typing import Any

from gbnf._text import identifier_words, without_elision
from gbnf.shape._meaning import phrase_vectors
from gbnf.shape._values import Values, listed_strings
from gbnf.shape.sources._source import Example, Source

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
MOST_VALUES = 64
"""The most values an enum may list for its values to be read by meaning (each is encoded once)."""
MOST_WORDS = 2


def enum_values_meant(_name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """The values of an enum of strings that a short stretch (one or two words, without an elided
    article: "l'après-midi" reads as "après-midi") is closest to by meaning, at least
    :data:`NAMED` (or :data:`CLEAR`, where it is :data:`APART` closer than any other value), with
    those within :data:`MARGIN` of it; none where no stretch is that close."""
    if not listed_strings(part) or len(part["enum"]) > MOST_VALUES:
        return []
    short = (s for s in values.strings if len(s.split()) <= MOST_WORDS and len(s) <= 24)
    phrases = list(dict.fromkeys(map(without_elision, short)))
    if not phrases:
        return []
    listed = list(part["enum"])
    closeness = (phrase_vectors([identifier_words(v).lower() for v in listed]) @ phrase_vectors(phrases).T).max(axis=1)
    ranked = sorted(map(float, closeness), reverse=True)
    best = ranked[0]
    if best < NAMED and not (best >= CLEAR and len(ranked) > 1 and best - ranked[1] >= APART):
        return []
    return [value for value, near in zip(listed, closeness) if near >= best - MARGIN]


SOURCE = Source(
    "enum-meaning", "enum", "short stretches that mean one of an enum's values, in sixteen languages",
    Example("Mach die Heizung im Badezimmer an", "room",
            {"type": "string", "enum": ["kitchen", "bedroom", "bathroom", "office"]}, ("bathroom",)),
    enum_values_meant)
