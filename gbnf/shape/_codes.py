"""Codes a request names in words: ISO 4217 currencies ("50 euros": ``EUR``), ISO 639
languages and ISO 3166 countries ("into German": ``de``), and IANA time zones ("in Tokyo":
``Asia/Tokyo``). A small model seldom knows the code for what a user writes; the names come
from the Unicode CLDR's English data (through Babel) and the system's time zone database; the
words for a country's people in English ("Canadian") from countryinfo's data, and in other
languages the names of their language ("passeport français")."""

from __future__ import annotations

import functools
import re
import unicodedata
import zoneinfo
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from gbnf._text import identifier_words, name_words, without_elision
from gbnf.shape._english import either, words
from gbnf.shape._places import city_country, city_zone

NAME_LOCALES = ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "tr", "zh", "ja", "ko")
"""The languages whose names of currencies, languages and countries a request may write (the
CLDR's, through Babel), English first."""
CODE_WORDS = either("code_words")
"""The words by which a description asks for a code."""
_CODED = re.compile(rf"\b(?:{CODE_WORDS})\b", re.IGNORECASE)
_CURRENCY = re.compile(r"(?<![a-z])currenc(?:y|ies)(?![a-z])")
_ZONE_PREFIXES = tuple(f"{area}/" for area in (
    "Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"))
_SYMBOL = re.compile(r"^([^\w\s]+)\d")


def code_kind(name: str | None, schema: dict[str, Any]) -> str | None:
    """The kind of code a string property takes: ``"currency"`` (its name or description says
    currency, or its description asks for a code and gives a currency code as its example),
    ``"timezone"`` (its name says time zone, or it is no date or time and its description's
    example is a zone, ``Europe/Rome``), ``"language"`` or ``"country"`` (its name says so and
    its description asks for a code: a language *name* is written as the request writes it);
    None for any other. Read once for each name and description."""
    return _property_code(name or "", str(schema.get("description", "")))


@functools.lru_cache(maxsize=4096)
def _property_code(name: str, description: str) -> str | None:
    """:func:`code_kind` of a property's name and description."""
    named = name_words(name)
    coded = bool(_CODED.search(description))
    examples = set(re.findall(r"\b[A-Z]{3}\b", description)) if coded else set()
    if named & {"currency", "currencies"} or _CURRENCY.search(identifier_words(description).lower()) \
            or examples & _currencies()[0].keys():
        return "currency"
    zones = {example.lower() for example in re.findall(r"[A-Za-z_]+(?:/[A-Za-z_]+)+", description)}
    if named & {"timezone", "tz"} or {"time", "zone"} <= named or (
            zones & _zones().keys() and not named & {"date", "time", "datetime", "timestamp", "when"}):
        return "timezone"
    if not coded:
        return None
    said = set(re.findall(r"[a-z]+", description.lower()))
    return "language" if (named | said) & {"language", "lang"} else "country" if "country" in named else None


def named_codes(kind: str, strings: Sequence[str], name: str | None = None) -> list[str]:
    """The codes of ``kind`` (see :func:`code_kind`) whose names are among ``strings`` (a
    request's stretches of words), in the order written. A currency is named by its English
    name (``British pounds``), its code (``GBP``), its symbol before a number (``£20``), or the
    last word of its name alone (``pounds``: the currency of that name used in the most
    countries, ``GBP``); a time zone by its city (``New York``, in any language the CLDR names it:
    "伦敦") or its country (``Japan``), else by a city it names that no zone is named for ("北京":
    ``Asia/Shanghai``); a country by its name or, where the request names no city, by a word for its people ("a
    Canadian passport", "passeport français": :func:`_people_word`; "Chinese restaurants in
    Toronto" is in Canada),
    else by a city it names (:func:`~gbnf.shape._places.city_country`).
    When the request says which currencies it converts from ("50 euros in US dollars", "from
    Euro to Dollar"), a property whose ``name`` says source (``from_currency``, ``base``) takes
    those, and one whose name says target (``to_currency``) those it converts to (or the others)."""
    if kind == "currency":
        named = _currencies_named(tuple(strings))
        sources, targets = _directions(tuple(strings))
        side = name_words(name or "")
        if side & _SOURCE:
            return [code for code in named if code in sources] or named
        if side & _TARGET:
            to = [code for code in named if code in targets] or [code for code in named if code not in sources]
            return to or named
        return named
    table = {"timezone": _zones, "language": _languages, "country": _countries}[kind]()
    if kind == "timezone":  # "北京时间": a city no zone is named for, its own zone
        zones = (table.get(_bare(string)) or ([city_zone(string)] if _place_like(string) else []) for string in strings)
        return list(dict.fromkeys(zone for named in zones for zone in named if zone and zone.lower() in table))
    found = list(dict.fromkeys(code for string in strings for code in table.get(_bare(string), ())))
    if kind != "country":
        return found
    cities = list(dict.fromkeys(code for string in strings if _place_like(string)
                                and (code := city_country(string)) is not None))
    if not cities:  # "a Canadian passport"; not "Chinese restaurants in Toronto"
        found = list(dict.fromkeys([*found, *(code for string in strings if (code := _people_word(_bare(string))))]))
    return found or cities  # "a hotel in Lisbon": the country of a city named


def _place_like(string: str) -> bool:
    """Whether ``string`` may name a place: its words capitalised, or written in a script
    without capitals ("Lisbon", "New York", "東京", "서울")."""
    return all(word[:1].isupper() or not word[:1].isascii() for word in string.split()) \
        and any(c.isalpha() for c in string)


_SUFFIXED = re.compile(r"['’](?:s|[a-zçğıöşü]{1,4})$")
"""An ending written onto a name after an apostrophe: English's possessive ("Canada's"), Turkish
case endings ("Almanya'ya", "Japonya'da")."""


def _bare(string: str) -> str:
    """``string`` lowercased without an elided word before it nor an ending after it."""
    return _SUFFIXED.sub("", without_elision(string.lower()))


_SOURCE = frozenset(words("sources"))
_TARGET = frozenset(words("targets"))
_AMOUNT = re.compile(r"^[^\w\s]*\d[\d,.]*\s+(.+)$|^(.+?)\s+\d[\d,.]*$")
_PAIR = re.compile(rf"^(.+?)\s+(?:{either('pair_joins')})\s+(.+)$", re.IGNORECASE)


@functools.lru_cache(maxsize=64)
def _directions(strings: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """The currencies ``strings`` (a request's stretches) convert from and to: those written
    with an amount (``50 euros``, ``USD 100``, ``£20``) or before "to", "into", "in" or "for"
    and another currency (``Euro to Dollar``) are sources; those after, targets."""
    sources: set[str] = set()
    targets: set[str] = set()
    for string in strings:
        if _AMOUNT.match(string) or _SYMBOL.match(string):
            sources.update(_currencies_named((_amount_name(string),)))
        pair = _PAIR.match(string)
        if pair:
            first, then = (_currencies_named((_amount_name(part),)) for part in pair.groups())
            if first and then:
                sources.update(first)
                targets.update(then)
    return sources, targets


def rate_sides(strings: Sequence[str]) -> tuple[str, str] | None:
    """The two currencies of an exchange rate that a request's stretches (``strings``) write:
    the one priced (written without an amount, or as one unit: "the euro", "ein Schweizer
    Franken") and the one its price is written in ("1.15 US dollars", "17 pesos mexicanos");
    None unless the request names just two currencies, one of them with an amount other than one,
    and writes no way between them ("USD to EUR": :func:`_directions`)."""
    named = _currencies_named(tuple(strings))
    if _directions(tuple(strings))[1]:
        return None
    priced_in = set()
    for string in strings:
        number = _FIGURE.search(string)
        if (_AMOUNT.match(string) or _SYMBOL.match(string)) and number and not _ONE.fullmatch(number.group()):
            priced_in.update(_currencies_named((_amount_name(string),)))
    if len(named) != 2 or len(priced_in & set(named)) != 1:
        return None
    price = next(code for code in named if code in priced_in)
    return next(code for code in named if code != price), price


_FIGURE = re.compile(r"\d[\d,.]*")
_ONE = re.compile(r"1(?:[.,]0{1,2})?")
"""One unit written in digits ("1", "1.00"): the currency priced, not the price."""


def _amount_name(text: str) -> str:
    """What an amount is counted in (``50 euros``: ``euros``), or ``text`` itself."""
    amount = _AMOUNT.match(text)
    return next(filter(None, amount.groups())) if amount else text


@functools.lru_cache(maxsize=64)
def _currencies_named(strings: tuple[str, ...]) -> list[str]:
    """The currencies ``strings`` name (see :func:`named_codes`), in the order written."""
    by_name, by_word, by_symbol = _currencies()
    found = [by_name.get(string.lower()) or by_name.get(string) for string in strings]
    words = {word for string, code in zip(strings, found) if code for word in string.lower().split()}
    found = [code or (None if string.lower() in words else by_word.get(string.lower()))
             for string, code in zip(strings, found)]
    symbols = (by_symbol.get(match.group(1)) for string in strings if (match := _SYMBOL.match(string)))
    return list(dict.fromkeys(code for code in [*found, *symbols] if code))


@functools.cache
def _currencies() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Today's currencies by name (English, singular and plural, lowercased), by code and by a
    symbol with letters that one currency alone has in the languages read ("zł", "R$"); by
    the last word of a name (the one used in the most countries); by symbol (``€``)."""
    from babel import Locale
    from babel.numbers import get_currency_name, get_territory_currencies

    english = Locale("en")
    used: Counter[str] = Counter(code for territory in english.territories
                                 if isinstance(territory, str) and territory.isalpha()
                                 for code in get_territory_currencies(territory))
    by_name: dict[str, str] = {}
    last: dict[str, Counter[str]] = defaultdict(Counter)
    for code, countries in used.items():
        names = {english.currencies.get(code, code), get_currency_name(code, count=2, locale="en")}
        by_name.update({code: code, **{name.lower(): code for name in names}})
        for name in names:
            last[name.split()[-1].lower()][code] = countries
    for locale in map(Locale, NAME_LOCALES[1:]):  # "Schweizer Franken", "franc suisse", "瑞士法郎"
        for code in used:
            for name in {locale.currencies.get(code), get_currency_name(code, count=2, locale=locale)} - {None, code}:
                by_name.setdefault(str(name).lower(), code)
    local: dict[str, set[str]] = defaultdict(set)
    for locale in map(Locale, NAME_LOCALES):  # "120 zł", "R$ 35", "500元"
        for code, symbol in locale.currency_symbols.items():
            if code in used and symbol != code and any(c.isalpha() for c in symbol):
                local[symbol.lower()].add(code)
    for symbol, codes in local.items():
        if len(codes) == 1:
            by_name.setdefault(symbol, codes.pop())
    by_word = {word: counts.most_common(1)[0][0] for word, counts in last.items()}
    by_symbol = {symbol: code for code, symbol in english.currency_symbols.items()
                 if code in used and not any(c.isalnum() for c in symbol)}
    return by_name, by_word, by_symbol


@functools.cache
def _zones() -> dict[str, tuple[str, ...]]:
    """IANA zones (``Area/City``) by their city and by their country's name, in English and the
    other :data:`NAME_LOCALES` (the CLDR's), lowercased."""
    from babel import Locale
    from babel.core import get_global

    zones = sorted(zone for zone in zoneinfo.available_timezones() if zone.startswith(_ZONE_PREFIXES))
    table: dict[str, list[str]] = defaultdict(list)
    for zone in zones:
        table[zone.rsplit("/", 1)[1].replace("_", " ").lower()].append(zone)
        table[zone.lower()].append(zone)
    for locale in map(Locale, NAME_LOCALES[1:]):  # "伦敦", "Wien", "ニューヨーク"
        for zone, names in locale.time_zones.items():
            city = names.get("city")
            if zone in zones and city and zone not in table[city.lower()]:
                table[city.lower()].append(zone)
    for locale in map(Locale, NAME_LOCALES):
        countries = locale.territories
        for country, in_country in get_global("territory_zones").items():
            if country in countries and not table.get(countries[country].lower()):
                table[countries[country].lower()].extend(zone for zone in in_country if zone in zones)
    table["utc"] = table["gmt"] = ["UTC"]
    return {name: tuple(found) for name, found in table.items()}


@functools.cache
def _languages() -> dict[str, tuple[str, ...]]:
    """ISO 639 codes (the shortest for each name) by language name in :data:`NAME_LOCALES`
    (English's first), lowercased: "German", "allemand", "Deutsch", "德语", "ドイツ語"."""
    from babel import Locale

    codes: dict[str, str] = {}
    for locale in NAME_LOCALES:
        for code, name in sorted(Locale(locale).languages.items(), key=lambda item: len(item[0])):
            if code.isalpha():
                codes.setdefault(name.lower(), code)
    return {name: (code,) for name, code in codes.items()}


def is_region(name: str) -> bool:
    """Whether ``name`` says where a place lies when written after it and a comma: a country's
    English name, or a U.S. state's name or code (``data/english.toml``: ``Portland, OR``)."""
    return name in _REGIONS or name.lower() in _countries()


_REGIONS = frozenset(words("regions"))


@functools.cache
def _countries() -> dict[str, tuple[str, ...]]:
    """ISO 3166 alpha-2 codes by country name in :data:`NAME_LOCALES` (English's first), lowercased."""
    from babel import Locale

    codes: dict[str, tuple[str, ...]] = {}
    for locale in NAME_LOCALES:
        for code, name in Locale(locale).territories.items():
            if code.isalpha():
                codes.setdefault(name.lower(), (code,))
    return codes


_INFLECTION = 3
"""The most letters a language's adjective adds to its name ("française", "deutschen")."""


def _people_word(word: str) -> str | None:
    """The country whose people ``word`` names: an English word for them ("Canadian"), or, in
    the other languages of :data:`NAME_LOCALES`, the name of their language as an adjective
    ("passeport français", "passaporte português", "Türk pasaportum": ``FR``, ``PT``, ``TR``),
    with up to :data:`_INFLECTION` letters added; the language's English name is the English
    word for its people's country (French: ``FR``)."""
    if code := _demonyms().get(word):
        return code
    plain, stems = _unaccented(word), _language_stems()
    if len(plain) < 4 or not plain.isalpha():
        return None
    return next((stems[plain[:end]] for end in range(len(plain), len(plain) - _INFLECTION - 1, -1)
                 if end >= 4 and plain[:end] in stems), None)


def _unaccented(word: str) -> str:
    """``word`` lowercased without its accents ("português": ``portugues``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))


@functools.cache
def _language_stems() -> dict[str, str]:
    """Country codes by the stems of the other :data:`NAME_LOCALES`' names of languages whose
    English name is a word for a country's people: each name without its accents and, where it
    ends in a vowel, without that vowel ("italiano": ``italian``), and each of its beginnings
    down to two letters shorter ("türkçe": ``turk``), the longest first."""
    from babel import Locale

    english, people = Locale("en").languages, _demonyms()
    stems: dict[str, str] = {}
    for locale in map(Locale, NAME_LOCALES[1:]):
        for language, name in locale.languages.items():
            code = people.get(english.get(language, "").lower())
            plain = _unaccented(name)
            if code and plain.isalpha():
                stem = plain[:-1] if plain[-1] in "aeiou" else plain
                for end in range(len(stem), max(len(stem) - 2, 4) - 1, -1):
                    stems.setdefault(stem[:end], code)
    return stems


@functools.cache
def _demonyms() -> dict[str, str]:
    """ISO 3166 alpha-2 codes by the English word for a country's people, lowercased ("a Canadian
    passport": ``CA``), from countryinfo's data; a word of several countries ("French", "Indian")
    is the most populous one's."""
    from countryinfo import all_countries

    best: dict[str, tuple[int, str]] = {}
    for country in all_countries():
        code, population = country.iso(2), country.population() or 0
        for demonym in str(country.demonym() or "").split(","):
            word = demonym.strip().lower()
            if word and isinstance(code, str) and population > best.get(word, (-1, ""))[0]:
                best[word] = (population, code)
    return {word: code for word, (_, code) in best.items()}
