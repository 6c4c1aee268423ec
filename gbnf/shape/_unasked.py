"""The optional arguments a request in a language the word rules do not read says nothing about:
an argument that takes a kind of value (an enum, a code, a time, a date, a pattern) is asked for
where the request offers it one (the candidate sources); any other where a short stretch of the
request means what its name says ("mit Notiz", "avec un commentaire": ``notes``), by the
sentence encoder, in sixteen languages; and, in any language, a free string the request writes a
value for after a label that means it ("Grund: Zahnschmerzen", :func:`labelled_arguments`). Small
models otherwise fill every optional argument with a value nobody gave."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from gbnf._text import identifier_words
from gbnf.shape._counts import counts_argument
from gbnf.shape._language import reads_as_other_language
from gbnf.shape._meaning import phrase_vectors
from gbnf.shape._request import Request, terms
from gbnf.shape._shaped import part_offers
from gbnf.shape._tool_words import is_numeric
from gbnf.shape._values import Values, argument_words, free_string
from gbnf.shape.sources import SOURCES, candidates
from gbnf.shape.sources.durations import time_unit
from gbnf.shape.sources.enum_meaning import MOST_WORDS, NAMED
from gbnf.shape.sources.labelled import label_owners
from gbnf.tools import Tool


def unasked_by_meaning(tool: Tool, request: Request) -> tuple[str, ...]:
    """The optional top-level arguments of ``tool`` that ``request`` asks nothing of (see the
    module's text)."""
    props = tool.parameters.get("properties") or {}
    required = set(tool.parameters.get("required") or ())
    optional = {key: sub for key, sub in props.items() if key not in required and isinstance(sub, dict)}
    if not optional:
        return ()
    values = request.values
    phrases = [s for s in values.strings if len(s.split()) <= MOST_WORDS and len(s) <= 24]
    near = phrase_vectors(phrases) if phrases else None
    return tuple(key for key, sub in optional.items()
                 if not _asked_for(key, sub, values, near) and not counted_for(key, sub, request))


def labelled_arguments(tool: Tool, values: Values) -> tuple[str, ...]:
    """The free strings of ``tool`` that the conversation (``values``) writes a value for after a
    label that means them (:func:`~gbnf.shape.sources.labelled.label_owners`): asked for, in any
    language."""
    props = tool.parameters.get("properties") or {}
    owners = label_owners([key for key, sub in props.items() if free_string(sub)], values)
    return tuple(key for key, found in owners.items() if found)


def counted_for(key: str, schema: Any, request: Request) -> bool:
    """Whether number argument ``key`` (taking ``schema``) is what ``request`` writes a number of
    (:func:`~gbnf.shape.rules.counted`: "2 rooms", "20GB流量" for ``data_gb``), or a count of
    anything (``quantity``, ``count``: :func:`_counts_anything`) where the request counts two
    things or more (:func:`_many_things`: "two cartons of oat milk", "三瓶牛奶"): it is asked for."""
    if not is_numeric(schema):
        return False
    anything = _counts_anything(key)
    return any(counts_argument(noun, key) or anything and _many_things(noun, number, request)
               for noun, number in request.counts)


def _counts_anything(key: str) -> bool:
    """Whether argument ``key`` is named a count and nothing else (``quantity``, ``qty``, ``count``;
    not ``max_count``)."""
    named = set(argument_words(key))
    return bool(_ANYTHING & named) and named <= _ANYTHING | {"number", "num", "of", "the"}


_ANYTHING = frozenset({"quantity", "qty", "count"})
_PLURAL = re.compile(r"[^\W\d_]*(?:s|x|en|er|e|i)|[^\x00-\u024f]+")
"""A word that may be a plural in a language of Latin script ("cartons", "Eier", "Flaschen",
"bottiglie"), or one in another script (a counter: "瓶", "개")."""


def _many_things(noun: str, number: Any, request: Request) -> bool:
    """Whether ``number`` of ``noun`` counts two things or more: not a length of time, a day,
    nor a word that is no plural ("iPhone 15 Pro", "a 65 inch TV", "5 star hotels")."""
    return isinstance(number, int) and number >= 2 and bool(_PLURAL.fullmatch(noun)) and not time_unit(noun) \
        and number not in request.values.in_dates


def typed_asked(tool: Tool, request: Request) -> dict[str, bool]:
    """For each optional top-level argument of ``tool`` that takes a kind of value (an enum, a
    code, a time, a date, a pattern), whether ``request`` offers it one: in any language, that,
    not the words of its name, says whether it is asked for ("at half past six": ``start_time``;
    "Book a lesson": no ``tutor_email``); and each number argument a source of its own kind
    offers a value (:func:`_offered_in_kind`: "a 45-minute lesson", ``duration_minutes``), asked."""
    props = tool.parameters.get("properties") or {}
    required = set(tool.parameters.get("required") or ())
    values = request.values
    asked: dict[str, bool] = {}
    for key, sub in props.items():
        if key not in required and isinstance(sub, dict):
            if _offered_in_kind(key, sub, values):
                asked[key] = True
            elif _typed(sub):
                asked[key] = bool(part_offers(key, sub, values))
    return asked


def _asked_for(key: str, schema: dict[str, Any], values: Values, near: Any) -> bool:
    """Whether the request asks for argument ``key``: a value of its kind offered, or its name
    meant by a short stretch."""
    if _offered_in_kind(key, schema, values):
        return True
    if _typed(schema):
        return bool(part_offers(key, schema, values))
    if near is None:
        return False
    named = phrase_vectors([identifier_words(key).lower()])
    return bool(np.max(named @ near.T) >= NAMED)


def _offered_in_kind(key: str, schema: dict[str, Any], values: Values) -> bool:
    """Whether a number or free-string source that offers only values of the argument's own kind
    (``asks``: "a 45-minute lesson" for ``duration_minutes``, "Q3-budget.xlsx" for ``file_name``)
    offers argument ``key`` one. A value after a label is not one: which argument a label means is
    read among all of a tool's (:func:`labelled_arguments`)."""
    kind = "number" if schema.get("type") in ("integer", "number") else "string" if free_string(schema) else None
    return kind is not None and any(source.kind == kind and source.name not in values.off
                                    and source.offers(key, schema, values) for source in _ASKING)


_ASKING = tuple(source for source in SOURCES if source.asks)
"""The sources that offer a value only of the argument's own kind."""


def _typed(schema: dict[str, Any]) -> bool:
    """Whether an argument takes a kind of value the candidate sources read (an enum of
    strings, a string with a pattern or format, or one that takes a code); a list of numbers
    is asked as a number is (a number written may be any number's)."""
    enum = schema.get("enum")
    return (schema.get("type") == "string" and not free_string(schema)
            or isinstance(enum, list) and any(isinstance(value, str) for value in enum))


def _code_written(value: str) -> bool:
    """Whether ``value`` reads as a code: it has a digit, or is a word of up to four capitals
    (``RX3318840``, ``3511LK``, ``PT``; not "Friday", which a loose pattern also takes)."""
    return any(c.isdigit() for c in value) or value.isupper() and value.isalpha() and len(value) <= 4


def lacks_values(tool: Tool, values: Values) -> bool:
    """Whether the conversation (``values``) offers no value for some required argument of
    ``tool`` that takes a kind of value (a code, a time, a date, a pattern): a call would make
    that value up ("Is 40 grams a day enough for a beagle?" beside a feeder that takes a time)."""
    required = set(tool.parameters.get("required") or ())
    return any(not _asked_for(key, part, values, None) for key, part in _formed(tool) if key in required)


def typed_taken(tool: Tool, values: Values) -> int:
    """How many of ``tool``'s arguments that take a code, a date, a time or another typed form
    (not an enum) the conversation (``values``) offers a value: of two tools a request asks for,
    the one that takes more of what it writes ("40 grams at quarter to eight": a feeder's
    ``time``, which a recipe scaler has no argument for)."""
    return sum(_asked_for(key, part, values, None) for key, part in _formed(tool))


def _formed(tool: Tool) -> list[tuple[str, dict[str, Any]]]:
    """``tool``'s top-level arguments that take a code, a date, a time or another typed form (not
    an enum), with their schemas."""
    props = tool.parameters.get("properties") or {}
    return [(key, part) for key, part in props.items()
            if isinstance(part, dict) and _typed(part) and not isinstance(part.get("enum"), list)]


def values_for_all(tool: Tool, values: Values) -> bool:
    """Whether the conversation (``values``) offers a value for each of two or more required
    arguments of ``tool`` that take a kind of value (an enum, a code, a time, a date, a
    pattern, or a free string a source of its own kind offers one: a file name), one of them
    written as such (:func:`_written_as_such`): a request that writes the
    dates and the room type a booking takes asks for it ("Réservez-moi une suite à Rome, arrivée
    le 20 juin 2027 et départ le 23 juin"), where its words alone leave it in doubt."""
    props = tool.parameters.get("properties") or {}
    typed = [key for key in tool.parameters.get("required") or () if isinstance(props.get(key), dict)
             and (_typed(props[key]) or free_string(props[key]) and _offered_in_kind(key, props[key], values))]
    return len(typed) >= 2 and all(_asked_for(key, props[key], values, None) for key in typed) \
        and any(_written_as_such(key, props[key], values) for key in typed)


def _written_as_such(key: str, part: dict[str, Any], values: Values) -> bool:
    """Whether the conversation writes argument ``key``'s value itself: an enum's value in its
    words ("suite"), or a code the patterns or codes source offers (:func:`_code_written`); not a
    date or a time, which any request may write, nor a value read by meaning alone; a free
    string's, where a source of its own kind offers one (a file name with its extension)."""
    if free_string(part):
        return _offered_in_kind(key, part, values)
    if isinstance(part.get("enum"), list):
        return candidates("enum", key, part, values)[0] == "enum-words"
    source, found = candidates("typed", key, part, values)
    return source in ("patterns", "codes") and any(_code_written(str(value)) for value in found)


def values_written(tool: Tool, values: Values, tools: Sequence[Tool]) -> int:
    """How many values of ``tool``'s required enums the conversation (``values``) names in their
    words (or, where the last message reads as another language than English, alone by their
    meaning: "来週の月曜日の11時にカラーの予約", a salon's ``colouring``), each once, that name no
    other of ``tools`` (a gym class's "HIIT"; not a ferry's ``car`` in "Rent me an economy car",
    which a car rental's name has): evidence of the tool
    that dates and times, which any request writes, are not ("HIIT at 18:30": the gym's
    ``class_type``, not a pet feeder's ``time``). Codes are not counted: a loose pattern
    (``^[A-Z0-9]{5,8}$``) takes words of any request."""
    props = tool.parameters.get("properties") or {}
    others = {word for other in tools if other.name != tool.name for word in terms(other.name)}
    other_language = bool(values.texts) and reads_as_other_language(values.texts[0])
    found: set[str] = set()
    for key in tool.parameters.get("required") or ():
        part = props.get(key)
        if isinstance(part, dict) and isinstance(part.get("enum"), list):
            source, named = candidates("enum", key, part, values)
            by_meaning = source == "enum-meaning" and len(named) == 1 and other_language  # "カラー": colouring
            if (source == "enum-words" or by_meaning) and not others & {word for v in named for word in terms(str(v))}:
                found.update(map(str, named))
    return len(found)
