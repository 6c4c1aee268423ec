"""A tool's schema shaped for one request: unbounded parts capped (:func:`bounded`) and values
held to what the conversation offers (:func:`copied`, from the candidate sources of
:mod:`gbnf.shape.sources`). The validator still checks each call against the schema as written."""

from __future__ import annotations

import datetime
import functools
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from gbnf._text import fold, identifier_words, name_words, without_elision, word_key
from gbnf.compiler import json_text, validity
from gbnf.shape._choices import day_part, kept_strings, on_twelve_hours, picked, picks
from gbnf.shape._codes import CODE_WORDS, code_kind, rate_sides
from gbnf.shape._counts import SAME_NOUN, counts_argument
from gbnf.shape._dates import (
    date_format,
    dates_at,
    from_today,
    moment_format,
    written_date,
    written_dates,
    written_moments,
)
from gbnf.shape._directions import marked, pairs, time_pair
from gbnf.shape._english import STEMMER, either, words
from gbnf.shape._language import verb_first
from gbnf.shape._meaning import phrase_vectors
from gbnf.shape._request import OPENING_MARKS, read_request, terms
from gbnf.shape._roles import ROLE_MARGIN, around, leaning, role_card, split_roles
from gbnf.shape._segments import has_cjk, has_function_word, proper_nouns
from gbnf.shape._times import written_times
from gbnf.shape._values import (
    NUMBER,
    NUMBER_WORDS,
    Labels,
    Names,
    Number,
    Values,
    argument_words,
    as_fraction,
    counted_first,
    free_string,
    labels_argument,
    listed_strings,
    names_argument,
    numbers,
    numbers_named,
    overlaps,
    punctuated_clauses,
    quotations,
    shared_value,
    unpercented_numbers,
    worded_in_digits,
)
from gbnf.shape.sources import candidates
from gbnf.shape.sources.durations import days_written
from gbnf.shape.sources.enum_meaning import meant_by_both
from gbnf.shape.sources.labelled import command_payload, label_owners
from gbnf.shape.sources.numbers import takes_percent
from gbnf.shape.sources.shapes import DATE_NAMES, TIME_NAMES


def bounded(schema: Any, chars: int | None, items: int | None, digits: int | None = None) -> Any:
    """``schema`` with every free string (no enum, const, pattern, format or tighter bound)
    limited to ``chars`` characters, every array to ``items`` items, and every integer or
    number side left open to ``digits`` digits before the point (None: no limit)."""

    def bound(out: dict[str, Any], _key: str | None) -> dict[str, Any]:
        if chars is not None and free_string(out) and out.get("maxLength", chars + 1) > chars:
            out["maxLength"] = max(chars, out.get("minLength", 0))
        if items is not None and out.get("type") == "array" and out.get("maxItems", items + 1) > items:
            out["maxItems"] = max(items, out.get("minItems", 0))
        if digits is not None and out.get("type") in ("integer", "number") and not {"enum", "const"} & set(out):
            if "minimum" not in out and "exclusiveMinimum" not in out:
                out["exclusiveMinimum"] = -(10**digits)
            if "maximum" not in out and "exclusiveMaximum" not in out:
                out["exclusiveMaximum"] = 10**digits
        return out

    return _each_part(schema, bound)


def copied(schema: Any, values: Values, *, echoes: Collection[str] = frozenset(),
           declared: Collection[str] | None = None, tool: str | None = None) -> Any:
    """``schema`` with each part held to the candidate values the conversation offers it
    (``values``), where any of them satisfies the part (a part none satisfies stays as it was):
    values copied from a request, not made up. Each part asks the sources of its kind
    (:data:`gbnf.shape.sources.SOURCES`, in order; the first that offers anything gives them): an
    enum of strings is narrowed to the values named; a string that takes a code or a typed form
    takes those; a free string (one whose description does not say its value encodes what the
    request writes, :func:`_encoded`) takes the globs, dates, formulas, shaped stretches, the
    values written after a label that means its name (each to the free string its label means
    most, :func:`~gbnf.shape.sources.labelled.label_owners`; these also where its description names
    a code), places with their region, cities (for a city) or else stretches; an integer or number
    the numbers or else its stated default (one that lists numbers, among them); an array of
    copied numbers the runs. An array of listed strings takes each at most once (``uniqueItems``,
    where the schema does not say), so a small model's loop (``["Area", "Area", ...]``) ends
    where the grammar can hold it. Given the properties the tool ``declared`` required, one it
    does not require whose one candidate another's is too is left out (:func:`_without_repeats`),
    and an enum of strings it requires (or ``schema`` does: one the request was read as asking for)
    that no value's words name, or several values' meaning, is held to the value that both the
    short stretches and the clauses of the last message put ahead
    (:func:`~gbnf.shape.sources.enum_meaning.meant_by_both`), where they agree; an optional one
    is not, when the tool is not yet shaped (so held, it would read as asked for).

    A free string's candidates pass these checks (each keeps all where it would keep none): one
    whose name and description speak of no date or time takes none of the dates written, nor the
    stretches that share words with one (:func:`_dated`; "in Oslo tomorrow": a ``city`` is not
    offered "Oslo tomorrow"), nor those that write a time of day ("오후 4시에 경복궁") or are a
    part of the day ("오후"), but for the quoted ones; none takes words of a quotation of the last
    message that are no quotation of their own (:func:`_whole_quotations`); none takes one Chinese,
    Japanese or Korean character alone ("买", "し": a verb, an ending) nor a count of people in
    those languages (:func:`~gbnf.shape._values.counted_first`: "五个人"); none takes a number
    written alone unless its name is a number's (:func:`_numbered`: ``case_no``; "the Grammy of 2013": an ``act`` is no
    ``2013``); none takes the names of ``echoes`` (folded: a tool's :attr:`~gbnf.tools.Tool.echoes`,
    which the validator refuses); each is written as the description lists it
    (:func:`described_forms`). A number whose name speaks of no date or time (``year``,
    ``hours``) takes none of the numbers written only in dates and times (``in_dates``) where it
    may take others ("2 nights from 15th October, 2023": ``nights`` takes 2); an integer takes
    "4.0" as 4. A number written right after the name of one of the schema's numeric properties
    (``labels``: "a length of 50 and a width of 30") is not offered to another (``width`` takes
    30, not 50), unless it is also written as that one's or unnamed; so is a name written right
    after (or, quoted, right before) the name of one of its string properties (``names``,
    :func:`~gbnf.shape.rules.named_strings`)."""
    dated = _dated(values.strings, values.texts)
    latest = _latest(values)
    tops = schema.get("properties") if isinstance(schema, dict) else None
    owners = label_owners([key for key, part in tops.items() if free_string(part)], values) \
        if isinstance(tops, dict) else {}
    payloads = _payloads(schema, owners, values)
    sent = [(key, value) for name, key, value in values.sent if name == tool]  # what the call before sent this tool
    required_now = {*declared, *(schema.get("required") or ())} \
        if declared is not None and isinstance(schema, dict) else set()  # and those asked for

    def copy(out: dict[str, Any], key: str | None) -> dict[str, Any]:
        kind, items = out.get("type"), out.get("items")
        if latest and (kept := _as_sent(out, key, values, sent, latest, tops) or _counted_last(out, key, latest)):
            return {**out, "enum": kept}
        if listed_strings(out):
            source, named = candidates("enum", key, out, values)
            if len(named) != 1 and source != "enum-words" and key in required_now:  # see the docstring
                named = [value for value in meant_by_both(key, out, values) if not named or value in named] or named
            if latest:  # a follow-up: what the last message names, unless it picks among the options
                _, mine = candidates("enum", key, out, latest)
                chosen = picked(named, key, values)
                named = chosen if chosen != named else picked(mine or named, key, values)
            return {**out, "enum": named} if named else out
        if kind == "array" and isinstance(items, dict) and listed_strings(items):
            return {"uniqueItems": True, **out} if len(items["enum"]) >= out.get("minItems", 0) else out
        described = str(out.get("description", ""))
        found: Sequence[Any] = []
        if kind == "string" and not {"enum", "const"} & set(out):
            _, found = candidates("typed", key, out, latest) if latest else ("", [])
            every = candidates("typed", key, out, values)[1]
            if latest and found:  # "9:15 works for us" of a result's 21:15
                found = on_twelve_hours(every, latest.texts[0], values.texts[1:]) or found
            found = found or every
            if not found and free_string(out) and not _encoded(described, values.strings, values.today):
                source, found = candidates("string", key, out, values)
                if key in owners and (owners[key] or source == "labelled"):  # to the argument its label means most
                    found = owners[key] or candidates("string", key, out, replace(values, off=values.off | {source}))[1]
                found = payloads.get(key or "") or found
                found = _kept_strings(found, key, described, dated, values.quoted, echoes)
                found = _whole_quotations(found, values.texts[:1])
                found = _after_label(found, key, values.texts[:1])
                found = _whole_codes(found, key, values.texts)
                found = _names_first(found, key, values.texts[:1])
                found = kept_strings(found, key, values, sent) if latest else \
                    _past_the_verb(found, key, values.texts[:1], values.quoted) if source == "stretches" else found
            elif not found and free_string(out):  # a label names it: what follows is its value ("door code" aside)
                found = owners.get(key or "", [])
        elif kind in ("integer", "number") and "const" not in out and _numbers_or_free(out.get("enum")):
            _, found = candidates("number", key, out, values)
            if not _asks_for_date(key, described) and not _calendar_named(key or ""):
                found = [number for number in found if number not in values.in_dates] or found
            if kind == "integer":  # "a rating of 4.0" is the integer 4, written as one
                found = list(dict.fromkeys(int(n) if isinstance(n, float) and n.is_integer() else n for n in found))
        elif kind == "array" and _copied_number(items) and not {"enum", "const"} & set(out):
            _, found = candidates("array", key, out, values)
        valid = validity(out, out)
        kept = [value for value in found if valid(value)]
        kept = picked(kept, key, values) if latest else kept
        return {**out, "enum": kept} if kept else out

    directed = _by_role(_rated(_directed(_each_part(schema, copy), schema, values), schema, values), schema, values)
    directed = _in_time_order(_numbers_directed(_one_each(directed), values), values)
    held = _each_part(_counted_values(_named_values(directed, values.labels, values.names), values), _held)
    held = _unclaimed(_percents_apart(held, schema, values), schema, values)
    return held if declared is None else _without_repeats(held, declared)


def _payloads(schema: Any, owners: dict[str, list[str]], values: Values) -> dict[str, list[str]]:
    """The one required free string of ``schema``'s top-level properties, where its name says it
    takes the user's own text (``text_names``: a ``description``, not a ``pet_name``) and no
    label names a free string (``owners``), with the payload of a command the last message writes after a colon
    (:func:`~gbnf.shape.sources.labelled.command_payload`: "Log lunch: chicken caesar salad");
    none where it has another required free string."""
    tops = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(tops, dict) or any(owners.values()):
        return {}
    required = [key for key in schema.get("required") or () if free_string(tops.get(key))]
    payload = command_payload(values) if len(required) == 1 and name_words(required[0]) & _TEXT_NAMES else []
    return {required[0]: payload} if payload else {}


def _as_sent(part: dict[str, Any], key: str | None, values: Values, sent: Sequence[tuple[str, Any]],
             latest: Values, tops: Any = None) -> list[Any]:
    """The value the call before a follow-up sent argument ``key`` (taking ``part``, not a free
    string), where its result refused none and the last message (``latest``) offers none of its
    own (an enum's value in its words, a code, a date; a number it names as that argument's,
    counts as such, writes in digits, or with "instead"), for the same tool (``sent``: the
    arguments the call before sent it): "Ugh. Fine, put me on the waitlist for it" keeps the
    yoga class, its date and its time; none otherwise."""
    typed = listed_strings(part) or part.get("type") in ("integer", "number") or \
        part.get("type") == "string" and not free_string(part)
    if key is None or not sent or not typed:
        return []
    valid = validity(part, part)
    mine = [value for name, value in sent if name == key and value not in values.refused and valid(value)]
    if not mine:
        return []
    if listed_strings(part):  # by its words, or by meaning where it says "instead": "in pounds and cups instead"
        source = candidates("enum", key, part, latest)[0]
        said = source == "enum-words" or bool(source) and "instead" in picks(latest.texts[0])
    elif part.get("type") in ("integer", "number"):  # "un paquete más", "after nine": no count of it
        last = read_request(latest.texts[0])
        said = bool(_counted_last(part, key, latest)) or bool(_DIGITS.findall(last._dateless)) \
            or "instead" in picks(last.text) and bool(last.numbers)
    else:
        offered = part_offers(key, part, latest)
        said = bool(offered) and not _meant_for_another(key, offered, tops, sent, latest)
    return [] if said else mine


def _meant_for_another(key: str, offered: list[Any], tops: Any, sent: Sequence[tuple[str, Any]],
                       latest: Values) -> bool:
    """Whether the values a follow-up (``latest``) offers argument ``key`` (``offered``) are
    another top-level argument's of ``tops``, one offered them too that the call before sent a
    value (``sent``), by the words around them: where they lean to that one's name and description
    by :data:`~gbnf.shape._roles.ROLE_MARGIN` more than to this one's ("What if I travel on my
    Irish passport instead?": ``passport_country``'s, and ``destination_country`` keeps its own),
    or, of a pair that runs one way, where a marker says it is the other's ("and in Tokyo?":
    ``to_zone``'s, :func:`~gbnf.shape._directions.marked`)."""
    if not isinstance(tops, dict) or not isinstance(tops.get(key), dict):
        return False
    given = {name for name, _ in sent}
    schema = {"properties": tops}
    paired = pairs(list(tops))
    for other, theirs in tops.items():
        if other == key or other not in given or not isinstance(theirs, dict) \
                or part_offers(other, theirs, latest) != offered:
            continue
        stretches = [_offering(key, schema, latest, value) for value in offered]
        way = "target" if (key, other) in paired else "source" if (other, key) in paired else None
        if way and stretches and all(marked(latest.texts[:1], stretch) == way for stretch in stretches):
            return True  # "and in Tokyo?": the target's, by its marker
        windows = [window for stretch in stretches for window in around(latest.texts[:1], stretch)]
        lean = leaning((role_card(other, theirs), role_card(key, tops[key])), windows)
        if lean is not None and lean >= ROLE_MARGIN:
            return True
    return False


_DIGITS = re.compile(r"(?<![\d:.])\d+(?:[.,]\d+)?(?![\d:])")
"""A number written in digits outside a time ("order 3 cokes" changes a count; "after nine" does
not name one)."""


def _counted_last(part: dict[str, Any], key: str | None, latest: Values) -> list[Any]:
    """The numbers the last message of a follow-up (``latest``) names as number argument ``key``'s
    or writes before what it counts ("Then make it 3 guests."), that ``part`` takes."""
    if key is None or part.get("type") not in ("integer", "number"):
        return []
    last = read_request(latest.texts[0])
    valid = validity(part, part)
    found = [*numbers_named(last.labels, key), *(number for noun, number in last.counts if counts_argument(noun, key))]
    return [number for number in dict.fromkeys(found) if valid(number)]


def _latest(values: Values) -> Values | None:
    """The values of the conversation's latest text alone (its first: the last message), in a
    follow-up of a call (one that ``sent`` values): a value of a kind (an enum's, a code, a date,
    a time) that the last message writes is asked over one an earlier turn wrote ("the same
    plan, but for Korea": ``KR``, not the earlier call's ``JP``). None elsewhere (a plan's step
    reads its query and results, not a chat's turns)."""
    if len(values.texts) < 2 or not values.sent:
        return None
    return replace(read_request(values.texts[0]).values, today=values.today, said_today=values.said_today,
                   off=values.off)


def _without_repeats(shaped: Any, declared: Collection[str]) -> Any:
    """``shaped`` without each top-level property the tool does not require (``declared``: those
    it does) whose one candidate string is the one candidate of one it requires: the request
    writes that value once, for the required one ("a car at NCE": ``pickup_airport``, not
    ``return_airport`` too; "a Portuguese lesson": ``language``, not ``taught_in``)."""
    properties = shaped.get("properties") if isinstance(shaped, dict) else None
    if not isinstance(properties, dict):
        return shaped
    only = {key: part["enum"][0] for key, part in properties.items() if isinstance(part, dict)
            and isinstance(part.get("enum"), list) and len(part["enum"]) == 1 and isinstance(part["enum"][0], str)}
    taken = {value for key, value in only.items() if key in declared}
    left = {key for key, value in only.items() if key not in declared and value in taken}
    if not left:
        return shaped
    return {**shaped, "properties": {k: v for k, v in properties.items() if k not in left},
            "required": [k for k in shaped.get("required", []) if k not in left]}


MOST_PAIR_WORDS = 3
"""The most words of a stretch whose marker says which of a pair of arguments it goes to."""


def _directed(shaped: Any, schema: Any, values: Values) -> Any:
    """``shaped`` (``schema`` copied) whose pairs of top-level properties that run one way
    (:func:`~gbnf.shape._directions.pairs`: ``from_station`` and ``to_station``) list their
    values without those the request marks for the other one (:func:`~gbnf.shape._directions.marked`:
    "to EDB from MAN": the origin lists no EDB); a stretch marks the value it alone offers the
    property (a code it names, an enum value it means, itself), where it offers one, and a value
    is kept from the other property only where every stretch that offers it alone marks it so
    ("from Euro to Dollar, and USD to AUD": USD may be either); a property left with nothing
    keeps its values."""
    properties = shaped.get("properties") if isinstance(shaped, dict) else None
    if not isinstance(properties, dict) or not values.texts:
        return shaped
    paired = pairs(list(properties))
    ways_of = {stretch: marked(values.texts, stretch) for stretch in values.strings
               if len(stretch.split()) <= MOST_PAIR_WORDS} if paired else {}
    if not any(ways_of.values()):  # no pair, or nothing marked: nothing moves
        return shaped
    kept = dict(properties)
    for first, second in paired:
        listed = _listed_pair(properties, first, second)
        if listed is None:
            continue
        written: dict[str, list[tuple[str, str | None]]] = {}  # each value: the stretches that offer it alone
        for stretch, way in ways_of.items():
            alone = replace(values, strings=(stretch,), texts=(stretch,), quoted=())
            for key in (first, second):
                named = part_offers(key, schema["properties"][key], alone)
                if len(named) == 1:  # "EDB from MAN" marks neither
                    written.setdefault(json_text(named[0]), []).append((stretch, way))
        ways = {value: {way for stretch, way in found if way or not _holds_marked(stretch, found)}
                for value, found in written.items()}
        _keep_own(kept, properties, (first, second), listed, ways)
    return {**shaped, "properties": kept}


def _tops(shaped: Any, schema: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The top-level properties of ``shaped`` and of the ``schema`` it was copied from; None
    where either has none."""
    properties = shaped.get("properties") if isinstance(shaped, dict) else None
    declared = schema.get("properties") if isinstance(schema, dict) else None
    return (properties, declared) if isinstance(properties, dict) and isinstance(declared, dict) else None


def _rated(shaped: Any, schema: Any, values: Values) -> Any:
    """``shaped`` (``schema`` copied) whose pair of currency properties (``from_currency`` and
    ``to_currency``) of a tool that takes a rate (a number property named ``rate`` or
    ``threshold``) and no amount to convert (none named ``amount``, ``sum``, ``value`` or
    ``quantity``) takes the currency priced first and the one its price is written in second
    (:func:`~gbnf.shape._codes.rate_sides`): "when the euro rises above 1.15 US dollars" is EUR to
    USD, where a conversion's amount would make USD the source."""
    if (tops := _tops(shaped, schema)) is None:
        return shaped
    properties, declared = tops
    numeric = [name_words(key) for key, part in declared.items()
               if isinstance(part, dict) and part.get("type") in ("integer", "number")]
    rated = any(words_ & _RATE_NAMES for words_ in numeric) and not any(words_ & _AMOUNT_NAMES for words_ in numeric)
    sides = rate_sides(values.strings) if rated else None
    if sides is None:
        return shaped
    kept = dict(properties)
    for pair in pairs(list(properties)):
        parts = [declared.get(key) for key in pair]
        if all(isinstance(part, dict) and code_kind(key, part) == "currency" for key, part in zip(pair, parts)) \
                and all(validity(part, part)(code) for part, code in zip(parts, sides)):
            kept.update({key: {**properties[key], "enum": [code]} for key, code in zip(pair, sides)})
    return {**shaped, "properties": kept}


_RATE_NAMES = frozenset(words("rate_names"))
_AMOUNT_NAMES = frozenset(words("amount_names"))


def _by_role(shaped: Any, schema: Any, values: Values) -> Any:
    """``shaped`` (``schema`` copied) whose two top-level properties that list the same two
    values the conversation offers (no enum's own two: ``["yes", "no"]`` twice is left as it is)
    each list one, where the words around each value say which it is
    (:func:`~gbnf.shape._roles.split_roles`: "a Canadian passport ... a visa for Vietnam" gives
    ``passport_country`` CA and ``destination_country`` VN); the words around a value are those
    around the shortest stretch that offers it alone."""
    properties = shaped.get("properties") if isinstance(shaped, dict) else None
    if not isinstance(properties, dict) or not values.texts:
        return shaped
    listed = {key: part["enum"] for key, part in properties.items() if isinstance(part, dict)
              and isinstance(part.get("enum"), list) and len(part["enum"]) == 2
              and all(isinstance(value, str) for value in part["enum"])
              and not listed_strings(schema["properties"].get(key))}  # values the request wrote, no enum's own
    kept = dict(properties)
    keys = list(listed)
    for i, first in enumerate(keys):
        for second in keys[i + 1:]:
            if sorted(map(json_text, listed[first])) != sorted(map(json_text, listed[second])):
                continue
            windows = {json_text(value): around(values.texts, _offering(first, schema, values, value))
                       for value in listed[first]}
            split = split_roles((role_card(first, schema["properties"][first]),
                                 role_card(second, schema["properties"][second])), windows)
            if split is not None:
                mine, theirs = split
                kept[first] = {**properties[first], "enum": [v for v in listed[first] if json_text(v) == mine]}
                kept[second] = {**properties[second], "enum": [v for v in listed[second] if json_text(v) == theirs]}
    return {**shaped, "properties": kept}


def _unclaimed(shaped: Any, schema: Any, values: Values) -> Any:
    """``shaped`` (``schema`` copied) whose free strings are offered no stretch of a word or two
    that alone gives another top-level property its one value (an enum's value it names in its
    words, or by meaning in one word; a code, an address: "インフルエンザ" of ``vaccine``'s
    ``influenza``, "grocery" of ``list``'s ``groceries``, an email of ``contact_email``; a number
    it writes as its only one: "200万円" of ``target_amount``'s 2000000, "650칼로리 정도" of
    ``calories``' 650, not as part of a name: "NPO 1"): one stretch of a request fills one
    argument (all where none would be left). A longer stretch that holds such a one stays
    ("Little Italy", "Review high school applications")."""
    if (tops := _tops(shaped, schema)) is None:
        return shaped
    properties, declared = tops
    free = [key for key, part in properties.items() if free_string(declared.get(key))
            and isinstance(part, dict) and len(part.get("enum") or ()) > 1]
    given = {key: part["enum"][0] for key, part in properties.items() if free and key in declared
             and isinstance(part, dict) and _claims(declared[key], part.get("enum"))}
    if not given:
        return shaped
    short = dict.fromkeys(s for key in free for s in properties[key]["enum"] if len(s.split()) <= MOST_PAIR_WORDS)
    claimed = {stretch for stretch in short if any(_gives(key, declared[key], values, stretch, value)
                                                   for key, value in given.items())}
    if not claimed:
        return shaped
    kept = dict(properties)
    for key in free:
        kept[key] = {**properties[key], "enum": [s for s in properties[key]["enum"] if s not in claimed]
                     or properties[key]["enum"]}
    return {**shaped, "properties": kept}


def _gives(key: str, part: dict[str, Any], values: Values, stretch: str, value: str | Number) -> bool:
    """Whether ``stretch`` alone gives property ``key`` (taking ``part``) ``value``: an enum's by
    its words, or by meaning where the stretch is one word ("Little Italy" is no ``italian``); a
    number's as the one number it writes."""
    if part.get("type") in ("integer", "number"):
        return numbers(stretch) == [value] and not _NAMED_NUMBER.search(stretch)
    alone = replace(values, strings=(stretch,), texts=(stretch,), quoted=())
    if listed_strings(part):
        source, named = candidates("enum", key, part, alone)
        return value in named and (source != "enum-meaning" or len(stretch.split()) == 1)
    return value in part_offers(key, part, alone)


_NAMED_NUMBER = re.compile(r"(?<![\w.&'-])(?!I\b)[A-Z][\w.&'-]*\s+[A-Z0-9]")
"""A number written as part of a name in capitals ("NPO 1", "Radio 538", "Dune: Part Three"),
which names a thing as well as a number."""


def _percents_apart(shaped: Any, schema: Any, values: Values) -> Any:
    """``shaped`` (``schema`` copied) whose top-level number properties list no number the request
    writes only as a percentage where another property takes one
    (:func:`~gbnf.shape.sources.numbers.takes_percent`: "Somos siete ... con un 15 % de propina":
    ``tip_percent`` takes 15, ``people`` 7; "10 chairs with a 10% discount" still offers 10),
    unless they would list nothing else."""
    if not values.percents or (tops := _tops(shaped, schema)) is None:
        return shaped
    properties, declared = tops
    numeric = {key: part for key, part in declared.items()
               if isinstance(part, dict) and part.get("type") in ("integer", "number")}
    if not any(takes_percent(key, part) for key, part in numeric.items()):
        return shaped
    plain = {n for text in values.texts for n in unpercented_numbers(text)}
    written = {n for percent in values.percents for n in (percent, as_fraction(percent)) if n not in plain}
    kept = dict(properties)
    for key, part in numeric.items():
        enum = properties.get(key, {}).get("enum") if isinstance(properties.get(key), dict) else None
        if isinstance(enum, list) and not takes_percent(key, part):
            kept[key] = {**properties[key], "enum": [n for n in enum if n not in written] or enum}
    return {**shaped, "properties": kept}


def _claims(declared: Any, enum: Any) -> bool:
    """Whether a property declared as ``declared`` (a string, no free one, or a number) and shaped
    to list ``enum`` (one value, of more it declares) was given its value by the request."""
    if not (isinstance(declared, dict) and isinstance(enum, list) and len(enum) == 1
            and (declared.get("enum") is None or len(declared["enum"]) > 1)):
        return False
    if declared.get("type") == "string":
        return not free_string(declared) and isinstance(enum[0], str)
    return declared.get("type") in ("integer", "number") and isinstance(enum[0], int | float) \
        and not isinstance(enum[0], bool)


def _offering(key: str, schema: Any, values: Values, value: Any) -> str:
    """The shortest stretch of ``values`` that alone offers property ``key`` ``value`` (empty
    where none does)."""
    for stretch in sorted((s for s in values.strings if len(s.split()) <= MOST_PAIR_WORDS), key=len):
        alone = replace(values, strings=(stretch,), texts=(stretch,), quoted=())
        if part_offers(key, schema["properties"][key], alone) == [value]:
            return stretch
    return ""


def _listed_pair(properties: dict[str, Any], first: str, second: str,
                 numbers: bool = False) -> tuple[list[Any], list[Any]] | None:
    """The values the pair ``first`` and ``second`` each list, two or more each (``numbers``:
    numbers alone); None where either lists fewer or is no object."""
    listed: list[Any] = [part.get("enum") if isinstance(part := properties[key], dict) else None
                         for key in (first, second)]
    if all(isinstance(enum, list) and len(enum) > 1 and (not numbers or _numbers_or_free(enum)) for enum in listed):
        return listed[0], listed[1]
    return None


def _keep_own(kept: dict[str, Any], properties: dict[str, Any], pair: tuple[str, str],
              listed: tuple[list[Any], list[Any]], ways: Mapping[str, Collection[str | None]]) -> None:
    """Set in ``kept`` each property of ``pair`` to the values it ``listed`` without those
    ``ways`` (by each value's JSON) marks only for the other one; one left with none keeps all."""
    for key, enum, other in ((pair[0], listed[0], "target"), (pair[1], listed[1], "source")):
        own = [value for value in enum if set(ways.get(json_text(value), ())) != {other}]
        if own:
            kept[key] = {**properties[key], "enum": own}


def _one_each(shaped: Any) -> Any:
    """``shaped`` whose pair of top-level properties that runs one way
    (:func:`~gbnf.shape._directions.pairs`), one listing one value and the other that value and
    one more, lists the other without it: two values written for a pair, one each ("9:30 Sydney
    time to Los Angeles time": the target is Los Angeles, whichever marker the first lacks); but
    not a day before a span's first or after its last."""
    properties = shaped.get("properties") if isinstance(shaped, dict) else None
    if not isinstance(properties, dict):
        return shaped
    kept = dict(properties)
    for pair in pairs(list(properties)):
        listed = [part.get("enum") if isinstance(part := properties[key], dict) else None for key in pair]
        for alone, (key, both), later in ((listed[0], (pair[1], listed[1]), True),
                                          (listed[1], (pair[0], listed[0]), False)):
            if not (isinstance(alone, list) and isinstance(both, list) and len(alone) == 1 and len(both) == 2
                    and alone[0] in both):
                continue
            other = next(value for value in both if value != alone[0])
            if all(isinstance(v, str) and _ISO_DAY.match(v) for v in both) and (other > alone[0]) != later:
                continue  # a span of days ends after it starts: "next Monday through Friday"
            kept[key] = {**properties[key], "enum": [other]}
    return {**shaped, "properties": kept}


def _numbers_directed(shaped: Any, values: Values) -> Any:
    """``shaped`` whose pairs of top-level properties that run one way (``from_servings`` and
    ``to_servings``), both listing two numbers or more, list them without those the request
    marks for the other one, its number words read as digits ("from 6 servings up to 15", "da
    otto porzioni a tre": 8 is the first's, 3 the second's); of two numbers, one marked, the
    other is the other one's ("for twelve people instead of four")."""
    properties = shaped.get("properties") if isinstance(shaped, dict) else None
    paired = pairs(list(properties)) if isinstance(properties, dict) else []
    if not isinstance(properties, dict) or not paired:
        return shaped
    texts = [worded_in_digits(text) for text in values.texts]
    kept = dict(properties)
    for first, second in paired:
        listed = _listed_pair(properties, first, second, numbers=True)
        if listed is None:
            continue
        ways = {json_text(value): {way} if (way := marked(texts, json_text(value), number=True)) else set()
                for value in {*listed[0], *listed[1]}}
        unmarked = [value for value, way in ways.items() if not way]
        if len(ways) == 2 and len(unmarked) == 1:  # "for twelve people instead of four": 12 is the other's
            ways[unmarked[0]] = {"source", "target"} - next(way for way in ways.values() if way)
        _keep_own(kept, properties, (first, second), listed, ways)
    return {**shaped, "properties": kept}


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
"""How a date or a date-time in ISO 8601's form starts: such values sort as they follow in time."""


def _in_time_order(shaped: Any, values: Values) -> Any:
    """``shaped`` whose pair of top-level properties that starts and ends a span of time
    (:func:`~gbnf.shape._directions.time_pair`), both listing dates (or date-times) in ISO 8601's
    form, two or more in all, keeps the latest from the start and the earliest from the end:
    "return on 12 July, pick up on 5 July" starts on the 5th, in any language. Where they list
    one day alone and the conversation writes a length in days (:func:`~gbnf.shape.sources.durations.days_written`:
    "checking in 2027-08-14 for three nights", "住五晚"), the end is that many days later. So
    with times of day on a 24-hour clock ("de 22:30 a 23:30"), where they lie less than twelve
    hours apart (a span past midnight keeps both)."""
    properties = shaped.get("properties") if isinstance(shaped, dict) else None
    if not isinstance(properties, dict):
        return shaped
    listed = {key: part["enum"] for key, part in properties.items() if isinstance(part, dict)
              and isinstance(part.get("enum"), list) and part["enum"] and all(isinstance(v, str) for v in part["enum"])}
    dated = {key: enum for key, enum in listed.items() if all(_ISO_DAY.match(value) for value in enum)}
    timed = {key: enum for key, enum in listed.items() if all(_CLOCK_TIME.fullmatch(value) for value in enum)}
    kept: dict[str, list[str]] = {}
    if (pair := time_pair(list(dated))) is not None:
        start, end = pair
        days = sorted({*dated[start], *dated[end]})
        if len(days) == 1:
            later = (_days_after(days[0], n) for n in days_written(values.texts))
            kept = {end: list(dict.fromkeys(day for day in later if day))}
        else:
            kept = {start: [day for day in dated[start] if day != days[-1]],
                    end: [day for day in dated[end] if day != days[0]]}
    if (pair := time_pair(list(timed))) is not None:
        start, end = pair
        times = sorted({*timed[start], *timed[end]})
        if len(times) > 1 and int(times[-1][:2]) - int(times[0][:2]) < 12:
            kept.update({start: [time for time in timed[start] if time != times[-1]],
                         end: [time for time in timed[end] if time != times[0]]})
    return {**shaped, "properties": {**properties, **{key: {**properties[key], "enum": enum}
                                                      for key, enum in kept.items() if enum}}}


_CLOCK_TIME = re.compile(r"(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?")
"""A time of day on a 24-hour clock, as a pattern's form writes it (``22:30``, ``22:30:00``): such
values sort as they follow in a day."""


def _days_after(day: str, count: int) -> str | None:
    """The ISO 8601 date (or date-time, its time kept) ``count`` days after ``day``; None where
    either is no day ("2027-02-30") or the sum passes the calendar."""
    try:
        date = datetime.date.fromisoformat(day[:10]) + datetime.timedelta(days=count)
    except (ValueError, OverflowError):
        return None
    return date.isoformat() + day[10:]


def _writes_time(string: str) -> bool:
    """Whether ``string`` writes a time of day in digits ("10:30", "오후 4시에 경복궁")."""
    return any(c.isdigit() for c in string) and bool(written_times(string))


def _holds_marked(stretch: str, found: list[tuple[str, str | None]]) -> bool:
    """Whether ``stretch`` holds a shorter one of ``found`` that a marker marks ("trains to EDB"
    holds "EDB", marked by "to"): it says nothing of its own about the value's way."""
    return any(other in stretch and other != stretch for other, way in found if way)


def part_offers(key: str, part: Any, values: Values) -> list[Any]:
    """The values ``values`` offer ``part``, property ``key``'s value (:func:`copied` over it):
    none where they narrow nothing."""
    one = copied({"type": "object", "properties": {key: part}}, values)["properties"][key]
    enum = one.get("enum") if isinstance(one, dict) else None
    before = part.get("enum") if isinstance(part, dict) else None
    return list(enum) if isinstance(enum, list) and (before is None or len(enum) < len(before)) else []


def _kept_strings(found: Sequence[str], key: str | None, described: str, dated: frozenset[str],
                  quoted: Sequence[str], echoes: Collection[str]) -> list[str]:
    """A free string's candidates ``found`` after the checks :func:`copied` names."""
    if not _asks_for_date(key, described):  # the dates and their stretches go to one that does
        found = [string for string in found if string not in dated or string in quoted] or found
        found = [string for string in found if not (_writes_time(string) or day_part(string)) or string in quoted] \
            or found  # "10:30" and "오후" are no dish
    found = [string for string in found if not (has_cjk(string) and (len(string) == 1 or counted_first(string)))] \
        or found  # "买", "し", "五个人": no name
    if not _numbered(key or ""):  # "2013" is no act's name, "twelve" no recipe's
        found = [string for string in found if not NUMBER.fullmatch(string) and string.lower() not in NUMBER_WORDS] \
            or found
    return described_forms([s for s in found if fold(s) not in echoes], described)


def _after_label(found: Sequence[str], key: str | None, texts: Sequence[str]) -> list[str]:
    """``found`` (a free string's candidates) held to those the last message (``texts``) writes
    right after a word that means the argument's name, in any language the encoder reads, before a
    name (a capital), and those with that word before them ("im Restaurant Zur Linde", "le musée
    d'Orsay": ``restaurant`` takes the stretches that begin with "Restaurant", ``museum`` "d'Orsay"
    and "musée d'Orsay"; "Luigi's restaurant for 4" writes none); all of them where the message
    writes no such word before a name."""
    named = [word for word in argument_words(key or "") if word not in _NO_LABELS and len(word) >= 3]
    if not named or not texts or len(found) < 2:
        return list(found)
    text = texts[0]
    words = [word for word in _LABEL_WORD.finditer(text) if _NAME_NEXT.match(text, word.end())]  # a name next
    if not words:
        return list(found)
    vectors = phrase_vectors([*(without_elision(word.group()).lower() for word in words), *named])
    close = (vectors[:len(words)] @ vectors[len(words):].T).max(axis=1)
    labels = [word for word, near in zip(words, close) if near >= SAME_NOUN]
    after = [value for value in found if any(text[label.end():label.end() + 1].isspace()
                                             and text[label.end():].lstrip().startswith(value) for label in labels)]
    with_label = [value for value in found if any(len(value) > label.end() - label.start()
                                                  and text.startswith(value, label.start()) for label in labels)]
    return list(dict.fromkeys([*after, *with_label])) or list(found)


_LABEL_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_NAME_NEXT = re.compile(r"\s+(?:(?:[dl]|dell|all)['’])?[A-ZÀ-Þ]")
"""A name written next: a capital after a space, an elided article between ("musée d'Orsay"; not
"Luigi's restaurant for 4")."""
_NO_LABELS = frozenset({"name", "title", "the", "of", "for", "id"})
"""Words of an argument's name that label no value ("restaurant_name": "restaurant" does)."""


def _whole_codes(found: Sequence[str], key: str | None, texts: Sequence[str]) -> list[str]:
    """``found`` (a free string's candidates) held to the whole codes among them where the
    argument's name says it takes a code or a number (``plate_number``, ``order_id``: :func:`_numbered`):
    a stretch of words that each have a digit or are one to three capitals ("4821 KLM", "FG 123 HK"),
    with a digit and a letter (a number alone may be any number's: "3 nights" is no ``room_type``),
    in no longer one, and written as a word of its own in the conversation (``texts``; not "A12345"
    of "京A12345"); all of them where none is a code ("la matrícula 4821 KLM": not "matrícula
    4821", nor "4821" alone)."""
    named = name_words(key or "")
    if not named & _NUMBER_NAMES:
        return list(found)
    codes = [string for string in found if any(c.isdigit() for c in string) and any(c.isalpha() for c in string)
             and all(_CODE_WORD.fullmatch(word) and word.lower() not in named for word in string.split())
             and any(re.search(rf"(?<!\w){re.escape(string)}(?!\w)", text) for text in texts)]
    whole = [code for code in codes if not any(code != other and f" {code} " in f" {other} " for other in codes)]
    return whole or list(found)


_CODE_WORD = re.compile(r"[A-Za-z0-9./#-]*\d[A-Za-z0-9./#-]*|[A-Z]{1,3}")
"""A word of a code: one with a digit ("4821", "A12345", "#A-17") or one to three capitals ("KLM")."""


def _names_first(found: Sequence[str], key: str | None, texts: Sequence[str]) -> list[str]:
    """``found`` (a free string's candidates) held to those that hold a proper noun of the last
    message (``texts``) in Chinese, Japanese or Korean (:func:`~gbnf.shape._segments.proper_nouns`:
    "山本さんに閲覧のみで共有": ``colleague`` takes 山本, not さん), and of those the ones without a
    particle or an ending inside ("渋谷駅", not "渋谷駅でスマホ"), where any do and the argument's
    name speaks of no text of the user's own (``message``, ``note``: :data:`_TEXT_NAMES`)."""
    if len(found) < 2 or not texts or _TEXT_NAMES & set(argument_words(key or "")):
        return list(found)
    names = proper_nouns(texts[0])
    named = [string for string in found if any(name in string for name in names)]
    return [string for string in named if not has_function_word(string)] or named or list(found)


_TEXT_NAMES = frozenset(words("text_names"))


def _past_the_verb(found: Sequence[str], key: str | None, texts: Sequence[str], quoted: Sequence[str]) -> list[str]:
    """``found`` (a free string's stretches, argument ``key``'s) without those that start at the
    first word of the last message (``texts``) where it opens with its verb
    (:func:`~gbnf.shape._language.verb_first`): "Zet Radio 538 aan" offers "Radio 538", not "Zet
    Radio 538"; "Manda um postal à Ana Ribeiro" offers no "Manda". Not a quotation (``quoted``),
    nor where the first clause is a word or two (a name alone: "Radio Paradise, please."), nor for
    an argument whose name says it takes the user's own text (:data:`_TEXT_NAMES`: a reminder's
    ``text``, "Remind me to call mom"); all of them where none would be left. A city is offered by
    its own source, before the stretches ("Paris weather for tonight")."""
    text = texts[0].strip().lstrip(OPENING_MARKS) if texts else ""
    if not verb_first(text) or not any(len(clause.split()) > 2 for clause in punctuated_clauses(text)[:1]) \
            or _TEXT_NAMES & set(argument_words(key or "")):
        return list(found)  # a first clause of a word or two is a name alone ("Radio Paradise, please.")
    kept = [string for string in found if string in quoted or not re.match(rf"{re.escape(string)}(?!\w)", text)]
    return kept or list(found)


def _whole_quotations(found: Sequence[str], texts: Sequence[str]) -> list[str]:
    """``found`` (a free string's candidates) without the words of a quotation of ``texts`` (the
    last message) but for the whole of it, where they are no quotation of their own: "Add 'call
    the plumber about the kitchen leak'" offers no "kitchen leak" (all of them where none would
    be left)."""
    quoted = [quotation for text in texts for quotation in read_request(text).quotations]
    inside = [string for string in found if string not in quoted and any(
        string != whole and re.search(rf"(?<!\w){re.escape(string)}(?!\w)", whole) for whole in quoted)]
    return [string for string in found if string not in inside] or list(found)


def _held(out: dict[str, Any], _key: str | None) -> dict[str, Any]:
    """An array that takes each of its listed values once (``uniqueItems``) asked for no more
    items (``minItems``) than it still lists, once copying narrowed them to those one call's
    words name (:func:`~gbnf.shape._listed.items_listed` counts a whole request's)."""
    items = out.get("items")
    if out.get("uniqueItems") is True and isinstance(items, dict) and isinstance(items.get("enum"), list) \
            and out.get("minItems", 0) > len(items["enum"]):
        return {**out, "minItems": len(items["enum"])}
    return out


def described_forms(values: Sequence[str], description: str) -> list[str]:
    """``values``, each written as ``description`` writes it where it lists two or more values
    (quoted, or else after "e.g.", "such as"...: :func:`_examples`) and one's words are another
    form of that one's (stemmed alike, written otherwise: "heart" of "Valid values include:
    'spades', 'clubs', 'hearts'": ``hearts``; "mile" of "('miles' or 'kilometers')": ``miles``;
    "living rooms" of "e.g. Living room, Bathroom": ``Living room``): a small model copies the
    request's form, and the tool takes the form its description lists. Others as they are: one
    written as listed but for its case, and one whose stems two listed values share ('C' and
    'C#')."""
    forms = _listed_forms(description)
    if not forms:
        return list(values)
    return list(dict.fromkeys(form if (form := forms.get(_stems(value))) and word_key(form) != word_key(value)
                              else value for value in values))


def listed_values(description: str) -> tuple[str, ...]:
    """The values ``description`` lists, two or more (quoted, or else after "e.g.", "such
    as"...), none of two alike in stems."""
    return tuple(_listed_forms(description).values())


@functools.lru_cache(maxsize=256)
def _listed_forms(description: str) -> dict[tuple[str, ...], str]:
    """The values ``description`` lists, two or more, by their stems (none of two alike in
    stems): read once per description, not once per request (:func:`described_forms`)."""
    listed = list(dict.fromkeys(quotations(description) or _examples(description)))
    stems = Counter(_stems(value) for value in listed)
    return {_stems(value): value for value in listed if stems[_stems(value)] == 1} if len(listed) > 1 else {}


def _examples(description: str) -> list[str]:
    """The values ``description`` lists, unquoted, after "e.g.", "such as", "like"... up to the
    end of that sentence, parted at commas, "or" and "and" ("Type of the room e.g. Living room,
    Bathroom etc.": ``Living room``, ``Bathroom``)."""
    found = _EXAMPLES.search(description)
    listed = _EXAMPLE_JOIN.split(found.group(1)) if found else []
    return [value for part in listed if (value := _ETC.sub("", part).strip())]


_EXAMPLES = re.compile(rf"\b(?:{either('example_leads')})\s+([^.;:()]+)", re.IGNORECASE)
_EXAMPLE_JOIN = re.compile(rf",\s*|\s+(?:{either('example_joins')})\s+")
_ETC = re.compile(rf"\b(?:{either('example_ends')})\.?$", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def _stems(text: str) -> tuple[str, ...]:
    """The stem of each of ``text``'s words, every word kept (``Hearts``: ``heart``)."""
    return tuple(STEMMER.stemWords(word_key(text).split()))


def _named_values(schema: Any, labels: Labels, names: Names) -> Any:
    """``schema`` whose top-level properties that list their values (numbers, strings) list
    them without those ``labels`` and ``names`` name as another of them only (see
    :func:`copied`); a property left with nothing keeps its values."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not (labels or names) or not isinstance(properties, dict):
        return schema
    listing = {key: sub for key, sub in properties.items()
               if isinstance(sub, dict) and isinstance(sub.get("enum"), list)}
    numeric = _named_apart([key for key, sub in listing.items() if sub.get("type") in ("integer", "number")],
                           [((label,), number) for label, number in labels], names_argument)
    strings = _named_apart([key for key, sub in listing.items() if sub.get("type") == "string"], names,
                           labels_argument)
    kept = dict(properties)

    def keep(key: str, listed: list[Any]) -> None:
        if listed and len(listed) < len(listing[key]["enum"]):
            kept[key] = {**listing[key], "enum": listed}
    for key, (written, _) in numeric.items():
        keep(key, [value for value in listing[key]["enum"] if value not in written])
    for key, (others, mine) in strings.items():
        keep(key, [value for value in listing[key]["enum"] if not overlaps(value, others, mine)])
    return {**schema, "properties": kept}


def _counted_values(schema: Any, values: Values) -> Any:
    """``schema`` whose top-level number properties that list their values, two or more of them,
    list only the numbers the conversation writes right before the word the property counts
    (:func:`~gbnf.shape.rules.counted`: "4 guests, 2 rooms": ``rooms`` takes 2) or in a later
    text ("Make that 3 instead."), where it lists any of them, else none that it writes before
    the word another one counts (``guests`` takes 4, not 2); a word that two of them count says
    nothing ("from 4 to 10 servings"); a property left with nothing keeps its values."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return schema
    listing = {key: sub for key, sub in properties.items() if isinstance(sub, dict)
               and sub.get("type") in ("integer", "number") and isinstance(sub.get("enum"), list)}
    read = [read_request(text) for text in values.texts] if len(listing) > 1 else []
    counted = [(i, number, {key for key in listing if counts_argument(noun, key)})
               for i, one in enumerate(read) for noun, number in one.counts]
    counts = [(i, number, keys) for i, number, keys in counted if len(keys) == 1]  # "4 to 10 servings": either
    if not any(keys for _, _, keys in counts):
        return schema
    kept = dict(properties)
    for key, sub in listing.items():
        mine = {number for _, number, keys in counts if key in keys}
        latest = min((i for i, _, keys in counts if key in keys), default=0)  # the texts run latest first
        mine |= {number for one in read[:latest] for number in one.numbers}  # "Make that 60 instead."
        others = {number for _, number, keys in counts if keys and key not in keys} - mine
        listed = [n for n in sub["enum"] if n in mine] or [n for n in sub["enum"] if n not in others]
        if listed and listed != sub["enum"]:
            kept[key] = {**sub, "enum": listed}
    return {**schema, "properties": kept}


Named = TypeVar("Named", str, Number)


def _named_apart(keys: list[str], pairs: Sequence[tuple[tuple[str, ...], Named]], names: Callable[[str, str], bool]
                 ) -> dict[str, tuple[list[Named], list[Named]]]:
    """For each of ``keys``: the values ``pairs`` (each value with its labels) name as another
    of ``keys`` only, and those they name as it or as none (``names(label, key)``: whether a
    label names a key)."""
    named = [(value, [key for key in keys if any(names(label, key) for label in written)])
             for written, value in pairs]
    found = {}
    for key in keys:
        own = [value for value, by in named if not by or key in by]
        found[key] = ([value for value, by in named if by and key not in by and value not in own], own)
    return found


def kept_apart(schema: Any, avoid: Sequence[tuple[str, str | int | float]]) -> Any:
    """``schema`` with each property ``avoid`` names (a copied one, listing its values) listing
    them without the value it names: without that number, or without every string that holds
    that string's words in a row or is held in them (``Las Vegas``: nor ``Las Vegas, with``,
    nor ``Las``). None when a property lists none of them, or nothing else."""
    properties = dict(schema.get("properties") or {})
    for key, value in avoid:
        listed = (properties.get(key) or {}).get("enum")
        if not isinstance(listed, list):
            return None
        kept = [v for v in listed if shared_value(v, value) is None]
        if not kept or len(kept) == len(listed):
            return None
        properties[key] = {**properties[key], "enum": kept}
    return {**schema, "properties": properties}


_ENCODED = re.compile(rf"\b(?:{CODE_WORDS}|{either('encoded')})\b", re.IGNORECASE)
"""What a string's description says when its value encodes what a request writes."""
_BRACKETED = re.compile(r"\(([^()]*)\)")
_EXAMPLE_LEAD = re.compile(rf"^\s*(?:{either('example_leads')})\b", re.IGNORECASE)


def _without_topics(description: str) -> str:
    """``description`` without the lists of three topics or more it writes in brackets ("(luggage,
    meeting point, door code, ...)"): what a value may speak of, not what it encodes. A list of
    values is kept ("(IATA code, e.g. JFK, LAX)": an item led by "e.g.", or one in capitals)."""
    def topics(bracket: re.Match[str]) -> bool:
        items = [item.strip() for item in bracket.group(1).split(",")]
        return len(items) >= 3 and not any(_EXAMPLE_LEAD.match(item) or item.isupper() for item in items)
    return _BRACKETED.sub(lambda bracket: "" if topics(bracket) else bracket.group(), description)


def _encoded(description: str, strings: Sequence[str], day: datetime.date | None = None) -> bool:
    """Whether a string's description says its value encodes what a request writes (a code, a
    ticker symbol), outside a list of topics (:func:`_without_topics`): not one that asks for
    dates in a format, where the request writes dates it can take ("in ISO 8601 format,
    YYYY-MM-DD" beside "on March 3, 2024"); a request that writes none leaves it free."""
    if not _ENCODED.search(_without_topics(description)):
        return False
    moment, form = moment_format(description), date_format(description)
    return not ((moment and written_moments(strings, moment, day)) or (form and written_dates(strings, form, day)))


def _each_part(schema: Any, change: Callable[[dict[str, Any], str | None], dict[str, Any]],
               name: str | None = None) -> Any:
    """``schema`` with ``change(part, name)`` applied to each part (a copy, innermost parts
    first), through properties, items, unions and additionalProperties; ``name`` is the
    property the part is the value of, or its items or branches (None at the top)."""
    if isinstance(schema, list):
        return [_each_part(part, change, name) for part in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: _each_part(value, change, name) if key in _SUBSCHEMAS else value for key, value in schema.items()}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {k: _each_part(v, change, k) for k, v in out["properties"].items()}
    return change(out, name)


_DATE_WORDS = frozenset(terms(" ".join(DATE_NAMES | TIME_NAMES)))
_CALENDAR = frozenset(terms(" ".join(words("calendar_names"))))
_NUMBER_NAMES = frozenset(words("number_names"))


def _numbered(name: str) -> bool:
    """Whether a string argument's name lets it take a number written alone (``patient_id``,
    ``case_no``, ``docket_number``, ``season``): any other takes a stretch with words, where the
    request writes one ("the Grammy winner of 2013": an ``act`` is no ``2013``)."""
    return bool(name_words(name) & _NUMBER_NAMES) or _calendar_named(name)


def _calendar_named(name: str) -> bool:
    """Whether an argument's name speaks of a part of the calendar (``year``, ``hours``,
    ``season``): it may take the numbers of a date or a time."""
    return bool(_CALENDAR & set(terms(identifier_words(name))))


def _asks_for_date(name: str | None, description: str) -> bool:
    """Whether a property's name or description speaks of a date or time (``check_in``, "The
    check-in date"; ``birthdays``), or its description asks for a date format."""
    return bool(set(terms(f"{identifier_words(name or '')} {description}")) & _DATE_WORDS) \
        or date_format(description) is not None or moment_format(description) is not None


@functools.lru_cache(maxsize=64)
def _dated(strings: tuple[str, ...], texts: Sequence[str] = ()) -> frozenset[str]:
    """The dates among ``strings`` (a request's stretches, :func:`~gbnf.shape._dates.written_date`,
    or written from today: :func:`~gbnf.shape._dates.from_today`), the Chinese, Japanese and Korean
    ones that write a date's or a time's number (:data:`_CJK_CALENDAR`), and those that share words with
    one (:func:`_overlap`; a date with the word for "day" before it, :data:`_DAY_WORDS`; in Korean,
    a day's word with a particle: "내일부터", :func:`_dated_word`): "March 10, 2022", "March",
    "2022", "March 10, 2022 to March 20, 2022", "Germany from March", "2022 to April", "Oslo
    tomorrow", "Lyon next", "728 no dia" of "no dia 27 de dezembro"; and those that end where
    a date begins or begin where one ends, in ``texts`` (:func:`_crosses`: "Rosalía el 15" of
    "Rosalía el 15 de octubre", "11/2027, palco" of "22/11/2027, palco"; not "Studio 5" of "Studio 5
    on 5 July")."""
    dates = [(string, _WORD.findall(string)) for string in strings if written_date(string) or from_today(string)
             or string.split(" ", 1)[0].lower() in _DAY_WORDS and written_date(string.split(" ", 1)[-1])]
    worded = [date for date, _ in dates if has_cjk(date)]
    found = {string for string in strings if has_cjk(string) and (
        dates_at(string) or _CJK_CALENDAR.search(string) or any(_dated_word(string, date) for date in worded))}
    for string in strings if dates else ():
        words = _WORD.findall(string)
        if any(_overlap(words, date) or _crosses(string, written, texts) for written, date in dates):
            found.add(string)
    return frozenset(found)


def _dated_word(string: str, date: str) -> bool:
    """Whether a word of ``string`` is Korean ``date`` with a particle after it ("내일부터", "모레까지";
    not "오늘이", a name)."""
    return any(word.startswith(date) and word[len(date):] in _PARTICLES for word in string.split())


_PARTICLES = frozenset({"부터", "까지", "에", "에는", "은", "는", "도", "의", "에서", "까진", "부턴"})
"""Korean particles written onto a word for a day ("내일부터": from tomorrow)."""
_DAY_WORDS = frozenset({"day", "dia", "día", "giorno", "jour", "tag", "dag", "dzień", "gün"})
"""Words for "day" written before a date ("no dia 27 de dezembro"): part of it."""


def _crosses(string: str, date: str, texts: Sequence[str]) -> bool:
    """Whether ``string`` is written in one of ``texts`` across an end of ``date`` written there
    (it starts before the date and ends inside it, or starts inside it and ends after)."""
    for text in texts:
        for start in _places(text, string):
            end = start + len(string)
            if any(start < at < end < at + len(date) or at < start < at + len(date) < end
                   for at in _places(text, date)):
                return True
    return False


def _places(text: str, part: str) -> list[int]:
    """Where ``part`` is written in ``text``."""
    found, at = [], text.find(part)
    while at >= 0:
        found.append(at)
        at = text.find(part, at + 1)
    return found


_CJK_CALENDAR = re.compile(r"\d[年月日]|月\d+[号號]|(?:\d|[二两兩三四五六七八九十])[点點時时]|^[年月日号號点點時时分]|"
                           r"(?:午前|午後|上午|下午|晚上|早上)\s*(?:\d|[一二两兩三四五六七八九十])|"
                           r"\d[년월일시]|(?:오전|오후|저녁|아침|새벽)\s*\d")
"""A number of a date or a time of day as Chinese, Japanese and Korean write it ("2027年", "23日",
"1月5号", "七点", "午後6", "9월", "오전 10"), or a stretch that starts inside one ("時にココ"): no
name ("2027年1月23日晚上"); not a street's number ("中山路100号"), a line's ("1号线"), nor "一点",
"a little" ("便宜一点")."""
_WORD = re.compile(r"\w+")
"""A word as :func:`_overlap` compares them: as written, case kept (``word_key`` would fold
"tuesday" into a date's "Tuesday")."""


def _overlap(mine: list[str], dated: list[str]) -> bool:
    """Whether the words of a stretch (``mine``) and of a date (``dated``) overlap: one holds the
    other, or the stretch ends with the date's first words or starts with its last ones, a word
    with letters among them (a month's name: "Germany from March"; not "1" of "October 1" in
    ``1-523-1713``)."""
    counts = range(1, min(len(mine), len(dated)) + 1)
    edges = [(mine[-count:], dated[:count]) for count in counts] + [(mine[:count], dated[-count:]) for count in counts]
    return _holds(mine, dated) or _holds(dated, mine) \
        or any(ours == theirs and not all(word.isdigit() for word in ours) for ours, theirs in edges)


def _holds(words: list[str], part: list[str]) -> bool:
    """Whether ``part`` is a run of ``words``."""
    return any(words[start:start + len(part)] == part for start in range(len(words) - len(part) + 1))


_SUBSCHEMAS = {"items", "prefixItems", "anyOf", "oneOf", "allOf", "additionalProperties"}


def _numbers_or_free(enum: Any) -> bool:
    """Whether a number's ``enum`` is none, or lists numbers alone (``[30, 45, 60, 90]``: it is
    narrowed to the numbers the conversation writes, as a free number is)."""
    return enum is None or isinstance(enum, list) and all(
        isinstance(value, (int, float)) and not isinstance(value, bool) for value in enum)


def _copied_number(schema: Any) -> bool:
    """Whether an array's items are numbers copied from a request (a number's enum)."""
    return isinstance(schema, dict) and schema.get("type") in ("integer", "number") and "enum" in schema
