"""What a request enumerates for one tool's arguments, and so how many calls its values ask for:
names ("Paris, London and Rome"), things in small letters ("gold, silver and platinum"), the
strings an argument lists ("the last six months, the last year"), dates, numbers for its numeric
arguments, and two enumerations that fill different arguments (one call for each pair). Read by
the counting of calls (:mod:`gbnf.shape._calls`), the optional arguments
(:mod:`gbnf.shape._optional`) and each call's items (:mod:`gbnf.shape._items`).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from typing import Any

from gbnf._text import identifier_words, word_key
from gbnf.shape._codes import is_region
from gbnf.shape._dates import date_format, dates_at
from gbnf.shape._english import STOPS, either
from gbnf.shape._request import Request
from gbnf.shape._shaped import listed_values
from gbnf.shape._tool_words import free_string_keys, is_number_array, is_numeric, item_schema, most_alike, schema_type
from gbnf.shape._values import CAPITALISED, INSIDE, Number, free_string, strings_named
from gbnf.tools import Tool

SENTENCE_END = re.compile(r"[.?!;]\s+")
"""Where a sentence ends: its mark (a semicolon too) and the space after it."""


def calls_by_values(tool: Tool, request: Request) -> int:
    """How many calls of ``tool`` the numbers and names of ``request`` ask for: as their
    enumerations ask, or one for each name written right after the name of one of its string
    arguments ("the SNP ID 'rs123456' ... and the SNP ID 'rs7891011'": two,
    :func:`~gbnf.shape.rules.strings_named`)."""
    props = tool.parameters.get("properties") or {}
    named = max(map(len, names_by_argument(props, request)), default=0)
    chosen = max(map(len, choices_written(props, request.text)), default=0)
    return max(_calls_for_numbers(props, request), calls_for_names(props, request.text), named, chosen,
               len(names_again(request.text)), len(dates_listed(props, request.text)),
               math.prod(map(len, crossed_enumerations(props, request))))


def dates_listed(props: dict[str, Any], query: str) -> tuple[str, ...]:
    """The dates ``query`` enumerates, two or more, each one call's ("the weather in Oslo on
    2020-12-25 and 2021-01-01": two), as written, for a tool with one argument of dates (a free
    string named or described as one: :func:`_takes_dates`); none when it writes other dates
    too, or a range ("between March 3 and March 5", "from ... to").
    """
    if sum(_takes_dates(key, sub) for key, sub in props.items()) != 1:
        return ()
    spans = dates_at(query)
    listed = [(start, end, query[start:end]) for start, end in spans]
    if len(listed) < 2 or not _enumerated(query, listed) or _RANGE_LEAD.search(query, 0, spans[0][0]):
        return ()
    return tuple(dict.fromkeys(text for _, _, text in listed))


_RANGE_LEAD = re.compile(rf"\b(?:{either('range_starts')})\s+(?:the\s+)?\Z", re.IGNORECASE)
"""What starts a range right before its first date ("between", "from")."""


def _takes_dates(key: str, schema: Any) -> bool:
    """Whether an argument is a free string of dates: "date" in its name, or a description
    that gives dates' format (:func:`~gbnf.shape._dates.date_format`)."""
    named = "date" in word_key(identifier_words(key)).split()
    return schema_type(schema) == "string" and "enum" not in schema and (
        named or date_format(str(schema.get("description", ""))) is not None)


_TURNED_DOWN = re.compile(r"\bnot\s+\Z", re.IGNORECASE)
"""What comes right before a value a request turns down ("to rent, not buy")."""


def choices_written(props: dict[str, Any], query: str, enumerated: bool = False) -> list[tuple[str, ...]]:
    """For each argument of ``props`` that takes one of the strings it lists (an ``enum``, no
    other argument's; or those its description lists, where ``query`` enumerates them:
    :func:`_enumerated`, as every one must be when ``enumerated``), the words by which ``query``
    writes two or more of them, in turn: one
    call each ("the last six months, the last year and the last five years" of ``six_months``,
    ``year``, ``five_years``). Not a value written only inside a longer one ("Asian" of "Asian
    Fusion") or turned down ("rent, not buy"); values alike but for case ("AA", "Aa") are read
    as written."""
    lists = {key: [v for v in values if isinstance(v, str) and v.strip() and not v.isdigit()]
             for key, sub in props.items() if (values := _listed_choices(sub))}
    shared = Counter(v for values in lists.values() for v in set(values))
    found = []
    for key, values in lists.items():
        folded = Counter(v.lower() for v in values)
        spans = [(m.start(), m.end(), value) for value in values if shared[value] == 1
                 for m in re.finditer(_choice_pattern(value), query, 0 if folded[value.lower()] > 1 else re.IGNORECASE)
                 if not _TURNED_DOWN.search(query, 0, m.start())]
        kept = sorted(span for span in spans if not any(
            start <= span[0] and span[1] <= end and end - start > span[1] - span[0] for start, end, _ in spans))
        firsts: dict[str, str] = {}
        for start, end, value in kept:
            firsts.setdefault(value, query[start:end])
        if len(firsts) >= 2 and (("enum" in props[key] and not enumerated) or _enumerated(query, kept)):
            found.append(tuple(firsts.values()))
    return found


_ENUMERATION_GAP = re.compile(rf"\s*,?\s*(?:({either('list_joins')})\s+)?(?:(?:{either('articles')})\s+)?",
                              re.IGNORECASE)
"""What an enumeration writes between two values: a comma, "and" or "or", perhaps "a" or "the"."""


def _enumerated(query: str, spans: list[tuple[int, int, str]]) -> bool:
    """Whether the values at ``spans`` (in turn) are one enumeration of ``query``: only a comma,
    "and" or "or" between each and the next, "and" or "or" once at least ("copper and
    aluminum"; not "Boston, MA", one value a description lists as two, nor "with acrylic ... to
    oil")."""
    gaps = [_ENUMERATION_GAP.fullmatch(query, left[1], right[0]) for left, right in zip(spans, spans[1:])]
    return all(gaps) and any(gap is not None and gap.group(1) for gap in gaps)


def _listed_choices(schema: Any) -> list[Any]:
    """The values an argument takes one of: its ``enum``, or those a free string's description
    lists (quoted, or after "e.g.", "such as"...: "The type of statistic. E.g.,
    'highest_scoring_game', 'total_championships'")."""
    if not isinstance(schema, dict):
        return []
    if isinstance(schema.get("enum"), list):
        return schema["enum"]
    return list(listed_values(schema["description"])) if free_string(schema) and isinstance(
        schema.get("description"), str) else []


def _choice_pattern(value: str) -> str:
    """A listed value as a request may write it: a whole word or words, any of space, "_" or
    "-" between them (``six_months``: "six months")."""
    return r"(?<!\w)" + r"[\s_-]+".join(map(re.escape, re.split(r"[\s_-]+", value.strip()))) + r"(?!\w)"


def crossed_enumerations(props: dict[str, Any], request: Request) -> tuple[tuple[str | Number, ...], ...]:
    """Two enumerations that fill different arguments, each one call's value, as ``request``
    writes them ("the Lakers and the Bulls in 2018 and 2020": the two teams, the two years;
    "from Boston and Denver to Miami and Austin" beside two free string arguments; a list of more
    numbers than one call takes; dates, :func:`dates_listed`): one call for each pair. Empty
    where there are no two, or the request pairs them itself ("respectively")."""
    if _PAIRED.search(request.text):
        return ()
    lists = sorted({tuple(names) for names in names_called(props, request.text)}, key=len, reverse=True)
    found: list[tuple[str | Number, ...]] = list(lists[:1])
    if len(free_string_keys(props)) >= 2:
        found += [names for names in lists[1:2] if not set(names) & set(lists[0])]
    scalars = sum(map(is_numeric, props.values()))
    if scalars:
        found += [numbers for numbers in request.number_lists[:1] if len(numbers) > max(1, scalars)]
    found += [dates] if (dates := dates_listed(props, request.text)) else []
    return tuple(found[:2]) if len(found) >= 2 else ()


_PAIRED = re.compile(r"\b(?:respectively|each)\b", re.IGNORECASE)


def names_by_argument(props: dict[str, Any], request: Request) -> list[list[str]]:
    """For each free string property of ``props``, the names ``request`` writes right after its
    name (:func:`~gbnf.shape.rules.strings_named`)."""
    return [strings_named(request.names, key) for key in free_string_keys(props)]


def _calls_for_numbers(props: dict[str, Any], request: Request) -> int:
    """How many calls of a tool with properties ``props`` the numbers of ``request`` ask for."""
    scalars = [key for key, sub in props.items() if is_numeric(sub)]
    arrays = [key for key, sub in props.items() if is_number_array(sub)]
    count = len(request.numbers_alone)
    lists = [found for found in request.number_lists if len(found) > 1]
    if arrays and lists:
        rest = count - sum(map(len, lists))
        return max(len(lists) // len(arrays), rest // len(scalars) if scalars else 1)
    if not scalars:
        return 1
    longest = max(map(len, lists), default=0)
    one_each = count - longest < len(scalars) and not (longest == count and len(scalars) > 1)
    if longest > most_alike(scalars) and one_each:
        return longest
    return count // len(scalars)


_NAME = rf"(?:'[^']+'|\"[^\"]+\"|{CAPITALISED})"
NAMED = re.compile(rf"{INSIDE}{_NAME}")
"""A name written inside a part, not as its first word ("Show me ... from San Francisco": San Francisco)."""
_JOIN = either("list_joins")
_NAMES = re.compile(rf"{_NAME}(?:\s*,\s*{_NAME})*,?\s+(?:{_JOIN})\s+(?:the\s+)?{_NAME}")
"""An enumeration of names: capitalised (not "I") or quoted, ``A, B and C``, ``A or the B``."""
_EACH = re.compile(r"[\s,]*each\b", re.IGNORECASE)
"""What follows an enumeration whose names each ask for a call of their own ("..., each with 5 articles")."""
BETWEEN = re.compile(r"\bbetween\b[^.?!]{0,30}$", re.IGNORECASE)
"""What comes before a pair of names that one call takes ("between two cities, New York and Boston")."""
_NAMES_GAP_KEPT = re.compile(rf"(\s*,\s*(?:(?:{_JOIN})\s+)?(?:the\s+)?|\s+(?:{_JOIN})\s+(?:the\s+)?)")
"""Between two names of an enumeration (kept by ``split``: a comma alone may come before a region)."""


def named_places(listed: str) -> list[str]:
    """The names of an enumeration, each with the region written after it and a comma
    (:func:`~gbnf.shape._codes.is_region`): "Paris, France and Austin, TX" is two places."""
    parts = _NAMES_GAP_KEPT.split(listed)
    names: list[str] = []
    for gap, part in zip(["", *parts[1::2]], parts[::2]):
        name = part.strip("'\" .,")
        if not name:
            continue
        if names and gap.strip() == "," and is_region(name):
            names[-1] += f", {name}"
        else:
            names.append(name)
    return names


def calls_for_names(props: dict[str, Any], query: str) -> int:
    """How many calls of a tool with properties ``props`` the names ``query`` enumerates ask
    for (:func:`names_called`): one each."""
    return max(map(len, names_called(props, query)), default=1)


def names_called(props: dict[str, Any], query: str) -> list[list[str]]:
    """The enumerations of names in ``query`` that ask for one call of a tool with properties
    ``props`` each, each as its names: those with more names than the tool's free string
    arguments named alike (``team1``, ``team2``), or, quoted, more than all its free string
    arguments, or any followed by "each" ("'Space' and 'Health', each for 'Canada'"); none
    after "between" (but two pairs or more after it are one call each: "between New York and
    Boston, and between Lyon and Nice"), none that names a value an argument lists
    (those are its values), and none when it takes an array of free strings, which holds them.
    Names listed before one noun (:func:`_names_of_a_kind`) are an enumeration too."""
    strings = free_string_keys(props)
    if not strings or any(schema_type(sub) == "array" and free_string(item_schema(sub)) for sub in props.values()):
        return []
    alike = most_alike(strings)
    listed = {word_key(str(value)) for sub in props.values() for part in (sub, item_schema(sub))
              if isinstance(part, dict) and isinstance(part.get("enum"), list) for value in part["enum"]}
    found = []
    for match in _NAMES.finditer(query):
        if not BETWEEN.search(query[:match.start()]):
            names = named_places(match.group())
            if any(word_key(name) in listed for name in names):
                continue  # values one argument lists ("Personal Info and Job History"), not calls
            quoted = match.group()[0] in "'\""  # not "Madrid's"
            most = 1 if _EACH.match(query, match.end()) else len(strings) if quoted else alike
            if len(names) > most:
                found.append(names)
    pairs = [match.group(1) for match in _PAIR.finditer(query)]
    found += [pairs] if len(pairs) >= 2 else []
    found += [list(things) for things in _things_listed(query)
              if not any(word_key(thing) in listed for thing in things)]
    return found + [names for names in _names_of_a_kind(query) if len(names) > alike]


_THING = rf"(?:(?:{either('articles')})\s+)?[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?"
_THINGS = re.compile(rf"\b(?:{either('thing_leads')})\s+({_THING}(?:\s*,\s*{_THING})+),?\s+(?:{_JOIN})\s+"
                     rf"({_THING})(?![\w'-])")
"""An enumeration of three things or more in small letters after a preposition, a comma between
each and the next, "and" or "or" before the last ("of gold, silver, platinum, and palladium")."""
_ARTICLE = re.compile(rf"^(?:{either('articles')})\s+")


@functools.lru_cache(maxsize=64)
def _things_listed(query: str) -> tuple[tuple[str, ...], ...]:
    """The enumerations of three things or more that ``query`` writes in small letters after a
    preposition, each as its things ("the price per ounce of gold, silver, platinum, and
    palladium": gold, silver, platinum, palladium; "produced by a gasoline vehicle, a diesel
    vehicle, and an electric vehicle"), one call each like names. Not one that lists what a
    reply should hold ("including the player's name, points scored, and game date"), nor one
    whose things write a stop word (clauses: "for 2 people, is vegan, and takes under 30 minutes").
    Read once per request, not once per tool and count."""
    found = []
    for match in _THINGS.finditer(query):
        things = tuple(_ARTICLE.sub("", part.strip()) for part in [*match.group(1).split(","), match.group(2)])
        if all(thing and not set(thing.split()) & STOPS for thing in things):
            found.append(things)
    return tuple(found)


_AGAIN_FOR = re.compile(rf"\b(?:(and)\s+(?:also\s+)?)?({either('again_for')})\s+(?:the\s+)?({_NAME})")
"""A name after a preposition, perhaps after "and" ("for 'Queens Hotel'", "and for 'Royal Hotel'")."""


@functools.lru_cache(maxsize=64)
def names_again(query: str) -> tuple[str, ...]:
    """The names a sentence of ``query`` writes after one preposition, then after "and" and that
    preposition again, each one call's ("the availability for 'Queens Hotel' in Berlin from March
    10 to 20 and for 'Royal Hotel' in Paris": two); empty when none is written again."""
    for sentence in SENTENCE_END.split(query):
        found = list(_AGAIN_FOR.finditer(sentence))
        for k, match in enumerate(found):
            firsts = [first for first in found[:k] if not first.group(1) and first.group(2) == match.group(2)]
            if match.group(1) and firsts:
                again = [later for later in found[k:] if later.group(1) and later.group(2) == match.group(2)]
                return tuple(name.group(3).strip("'\"") for name in [firsts[-1], *again])
    return ()


_PAIR = re.compile(rf"\bbetween\s+(?:the\s+)?({_NAME}\s+and\s+(?:the\s+)?{_NAME})")
"""A pair of names after "between", one call's ("between New York and Boston, and between Lyon and Nice": two)."""
_KIND = re.compile(rf"({NAMED.pattern})\s+([a-z]{{3,}})\b")
"""A name written inside a sentence and the word after it ("a Chicken Soup recipe")."""
_LIST_JOIN = re.compile(rf",|\b(?:{_JOIN})\b")
"""What joins the items of a list: a comma, "and", "or"."""


def _names_of_a_kind(query: str) -> list[list[str]]:
    """The names each sentence of ``query`` writes before one noun, a comma, "and" or "or"
    between each and the next ("a Chicken Soup recipe and a Vegan Salad recipe", "the most
    played Pop song and also the most played Rock song"): things of one kind, one call each.
    Not names a stop word follows ("Ronald Young and Herbert Ross and"), nor those with no
    list between them ("from New York time zone to London time zone")."""
    found = []
    for sentence in SENTENCE_END.split(query):
        kinds: dict[str, list[re.Match[str]]] = {}
        for match in _KIND.finditer(sentence):
            if match.group(2) not in STOPS:
                kinds.setdefault(match.group(2), []).append(match)
        for matches in kinds.values():
            listed = [matches[0]] + [after for before, after in zip(matches, matches[1:])
                                     if _LIST_JOIN.search(sentence[before.end():after.start()])]
            found.append(list(dict.fromkeys(match.group(1) for match in listed)))
    return found
