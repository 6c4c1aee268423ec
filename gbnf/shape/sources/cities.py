"""Cities the conversation names, for a string that takes a city: "a twin room in Edinburgh" offers
``Edinburgh``, "东京的酒店" offers 东京, not the stretches around them (GeoNames' cities of 100,000
people or more, in any language it lists, :func:`~gbnf.shape._places.city_country`)."""

from __future__ import annotations

import re
from typing import Any

from gbnf._text import identifier_words
from gbnf.shape._codes import is_region
from gbnf.shape._places import city_country
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source

_CITY_WORDS = frozenset({"city", "cities", "town"})
"""The words of an argument's name, or of its description, by which it takes a city."""


def cities_named(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """Where the argument's name or description says "city" or "town", the stretches that name a
    city, alone or with its region (none written in small letters: "mobile" is no Mobile); none
    where the conversation writes another name after a word that leads a place (:data:`_PLACED`)
    that is no known city nor region ("from Zurich to Zermatt": Zermatt has fewer than 15,000
    people, so the stretches are offered)."""
    said = set(identifier_words(name or "").lower().split()) | set(str(part.get("description", "")).lower().split())
    if not said & _CITY_WORDS:
        return []
    found = [string for string in values.strings if not string[:1].islower() and _a_city(string)]
    placed = {match.group(1) for text in values.texts for match in _PLACED.finditer(text)}
    if any(not _a_city(written) and not is_region(written) for written in placed):
        return []
    return found


_PLACED = re.compile(r"\b(?:in|to|from|at|into|nach|von|vom|ab|à|au|aux|de|a|en|da|di|per|naar|van|bis|para|hacia|"
                     r"desde|vers|até|para)\s+([A-ZÀ-Ý][\w'-]*(?:\s+[A-ZÀ-Ý][\w'-]*)*)")
"""A name written after a word that leads a place, in the languages the stage reads ("to
Zermatt", "nach Zermatt", "à Zermatt")."""


def _a_city(string: str) -> bool:
    """Whether ``string`` names a city, alone or with its region ("Berlin, Germany")."""
    place, _, region = string.rpartition(", ")
    return bool(city_country(string) or place and city_country(place) and is_region(region))


SOURCE = Source(
    "cities", "string", "the cities a conversation names, for a string that takes a city",
    Example("I need a twin room in Edinburgh for three nights", "city", {"type": "string"}, ("Edinburgh",)),
    cities_named)
