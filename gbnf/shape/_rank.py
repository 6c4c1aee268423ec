"""Tool relevance: rank a pool for a query, decide whether a reply calls, and read what the
query asks of the tools it calls (optional arguments, how many calls, in what order).

Three signals. The query's meaning (:func:`~gbnf.shape.closeness`, in sixteen languages),
which :func:`decide_reply` weighs against its words. BM25 over each tool's document: its name
(``get_weather`` reads as "get weather"), its description, and its parameters' names,
descriptions and enum values; words are stemmed (Snowball) and English stop words ("how",
"what", "my"...) dropped, so "remind" finds ``schedule_reminder``. And, when the backend can
score text (:class:`ModelRelevance`), the model's own view: how much more likely each tool's
name becomes as the reply to this query than to an empty one (pointwise mutual information),
which orders the tools BM25 cannot tell apart, and the whole pool when neither words nor
meaning decide. Ranking and :func:`select_tools` are pure functions of the tools, the query and
the scores.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import bm25s
from bm25s.stopwords import STOPWORDS_EN_PLUS

from gbnf._text import identifier_words, mentions, name_words, word_key
from gbnf.compiler import compile_schema
from gbnf.compiler._canonical import is_number
from gbnf.compiler._schema import ANNOTATIONS
from gbnf.errors import SchemaError
from gbnf.shape._codes import is_region
from gbnf.shape._dates import date_format, dates_at
from gbnf.shape._english import STEMMER, STOPS, either, words
from gbnf.shape._meaning import Closeness
from gbnf.shape._opposites import opposed_tools
from gbnf.shape._request import Request, read_request, terms
from gbnf.shape._shaped import described_forms, free_string, kept_apart, listed_values, shaped_values, stated_default
from gbnf.shape._units import units_like
from gbnf.shape._values import (
    CAPITALISED,
    INSIDE,
    NUMBER_WORDS,
    Number,
    Row,
    as_fraction,
    labelled,
    numbers_named,
    shared_value,
    strings_named,
)
from gbnf.tools._tool import Tool

RELATIVE = 0.5
"""Step 1 offers the tools scoring at least this share of the best BM25 score."""
MARGIN = 2.0
"""Without BM25 evidence, a tool whose model relevance leads the next by this much (nats) is
evidence enough: step 1 offers it alone (with ``act_first``)."""
CALL_WORDS = 2
"""A query that shares this many words with what a tool does (its name and description), or
half of its own words, asks for that tool (:func:`decide_reply`)."""

Scorer = Callable[[list[tuple[str, str]]], list[float]]
"""``scorer(pairs)``: log P(continuation | context) of each ``(context, continuation)`` pair of
raw text (``LlamaCppBackend.loglik``)."""
CARD = "Tool: {name}: {description}\nA request this tool handles:"
"""The context a query is scored after: a tool's card."""


@dataclass(frozen=True)
class Ranked:
    """One tool, its BM25 score for the query (0: no word in common) and the model's relevance
    score (None without a model)."""

    tool: Tool
    score: float
    model: float | None = None


class ModelRelevance:
    """The model's relevance of each tool to a query (query likelihood): how much more likely
    the query is as a request after the tool's card than after a card for any request,
    log P(query | card) - log P(query | any)."""

    def __init__(self, scorer: Scorer) -> None:
        self.scorer = scorer

    def __call__(self, tools: list[Tool], query: str) -> list[float]:
        cards = [CARD.format(name="any", description="Any request.")]
        cards += [CARD.format(name=identifier_words(t.name), description=t.description) for t in tools]
        neutral, *scores = self.scorer([(card, " " + query) for card in cards])
        return [score - neutral for score in scores]


def tool_document(tool: Tool) -> str:
    """The words a query can match: name, description, and what the parameters say."""
    return " ".join([identifier_words(tool.name), tool.description, *_schema_words(tool.parameters)])


def rank_tools(tools: list[Tool], request: Request, model: list[float] | None = None) -> list[Ranked]:
    """``tools`` from most to least relevant to ``request``: by BM25 score, ties broken by the
    model's relevance (``model``, one score per tool) when given, then by pool order."""
    bm25 = bm25_scores(tools, request) if tools else []
    relevance = model or [0.0] * len(tools)
    ranked = [Ranked(t, s, None if model is None else round(m, 4)) for t, s, m in zip(tools, bm25, relevance)]
    return sorted(ranked, key=lambda r: (-r.score, -(r.model or 0.0)))


def bm25_scores(tools: list[Tool], request: Request, covered: frozenset[str] = frozenset()) -> list[float]:
    """Each tool's BM25 score for ``request``, leaving out the (stemmed) terms in ``covered``."""
    index, vocabulary = _index(tuple(tool_document(t) for t in tools))
    known = [w for w in terms(request.text) if w in vocabulary and w not in covered]
    scores = index.get_scores(known) if known else [0.0] * len(tools)
    return [round(float(score), 4) for score in scores]


@dataclass(frozen=True)
class Selection:
    """Which tools step 1 offers (``first``), and the whole ranking."""

    ranking: list[Ranked]
    first: list[Tool]

    @property
    def evidence(self) -> bool:
        """Whether some tool shares a word with the query."""
        return bool(self.ranking) and self.ranking[0].score > 0


def select_tools(tools: list[Tool], request: Request, k: int, final_tool: str, *,
                 model: ModelRelevance | None = None, meaning: Callable[[list[Tool], Request], Closeness] | None = None,
                 act_first: bool = True, ratio: float = RELATIVE, model_decides: bool = False) -> Selection:
    """The tools step 1 offers for ``request``: of the ``k`` most relevant, those scoring at least
    ``ratio`` of the best BM25 score, and the final tool.

    With ``act_first``, when the query names what some of these tools do (a word of a tool's
    name or description, not only of its parameters), step 1 must act: it offers those tools,
    without the final tool; when the query has several clauses ("... and ...", "... then ...")
    and its first clause names a tool, those the first clause names (what to do first). When it
    names none and ``meaning`` is given (:func:`~gbnf.shape.closeness`), the reply is decided
    as :func:`decide_reply` decides it (with the model's relevance of :func:`scored_tools`
    when there is a model and ``model_decides``): the tools a request by meaning asks for (at most ``k``,
    without the final tool with ``act_first``), or only the final tool for a request
    confidently unrelated to every tool. Otherwise the model's relevance (when there is a
    model) breaks BM25's ties, and a tool it puts ``MARGIN`` ahead of all others is offered
    alone (with ``act_first``); otherwise the model decides among the top ``k`` and the final tool.
    """
    final = [t for t in tools if t.name == final_tool]
    candidates = [t for t in tools if t.name != final_tool]
    ranking = rank_tools(candidates, request)
    strong = _strong([(r.tool, r.score) for r in ranking[:k]], ratio)
    if act_first:
        clause = first_clause(request)
        named = ((clause is not None and _tools_named(candidates, read_request(clause), k, ratio))
                 or _naming_tools(strong, request.words))
        if named:
            return Selection(ranking, named)
    if meaning is not None and candidates:
        near = meaning(candidates, request)
        decision = decide_reply(candidates, request, near)
        scored = scored_tools(candidates, request, decision, near) if model and model_decides else []
        if scored and model:
            decision = decide_reply(candidates, request, near, model(scored, request.text))
        if decision.kind == "call":
            return Selection(ranking, decision.tools[:k] + ([] if act_first else final))
        if decision.kind == "text":
            return Selection(ranking, final)
    if model and candidates:
        relevance = model(candidates, request.text)
        ranking = rank_tools(candidates, request, relevance)
        best, second = sorted(relevance, reverse=True)[:2] if len(relevance) > 1 else (0.0, 0.0)
        if best - second >= MARGIN:
            return Selection(ranking, [candidates[relevance.index(best)]] + ([] if act_first else final))
    return Selection(ranking, (strong or [r.tool for r in ranking[:k]]) + final)


@dataclass(frozen=True)
class Decision:
    """What a reply to a query should be: ``call`` one of ``tools``, ``either`` a call or text
    (the model decides), or ``text`` (the request is confidently unrelated to every tool)."""

    kind: Literal["call", "either", "text"]
    tools: list[Tool]


_ACTIONS = frozenset(terms(" ".join(words("actions"))))
"""Words of what any tool does, not of what one tool does: a query's "Find" names no tool."""

CALL_LEAD = -0.12
"""A request this close to its closest tool by meaning, or closer (its similarity to the tool
less its similarity to the nearest general request, :attr:`Closeness.lead`), asks for a tool.
Chosen on ``bench/intent/dev.json`` and BFCL entries outside the harness samples that are reported."""
TEXT_LEAD = -0.25
"""A request less close than this to every tool is confidently unrelated: it gets no tool,
even when it shares words with one."""
NEAR = 0.02
"""Tools within this similarity of the closest one are among those a request by meaning asks for
(0.05 let the embedded model pick a wrong one of several near tools on ``bench/intent/dev.json``)."""
ALONE = 0.06
"""A tool this much closer by meaning than every other tool a request's words ask for is the
only one offered when the request asks for one call (:func:`asked_calls`): of
``soccer_scores`` and ``basketball_scores``, "the soccer scores for Real Madrid" leaves the
model no wrong choice. Chosen on BFCL entries outside the harness samples that are reported,
where the closest tool was the right one for 29 of 29 multiple and 166 of 180 live multiple
requests it would narrow."""
MISSING = 2
"""A request close by meaning to a tool that needs this many more numbers than it writes
(required number or integer arguments, against the numbers in the request, :func:`numbers`)
is close in topic only: "the prime factors of 100" is about numbers, as a compound-interest
tool is, but gives none of the four it needs. A required number with a default (in its schema,
or its description: "Default is 52") is none a request must give. The model decides. Numbers are digits in every
language, so the rule reads any request alike. The model also decides for a request in
English that writes no number at all, in digits or in words, to a tool that needs one ("Make it
warmer in the living room" beside a thermostat that needs the degrees): a call would make the
model invent it. A period after "next" or "past" ("the next week", "over the past decade") gives
a number, as one written does. Number words are read in English only, so a request in another
language keeps its call."""
_PERIOD = re.compile(rf"\b(?:{either('period_starts')})\s+(?:{either('periods')})\b", re.IGNORECASE)
"""A period that gives a number: "the next week" (7 days), "over the past decade" (10 years)."""


def short_of_numbers(tool: Tool, request: Request) -> bool:
    """Whether ``tool`` needs :data:`MISSING` more required number or integer arguments than
    ``request`` writes numbers (a period it names counts as one), or, in English, needs one where
    the request writes none."""
    needed = _numbers_needed(tool)
    written = len(request.numbers) + len(_PERIOD.findall(request.text))
    return needed - written >= MISSING or (needed > 0 and not written and request.english)


def _numbers_needed(tool: Tool) -> int:
    """How many of ``tool``'s required arguments are numbers or integers that a request must
    give: not one with a default, in its schema or its description ("The size of the deck.
    Default is 52.")."""
    properties = tool.parameters.get("properties") or {}
    needed = [sub for key in tool.parameters.get("required") or [] if isinstance(sub := properties.get(key), dict)]
    return sum(_numeric(sub) and "default" not in sub and stated_default(sub) is None for sub in needed)


RELATED = 0.0
"""A request no more likely after a tool's card than after a card for any request (its
:class:`ModelRelevance` below this) is unrelated to that tool in the model's view."""
SCORED = 3
"""How many of the tools closest by meaning the model's relevance is read for (:func:`scored_tools`)."""


def scored_tools(tools: list[Tool], request: Request, decision: Decision, closeness: Closeness | None) -> list[Tool]:
    """The tools whose model relevance (:class:`ModelRelevance`) decides a reply that words and
    meaning leave to the model (``decision`` is ``either``): the :data:`SCORED` closest to
    ``request`` by meaning. None for any other decision, without ``closeness``, and for a request
    not in English: the embedded models read English, and a request in another language is then
    left to the model."""
    if decision.kind != "either" or closeness is None or not request.english:
        return []
    nearest = sorted(range(len(tools)), key=lambda i: -closeness.tools[i])
    return [tools[i] for i in nearest[:SCORED]]


def decide_reply(tools: list[Tool], request: Request, closeness: Closeness | None = None,
                 relevance: Sequence[float] | None = None) -> Decision:
    """Whether ``request`` asks for one of ``tools``, by its words and, where ``closeness`` is
    given (:func:`~gbnf.shape.closeness`), by its meaning.

    By words: it does when it shares :data:`CALL_WORDS` words with what some tools do (those
    tools are the ones to call), or, without ``closeness``, half of its own words ("Weather?");
    it may when it shares fewer, or words of their parameters only. By meaning: it does when it
    is :data:`CALL_LEAD` close to a tool (those its words ask for, then the tools within
    :data:`NEAR` of the closest, closest first), and it does not when it is not
    :data:`TEXT_LEAD` close to any, unless its words ask for a tool and include a word of that
    tool's name ("Search my notes for the dentist" beside ``search_notes``), or include every
    word of a tool's name ("Translate: hi, how are you doing today?" beside ``translate``): the two
    signals then disagree, and the model decides among those tools. A tool whose name the request
    asks for the opposite of ("sunset" beside ``get_sunrise_time``, :func:`opposed_tools`) is not
    one to call. Either way, the model decides when
    the first tool to call needs :data:`MISSING` more numbers than the request gives, or, in
    English, one where it gives none (:func:`short_of_numbers`). Of several
    tools to call, one :data:`ALONE` closer by meaning than the others is called alone where the
    request, in English, asks for one call. Otherwise the model decides. Without ``closeness``, a query that
    shares no word with any tool gets none. Where the model would decide, ``relevance`` (the model's relevance of
    :func:`scored_tools`, :class:`ModelRelevance`) below :data:`RELATED` for each of them makes
    the reply text: in the model's own view the request is unrelated to every tool."""
    decision = _by_words_and_meaning(tools, request, closeness)
    if decision.kind == "either" and relevance and max(relevance) < RELATED:
        return Decision("text", [])
    return decision


def _by_words_and_meaning(tools: list[Tool], request: Request, closeness: Closeness | None) -> Decision:
    """:func:`decide_reply` before the model's relevance is read."""
    words = request.words
    shared = [(tool, len(words & set(terms(tool.name + " " + tool.description)))) for tool in tools]
    alone = closeness is None  # words alone: one shared word of a two-word query is then evidence enough
    asked = [tool for tool, count in shared
             if count >= CALL_WORDS or (alone and count and 2 * count >= len(words))]
    names = [set(terms(tool.name)) - _ACTIONS for tool in tools]
    if asked:
        own = _own_words(names)
        asked = [tool for tool, mine in zip(tools, own) if tool in asked or words & mine]
    if closeness is not None and tools:
        if closeness.lead < TEXT_LEAD:  # unrelated by meaning; words that ask for a tool and name it disagree
            named = [tool for (tool, count), name in zip(shared, names)
                     if (count >= CALL_WORDS and words & name) or set(terms(tool.name)) <= words]
            return Decision("either", named) if named else Decision("text", [])
        if closeness.lead >= CALL_LEAD:
            near = sorted((-score, i) for i, score in enumerate(closeness.tools) if score >= closeness.best - NEAR)
            asked += [tools[i] for _, i in near if tools[i] not in asked]
    if asked:  # a request for the opposite of what a tool is named for does not ask for it
        opposed = opposed_tools(tools, request)
        asked = [tool for tool in asked if tool not in opposed]
    if asked:
        if short_of_numbers(asked[0], request):
            return Decision("either", asked)
        return Decision("call", _alone(asked, tools, request, closeness))
    if closeness is not None or any(count for _, count in shared) \
            or any(words & set(terms(tool_document(tool))) for tool in tools):
        return Decision("either", list(tools))
    return Decision("text", [])


def _alone(asked: list[Tool], tools: list[Tool], request: Request, closeness: Closeness | None) -> list[Tool]:
    """``asked``, or the one of them :data:`ALONE` closer to ``request`` by meaning than the
    others where the request asks for one call (see :func:`decide_reply`). How many calls a
    request asks for is read from English words (:func:`asked_calls`), so a request in another
    language keeps every tool asked: "Die soccer scores von Real Madrid und auch die basketball
    scores" asks for two."""
    if closeness is None or len(asked) < 2 or not request.english:
        return asked
    score = dict(zip((tool.name for tool in tools), closeness.tools))
    near = sorted(((score[tool.name], i) for i, tool in enumerate(asked)), reverse=True)
    (best, first), (second, _) = near[:2]
    return [asked[first]] if best - second >= ALONE and asked_calls(asked, request, 2) == 1 else asked


@dataclass(frozen=True)
class Asked:
    """What the user's words ask of one tool: the optional arguments they say nothing about
    (``left`` out), the boolean ones they ask to be true (``on``), the units they ask
    the optional unit arguments (``measured``) to take (``units``, :func:`measured_in`), and the
    array arguments of listed values they enumerate, with how many (``listed``, :func:`items_listed`)."""

    left: tuple[str, ...]
    on: tuple[str, ...]
    measured: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    listed: tuple[tuple[str, int], ...] = ()


def asked_of(tool: Tool, request: Request) -> Asked | None:
    """What ``request`` asks of ``tool``'s optional arguments (:func:`unasked`,
    :func:`switched_on`); None, the tool offered as declared, where the word rules cannot read
    the request (it is not English: :func:`~gbnf.shape.is_english`)."""
    if not request.english:
        return None
    return Asked(unasked(tool, request), switched_on(tool, request), measured_in(tool, request),
                 _units_for(tool, request), items_listed(tool, request))


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
            "required": [k for k in kept if k in required or _satisfiable(parameters, k, kept[k])]}


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
    arrays = {key: item for key, sub in props.items() if _kind(sub) == "array"
              and isinstance(item := _item_schema(sub), dict) and isinstance(item.get("enum"), list)}
    if not arrays:
        return ()
    return tuple((key, len(found[0])) for key, item in arrays.items()
                 if (found := _choices_written({key: item}, request.text, enumerated=True)))


def unasked(tool: Tool, request: Request) -> tuple[str, ...]:
    """The optional arguments of ``tool`` (top-level properties not required) that ``request``
    says nothing about: it has no word of the property's name that no other property's name
    has, and no word of its description and listed values that the tool's name and description
    and the properties' names do not also have, nor one of those misspelt ("acceleeration",
    :func:`_misspelt`). Small models otherwise fill every optional
    argument with a value nobody gave. An argument whose listed values (an enum, or its
    items' enum) the query names is asked for (``all`` of ``root_type``), and so is a unit
    argument when the request names a unit (:func:`measured_in`: "a radius of 4 inches"), and so
    is one the request writes a word of one listed value alone for ("backstage access" of
    ``Backstage Pass``, not "pass", which ``Parking Pass`` has too, nor a word of the tool's name), and a
    string of a shape the request writes (:func:`~gbnf.shape._shaped.shaped_values`: a date
    "on March 8th, 2023", an email address, a path). A number argument whose words the request
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
    left = []
    for (key, sub), own in zip(props.items(), _own_words(names)):
        own |= {term for term in terms(" ".join(_schema_words(sub))) if term not in shared and term not in named}
        if key in required or key in measured or _names_listed(request.text, sub) or \
                request.words & _value_words(sub) - set(terms(tool.name)) - named:
            continue
        unspoken = not (words & own or _misspelt(own, words)) and not shaped_values(key, sub, request.stretches)
        unnumbered = _numeric(sub) and not spare and not numbers_named(request.labels, key)
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
    arguments kept take, for each call its values ask (:func:`_calls_by_values`): in "Concerts by
    Adele in Leeds" Adele is the artist's, so the ``city`` it does not name is asked for; "the
    sunset in Reykjavik and in Tromso" is two calls, one name each."""
    props = tool.parameters.get("properties") or {}
    strings = [key for key in left if free_string(props.get(key))]
    if len(strings) != 1:
        return left
    kept = [key for key, sub in props.items() if key not in left and free_string(sub)]
    if _names_placed(request.text) <= len(kept) * _calls_by_values(tool, request):
        return left
    return [key for key in left if key not in strings]


@functools.lru_cache(maxsize=64)
def _names_placed(text: str) -> int:
    """How many names ``text`` writes right after "in", "on", "at", "by" or "from" (each once):
    read once per request, not once per tool."""
    return len(set(_PLACED.findall(text)))


_PLACED = re.compile(rf"\b(?:{either('place_leads')})\s+(?:the\s+)?({CAPITALISED})")


def _spare_numbers(props: dict[str, Any], required: list[str], request: Request) -> bool:
    """Whether ``request`` writes more numbers than the required number arguments of ``props``
    take: one each, and every list of numbers when one of them takes an array of numbers."""
    wanted = [props.get(key) for key in required]
    scalars = sum(map(_numeric, wanted))
    held = any(map(_number_array, wanted))
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
    for (key, sub), own in zip(props.items(), _own_words([set(terms(key)) for key in props])):
        if not isinstance(sub, dict) or sub.get("type") != "boolean" or {"enum", "const"} & set(sub):
            continue
        said = [i for i, stem in enumerate(stems) if stem in own - tool_words]
        if said and not any(_NEGATION.intersection(words[max(0, i - 3):i]) for i in said):
            on.append(key)
    return tuple(on)


def _own_words(word_sets: list[set[str]]) -> list[set[str]]:
    """Each of ``word_sets``' words that no other of them has."""
    counts = Counter(word for words in word_sets for word in words)
    return [{word for word in words if counts[word] == 1} for words in word_sets]


_NEGATION = frozenset(words("negations"))


def _names_listed(query: str, schema: Any) -> bool:
    """Whether ``query`` names one of the string values ``schema`` (or its items) lists."""
    return any(mentions(query, value) for values in _string_values(schema) for value in values)


def _value_words(schema: Any) -> set[str]:
    """The words (:func:`terms`) of the string values ``schema`` (or its items) lists that each
    one of them has alone ("backstage" of ``Backstage Pass``, not "pass", which ``Parking
    Pass`` has too)."""
    return set().union(*(words for values in _string_values(schema)
                         for words in _own_words([set(terms(value)) for value in values])))


def _string_values(schema: Any) -> list[list[str]]:
    """The string values ``schema`` lists (its ``enum``), and those its items list."""
    parts = (schema, schema.get("items")) if isinstance(schema, dict) else ()
    return [[value for value in part["enum"] if isinstance(value, str)] for part in parts
            if isinstance(part, dict) and isinstance(part.get("enum"), list)]


_SENTENCE_END = re.compile(r"[.?!;]\s+")
_REQUEST_CUT = rf"{_SENTENCE_END.pattern}|\b(?:{either('request_cuts')})\b"
_CLAUSES = re.compile(rf"{_REQUEST_CUT}|,\s*(?=(?:{either('question_words')})\b)|\band\b", re.IGNORECASE)
"""Where a request for several tools may turn to another tool: where a request ends, "and", and
a comma before a question word."""
_TURNS = re.compile(rf"(?:[.?!]\s+|\n)\W*(?:(?:{either('list_joins')})\s+)?"
                    rf"(?:{either('request_cuts')}|{either('again')}|{either('ordinals')})\b", re.IGNORECASE)
"""Where a sentence starts another turn of a request for several tools ("First, ... After that, ...
And finally, ...")."""
_AGAIN = re.compile(rf"\b(?:{either('again')})\b", re.IGNORECASE)
"""Words that ask for one tool once more ("then repeat with 10 seconds", "and another one in San
Diego"); "also" is not among them: "and also provide the species" asks more of the same call."""
_PARTS = re.compile(rf"{_REQUEST_CUT}|:\s+(?=(?-i:[A-Z]))|{_AGAIN.pattern}", re.IGNORECASE)
"""Where one part of a request ends and the next starts, each perhaps a call of its own
(:func:`_numbers_by_part`): where a request ends, "then", "again"..., and a colon before a
capital ("as follows: The first ...")."""


def asked_calls(tools: list[Tool], request: Request, most: int) -> int:
    """How many calls ``request`` asks for, up to ``most``, when it asks for what ``tools`` do
    (as offered: without the optional arguments it does not ask for, see :func:`unasked`).

    Of several tools, the query's clauses (cut at sentence ends, "and", "also", "then", and a
    comma before "what", "how"...) each ask for the one tool whose own words (those not all the
    tools have; its name's words count twice; after the first clause, no word of what any tool
    does, "make", "find") they share most; a clause sharing none goes on the one before it ("the
    GCD of 96 and 128, and the LCM of 15 and 25": one call each; "a payment request to Mary for
    $200 and make sure she sees it": one call, not one of ``make_payment`` too). Each tool
    is then asked as often as its clauses' numbers and names ask, as below, or as often as an
    earlier tool when its clauses ask once and point back at several things ("in 1900 and 1950?
    Also, the GDP in these years": two calls each, :data:`_MANY`), or as often as turns ask
    for it (:func:`_turns_asking`: "After that, the share price of Nokia. Lastly, the share
    price of Siemens": two), and the query asks
    at least one call of each tool for each of its turns: its start and each sentence that
    starts with a word of another turn ("Also", "Then", "After that", "Second"). Sentences alone
    ask no more ("I have 100 euro. How much is it in USD?" is one call). Of one tool, the most
    of what its numbers, its names, its words that ask again and its ordinals ask for:

    - numbers: each call takes one for each numeric argument ("the GCD of 3 and 4, 5 and 12":
      two calls), not counting the digits of dates, times, formulas and names ("on April 25,
      2023 at 14:00", "3x^2 + 2x - 1", "Windows 10", "2020 Addison Street":
      :attr:`Request.numbers_alone`); a
      written list of more numbers than one call leaves room for is one call each ("$1000 at
      5% for 10, 20 and 30 years": three), unless the tool has as many numeric arguments named
      alike ("charged 1e-9 and 2e-9" fills ``charge1`` and ``charge2``); lists of numbers are the values
      of a tool that takes arrays of numbers, one call for each list it has no room for;
    - names: an enumeration of names ("Apple, Google and Microsoft", "'Friends' or 'Lost'",
      "a Chicken Soup recipe and a Vegan Salad recipe") is one call each, unless the tool has
      as many string arguments named alike ("the Bulls and the Lakers" fill ``team1`` and
      ``team2``) or, for quoted names, as many string arguments (unless "each" follows them:
      "'Space' and 'Health', each for 'Canada'" is two); after "between", one call
      (for each pair, when there are several); and so is each name written right after the
      name of one of its string arguments ("the compound C6H12O6 ... the compound C12H22O11",
      :func:`~gbnf.shape.strings_named`), and each name written after "and" and a preposition
      written before another name ("for 'Queens Hotel' ... and for 'Royal Hotel'": two);
    - asking again: one call more for each "then", "another", "again", "the same"... followed
      by three words or more before the next ("then repeat the same for Chicago": one);
    - listed values: two or more of the strings one argument lists, each one call's ("the last six
      months, the last year and the last five years" of ``six_months``, ``year``, ``five_years``:
      three, :func:`_choices_written`), or its description lists, enumerated ("resistivity of
      copper and aluminum" of "Allowed values: 'copper', 'aluminum'": two);
    - dates: an enumeration of dates, for a tool with one argument of dates, is one call each
      ("the weather in Oslo on 2020-12-25 and 2021-01-01": two, :func:`_dates_listed`);
    - things in small letters enumerated after a preposition, three or more ("the price of gold,
      silver, platinum, and palladium": four, :func:`_things_listed`);
    - ordinals: "the first circle..., the second..., the third" is three;
    - counts in words: "for these three scenarios" is three (:func:`_counted_in_words`);
    - two enumerations that fill different arguments: one call for each pair ("the Lakers and
      the Bulls in 2018 and 2020", "Nokia and Ericsson on 2022-01-03 and 2022-02-01": four,
      :func:`_crossed`);
    - turns: one call more for each sentence that starts another turn ("Also, ...") and asks
      anew, naming something (:func:`_asks_anew`: "What was the Treaty of Paris about? Also,
      what was the importance of Magna Carta?": two).
    """
    if not tools:
        return 1
    if len(tools) == 1:
        return max(1, min(most, _calls_of_one(tools[0], request)))
    turns = 1 + len(_TURNS.findall(request.text))
    return max(1, min(most, max(len(_asked_in_turn(tools, request)), min(len(tools), turns))))


def _calls_of_one(tool: Tool, request: Request) -> int:
    """How many calls of ``tool`` ``request`` asks for by its values, its words that ask again
    (each part they start asks for one call more, or one for each name it enumerates: "..., then
    do the same for Austin, TX and Denver" two), its ordinals, its counts in words and its turns
    that ask anew."""
    props = tool.parameters.get("properties") or {}
    asked_again = 1 + sum(_calls_for_names(props, part) for part in _AGAIN.split(request.text)[1:]
                          if len(part.split()) >= 3)
    named_turns = 1 + sum(1 for turn in _TURNS.split(request.text)[1:] if _asks_anew(turn))
    return max(_calls_by_values(tool, request), asked_again, _ordinals(request.text),
               _counted_in_words(props, request.text), named_turns)


_QUESTION_WORDS = frozenset(words("question_words"))


def _asks_anew(turn: str) -> bool:
    """Whether a turn of a request ("Also, ...") asks for a call of its own: it starts with a
    question word or a word that is no stop word ("Also, what was the importance of Magna
    Carta", "Also, book a room at the Marriott"), not with "I" or "the" ("Also, the URL should
    be ...": more of the same call), and writes a name."""
    first = re.match(r"\W*([A-Za-z]+)", turn)
    return first is not None and bool(_NAMED.search(turn)) and (
        first.group(1).lower() in _QUESTION_WORDS or first.group(1).lower() not in STOPS)


def _calls_by_values(tool: Tool, request: Request) -> int:
    """How many calls of ``tool`` the numbers and names of ``request`` ask for: as their
    enumerations ask, or one for each name written right after the name of one of its string
    arguments ("the SNP ID 'rs123456' ... and the SNP ID 'rs7891011'": two,
    :func:`~gbnf.shape.strings_named`)."""
    props = tool.parameters.get("properties") or {}
    named = max(map(len, _names_by_argument(props, request)), default=0)
    chosen = max(map(len, _choices_written(props, request.text)), default=0)
    return max(_calls_for_numbers(props, request), _calls_for_names(props, request.text), named, chosen,
               len(_names_again(request.text)), len(_dates_listed(props, request.text)),
               math.prod(map(len, _crossed(props, request))))


def _dates_listed(props: dict[str, Any], query: str) -> tuple[str, ...]:
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
    return _kind(schema) == "string" and "enum" not in schema and (
        named or date_format(str(schema.get("description", ""))) is not None)


_TURNED_DOWN = re.compile(r"\bnot\s+\Z", re.IGNORECASE)
"""What comes right before a value a request turns down ("to rent, not buy")."""


def _choices_written(props: dict[str, Any], query: str, enumerated: bool = False) -> list[tuple[str, ...]]:
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


def _crossed(props: dict[str, Any], request: Request) -> tuple[tuple[str | Number, ...], ...]:
    """Two enumerations that fill different arguments, each one call's value, as ``request``
    writes them ("the Lakers and the Bulls in 2018 and 2020": the two teams, the two years;
    "from Boston and Denver to Miami and Austin" beside two free string arguments; a list of more
    numbers than one call takes; dates, :func:`_dates_listed`): one call for each pair. Empty
    where there are no two, or the request pairs them itself ("respectively")."""
    if _PAIRED.search(request.text):
        return ()
    lists = sorted({tuple(names) for names in _names_called(props, request.text)}, key=len, reverse=True)
    found: list[tuple[str | Number, ...]] = list(lists[:1])
    if len(_free_strings(props)) >= 2:
        found += [names for names in lists[1:2] if not set(names) & set(lists[0])]
    scalars = sum(map(_numeric, props.values()))
    if scalars:
        found += [numbers for numbers in request.number_lists[:1] if len(numbers) > max(1, scalars)]
    found += [dates] if (dates := _dates_listed(props, request.text)) else []
    return tuple(found[:2]) if len(found) >= 2 else ()


_PAIRED = re.compile(r"\b(?:respectively|each)\b", re.IGNORECASE)


def _free_strings(props: dict[str, Any]) -> list[str]:
    """The properties of ``props`` that are strings the model writes freely (no ``enum``)."""
    return [key for key, sub in props.items() if _kind(sub) == "string" and "enum" not in sub]


def _names_by_argument(props: dict[str, Any], request: Request) -> list[list[str]]:
    """For each free string property of ``props``, the names ``request`` writes right after its
    name (:func:`~gbnf.shape.strings_named`)."""
    return [strings_named(request.names, key) for key in _free_strings(props)]


_ORDINALS = words("ordinals")


def _ordinals(query: str) -> int:
    """How many things ``query`` counts off ("the first circle ..., the second ..."): the last
    ordinal of an unbroken run from "first" and "second"."""
    words = set(re.findall(r"[a-z]+", query.lower()))
    count = 0
    while count < len(_ORDINALS) and _ORDINALS[count] in words:
        count += 1
    return count if count >= 2 else 1


_COUNTS = {word: number for word, number in NUMBER_WORDS.items() if 2 <= number <= 10}
_COUNTED = re.compile(rf"\b(?:{either('count_leads')})\s+({'|'.join(_COUNTS)})\s+"
                      rf"(?:(?:{either('count_kinds')})\s+)?[a-z]+s\b", re.IGNORECASE)
"""A count written in words before a plural noun that points back at what the request described
("for these three scenarios", "each of the two triangles")."""


def _counted_in_words(props: dict[str, Any], query: str) -> int:
    """How many things ``query`` counts in words as it points back at them ("the population for
    these three scenarios": three), one call each; one when none, when "between" comes before
    ("between these two cities": one call takes both) or when the tool has as many arguments
    named alike ("these two points": ``point1`` and ``point2``)."""
    found = _COUNTED.search(query)
    if found is None or _BETWEEN.search(query[:found.start()]):
        return 1
    count = _COUNTS[found.group(1).lower()]
    return count if count > _most_alike(props) else 1


def _most_alike(keys: Iterable[str]) -> int:
    """The most of ``keys`` named alike but for their digits (``team1``, ``team2``: two); one when none are."""
    return max(Counter(re.sub(r"\d+", "", key) for key in keys).values(), default=1)


def asked_order(tools: list[Tool], request: Request, most: int) -> tuple[str, ...]:
    """The tools of the first calls ``request`` asks for, in turn, when it asks for several of
    ``tools`` (empty for one tool): each tool its clauses ask for (see :func:`asked_calls`), as
    many times as they ask, in the order the query first asks for each, up to ``most`` calls."""
    if len(tools) < 2:
        return ()
    return tuple(tools[i].name for i in _asked_in_turn(tools, request, most))


def _asked_in_turn(tools: list[Tool], request: Request, most: int | None = None) -> list[int]:
    """The index in ``tools`` of each call the clauses of ``request`` ask for (see
    :func:`asked_calls`): a tool's calls together, tools in the order the query first asks for
    them; of the first ``most`` calls, each tool one at least where there is room
    (:func:`_each_called`)."""
    key = tuple((tool.name, tool.description) for tool in tools)
    by_turn = Counter(i for asked in _turns_asking(key, request.text) for i in asked)
    turns: list[int] = []
    for i, text in _clauses_by_tool(key, request.text):
        if i is not None:
            calls = _calls_by_values(tools[i], read_request(text))
            if calls == 1 and turns and _MANY.search(text):
                calls = max(Counter(turns).values())
            turns += [i] * max(calls, by_turn[i])
    if most is None:
        return turns
    own = _own_terms(key)
    return _each_called(turns[:most], [i for i in range(len(tools)) if len(request.words & own[i]) >= CALL_WORDS])


def _each_called(turns: list[int], asked: list[int]) -> list[int]:
    """``turns`` (the tool of each call) giving each tool of ``asked`` (those whose own words the
    request has) that no clause asked for one call, in place of the last call of the tool asked
    for most, while that one has two or more: the clauses read a request for four things as four
    calls of one tool ("stay at the 'Hotel Le Bristol Paris' ... the latest exchange rate ... the
    time light takes"), and a small model would leave three undone."""
    turns = list(turns)
    for missing in [i for i in asked if i not in turns]:
        most, count = Counter(turns).most_common(1)[0] if turns else (0, 0)
        if count < 2:
            break
        del turns[len(turns) - 1 - turns[::-1].index(most)]
        turns.append(missing)
    return turns


@functools.lru_cache(maxsize=64)
def _turns_asking(tools: tuple[tuple[str, str], ...], query: str) -> tuple[frozenset[int], ...]:
    """For tools given as (name, description), the tools each turn of ``query`` asks for (its
    start, and each sentence that starts with "Then", "After that", "Lastly"...: :data:`_TURNS`):
    those its clauses ask for (:func:`_clauses_by_tool`) that share :data:`CALL_WORDS` of their
    own words with it. A turn that asks for every tool asks for none: it sums the request up
    ("Could you calculate the area and plot the sine wave?")."""
    own = _own_terms(tools)
    turns = []
    for turn in _TURNS.split(query):
        words = set(terms(turn))
        asked = frozenset(i for i, _ in _clauses_by_tool(tools, turn)
                          if i is not None and len(words & own[i]) >= CALL_WORDS)
        turns.append(asked if len(asked) < len(tools) else frozenset())
    return tuple(turns)


@functools.lru_cache(maxsize=64)
def _own_terms(tools: tuple[tuple[str, str], ...]) -> tuple[frozenset[str], ...]:
    """For tools given as (name, description), each one's words (:func:`terms`) that not all of
    them have."""
    words = [frozenset(terms(f"{name} {description}")) for name, description in tools]
    common = frozenset.intersection(*words)
    return tuple(found - common for found in words)


_MANY = re.compile(rf"\b(?:{either('back_to_many')})\b", re.IGNORECASE)
"""Words by which a tool's clauses point back at several things an earlier tool's wrote ("the
life expectancy in 1900 and 1950, and the GDP in these years"): as many calls as that tool's."""


_BACK = re.compile(rf"\b(?:{either('back_references')})\b", re.IGNORECASE)


def asked_parts(tools: list[Tool], request: Request, most: int) -> tuple[tuple[str, str], ...]:
    """For each of the first calls :func:`asked_order` names, in turn: the words of ``request``
    that may ask for it (its tool's clauses, and those that ask for no one tool; the whole
    request where its clauses point back: "for the same city", "its GDP") and those that ask for
    another tool ("the electric field at 3m from a charge of 4C. Also, the magnetic field of a
    current of 0.5A": 3m and 4C for the first call, 0.5A for the other's). A tool asked for by as
    many turns as it has calls (:func:`_turns_asking`: "After that, the share price of Nokia.
    Lastly, the share price of Siemens") gives its k-th call the k-th of those turns, with the
    turns that ask for no tool, unless that turn points back. Words that write fewer numbers than
    their tool requires speak of the others' too ("Transfer $5000 ... And the interest after 5
    years at 3%": the principal is 5000): none ask for another tool. Empty for one tool, and for a
    request not in English, whose clauses these words do not read."""
    if len(tools) < 2 or not request.english:
        return ()
    key = tuple((tool.name, tool.description) for tool in tools)
    texts = _clauses_by_tool(key, request.text)
    turns, asking = _TURNS.split(request.text), _turns_asking(key, request.text)
    calls = _asked_in_turn(tools, request, most)
    seen: Counter[int] = Counter()

    def part(i: int) -> tuple[str, str]:
        mine = [k for k, asked in enumerate(asking) if i in asked]
        seen[i] += 1
        if len(mine) == calls.count(i) >= 2 and not _BACK.search(own := turns[mine[seen[i] - 1]]):
            return (". ".join(turn for turn, asked in zip(turns, asking) if turn == own or not asked),
                    ". ".join(turn for turn, asked in zip(turns, asking) if turn != own and asked))
        if _BACK.search(". ".join(text for tool, text in texts if tool == i)):
            return request.text, ""
        own = ". ".join(text for tool, text in texts if tool in (i, None))
        if len(read_request(own).numbers) < _numbers_needed(tools[i]):
            return own, ""
        return own, ". ".join(text for tool, text in texts if tool not in (i, None))
    return tuple(part(i) for i in calls)


def items_in_turn(tools: list[Tool], request: Request, most: int) -> tuple[tuple[Items, int], ...]:
    """For each of the first calls :func:`asked_order` names, in turn: what each call of its tool
    asks for on its own (:func:`asked_items`, read in the words that ask for that tool) and which
    of those calls it is (from 0); the k-th call takes the k-th items
    (:func:`~gbnf.shape.own_values`). A tool whose words point back at several things an earlier
    tool's calls were counted from ("the life expectancy in 1900 and 1950, and the GDP in these
    years") takes that tool's items: its first call 1900, its second 1950. No items where one
    tool's calls are all that is asked; empty for one tool, and for a request not in English,
    whose clauses these words do not read."""
    if len(tools) < 2 or not request.english:
        return ()
    key = tuple((tool.name, tool.description) for tool in tools)
    texts = dict(_clauses_by_tool(key, request.text))
    calls = _asked_in_turn(tools, request, most)
    counts = Counter(calls)
    if len(counts) < 2:  # one tool's calls, counted among several tools: no enumeration of theirs is read
        return tuple(((), k) for k in range(len(calls)))
    items: dict[int, Items] = {}
    for i in dict.fromkeys(calls):
        text = texts.get(i, "")
        found = asked_items([tools[i]], read_request(text), counts[i]) if counts[i] > 1 else ()
        if not any(found) and _MANY.search(text):
            found = next((mine for j, mine in items.items() if counts[j] == counts[i] and any(mine)), ())
        items[i] = found
    seen: Counter[int] = Counter()
    out = []
    for i in calls:
        out.append((items[i], seen[i]))
        seen[i] += 1
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _clauses_by_tool(tools: tuple[tuple[str, str], ...], query: str) -> tuple[tuple[int | None, str], ...]:
    """For tools given as (name, description), the index of each one the clauses of ``query``
    ask for and those clauses, in the order the query first asks for it (see
    :func:`asked_calls`), and None with the clauses that ask for no one tool;
    :func:`asked_calls`, :func:`asked_order` and :func:`asked_parts` read it."""
    own = _own_terms(tools)
    common = frozenset(terms(f"{tools[0][0]} {tools[0][1]}")) - own[0]
    named = [set(terms(name)) - common for name, _ in tools]
    runs: list[tuple[int | None, int, int]] = []  # (tool, start, end) of clauses asking for one tool
    start = 0
    for cut in [*_CLAUSES.finditer(query), None]:
        end = cut.start() if cut else len(query)
        words = set(terms(query[start:end]))
        if runs:  # words of what any tool does ("make sure", "find") turn to no other tool
            words -= _ACTIONS
        shared = [len(words & mine) + len(words & name) for mine, name in zip(own, named)]  # names count twice
        best = max(shared)
        tool = shared.index(best) if best and shared.count(best) == 1 else None
        if runs and (not best or tool == runs[-1][0]):
            runs[-1] = (runs[-1][0], runs[-1][1], end)
        else:
            runs.append((tool, start, end))
        start = cut.end() if cut else end
    texts: dict[int | None, list[str]] = {}
    for tool, start, end in runs:
        texts.setdefault(tool, []).append(query[start:end])
    return tuple((tool, ". ".join(parts)) for tool, parts in texts.items())


def _calls_for_numbers(props: dict[str, Any], request: Request) -> int:
    """How many calls of a tool with properties ``props`` the numbers of ``request`` ask for."""
    scalars = [key for key, sub in props.items() if _numeric(sub)]
    arrays = [key for key, sub in props.items() if _number_array(sub)]
    count = len(request.numbers_alone)
    lists = [found for found in request.number_lists if len(found) > 1]
    if arrays and lists:
        rest = count - sum(map(len, lists))
        return max(len(lists) // len(arrays), rest // len(scalars) if scalars else 1)
    if not scalars:
        return 1
    longest = max(map(len, lists), default=0)
    one_each = count - longest < len(scalars) and not (longest == count and len(scalars) > 1)
    if longest > _most_alike(scalars) and one_each:
        return longest
    return count // len(scalars)


_NAME = rf"(?:'[^']+'|\"[^\"]+\"|{CAPITALISED})"
_NAMED = re.compile(rf"{INSIDE}{_NAME}")
"""A name written inside a part, not as its first word ("Show me ... from San Francisco": San Francisco)."""
_JOIN = either("list_joins")
_NAMES = re.compile(rf"{_NAME}(?:\s*,\s*{_NAME})*,?\s+(?:{_JOIN})\s+(?:the\s+)?{_NAME}")
"""An enumeration of names: capitalised (not "I") or quoted, ``A, B and C``, ``A or the B``."""
_EACH = re.compile(r"[\s,]*each\b", re.IGNORECASE)
"""What follows an enumeration whose names each ask for a call of their own ("..., each with 5 articles")."""
_BETWEEN = re.compile(r"\bbetween\b[^.?!]{0,30}$", re.IGNORECASE)
"""What comes before a pair of names that one call takes ("between two cities, New York and Boston")."""
_NAMES_GAP_KEPT = re.compile(rf"(\s*,\s*(?:(?:{_JOIN})\s+)?(?:the\s+)?|\s+(?:{_JOIN})\s+(?:the\s+)?)")
"""Between two names of an enumeration (kept by ``split``: a comma alone may come before a region)."""


def _places(listed: str) -> list[str]:
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


def _calls_for_names(props: dict[str, Any], query: str) -> int:
    """How many calls of a tool with properties ``props`` the names ``query`` enumerates ask
    for (:func:`_names_called`): one each."""
    return max(map(len, _names_called(props, query)), default=1)


def _names_called(props: dict[str, Any], query: str) -> list[list[str]]:
    """The enumerations of names in ``query`` that ask for one call of a tool with properties
    ``props`` each, each as its names: those with more names than the tool's free string
    arguments named alike (``team1``, ``team2``), or, quoted, more than all its free string
    arguments, or any followed by "each" ("'Space' and 'Health', each for 'Canada'"); none
    after "between" (but two pairs or more after it are one call each: "between New York and
    Boston, and between Lyon and Nice"), none that names a value an argument lists
    (those are its values), and none when it takes an array of free strings, which holds them.
    Names listed before one noun (:func:`_names_of_a_kind`) are an enumeration too."""
    strings = _free_strings(props)
    if not strings or any(_kind(sub) == "array" and free_string(_item_schema(sub)) for sub in props.values()):
        return []
    alike = _most_alike(strings)
    listed = {word_key(str(value)) for sub in props.values() for part in (sub, _item_schema(sub))
              if isinstance(part, dict) and isinstance(part.get("enum"), list) for value in part["enum"]}
    found = []
    for match in _NAMES.finditer(query):
        if not _BETWEEN.search(query[:match.start()]):
            names = _places(match.group())
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
def _names_again(query: str) -> tuple[str, ...]:
    """The names a sentence of ``query`` writes after one preposition, then after "and" and that
    preposition again, each one call's ("the availability for 'Queens Hotel' in Berlin from March
    10 to 20 and for 'Royal Hotel' in Paris": two); empty when none is written again."""
    for sentence in _SENTENCE_END.split(query):
        found = list(_AGAIN_FOR.finditer(sentence))
        for k, match in enumerate(found):
            firsts = [first for first in found[:k] if not first.group(1) and first.group(2) == match.group(2)]
            if match.group(1) and firsts:
                again = [later for later in found[k:] if later.group(1) and later.group(2) == match.group(2)]
                return tuple(name.group(3).strip("'\"") for name in [firsts[-1], *again])
    return ()


_PAIR = re.compile(rf"\bbetween\s+(?:the\s+)?({_NAME}\s+and\s+(?:the\s+)?{_NAME})")
"""A pair of names after "between", one call's ("between New York and Boston, and between Lyon and Nice": two)."""
_KIND = re.compile(rf"({_NAMED.pattern})\s+([a-z]{{3,}})\b")
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
    for sentence in _SENTENCE_END.split(query):
        kinds: dict[str, list[re.Match[str]]] = {}
        for match in _KIND.finditer(sentence):
            if match.group(2) not in STOPS:
                kinds.setdefault(match.group(2), []).append(match)
        for matches in kinds.values():
            listed = [matches[0]] + [after for before, after in zip(matches, matches[1:])
                                     if _LIST_JOIN.search(sentence[before.end():after.start()])]
            found.append(list(dict.fromkeys(match.group(1) for match in listed)))
    return found


Items = tuple[tuple["str | Number", ...], ...]
"""What each call of one tool asks for on its own, in turn (:func:`asked_items`)."""


def asked_items(tools: list[Tool], request: Request, calls: int) -> Items:
    """What each of ``calls`` calls of one tool asks for on its own, in turn, when ``request``
    enumerates exactly that many things to make a call for: names ("the weather in Paris, London
    and Rome": Paris, London, Rome), numbers the tool takes one at a time ("for 10, 20 and 30
    years"), or both ("Apple, Amazon and Tesla over 1, 2 and 3 weeks": Apple with 1...). The k-th
    call takes the k-th of each, and no other call's (:func:`~gbnf.shape.own_values`): small
    models otherwise copy the first item into every call. An item the request writes twice is
    no one call's own, unless each writing is one part's own (:func:`_numbers_by_part`: "10
    shots", then "exactly 10 shots"). Empty for several tools, and when no enumeration (or more than one) has
    that many items. A numeric argument whose name is written right before that many numbers
    ("the first circle has a radius of 5cm, the second a radius of 10cm": 5, then 10,
    :func:`~gbnf.shape.numbers_named`) gives each call its own too, and so does a string argument
    whose name is written right before that many names ("case number XY1234 ... case number
    GH5678", :func:`~gbnf.shape.strings_named`), as does a request written in as many parts in
    a row as calls, each naming one thing anew (:func:`_numbers_by_part`), or in as many parts
    each writing names ("in San Francisco in 2019, and the same in Texas": :func:`_names_by_part`),
    or writing its numbers call by call ("85 kilograms and 1.8 meters tall, and Sarah 60
    kilograms and 1.65 meters": :func:`_in_rows`), or writing that many of the strings one
    argument lists ("the last six months, the last year...": :func:`_choices_written`), or that
    many dates for its one argument of dates ("on 2020-12-25 and 2021-01-01": :func:`_dates_listed`). Two
    enumerations that fill different arguments give each call one pair ("the Lakers and the
    Bulls in 2018 and 2020": the Lakers with 2018, then with 2020..., :func:`_crossed`)."""
    if len(tools) != 1 or calls < 2:
        return ()
    props = tools[0].parameters.get("properties") or {}
    names = [found for found in _names_called(props, request.text) if len(found) == calls]
    scalars = [key for key, sub in props.items() if _numeric(sub)]
    held = any(map(_number_array, props.values()))
    numbers = [found for found in request.number_lists if len(found) == calls] if scalars and not held else []
    columns = [tuple(found[0]) for found in (names, numbers) if len(found) == 1]
    columns += [tuple(named) for key in scalars if len(named := numbers_named(request.labels, key)) == calls]
    columns += [tuple(found) for found in _names_by_argument(props, request) if len(found) == calls]
    columns += [again] if len(again := _names_again(request.text)) == calls else []
    columns += [choices for choices in _choices_written(props, request.text) if len(choices) == calls]
    columns += [dates] if len(dates := _dates_listed(props, request.text)) == calls else []
    crossed = _crossed(props, request)
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
    start = max((cut.end() for cut in _SENTENCE_END.finditer(text, 0, rows[0][1])), default=0)
    end = next((cut.start() for cut in _SENTENCE_END.finditer(text, rows[-1][2])), len(text))

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
    parts = [labels for part in _request_parts(request.text) if (labels := labelled(part))]
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
    region (:func:`_places`): not the units the request writes ("in Celsius") nor a word that
    starts a part ("..., Also list")."""
    return [name for match in _NAMED.finditer(text) for name in _places(match.group())
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
"""What one call asked again is kept from: (argument, value) pairs (:func:`~gbnf.shape.kept_apart`)."""
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
    (:func:`~gbnf.shape.kept_apart`; None when it cannot be): one of the first calls of a reply
    asked again (:func:`calls_apart`)."""
    parameters = kept_apart(tool.parameters, avoid)
    return replace(tool, parameters=parameters) if parameters is not None else None


def _item_schema(schema: Any) -> Any:
    """An array schema's ``items`` (None for anything else)."""
    return schema.get("items") if isinstance(schema, dict) else None


def _kind(schema: Any) -> Any:
    """A schema's ``type`` (None for anything but a schema object)."""
    return schema.get("type") if isinstance(schema, dict) else None


def _numeric(schema: Any) -> bool:
    """Whether a schema is an integer or a number."""
    return _kind(schema) in ("integer", "number")


def _number_array(schema: Any) -> bool:
    """Whether a schema is an array of integers or numbers."""
    return _kind(schema) == "array" and _numeric(_item_schema(schema))


def follow_up(tools: list[Tool], request: Request, done: list[Tool], k: int, final_tool: str, *, act: bool = True,
              ratio: float = RELATIVE, said: Iterable[str] = ()) -> list[Tool]:
    """The tools a step offers after the tools in ``done`` succeeded: ranked by the query's
    words that no done tool's document has and no done call's arguments ``said`` (texts; what
    is still to do), those scoring at least ``ratio`` of the best, and the final tool. With
    ``act``, when those words name what one of these tools does, the final tool is left out:
    the plan must do the rest first. When no tool matches the words left, only the final tool:
    the plan has done what the query asked ("Calculate 37 times 41" once ``calculate`` took
    "37 times 41" asks nothing of a clock). Words that point back at an earlier step's result
    ("save the result as a note") ask for no tool.
    """
    final = [t for t in tools if t.name == final_tool]
    covered = _words_said(said) | _EARLIER | {term for tool in done for term in terms(tool_document(tool))}
    candidates = [t for t in tools if t.name != final_tool]
    scores = bm25_scores(candidates, request, covered) if candidates else []
    strong = _strong(sorted(zip(candidates, scores), key=lambda pair: -pair[1])[:k], ratio)
    if act and _naming_tools(strong, request.words - covered):
        return strong
    return strong + final


_EARLIER = frozenset(terms(" ".join(words("earlier"))))
"""Words by which a query points back at what an earlier step gave ("save the result as a note"),
not at a tool's own work."""

_CLAUSE = re.compile(rf",? (?:{either('steps')}) ", re.IGNORECASE)


def clauses(query: str) -> list[str]:
    """A query's clauses, split at "and" and "then": the steps it asks for, in order."""
    return [part for part in _CLAUSE.split(query) if part.strip()]


def still_to_do(request: Request, done: int, said: Iterable[str] = ()) -> str | None:
    """The clause of ``request`` after the ``done`` ones that calls did (one call per clause),
    unless it adds no word to the clauses before it and to ``said`` (the texts of the calls'
    arguments): "a base of 10 units and height of 5 units" is one call, not two."""
    parts = clauses(request.text)
    if len(parts) < 2 or len(parts) <= done:
        return None
    before = _words_said(said) | set(terms(" ".join(parts[:done])))
    return parts[done] if set(terms(parts[done])) - before else None


def _words_said(texts: Iterable[str]) -> frozenset[str]:
    """The words (terms) of ``texts``: what calls' arguments wrote."""
    return frozenset(word for text in texts for word in terms(text))


def first_clause(request: Request) -> str | None:
    """The part of a request before its first "and" or "then", when it has one: what to do first."""
    parts = clauses(request.text)
    return parts[0] if len(parts) > 1 else None


def _tools_named(tools: list[Tool], request: Request, k: int, ratio: float) -> list[Tool]:
    """The tools ``request`` names, among its ``k`` best by BM25 within ``ratio`` of the best."""
    return _naming_tools(_strong([(r.tool, r.score) for r in rank_tools(tools, request)[:k]], ratio), request.words)


def _strong(top: list[tuple[Tool, float]], ratio: float) -> list[Tool]:
    """The tools of ``top`` (best first) with evidence, scoring at least ``ratio`` of the best."""
    return [tool for tool, score in top if score > 0 and score >= ratio * top[0][1]]


def _naming_tools(tools: list[Tool], words: frozenset[str]) -> list[Tool]:
    """The tools whose name or description has one of the query's ``words``: the query names
    what they do (a parameter's words alone do not)."""
    return [t for t in tools if words & set(terms(t.name + " " + t.description))]


@functools.lru_cache(maxsize=64)
def _index(documents: tuple[str, ...]) -> tuple[bm25s.BM25, dict[str, int]]:
    """The BM25 index of a pool's documents and its vocabulary, built once per pool."""
    corpus = bm25s.tokenize(list(documents), stopwords=STOPWORDS_EN_PLUS, stemmer=STEMMER, show_progress=False)
    index = bm25s.BM25()
    index.index(corpus, show_progress=False)
    return index, corpus.vocab


def _schema_words(schema: Any) -> Iterator[str]:
    """Property names, descriptions and enum values anywhere in a schema."""
    if isinstance(schema, dict):
        for key, sub in (schema.get("properties") or {}).items():
            yield identifier_words(key)
            yield from _schema_words(sub)
        if isinstance(schema.get("description"), str):
            yield schema["description"]
        for value in schema.get("enum") or []:
            if isinstance(value, str):
                yield identifier_words(value)
        for key in ("items", "anyOf", "oneOf", "allOf"):
            sub = schema.get(key)
            for part in sub if isinstance(sub, list) else [sub]:
                yield from _schema_words(part)
