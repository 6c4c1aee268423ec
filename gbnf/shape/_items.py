"""What each call asks for on its own (:func:`asked_items`, :func:`items_in_turn`): the k-th call
of a tool takes the k-th of what the request enumerates, or of its parts. And what a decoded
reply's calls are checked for: an argument that repeats a value the user wrote once
(:func:`repeated_value`, :func:`calls_apart`), and a call past those asked for that adds nothing
of the user's (:func:`adds_nothing`).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from gbnf._text import mentions, word_key
from gbnf.compiler import is_number
from gbnf.shape._calls import AGAIN, MANY, REQUEST_CUT, asked_in_turn, clauses_by_tool
from gbnf.shape._listed import (
    NAMED,
    SENTENCE_END,
    choices_written,
    crossed_enumerations,
    dates_listed,
    named_places,
    names_again,
    names_by_argument,
    names_called,
)
from gbnf.shape._request import Request, read_request
from gbnf.shape._shaped import kept_apart
from gbnf.shape._tool_words import is_number_array, is_numeric
from gbnf.shape._values import Number, Row, as_fraction, numbers_named, shared_value
from gbnf.tools import Tool

_PARTS = re.compile(rf"{REQUEST_CUT}|:\s+(?=(?-i:[A-Z]))|{AGAIN.pattern}", re.IGNORECASE)
"""Where one part of a request ends and the next starts, each perhaps a call of its own
(:func:`_numbers_by_part`): where a request ends, "then", "again"..., and a colon before a
capital ("as follows: The first ...")."""


def items_in_turn(tools: list[Tool], request: Request, most: int) -> tuple[tuple[Items, int], ...]:
    """For each of the first calls :func:`~gbnf.shape._calls.asked_order` names, in turn: what each
    call of its tool asks for on its own (:func:`asked_items`, read in the words that ask for that tool) and which
    of those calls it is (from 0); the k-th call takes the k-th items
    (:func:`~gbnf.shape.rules.own_values`). A tool whose words point back at several things an earlier
    tool's calls were counted from ("the life expectancy in 1900 and 1950, and the GDP in these
    years") takes that tool's items: its first call 1900, its second 1950. No items where one
    tool's calls are all that is asked; empty for one tool, and for a request not in English,
    whose clauses these words do not read."""
    if len(tools) < 2 or not request.english:
        return ()
    key = tuple((tool.name, tool.description) for tool in tools)
    texts = dict(clauses_by_tool(key, request.text))
    calls = asked_in_turn(tools, request, most)
    counts = Counter(calls)
    if len(counts) < 2:  # one tool's calls, counted among several tools: no enumeration of theirs is read
        return tuple(((), k) for k in range(len(calls)))
    items: dict[int, Items] = {}
    for i in dict.fromkeys(calls):
        text = texts.get(i, "")
        found = asked_items([tools[i]], read_request(text), counts[i]) if counts[i] > 1 else ()
        if not any(found) and MANY.search(text):
            found = next((mine for j, mine in items.items() if counts[j] == counts[i] and any(mine)), ())
        items[i] = found
    seen: Counter[int] = Counter()
    out = []
    for i in calls:
        out.append((items[i], seen[i]))
        seen[i] += 1
    return tuple(out)


Items = tuple[tuple["str | Number", ...], ...]
"""What each call of one tool asks for on its own, in turn (:func:`asked_items`)."""


def asked_items(tools: list[Tool], request: Request, calls: int) -> Items:
    """What each of ``calls`` calls of one tool asks for on its own, in turn, when ``request``
    enumerates exactly that many things to make a call for: names ("the weather in Paris, London
    and Rome": Paris, London, Rome), numbers the tool takes one at a time ("for 10, 20 and 30
    years"), or both ("Apple, Amazon and Tesla over 1, 2 and 3 weeks": Apple with 1...). The k-th
    call takes the k-th of each, and no other call's (:func:`~gbnf.shape.rules.own_values`): small
    models otherwise copy the first item into every call. An item the request writes twice is
    no one call's own, unless each writing is one part's own (:func:`_numbers_by_part`: "10
    shots", then "exactly 10 shots"). Empty for several tools, and when no enumeration (or more than one) has
    that many items. A numeric argument whose name is written right before that many numbers
    ("the first circle has a radius of 5cm, the second a radius of 10cm": 5, then 10,
    :func:`~gbnf.shape.rules.numbers_named`) gives each call its own too, and so does a string argument
    whose name is written right before that many names ("case number XY1234 ... case number
    GH5678", :func:`~gbnf.shape.rules.strings_named`), as does a request written in as many parts in
    a row as calls, each naming one thing anew (:func:`_numbers_by_part`), or in as many parts
    each writing names ("in San Francisco in 2019, and the same in Texas": :func:`_names_by_part`),
    or writing its numbers call by call ("85 kilograms and 1.8 meters tall, and Sarah 60
    kilograms and 1.65 meters": :func:`_in_rows`), or writing that many of the strings one
    argument lists ("the last six months, the last year...":
    :func:`~gbnf.shape._listed.choices_written`), or that many dates for its one argument of
    dates ("on 2020-12-25 and 2021-01-01": :func:`~gbnf.shape._listed.dates_listed`). Two
    enumerations that fill different arguments give each call one pair ("the Lakers and the
    Bulls in 2018 and 2020": the Lakers with 2018, then with 2020...,
    :func:`~gbnf.shape._listed.crossed_enumerations`)."""
    if len(tools) != 1 or calls < 2:
        return ()
    props = tools[0].parameters.get("properties") or {}
    names = [found for found in names_called(props, request.text) if len(found) == calls]
    scalars = [key for key, sub in props.items() if is_numeric(sub)]
    held = any(map(is_number_array, props.values()))
    numbers = [found for found in request.number_lists if len(found) == calls] if scalars and not held else []
    columns = [tuple(found[0]) for found in (names, numbers) if len(found) == 1]
    columns += [tuple(named) for key in scalars if len(named := numbers_named(request.labels, key)) == calls]
    columns += [tuple(found) for found in names_by_argument(props, request) if len(found) == calls]
    columns += [again] if len(again := names_again(request.text)) == calls else []
    columns += [choices for choices in choices_written(props, request.text) if len(choices) == calls]
    columns += [dates] if len(dates := dates_listed(props, request.text)) == calls else []
    crossed = crossed_enumerations(props, request)
    if math.prod(map(len, crossed)) == calls:  # empty: a product of 1, and calls are 2 or more
        columns = list(zip(*itertools.product(*crossed)))
    rows = list(zip(*columns)) or [()] * calls
    by_part = _numbers_by_part(request, calls)
    parted = Counter(number for numbers in by_part for number in numbers)
    in_rows = _in_rows(request, request.numbers_by_call(len(scalars), calls) if not held else [], calls)
    rows = [tuple(dict.fromkeys(row + numbers + written + names)) for row, numbers, written, names
            in zip(rows, by_part, in_rows, _names_by_part(request, calls))]
    rows = _with_parts(request, rows)
    own = tuple(tuple(item for item in items if _once(request, item) or _parted(request, item, parted))
                for items in rows)
    return own if any(own) else ()


def _with_parts(request: Request, rows: list[tuple[str | Number, ...]]) -> list[tuple[str | Number, ...]]:
    """Each call's items (``rows``), with the numbers written in a part of ``request`` (a
    sentence, or what a colon, "also" or "then" starts: :func:`_request_parts`) that
    writes that call's items and no other call's, where every call has such parts and they
    write alike, each two numbers or more and at least half as many as any other's ("The first company
    has a net income of $1,000,000, equity of $5,000,000 and paid dividends of $200,000. The
    second company has a net income of $2,000,000 and equity of $10,000,000": 200,000 is the
    first call's, not the second's too); not where one writes only what changes ("... a sample
    mean of 25 at 95% confidence. What about a sample size of 150?", "then repeat with rain of 45
    mm": the first part's numbers are every call's)."""
    items = {item for row in rows for item in row}
    own: dict[int, list[Number]] = {}
    for part in _request_parts(request.text):
        written = read_request(part)
        callers = [k for k, row in enumerate(rows) if any(
            item in written.numbers if not isinstance(item, str) else mentions(part, item) for item in row)]
        if len(callers) == 1:
            own.setdefault(callers[0], []).extend(written.numbers_alone)
    fewest = min(map(len, own.values()), default=0)
    if len(own) < len(rows) or fewest < 2 or 2 * fewest < max(map(len, own.values())):
        return rows
    return [tuple(dict.fromkeys([*row, *(n for n in own[k] if n not in items)])) for k, row in enumerate(rows)]


def _in_rows(request: Request, rows: list[Row], calls: int) -> list[tuple[str | Number, ...]]:
    """Each call's numbers where ``request`` writes them call by call (``rows``,
    :meth:`Request.numbers_by_call`), with the names written with them: after each row's numbers
    up to the next row's, where the sentence names nothing before the first row ("$30.45 in
    Chicago, Illinois, $52.33 in Sacramento, California and $11.23 in Portland, Oregon"), or
    before them, from the previous row's, where it names nothing after the last ("in Chicago
    $30.45 and in Sacramento $52.33"); every row as many names as the rows between the others
    write (the first or last row: its nearest ones), else none. Empty tuples without rows."""
    if not rows:
        return [()] * calls
    text = request.text
    start = max((cut.end() for cut in SENTENCE_END.finditer(text, 0, rows[0][1])), default=0)
    end = next((cut.start() for cut in SENTENCE_END.finditer(text, rows[-1][2])), len(text))

    def names(first: int, last: int) -> list[str]:
        return _names_written(request, text[first:last])
    before, after = names(start, rows[0][1]), names(rows[-1][2], end)
    numbers = [row[0] for row in rows]
    between = [names(left[2], right[1]) for left, right in zip(rows, rows[1:])]
    wide = {len(found) for found in between}
    if bool(before) == bool(after) or len(wide) != 1 or not (width := wide.pop()):
        return list(numbers)
    edge = after[:width] if after else before[-width:]
    if len(edge) != width:
        return list(numbers)
    found = [*between, edge] if after else [edge, *between]
    return [(*row, *dict.fromkeys(written)) for row, written in zip(numbers, found)]


def _numbers_by_part(request: Request, calls: int) -> list[tuple[Number, ...]]:
    """Each call's numbers when ``request`` writes its numbers in parts (cut at sentence ends,
    "also", "then", "repeat", a colon before a capital...), ``calls`` of them in a row each
    naming one thing anew that no other part names: the numbers each of those parts writes after
    that name's last word ("a change in time of 4 seconds, then repeat with a change in time of
    10 seconds": 4, then 10), or every number each writes where each writes as many ("The first
    person weighs 180 lbs, is 70 inches tall. The second person weighs 200 lbs, is 65 inches
    tall": 180 and 70, then 200 and 65). A part before or after them that names none of it sets
    the scene for every call ("a player has a 60% chance. In a series of 10 shots..."). Empty
    tuples otherwise, or when more than one run of parts would do."""
    parts = [labels for part in _request_parts(request.text) if (labels := read_request(part).labels)]
    heads = [{label.split()[-1] for label, _ in labels if label} for labels in parts]
    found = []
    for start in range(len(parts) - calls + 1) if calls >= 2 else ():
        anew = set.intersection(*heads[start:start + calls])
        if anew and not any(anew & named for named in heads[:start] + heads[start + calls:]):
            run = parts[start:start + calls]
            alike = len(set(map(len, run))) == 1
            found.append([tuple(dict.fromkeys(n for label, n in labels
                                              if alike or (label and label.split()[-1] in anew)))
                          for labels in run])
    return found[0] if len(found) == 1 else [()] * calls


@functools.lru_cache(maxsize=64)
def _request_parts(text: str) -> tuple[str, ...]:
    """A request's parts, cut at sentence ends, "also", "then", "repeat", a colon before a
    capital... (:data:`_PARTS`), those with words: what :func:`_numbers_by_part` and
    :func:`_names_by_part` read."""
    return tuple(part for part in _PARTS.split(text) if part and part.strip(" ,.?!"))


def _names_by_part(request: Request, calls: int) -> list[tuple[str, ...]]:
    """Each call's names when ``request`` is written in as many parts as it asks ``calls``
    (as :func:`_numbers_by_part` cuts it) and every part writes a name: the names each part
    writes ("money laundering in San Francisco in 2019, and the same in Texas in 2018": San
    Francisco, then Texas; :func:`asked_items` keeps those no other part writes). Empty
    tuples otherwise."""
    parts = _request_parts(request.text)
    names = [tuple(dict.fromkeys(_names_written(request, part))) for part in parts]
    return names if len(parts) == calls and all(names) else [()] * calls


def _names_written(request: Request, text: str) -> list[str]:
    """The names written inside sentences of ``text``, a part of ``request``, each place with its
    region (:func:`~gbnf.shape._listed.named_places`): not the units the request writes ("in
    Celsius") nor a word that starts a part ("..., Also list")."""
    return [name for match in NAMED.finditer(text) for name in named_places(match.group())
            if name not in request.units and not _PARTS.fullmatch(name)]


def _once(request: Request, item: str | Number) -> bool:
    """Whether ``request`` writes ``item`` once: one named twice ("USD to AUD and USD to CAD"),
    or a number written twice ("5%" and "for 1, 5 and 10 years"), is no one call's own."""
    if isinstance(item, str):
        key = word_key(item)
        return f" {request.key} ".count(f" {key} ") == 1 if key else False
    return request.numbers.count(item) == 1


def _parted(request: Request, item: str | Number, parted: Counter[Number]) -> bool:
    """Whether ``item`` is a number each writing of which is one part's own (``parted`` counts
    them, :func:`_numbers_by_part`): "exactly 10 shots" in one part and "a series of 10 shots"
    in the next are each their call's, not a value every call shares."""
    return not isinstance(item, str) and parted[item] > 0 and request.numbers.count(item) == parted[item]


Repeated = tuple[int, str, "str | Number"]
"""An argument that repeats a value: the call's index, the argument's name and the value."""


def repeated_value(calls: Sequence[tuple[str, Mapping[str, Any]]], request: Request) -> Repeated | None:
    """The first argument of ``calls`` (each a tool's name and its arguments) that repeats
    what an earlier argument of the same call took, when ``request`` writes it once: the same
    number, or a string whose words hold the other's or are held in them ("Gold", "Gold
    price"). Words the user wrote once fill one argument; a small model otherwise copies them
    into the next one too ("Gold price per ounce": ``{"metal": "Gold", "measure": "Gold"}``).
    The value given is what was repeated: the number, or the shorter string. None when no
    argument repeats one."""
    for index, (_, arguments) in enumerate(calls):
        seen: list[str | Number] = []
        for name, value in arguments.items():
            if isinstance(value, bool) or not isinstance(value, str | int | float):
                continue
            for earlier in seen:
                shared = shared_value(earlier, value)
                if shared is not None and _once(request, shared):
                    return index, name, shared
            seen.append(value)
    return None


def adds_nothing(arguments: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]], request: Request) -> bool:
    """Whether a call with ``arguments``, after calls with ``earlier`` arguments, writes nothing
    of the user's that those did not: no word of its strings that ``request`` writes (in any
    script: "伦敦" of "巴黎和伦敦的天气"), no number of it (or a hundredth of one, as a percentage
    reads: 0.025 of "2.5%", :func:`~gbnf.shape._values.as_fraction`) that an earlier call did not
    write. A call that swaps the earlier calls' values, turns a boolean or
    picks another value a list offers ("sine", then "square") adds nothing the user wrote; the
    weather for "London" after the weather for "Paris" does."""
    text = request.text.casefold()
    numbers = {*request.numbers, *map(as_fraction, request.numbers)}

    def own(value: Any) -> set[str | Number]:
        """The user's words and numbers in ``value``."""
        if isinstance(value, Mapping):
            return {item for sub in value.values() for item in own(sub)}
        if isinstance(value, list):
            return {item for sub in value for item in own(sub)}
        if isinstance(value, str):
            return {word for word in re.findall(r"\w+", value.casefold()) if word in text}
        if is_number(value) and value in numbers:
            return {value}
        return set()

    return not own(dict(arguments)) - own(list(earlier))


APART_ROUNDS = 3
"""How many times a reply whose call repeats a value the user wrote once is asked again
(:func:`calls_apart`), under the same sampling: greedy decoding writes what comes before that
argument as it did."""
Apart = tuple[tuple[str, "str | Number"], ...]
"""What one call asked again is kept from: (argument, value) pairs (:func:`~gbnf.shape.rules.kept_apart`)."""
Called = tuple[tuple[str, Apart], ...]
"""The first calls of a reply asked again, in turn: each tool's name and what it is kept from."""


def calls_apart(calls: Sequence[tuple[str, Mapping[str, Any]]], request: Request, called: Called = ()) -> Called | None:
    """When one of ``calls`` repeats a value the user wrote once (:func:`repeated_value`), the
    first calls of the reply to ask again: the tools of the calls up to that one, in turn,
    each kept from what ``called`` (an earlier asking) kept it from, and that one's argument
    from that value too. None when no call repeats one."""
    found = repeated_value(calls, request)
    if found is None:
        return None
    index, key, value = found
    kept = {i: apart for i, (name, apart) in enumerate(called) if i < len(calls) and calls[i][0] == name}
    return tuple((name, kept.get(i, ()) + (((key, value),) if i == index else ()))
                 for i, (name, _) in enumerate(calls[:index + 1]))


def apart_tool(tool: Tool, avoid: Apart) -> Tool | None:
    """``tool`` with each argument ``avoid`` names kept from the value it names
    (:func:`~gbnf.shape.rules.kept_apart`; None when it cannot be): one of the first calls of a reply
    asked again (:func:`calls_apart`)."""
    parameters = kept_apart(tool.parameters, avoid)
    return replace(tool, parameters=parameters) if parameters is not None else None
