"""What a request asks of one tool's optional arguments: those it says nothing about (left out),
the booleans it asks to be true, the units it asks the unit arguments to take, and the arrays of
listed values it enumerates (:func:`asked_of`); and the tool's parameters as asked
(:func:`as_asked`). These are word rules; a request not in English is read by meaning and by the
values it offers (:mod:`gbnf.shape._unasked`).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gbnf._text import mentions, name_words, own_words
from gbnf.compiler import ANNOTATIONS, compile_schema
from gbnf.errors import SchemaError
from gbnf.shape._dates import calendar_name, today_alone
from gbnf.shape._english import STEMMER, either, words
from gbnf.shape._language import reads_as_other_language
from gbnf.shape._listed import calls_by_values, choices_written
from gbnf.shape._request import Request, terms
from gbnf.shape._shaped import described_forms
from gbnf.shape._tool_words import is_number_array, is_numeric, item_schema, schema_type, schema_words
from gbnf.shape._unasked import counted_for, labelled_arguments, typed_asked, unasked_by_meaning
from gbnf.shape._units import units_like
from gbnf.shape._values import CAPITALISED, free_string, numbers_named
from gbnf.shape.sources import shaped_values
from gbnf.shape.sources.numbers import takes_percent
from gbnf.tools import Tool


@dataclass(frozen=True)
class Asked:
    """What the user's words ask of one tool: the optional arguments they say nothing about
    (``left`` out), the boolean ones they ask to be true (``on``), the units they ask
    the optional unit arguments (``measured``) to take (``units``, :func:`measured_in`), and the
    array arguments of listed values they enumerate, with how many (``listed``, :func:`items_listed`);
    with ``require``, those it asks for are required (the word rules'; not where it is read by
    meaning, which is less sure), and in any case those it offers a value of their own kind or
    writes a value for after a label that means them (``sure``)."""

    left: tuple[str, ...]
    on: tuple[str, ...]
    measured: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    listed: tuple[tuple[str, int], ...] = ()
    require: bool = True
    sure: tuple[str, ...] = ()


def asked_of(tool: Tool, request: Request) -> Asked | None:
    """What ``request`` asks of ``tool``'s optional arguments (:func:`unasked`,
    :func:`switched_on`; one that takes a kind of value is asked for where the request offers it
    one: :func:`~gbnf.shape._unasked.typed_asked`); where the word rules cannot read the request (it is not English:
    :func:`~gbnf.shape.rules.is_english`), the optional arguments it asks nothing of by meaning and by
    the values it offers (:func:`~gbnf.shape._unasked.unasked_by_meaning`), None where it asks
    something of each (the tool offered as declared)."""
    if not request.english:
        sure = (*labelled_arguments(tool, request.values), *_offered_own(tool, request))
        left = tuple(key for key in unasked_by_meaning(tool, request) if key not in sure) \
            if reads_as_other_language(request.text) else ()
        return Asked(left, (), require=False, sure=sure) if left or sure else None
    typed = typed_asked(tool, request)
    unsaid = unasked(tool, request)
    left = tuple(key for key in (tool.parameters.get("properties") or {})
                 if typed.get(key) is False or (key in unsaid and key not in typed))
    return Asked(left, switched_on(tool, request), measured_in(tool, request),
                 _units_for(tool, request), items_listed(tool, request))


def _offered_own(tool: Tool, request: Request) -> tuple[str, ...]:
    """The optional arguments of ``tool`` that ``request`` offers a value of their own kind, in any
    language: an enum's value, a code, a time, a date (:func:`~gbnf.shape._unasked.typed_asked`),
    a count of what a number argument counts (:func:`~gbnf.shape._unasked.counted_for`), a
    percentage for one that takes a percentage ("10 % de propina": ``tip_percent``); not a boolean
    nor a free string, which only their meaning asks for."""
    props = tool.parameters.get("properties") or {}
    counted = [key for key, sub in props.items() if key not in (tool.parameters.get("required") or ())
               and isinstance(sub, dict) and (counted_for(key, sub, request)
                                              or request.percents and is_numeric(sub) and takes_percent(key, sub))]
    return tuple(dict.fromkeys([*(key for key, asked in typed_asked(tool, request).items() if asked), *counted]))


def as_asked(parameters: dict[str, Any], asked: Asked | None) -> dict[str, Any]:
    """``parameters`` as ``asked`` (None: as they are): without the properties it leaves out,
    every other property required (but an optional one no value satisfies, which the grammar
    leaves out: :func:`_satisfiable`), the booleans it switches on true, and the unit arguments it
    measures taking the units it asks (as their descriptions write them: :func:`described_forms`)."""
    properties = parameters.get("properties")
    if asked is None or not isinstance(properties, dict):
        return parameters
    units = {k: described_forms(asked.units, str(properties[k].get("description", "")))
             for k in asked.measured if k in properties}
    given = {**{k: [True] for k in asked.on}, **units}
    kept = {k: {**v, "enum": given[k]} if k in given else v for k, v in properties.items() if k not in asked.left}
    for key, count in asked.listed:
        if key in kept and kept[key].get("maxItems", count) >= count:
            kept[key] = {**kept[key], "minItems": max(count, kept[key].get("minItems", 0)), "uniqueItems": True}
    required = set(parameters.get("required") or ())
    return {**parameters, "properties": kept,
            "required": [k for k in kept if k in required or (asked.require or k in asked.sure)
                         and _satisfiable(parameters, k, kept[k])]}


def _satisfiable(parameters: dict[str, Any], key: str, schema: Any) -> bool:
    """Whether some value satisfies property ``key`` of ``parameters`` taking ``schema`` (an
    array with an ``enum`` of strings does not): one that none does cannot be required. A
    schema that asserts its type alone (``{"type": "integer", "description": ...}``, the most
    common) is satisfiable without compiling it."""
    if isinstance(schema, dict) and isinstance(schema.get("type"), str) and set(schema) - ANNOTATIONS <= {"type"}:
        return True
    try:
        compile_schema({**parameters, "properties": {key: schema}, "required": [key]})
    except SchemaError:
        return False
    return True


def items_listed(tool: Tool, request: Request) -> tuple[tuple[str, int], ...]:
    """The array arguments of ``tool`` whose items take one of the values they list (an
    ``enum``), each with how many of them ``request`` enumerates, two or more ("the rating and
    player count of the board game": ``parameters`` two, each once; "the RGB and HEX values of
    navy, purple and maroon": two in each call): a small model otherwise writes the first and
    stops. Not values written apart ("G (Guanine) and C"), which may be several calls' ("a
    Reading Room and Fiction in New York, and a Cafe in Boston")."""
    props = tool.parameters.get("properties") or {}
    arrays = {key: item for key, sub in props.items() if schema_type(sub) == "array"
              and isinstance(item := item_schema(sub), dict) and isinstance(item.get("enum"), list)}
    if not arrays:
        return ()
    return tuple((key, len(found[0])) for key, item in arrays.items()
                 if (found := choices_written({key: item}, request.text, enumerated=True)))


def unasked(tool: Tool, request: Request) -> tuple[str, ...]:
    """The optional arguments of ``tool`` (top-level properties not required) that ``request``
    says nothing about: it has no word of the property's name that no other property's name
    has, and no word of its description and listed values that the tool's name and description
    and the properties' names do not also have, nor one of those misspelt ("acceleeration",
    :func:`_misspelt`). Small models otherwise fill every optional
    argument with a value nobody gave. An argument whose listed values (an enum, or its
    items' enum) the query names is asked for (``all`` of ``root_type``), and so is a unit
    argument when the request names a unit (:func:`measured_in`: "a radius of 4 inches"), a
    percentage argument when it writes a percentage ("con un 10 % de propina": ``tip_percent``), and so
    is one the request writes a word of one listed value alone for ("backstage access" of
    ``Backstage Pass``, not "pass", which ``Parking Pass`` has too, nor a word of the tool's name), and a
    string of a shape the request writes (:func:`~gbnf.shape._shaped.shaped_values`: a date
    "on March 8th, 2023" or "tomorrow", an email address, a path; not "today" alone, the day a
    date argument left out stands for by custom), and a free string the request writes a value
    for after a label that means it (:func:`~gbnf.shape._unasked.labelled_arguments`: 'Write
    "Congrats Sam!" on it': ``inscription``). A number argument whose words the request
    has is still left out when the request writes no number beyond those the required arguments
    take (:func:`_spare_numbers`) and none after the argument's name: "the top chess players with
    a rating above 2300" has no number of players, and a small model would copy 2300 there. The
    one free string argument left out is asked for where the request writes more names after
    "in", "on", "by"... than the free strings kept take (:func:`_placed`: "Concerts by Adele in
    Leeds": ``city``)."""
    words = request.words
    props = tool.parameters.get("properties") or {}
    required = tool.parameters.get("required") or []
    measured = measured_in(tool, request)
    spare = _spare_numbers(props, required, request)
    shared = set(terms(tool.name + " " + tool.description))
    names = [set(terms(key)) for key in props]
    named = set().union(*names)
    dated = [stretch for stretch in request.stretches if not today_alone(stretch)]
    labelled = labelled_arguments(tool, request.values)
    left = []
    for (key, sub), own in zip(props.items(), own_words(names)):
        own |= {term for term in terms(" ".join(schema_words(sub))) if term not in shared and term not in named}
        if key in required or key in measured or _names_listed(request.text, sub) or \
                request.words & _value_words(sub) - set(terms(tool.name)) - named or \
                counted_for(key, sub, request) or request.percents and is_numeric(sub) and takes_percent(key, sub) \
                or key in labelled:
            continue
        unspoken = not (words & own or _misspelt(own, words)) and not shaped_values(key, sub, dated)
        unnumbered = is_numeric(sub) and not spare and not numbers_named(request.labels, key)
        if unspoken or unnumbered:
            left.append(key)
    return tuple(_placed(tool, left, request))


MISSPELT = 0.9
"""How alike (:class:`difflib.SequenceMatcher`'s ratio) a request's word must be to an
argument's word to be that word misspelt ("acceleeration"), both seven letters or more as
stemmed: shorter stems differ by a letter between forms of one word ("specif", "specifi")."""


def _misspelt(own: set[str], words: frozenset[str]) -> bool:
    """Whether ``words`` (a request's) hold one of ``own`` (an argument's words) misspelt
    (:data:`MISSPELT`): a user who writes "acceleeration" asks for the ``acceleration``."""
    long = [word for word in words if len(word) >= 7]
    return any(difflib.get_close_matches(term, long, n=1, cutoff=MISSPELT) for term in own if len(term) >= 7)


def _placed(tool: Tool, left: list[str], request: Request) -> list[str]:
    """``left`` without its one free string argument, when it has just one, where ``request``
    writes more names after "in", "on", "by"... (:func:`_names_placed`) than the free string
    arguments kept take, for each call its values ask (:func:`~gbnf.shape._listed.calls_by_values`):
    in "Concerts by Adele in Leeds" Adele is the artist's, so the ``city`` it does not name is asked for; "the
    sunset in Reykjavik and in Tromso" is two calls, one name each."""
    props = tool.parameters.get("properties") or {}
    strings = [key for key in left if free_string(props.get(key))]
    if len(strings) != 1:
        return left
    kept = [key for key, sub in props.items() if key not in left and free_string(sub)]
    if _names_placed(request.text) <= len(kept) * calls_by_values(tool, request):
        return left
    return [key for key in left if key not in strings]


@functools.lru_cache(maxsize=64)
def _names_placed(text: str) -> int:
    """How many names ``text`` writes right after "in", "on", "at", "by" or "from" (each once),
    no month's or weekday's ("on Saturday", "from July 20"): read once per request, not once per
    tool."""
    return len({name for name in _PLACED.findall(text) if not calendar_name(name.split()[0])})


_PLACED = re.compile(rf"\b(?:{either('place_leads')})\s+(?:the\s+)?({CAPITALISED})")


def _spare_numbers(props: dict[str, Any], required: list[str], request: Request) -> bool:
    """Whether ``request`` writes more numbers than the required number arguments of ``props``
    take: one each, and every list of numbers when one of them takes an array of numbers."""
    wanted = [props.get(key) for key in required]
    scalars = sum(map(is_numeric, wanted))
    held = any(map(is_number_array, wanted))
    listed = sum(len(found) for found in request.number_lists if len(found) > 1) if held else 0
    return len(request.numbers) - listed > scalars


def measured_in(tool: Tool, request: Request) -> tuple[str, ...]:
    """The optional arguments of ``tool`` that take a unit (a free string whose name says
    "unit") the request names (:func:`_units_for`: "in km/h", "a radius of 4 inches"):
    those it asks for, to take the units it names."""
    if not _units_for(tool, request):
        return ()
    return tuple(_unit_arguments(tool))


def _unit_arguments(tool: Tool) -> Iterator[str]:
    """The optional arguments of ``tool`` that take a unit: free strings whose name says "unit"."""
    required = tool.parameters.get("required") or []
    return (key for key, sub in (tool.parameters.get("properties") or {}).items()
            if key not in required and free_string(sub) and _UNIT_NAMES & name_words(key))


def _units_for(tool: Tool, request: Request) -> tuple[str, ...]:
    """The units ``request`` names for the unit arguments of ``tool``: those it asks an answer
    in or writes all its numbers in (:attr:`Request.units`), else, where it writes numbers in
    units of several kinds, those of the kind a unit the arguments' descriptions name measures
    ("The units of the radius (defaults to meters)": the feet of "a radius of 5.6 feet", not the
    radians of "from 0 to 3.14 radians", :func:`~gbnf.shape._units.units_like`)."""
    if request.units:
        return request.units
    props = tool.parameters.get("properties") or {}
    described = " ".join(str(props[key].get("description", "")) for key in _unit_arguments(tool))
    return units_like(request.text, described) if described else ()


_UNIT_NAMES = frozenset(words("unit_names"))


def switched_on(tool: Tool, request: Request) -> tuple[str, ...]:
    """The top-level boolean arguments of ``tool`` that ``request`` asks to be true: it has a word
    of the property's name that neither the tool's name nor another property's name has, with
    no negation in the three words before it ("assuming equal variance": ``equal_variance``;
    "without human impact": not ``include_human_impact``)."""
    props = tool.parameters.get("properties") or {}
    if not any(isinstance(sub, dict) and sub.get("type") == "boolean" for sub in props.values()):
        return ()
    tool_words = set(terms(tool.name))
    words = re.findall(r"[\w']+", request.text.lower())
    stems = STEMMER.stemWords(words)
    on = []
    for (key, sub), own in zip(props.items(), own_words([set(terms(key)) for key in props])):
        if not isinstance(sub, dict) or sub.get("type") != "boolean" or {"enum", "const"} & set(sub):
            continue
        said = [i for i, stem in enumerate(stems) if stem in own - tool_words]
        if said and not any(_NEGATION.intersection(words[max(0, i - 3):i]) for i in said):
            on.append(key)
    return tuple(on)


_NEGATION = frozenset(words("negations"))


def _names_listed(query: str, schema: Any) -> bool:
    """Whether ``query`` names one of the string values ``schema`` (or its items) lists."""
    return any(mentions(query, value) for values in _string_values(schema) for value in values)


def _value_words(schema: Any) -> set[str]:
    """The words (:func:`terms`) of the string values ``schema`` (or its items) lists that each
    one of them has alone ("backstage" of ``Backstage Pass``, not "pass", which ``Parking
    Pass`` has too)."""
    return set().union(*(words for values in _string_values(schema)
                         for words in own_words([set(terms(value)) for value in values])))


def _string_values(schema: Any) -> list[list[str]]:
    """The string values ``schema`` lists (its ``enum``), and those its items list."""
    parts = (schema, schema.get("items")) if isinstance(schema, dict) else ()
    return [[value for value in part["enum"] if isinstance(value, str)] for part in parts
            if isinstance(part, dict) and isinstance(part.get("enum"), list)]
