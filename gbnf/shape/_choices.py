"""What a follow-up picks among the values a tool's result offered: the value the call before it
sent that its result answers without repeating is refused ("09:00 is taken; free: 08:30, 11:15,
15:40"), and the words of the last message pick among what is left, in the languages the stage
reads: the earlier or the later time or date ("a bit later": the next slot), the one of a
part of the day ("The afternoon one works": 15:40), the cheaper or the dearer of the options a
result lists ("Go with the cheaper one": the twin room at 128 EUR, not the suite at 310)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from gbnf.shape._english import STEMMER
from gbnf.shape._times import written_times
from gbnf.shape._values import RESULT_LEAD, Number, Option, Values, argument_words, named_strings, value_texts

_WORDS = {
    "earlier": r"early one|earlier|earliest|sooner|soonest|first one|plus t[ôo]t|la premi[èe]re|le premier|"
               r"m[áa]s temprano|el primero|la primera|fr[üu]her[en]?|fr[üu]heste[n]?|erste[n]?|eerder|eerste|"
               r"pi[ùu] presto|"
               r"早一点|早一點|更早|最早|早い方|早いほう|더 일찍|가장 이른",
    "later": r"late one|later|latest|last one|plus tard|la derni[èe]re|le dernier|m[áa]s tarde|el [úu]ltimo|"
             r"la [úu]ltima|sp[äa]ter[en]?|sp[äa]teste[n]?|letzte[n]?|laatste|pi[ùu] tardi|晚一点|晚一點|更晚|最晚|"
             r"遅い方|遅いほう|더 늦은|늦은 거",
    "morning": r"morning|matin|por la mañana|de la mañana|vormittag|ochtend|mattina|上午|早上|午前|오전",
    "afternoon": r"afternoon|apr[èe]s-midi|por la tarde|de la tarde|nachmittag|middag|pomeriggio|下午|午後|오후",
    "evening": r"evening|soir|soirée|noche|abend|avond|di sera|晚上|夜|저녁",
    "cheaper": r"cheaper|cheapest|less expensive|moins ch[èe]re?|m[áa]s barat[ao]|g[üu]nstiger[en]?|"
               r"g[üu]nstigste[n]?|billiger[en]?|billigste[n]?|goedkoper|goedkoopste|pi[ùu] economic[oa]|更便宜|"
               r"最便宜|便宜的|安い方|安いほう|더 싼|제일 싼|저렴한",
    "dearer": r"more expensive|most expensive|dearer|dearest|pricier|priciest|plus ch[èe]re?|m[áa]s car[ao]|"
              r"teurer[en]?|teuerste[n]?|duurder|"
              r"duurste|pi[ùu] car[oa]|更贵|最贵|高い方|더 비싼",
    "instead": r"instead|[àa] la place|plut[ôo]t|en su lugar|en cambio|stattdessen|invece|in plaats daarvan|"
               r"改成|换成|換成|代わりに|대신",
}
"""The words of a follow-up that pick one value, by what they pick (``instead``: one value
changes, the others stay)."""
_SAID = {pick: re.compile(rf"(?<![A-Za-zÀ-ɏ])(?:{words})(?![A-Za-zÀ-ɏ])", re.IGNORECASE)
         for pick, words in _WORDS.items()}
"""Each pick's words, not inside a longer Latin word ("matinée"; Chinese and Japanese write no spaces)."""
_HOURS = {"morning": (0, 12), "afternoon": (12, 18), "evening": (17, 24)}
"""The hours (from, to) of each part of the day."""
_TIME = re.compile(r"(?:^|T)([01]?\d|2[0-3]):([0-5]\d)(?:\s*([ap])\.?m\.?)?", re.IGNORECASE)
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")
_PRICE_WORDS = re.compile(r"price|cost|fare|fee|rate|amount|eur|usd|gbp|total", re.IGNORECASE)


def day_part(string: str) -> bool:
    """Whether ``string`` is a part of the day and nothing else ("afternoon", "오후", "下午"): no name."""
    return any(_SAID[part].fullmatch(string.strip()) for part in _HOURS)


def picks(text: str) -> frozenset[str]:
    """What the words of ``text`` (a follow-up) pick (:data:`_WORDS`): ``earlier``, ``later``,
    ``morning``, ``afternoon``, ``evening``, ``cheaper``, ``dearer``, ``instead``."""
    return frozenset(pick for pick, said in _SAID.items() if said.search(text))


def refused(call: str, result: str) -> tuple[str | Number, ...]:
    """The argument values of the ``call`` (an assistant's message: its calls as JSON) that its
    ``result`` (the tool's message after it, as JSON) answers with others in their place: where
    the result says the call failed (:data:`_FAILED`: "taken", "sold_out", "unavailable") or does
    not write the value again, a time or a date of which it writes others ("09:00 is taken":
    free slots 08:30, 11:15, 15:40), or a value whose argument's name the result gives another
    value too (:func:`_under`: "room_type": "twin"; "available_window_seats" for a ``seat``);
    where the result failed, a code of which it writes another of the same form (:func:`_form`:
    "did you mean 482-119-3307?"). Of several values of one kind or form, those the result writes
    (else those nearest what it offers, :func:`_nearest`), but none of a kind whose argument's
    name it gives a value. A result that confirms ("start": "09:00", "end": "09:30") refuses
    nothing it echoes."""
    answer = _answer(result)
    if answer is None:
        return ()
    said = value_texts(answer)
    by_key = _values_by_key(answer)
    failed = _failed(answer)
    named, alike = [], []
    for _, key, value in sent_values(call):
        written = _as_text(value)
        if written in said and not failed:
            continue
        if _under(key, by_key) - {written}:
            named.append(value)
        elif any(_group(text) == _group(value) and text != written for text in said) \
                and (_kind(value) is not None or failed and isinstance(value, str) and _coded(written)):
            alike.append(value)
    found = list(named)
    for group in [group for group in dict.fromkeys(map(_group, alike)) if group not in set(map(_group, named))]:
        mine = [value for value in alike if _group(value) == group]
        found += [value for value in mine if _as_text(value) in said] or _nearest(mine, said)
    return tuple(dict.fromkeys(found))


def _nearest(sent: list[Any], said: Sequence[str]) -> list[Any]:
    """Of values ``sent`` of one form, those a value of that form the result writes differs from in
    the fewest characters ("did you mean PL04215?" corrects PL04211, not PL77310)."""
    def apart(value: Any) -> int:
        written = _as_text(value)
        return min((sum(a != b for a, b in zip(written, text)) for text in said
                    if _group(text) == _group(value) and text != written), default=len(written))
    distance = {_as_text(value): apart(value) for value in sent}
    least = min(distance.values())
    return [value for value in sent if distance[_as_text(value)] == least]


def _group(value: Any) -> str:
    """What a value is of its kind: a time, a date (:func:`_kind`), or else its form (:func:`_form`)."""
    return _kind(value) or _form(_as_text(value))


def says_failed(result: str) -> bool:
    """Whether a tool's ``result`` (JSON) says its call failed: a status (:data:`_STATUS_KEYS`)
    written with a word of :data:`_FAILED` ("unavailable", "no_space", "meeting not found"), or
    a key that is such a word with a value ("error": {...}); not a value of another key ("note":
    "Full refund issued") nor a key that holds such a word among others ("closed_days")."""
    return _failed(_answer(result))


def _failed(answer: Any) -> bool:
    """:func:`says_failed` of a result read as JSON (None: no JSON)."""
    if answer is None:
        return False
    return any(key.lower() in _STATUS_KEYS and any(_FAILED.search(text) for text in found)
               or _FAILED.fullmatch(key) is not None and any(found)
               for key, found in _values_by_key(answer).items()) \
        or isinstance(answer, dict) and any(_FAILED.fullmatch(key) and value for key, value in answer.items())


_STATUS_KEYS = frozenset({"status", "state", "result", "outcome", "error", "message", "reason", "detail"})
"""Keys whose value says how a call went."""


def _coded(value: str) -> bool:
    """Whether ``value`` is written as a code is: with a digit ("PL04211", "482-119-3370")."""
    return any(char.isdigit() for char in value)


def _form(value: str) -> str:
    """How ``value`` is written, its digits as 9 and its letters as A ("PL04215": ``AA99999``): a
    failed result that writes another code of the form of the one sent offers it in its place
    ("did you mean 482-119-3307?", "PL04215, 350 m away, has space")."""
    return re.sub(r"[^\W\d_]", "A", re.sub(r"\d", "9", value))


_FAILED = re.compile(r"(?<![a-z])(?:unavailable|not[ _]available|taken|full|sold[ _]?out|no[ _]slots?|error|failed|"
                     r"declined|rejected|closed|occupied|booked[ _]out|none[ _]left|no[ _]space|not[ _]found)(?![a-z])",
                     re.IGNORECASE)
"""Words of a result that says a call failed."""


def _under(key: str, by_key: dict[str, set[str]]) -> set[str]:
    """The values a result writes under argument ``key``'s name, or a longer one with its words
    (``seat``: ``available_window_seats``)."""
    mine = {STEMMER.stemWord(word) for word in argument_words(key)}
    return {value for name, found in by_key.items()
            if mine <= {STEMMER.stemWord(word) for word in argument_words(name)} for value in found}


def sent_values(call: str) -> tuple[tuple[str, str, str | Number], ...]:
    """The string and number arguments ``call`` (an assistant's message: its calls as JSON) sent:
    each call's tool, the argument's name and its value."""
    return tuple((str(one.get("name")), key, value) for one in _calls(call) for key, value in one["arguments"].items()
                 if _plain_scalar(value))


def kept_strings(found: Sequence[str], key: str | None, values: Values, sent: Sequence[tuple[str, Any]]) -> list[str]:
    """A free string's candidates ``found`` in a follow-up that picks among what a result offered
    (its result refused a value, or its words pick one: :func:`picks`): where the call before
    sent argument ``key`` a string (``sent``: the arguments it sent this tool), that string and
    the names the last message writes inside its sentences ("Prenez la moins chère alors" names
    none, so the artist stays the one sent); ``found`` otherwise ("Could you also send up a bottle of still water?")."""
    mine = [value for name, value in sent if name == key and isinstance(value, str) and value not in values.refused]
    if not mine or not values.texts or not (values.refused or picks(values.texts[0])):
        return list(found)
    names = {name for _, name in named_strings(values.texts[0])}
    return list(dict.fromkeys([*mine, *(string for string in found if string in names)]))


def sent_arguments(call: str) -> dict[str, frozenset[str]]:
    """The names of the arguments each tool was called with in ``call`` (an assistant's message:
    its calls as JSON), by the tool's name."""
    return {one["name"]: frozenset(one["arguments"]) for one in _calls(call) if isinstance(one.get("name"), str)}


def _values_by_key(value: Any, found: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """The scalar values a JSON ``value`` holds, by the key they are written under (in a list
    there too), anywhere in it."""
    found = {} if found is None else found
    if isinstance(value, dict):
        for key, item in value.items():
            for one in item if isinstance(item, list) else [item]:  # "free_seats": ["12F", "15A"]
                if _plain_scalar(one):
                    found.setdefault(key, set()).add(_as_text(one))
            _values_by_key(item, found)
    elif isinstance(value, list):
        for item in value:
            _values_by_key(item, found)
    return found


def options(result: str) -> tuple[Option, ...]:
    """The options a tool's ``result`` lists: each object of a list in it, as its scalar values
    by key (``alternatives: [{"room_type": "suite", "price_eur_per_night": 310}, ...]``), and
    each scalar of a list, under the list's key (``did_you_mean: ["482-119-3307"]``)."""
    found: list[Option] = []

    def walk(value: Any, name: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, key)
        elif isinstance(value, list):
            objects = [item for item in value if isinstance(item, dict)]
            found.extend(tuple((key, item) for key, item in one.items() if _plain_scalar(item)) for one in objects)
            found.extend(((name, item),) for item in value if _plain_scalar(item))
            for item in value:
                walk(item, name)
    walk(_answer(result), "")
    return tuple(found)


def picked(found: Sequence[Any], key: str | None, values: Values) -> list[Any]:
    """``found`` (argument ``key``'s candidates in a follow-up) without the values the call
    before it sent and its result refused (but those the last message writes), then, where it
    refused this argument's, those an option of the result holds ("nearby_with_space": the locker
    it offers instead), then those the last message's words pick (:func:`picks`); all of them
    where a step would keep none."""
    if not values.refused and not values.options or len(found) < 2:
        return list(found)
    last = values.texts[0] if values.texts else ""
    kept = [value for value in found if value not in values.refused or _as_text(value) in last] or list(found)
    if any(name == key and value in values.refused for _, name, value in values.sent):  # what the result offers instead
        offered = {_as_text(value) for option in values.options for _, value in option}
        kept = [value for value in kept if _as_text(value) in offered] or kept
    words = picks(last)
    for pick in ("cheaper", "dearer"):
        if pick in words:
            kept = _cheapest(kept, key, values.options, pick == "dearer") or kept
    for part, (start, end) in _HOURS.items():
        if part in words:
            kept = [value for value in kept if (hour := _hour(value)) is not None and start <= hour < end] or kept
    if len(kept) > 1 and ("earlier" in words) != ("later" in words):
        kept = _in_order(kept, values.refused, "later" in words) or kept
    return kept


def on_twelve_hours(found: Sequence[Any], last: str, earlier: Sequence[str]) -> list[Any]:
    """The times of ``found`` (a time argument's candidates) after noon that ``last`` (the last
    message) writes on twelve hours, where the ``earlier`` texts (the conversation before it,
    tool results among them) write none of the times it writes, and it says nothing of the
    morning ("9:15 works for us" of the 18:30 and 21:15 a result offered: 21:15; not "8:30 in
    the morning", nor "8:30" where 08:30 was offered); none otherwise."""
    written = {(time.hour, time.minute) for time in written_times(last)}
    if not written or "morning" in picks(last) or _BEFORE_NOON.search(last) or any(
            re.search(rf"(?<!\d)0?{hour}:{minute:02d}(?!\d)", text) for hour, minute in written for text in earlier):
        return []
    times = {(hour, int(match.group(2))): value for value in found
             if (hour := _hour(value)) is not None and (match := _TIME.search(value))}
    return [value for (hour, minute), value in times.items() if hour >= 12 and (hour - 12, minute) in written]


_BEFORE_NOON = re.compile(r"\d\s*a\.?m\b", re.IGNORECASE)


def _in_order(found: Sequence[Any], sent: Sequence[Any], later: bool) -> list[Any]:
    """The one of ``found`` (times, or dates, all of them) right after (``later``; else right
    before) the one of their kind the call before sent (``sent``: "a bit later then": the next
    slot), or where it sent none, the latest (earliest) of them ("the earlier English one");
    none where ``found`` are not all times or all dates."""
    kind = _kind(found[0])
    if kind is None or any(_kind(value) != kind for value in found):
        return []
    ordered = sorted(found, key=_sort_key)
    before = next((_sort_key(value) for value in sent if _kind(value) == kind), None)
    if before is not None:
        side = [value for value in ordered if (_sort_key(value) > before if later else _sort_key(value) < before)]
        return side[:1] if later else side[-1:]
    return [ordered[-1] if later else ordered[0]]


def _kind(value: Any) -> str | None:
    """``time`` or ``date`` for a value written as one (a date-time is a date); None otherwise."""
    if isinstance(value, str) and _DAY.match(value):
        return "date"
    return "time" if _hour(value) is not None else None


def _cheapest(found: Sequence[Any], key: str | None, listed: Sequence[Option], dearest: bool) -> list[Any]:
    """Those of ``found`` that the cheapest (``dearest``: the dearest) of the ``listed`` options
    holds under the argument's name ``key``, where two or more hold a price; none otherwise."""
    priced = [(price, option) for option in listed
              if (price := next((v for k, v in option if _PRICE_WORDS.search(k) and isinstance(v, int | float)), None))
              is not None]
    if len(priced) < 2 or key is None:
        return []
    chosen = (max if dearest else min)(priced, key=lambda pair: pair[0])[1]
    mine = {_as_text(value) for name, value in chosen if name == key}
    return [value for value in found if _as_text(value) in mine]


def _hour(value: Any) -> int | None:
    """The hour of a time (or date-time) written as ``HH:MM``, on 24 hours ("3:40 PM": 15); None
    for anything else."""
    match = _TIME.search(value) if isinstance(value, str) else None
    if match is None:
        return None
    hour, half = int(match.group(1)) % (12 if match.group(3) else 24), (match.group(3) or "").lower()
    return hour + 12 if half == "p" else hour


def _sort_key(value: Any) -> str:
    """A time or date as it sorts in time ("9:05" as ``09:05``, "1:15 PM" as ``13:15``)."""
    match = _TIME.search(value) if _kind(value) == "time" else None
    return f"{_hour(value):02d}:{match.group(2)}" if match else value


def _as_text(value: Any) -> str:
    """A value as a result's texts write it (:func:`~gbnf.shape._values.value_texts`)."""
    return value if isinstance(value, str) else json.dumps(value)


def _answer(result: str) -> Any:
    """A tool's result as JSON (None where it is no JSON), without the lead ``gbnf serve`` writes."""
    try:
        return json.loads(RESULT_LEAD.sub("", result, count=1))
    except ValueError:
        return None


def _calls(call: str) -> list[dict[str, Any]]:
    """The calls an assistant's message writes as JSON, each with its ``arguments`` an object."""
    try:
        calls = json.loads(call)
    except ValueError:
        return []
    return [one for one in (calls if isinstance(calls, list) else [calls])
            if isinstance(one, dict) and isinstance(one.get("arguments"), dict)]


def _plain_scalar(value: Any) -> bool:
    """Whether ``value`` is a string or a number (not a boolean)."""
    return isinstance(value, str | int | float) and not isinstance(value, bool)
