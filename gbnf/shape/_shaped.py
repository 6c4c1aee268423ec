"""A tool's schema shaped for one request: unbounded parts capped (:func:`bounded`) and free
values limited to what the request writes (:func:`copied`). The validator still checks each
call against the schema as written."""

from __future__ import annotations

import functools
import mimetypes
import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar

from gbnf._text import fold, identifier_words, name_words, word_key
from gbnf.compiler import validity
from gbnf.shape._codes import CODE_WORDS, code_kind, is_region, named_codes
from gbnf.shape._dates import (
    TIME,
    date_format,
    from_today,
    moment_format,
    written_date,
    written_dates,
    written_moments,
)
from gbnf.shape._english import STEMMER, either, words
from gbnf.shape._places import with_state
from gbnf.shape._request import terms
from gbnf.shape._values import (
    NUMBER,
    Labels,
    Names,
    Number,
    as_fraction,
    labels_argument,
    names_argument,
    numbers,
    overlaps,
    quotations,
    shared_value,
)


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


def copied(schema: Any, strings: Sequence[str], numbers: Sequence[int | float],
           runs: Sequence[Sequence[int | float]] = (), percents: Sequence[int | float] = (),
           labels: Labels = (), names: Names = (), in_dates: Collection[Number] = (),
           quoted: Collection[str] = (), *, echoes: Collection[str] = frozenset()) -> Any:
    """``schema`` with every free string one of ``strings``, every free integer or number (no
    enum or const) one of ``numbers``, and every array of such numbers one of ``runs`` (runs of
    numbers written as one list), where any of them satisfies the part (a part none satisfies
    stays as it was): values copied from a request, not made up; a number none of ``numbers``
    fits whose description gives its default ("Default is 52": :func:`stated_default`) takes that
    default. An enum of strings some of
    ``strings`` name (loosely: ``six months`` names ``six_months``) is narrowed to those. A
    number (not an integer) whose description does not say "percent" takes the ``percents``
    (numbers written as percentages) as fractions: a rate of ``5%`` is 0.05. An array of such
    strings (listed or copied) takes each at most once (``uniqueItems``, where the schema does
    not say), so a small model's loop (``["Area", "Area", ...]``) ends where the grammar can
    hold it: over a few listed values, not over the many stretches of a request. A string that takes a
    currency, a time zone, or a language or country code (:func:`~gbnf.shape._codes.code_kind`,
    even with a pattern) takes the codes the request names in words (:func:`named_codes`: "Swiss
    francs", ``CHF``); any other whose description asks for a code (an ISO code, a ticker
    symbol, an abbreviation) stays free: the request names what it encodes (not one that asks
    for dates in a format, "ISO 8601", where the request writes dates it can take:
    :func:`_encoded`). A string whose property name asks for a shape (a path, a date, a time, an
    email address, a URL, a phone number) takes the stretches of that shape, when there are any
    (``path``: ``/etc/hostname``, not ``file``); one named for a formula (``function``) takes the
    formulas, powers written ``**``
    (:func:`_formulas`). A string whose description asks for dates in a format (``YYYY-MM-DD``) takes the
    dates the request writes, in that format (:func:`~gbnf.shape._dates.written_dates`: "March
    8th, 2023" is ``2023-03-08``), when it writes any, or with their time of day where it asks
    for one (``YYYY-MM-DD HH:mm:ss``) and the request writes it (:func:`shaped_values`). A string
    whose description gives a place with its region for an example ("e.g. San Francisco, CA")
    takes a place the request writes with its region whole ("Bangkok, Thailand", not "Bangkok":
    :func:`_with_regions`). A string
    whose name and description speak of no date or time takes none of the dates the request
    writes, nor the stretches that share words with one (:func:`_dated`), where it writes
    anything else ("from March 10, 2022": a ``location`` is not offered the date; "in Oslo
    tomorrow": a ``city`` is not offered "Oslo tomorrow"), but for the ``quoted`` ones (a message's
    "Let's meet tomorrow" is offered whole), nor a number
    written alone unless its name is a number's (:func:`_numbered`: ``case_no``, ``season``;
    "the Grammy of 2013": an ``act`` is no ``2013``); nor does a
    number whose name speaks of no date or time (``year``, ``hours``) take the numbers written only
    in dates and times (``in_dates``), where it may take others ("2 nights from 15th October,
    2023": ``nights`` takes 2). A free
    string takes none of the names of ``echoes`` (folded: a tool's
    :attr:`~gbnf.tools.Tool.echoes`), which the validator refuses
    ("upcoming month": not ``month``). A number written right after the name of one of the
    schema's numeric properties (``labels``: "a length of 50 and a width of 30") is not offered to
    another (``width`` takes 30, not 50), unless it is also written as that one's or unnamed; so is
    a name written right after (or, quoted, right before) the name of one of its string
    properties (``names``, :func:`~gbnf.shape.named_strings`: "rank 'Queen' and suit 'Hearts'":
    ``rank`` takes no ``Hearts``, nor a stretch that holds it or is part of it)."""
    shares = [as_fraction(number) for number in percents]
    rates = [number for number in numbers if number not in percents] + shares
    dated = _dated(tuple(strings))

    def copy(out: dict[str, Any], key: str | None) -> dict[str, Any]:
        kind, items = out.get("type"), out.get("items")
        if _listed_strings(out):
            keys = _word_keys(tuple(strings))
            named = [value for value in out["enum"] if word_key(value) in keys]
            return {**out, "enum": named} if named else out
        if kind == "array" and isinstance(items, dict) and _listed_strings(items):
            return {"uniqueItems": True, **out} if len(items["enum"]) >= out.get("minItems", 0) else out
        coded = code_kind(key, out) if kind == "string" and not {"enum", "const", "format"} & set(out) else None
        named = named_codes(coded, strings, key) if coded else []
        described = str(out.get("description", ""))
        if named:
            values: Sequence[Any] = named
        elif free_string(out) and not _encoded(described, strings):
            found = _globs(out, strings) or shaped_values(key, out, strings) or _with_regions(described, strings)
            if not _asks_for_date(key, described):  # the dates and their stretches go to one that does
                found = [string for string in found if string not in dated or string in quoted] or found
            if not _numbered(key or ""):  # "2013" is no act's name
                found = [string for string in found if not NUMBER.fullmatch(string)] or found
            values = described_forms([s for s in found if fold(s) not in echoes], described)
        elif kind in ("integer", "number") and not {"enum", "const"} & set(out):
            values = rates if kind == "number" and "percent" not in described.lower() else numbers
            if not values and (default := stated_default(out)) is not None:  # none written: the default
                values = [default]
            if not _asks_for_date(key, described) and not _calendar_named(key or ""):
                values = [number for number in values if number not in in_dates] or values
            if kind == "integer":  # "a rating of 4.0" is the integer 4, written as one
                values = list(dict.fromkeys(int(n) if isinstance(n, float) and n.is_integer() else n for n in values))
        elif kind == "array" and _copied_number(out.get("items")) and not {"enum", "const"} & set(out):
            values = [list(run) for run in runs]
        else:
            return out
        valid = validity(out, out)
        kept = [value for value in values if valid(value)]
        return {**out, "enum": kept} if kept else out

    return _each_part(_named_values(_each_part(schema, copy), labels, names), _held)


_DEFAULT = re.compile(rf"\bdefaults?\b(?:\s+(?:is|to|of|value))?\s*[:=]?\s*({NUMBER.pattern})", re.IGNORECASE)
"""A description's default number ("Default is 52", "defaults to 5", "default: 10")."""


def stated_default(schema: Any) -> Number | None:
    """The number an argument's description gives as its default ("The size of the deck.
    Default is 52."): a request may leave it unsaid, and the tool takes it then."""
    found = _DEFAULT.search(str(schema.get("description", ""))) if isinstance(schema, dict) else None
    return numbers(found.group(1))[0] if found else None


def _held(out: dict[str, Any], _key: str | None) -> dict[str, Any]:
    """An array that takes each of its listed values once (``uniqueItems``) asked for no more
    items (``minItems``) than it still lists, once copying narrowed them to those one call's
    words name (:func:`~gbnf.shape.items_listed` counts a whole request's)."""
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


@functools.lru_cache(maxsize=16)
def _word_keys(strings: tuple[str, ...]) -> frozenset[str]:
    """The :func:`word_key` of each of a request's stretches, once per request (not per tool)."""
    return frozenset(word_key(string) for string in strings) - {""}


def _listed_strings(schema: Any) -> bool:
    """Whether a schema lists its values, all strings (an ``enum`` of strings)."""
    listed = schema.get("enum") if isinstance(schema, dict) else None
    return isinstance(listed, list) and bool(listed) and all(isinstance(value, str) for value in listed)


_ENCODED = re.compile(rf"\b(?:{CODE_WORDS}|{either('encoded')})\b", re.IGNORECASE)
"""What a string's description says when its value encodes what a request writes."""


def _encoded(description: str, strings: Sequence[str]) -> bool:
    """Whether a string's description says its value encodes what a request writes (a code, a
    ticker symbol): not one that asks for dates in a format, where the request writes dates it
    can take ("in ISO 8601 format, YYYY-MM-DD" beside "on March 3, 2024"); a request that writes
    none leaves it free."""
    if not _ENCODED.search(description):
        return False
    moment, form = moment_format(description), date_format(description)
    return not ((moment and written_moments(strings, moment)) or (form and written_dates(strings, form)))


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


@functools.cache
def _shapes() -> tuple[tuple[frozenset[str], Callable[[str], bool]], ...]:
    """The words of a property name that ask for a shape, and whether a stretch is wholly of that shape."""
    def whole(pattern: str) -> Callable[[str], bool]:
        shape = re.compile(pattern, re.IGNORECASE)
        return lambda string: shape.fullmatch(string) is not None
    return (
        (frozenset(words("path_names")), whole(r"[^\s]*[/\\][^\s]*|[\w-]+\.[a-z0-9]{1,5}")),
        (frozenset(words("email_names")), whole(r"[^\s@]+@[^\s@]+")),
        (frozenset(words("url_names")), whole(r"(?:https?://|www\.)[^\s]+")),
        (frozenset(words("phone_names")), whole(r"\+?\d[\d\s().-]{5,}\d")),
        (_DATE_NAMES, written_date),
        (_TIME_NAMES, whole(rf"{TIME}|{either('day_times')}")),
    )


_DATE_NAMES = frozenset(words("date_names"))
_TIME_NAMES = frozenset(words("time_names"))
_DATE_WORDS = frozenset(terms(" ".join(_DATE_NAMES | _TIME_NAMES)))
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
def _dated(strings: tuple[str, ...]) -> frozenset[str]:
    """The dates among ``strings`` (a request's stretches, :func:`~gbnf.shape._dates.written_date`,
    or written from today: :func:`~gbnf.shape._dates.from_today`) and those that share words with
    one (:func:`_overlap`): "March 10, 2022", "March", "2022", "March 10, 2022 to March 20, 2022",
    "Germany from March", "2022 to April", "Oslo tomorrow", "Lyon next"."""
    dates = [_WORD.findall(string) for string in strings if written_date(string) or from_today(string)]
    found = set()
    for string in strings if dates else ():
        words = _WORD.findall(string)
        if any(_overlap(words, date) for date in dates):
            found.add(string)
    return frozenset(found)


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


_PLACE_EXAMPLE = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*, (?:[A-Z]{2}\b|[A-Z][a-z]+)")
"""A place with its region, as a description gives one for an example ("e.g. San Francisco, CA")."""


def _with_regions(description: str, strings: Sequence[str]) -> Sequence[str]:
    """``strings``, less each name the request writes with its region after it and a comma
    (:func:`~gbnf.shape._codes.is_region`: "Bangkok, Thailand"), and less that region alone,
    where ``description`` gives a place with its region for an example: the argument asks for
    both, and a small model otherwise copies the name alone ("Bangkok"). Where the example's
    region is a U.S. state's code or the description asks for "City, State", a U.S. city the
    request writes alone is offered with its state's code (:func:`~gbnf.shape._places.with_state`:
    "in Berkeley": ``Berkeley, CA``)."""
    if not _PLACE_EXAMPLE.search(description):
        return strings
    written = set(strings)
    parts = {part for string in written if ", " in string
             for place, region in [string.rsplit(", ", 1)] if is_region(region) and place in written
             for part in (place, region)}
    kept = [string for string in strings if string not in parts]
    if not _STATE_FORM.search(description):
        return kept
    return list(dict.fromkeys(with_state(string) or string for string in kept))


_STATE_FORM = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*, [A-Z]{2}\b|\bCity, State\b")
"""A description asking for a U.S. city with its state: an example with a state's code, or the format's name."""


_GLOB = re.compile(r"\bglob\b|\*\.\w", re.IGNORECASE)
_FILE_TYPE = re.compile(rf"([A-Za-z0-9]{{1,5}}) (?:{either('file_kinds')})", re.IGNORECASE)


def _globs(schema: dict[str, Any], strings: Sequence[str]) -> list[str]:
    """For a glob pattern (its description says "glob" or gives one, ``*.pdf``), the globs of
    the file types the request names before "files" or "documents": a known file extension or
    a word in capitals (``PDF files``, ``csv files``: ``*.pdf``, ``*.csv``; not ``Find files``)."""
    if not _GLOB.search(str(schema.get("description", ""))):
        return []
    words = (match.group(1) for string in strings if (match := _FILE_TYPE.fullmatch(string)))
    return list(dict.fromkeys(f"*.{word.lower()}" for word in words
                              if word.isupper() or mimetypes.guess_type(f"x.{word}", strict=False)[0]))


def shaped_values(name: str | None, schema: Any, strings: Sequence[str]) -> list[str]:
    """The ``strings`` of the shape a free string property asks for: the dates with their time of
    day, in the format its description asks for those (``YYYY-MM-DD HH:mm:ss``,
    :func:`~gbnf.shape._dates.written_moments`: "March 19, 2024, at 12:00 PM" is ``2024-03-19
    12:00:00``), where the request writes any; the dates, in the format its description asks
    (:func:`~gbnf.shape._dates.written_dates`) or, when it speaks of no
    format and its name asks for a date and no time (``start_date``), in ISO 8601's
    (``2020-01-01`` for "January 1, 2020", as JSON Schema's ``date`` format writes one); else
    the formulas its name asks for (:func:`_formulas`), else the stretches of the shape its
    name asks for (:func:`_shaped`); none when it asks for no shape or none is written."""
    if not free_string(schema):
        return []
    description = str(schema.get("description", ""))
    named = name_words(name or "")
    iso = bool(named & _DATE_NAMES) and not named & _TIME_NAMES and "format" not in description.lower()
    moment = moment_format(description)
    form = date_format(description) or ("%Y-%m-%d" if iso else None)
    return (written_moments(strings, moment) if moment else []) or (written_dates(strings, form) if form else []) \
        or _formulas(name, description, strings) or _shaped(name, strings)


_FORMULA_TOKEN = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+|\S")
_OPERATORS = frozenset("+-*/^")
_FORMULA_NAMES = frozenset(words("formula_names"))
_FORMULA_FUNCTIONS = frozenset(words("formula_functions"))


def _is_formula(text: str) -> bool:
    """Whether ``text`` is wholly a formula: numbers, one-letter variables and the functions of
    ``formula_functions`` joined by at least one operator (``3x^2 + 2x - 1``, ``x^3``,
    ``sin(x) / x``; not ``5m``, not ``the function x^3``)."""
    tokens = _FORMULA_TOKEN.findall(text)
    return any(token.isalpha() for token in tokens) and bool(_OPERATORS & set(tokens)) and all(
        token[0].isdigit() or token in _OPERATORS or token in "()"
        or (token.isalpha() and (len(token) == 1 or token in _FORMULA_FUNCTIONS)) for token in tokens)


def _formulas(name: str | None, description: str, strings: Sequence[str]) -> list[str]:
    """For a property whose name ends in a word of a formula ("function", ``math_expression``;
    not ``function_variable``), the formulas among ``strings``, each whole (:func:`_is_formula`;
    of ``y=x^2``, what follows the equals sign), with each power written ``**`` ("3x^2 + 2x - 1":
    ``3x**2 + 2x - 1``), the power operator of Python and JavaScript, where ``^`` is exclusive
    or; unless ``description`` itself writes powers with ``^`` (an example such as ``x^3``)."""
    head = identifier_words(name or "").lower().split()
    if not head or head[-1] not in _FORMULA_NAMES:
        return []
    sides = dict.fromkeys(string.rsplit("=", 1)[-1].strip() for string in strings)  # "y=x^2": x^2
    found = _outer([side for side in sides if _is_formula(side)])
    return found if "^" in description else list(dict.fromkeys(s.replace("^", "**") for s in found))


def _outer(found: list[str]) -> list[str]:
    """``found`` less each string that is part of a longer one of them (``December 3`` beside
    ``December 3, 2026``)."""
    return [s for s in found if not any(s in other and s != other for other in found)]


def _shaped(name: str | None, strings: Sequence[str]) -> list[str]:
    """The ``strings`` of the shape property ``name`` asks for (``path``: the paths), each whole
    (not a part of a longer one: ``December 3, 2026``, not ``December 3``); none when it asks
    for none or none has it."""
    words = name_words(name or "")
    for hint, shaped in _shapes():
        if words & hint:
            return _outer([s for s in strings if shaped(s)])
    return []


_SUBSCHEMAS = {"items", "prefixItems", "anyOf", "oneOf", "allOf", "additionalProperties"}


def _copied_number(schema: Any) -> bool:
    """Whether an array's items are numbers copied from a request (a number's enum)."""
    return isinstance(schema, dict) and schema.get("type") in ("integer", "number") and "enum" in schema


def free_string(schema: Any) -> bool:
    """Whether a schema is a string the model writes freely."""
    return isinstance(schema, dict) and schema.get("type") == "string" \
        and not {"enum", "const", "pattern", "format"} & set(schema)
