"""Places written with their region ("Bangkok, Thailand"), whole, for a string whose
description gives a place with its region for an example ("e.g. San Francisco, CA")."""

from __future__ import annotations

import re
from typing import Any

from gbnf.shape._codes import is_region
from gbnf.shape._places import with_state
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source

_PLACE_EXAMPLE = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*, (?:[A-Z]{2}\b|[A-Z][a-z]+)")
"""A place with its region, as a description gives one for an example ("e.g. San Francisco, CA")."""
_STATE_FORM = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*, [A-Z]{2}\b|\bCity, State\b")
"""A description asking for a U.S. city with its state: an example with a state's code, or the format's name."""


def places_with_regions(_name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """Where the description gives a place with its region for an example, the stretches less
    each name written with its region after it and a comma (:func:`~gbnf.shape._codes.is_region`:
    "Bangkok, Thailand"), and less that region alone: the argument asks for both, and a small
    model otherwise copies the name alone. Where the example's region is a U.S. state's code or
    the description asks for "City, State", a U.S. city written alone is offered with its
    state's code (:func:`~gbnf.shape._places.with_state`: "in Berkeley": ``Berkeley, CA``)."""
    description = str(part.get("description", ""))
    if not _PLACE_EXAMPLE.search(description):
        return []
    written = set(values.strings)
    parts = {part for string in written if ", " in string
             for place, region in [string.rsplit(", ", 1)] if is_region(region) and place in written
             for part in (place, region)}
    kept = [string for string in values.strings if string not in parts]
    if not _STATE_FORM.search(description):
        return kept
    return list(dict.fromkeys(with_state(string) or string for string in kept))


SOURCE = Source(
    "regions", "string", "places with their region, for a string whose example writes one",
    Example("Hotels in Bangkok, Thailand", "location",
            {"type": "string", "description": "The city and country, e.g. Paris, France"},
            ("Hotels", "Hotels in Bangkok, Thailand", "Bangkok, Thailand")),
    places_with_regions)
