"""Tool relevance: rank a pool for a query, decide whether a reply calls, and which tools each
step of a plan offers.

Three signals. The query's meaning (:func:`~gbnf.shape.rules.closeness`, in sixteen languages),
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

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import bm25s
from bm25s.stopwords import STOPWORDS_EN_PLUS

from gbnf._text import identifier_words, own_words
from gbnf.shape._calls import asked_calls
from gbnf.shape._english import STEMMER, either, words
from gbnf.shape._meaning import Closeness
from gbnf.shape._opposites import opposed_tools
from gbnf.shape._request import Request, read_request, terms
from gbnf.shape._tool_words import ACTIONS, CALL_WORDS, numbers_needed, tool_document
from gbnf.tools import Tool

RELATIVE = 0.5
"""Step 1 offers the tools scoring at least this share of the best BM25 score."""
MARGIN = 2.0
"""Without BM25 evidence, a tool whose model relevance leads the next by this much (nats) is
evidence enough: step 1 offers it alone (with ``act_first``)."""

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
    names none and ``meaning`` is given (:func:`~gbnf.shape.rules.closeness`), the reply is decided
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
only one offered when the request asks for one call (:func:`~gbnf.shape._calls.asked_calls`): of
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
    needed = numbers_needed(tool)
    written = numbers_given(request)
    return needed - written >= MISSING or (needed > 0 and not written and request.english)


def numbers_given(request: Request) -> int:
    """How many numbers ``request`` gives: those it writes, and a period it names ("the next
    week")."""
    return len(request.numbers) + len(_PERIOD.findall(request.text))


RELATED = 0.0
"""A request no more likely after a tool's card than after a card for any request (its
:class:`ModelRelevance` below this) is unrelated to that tool in the model's view."""
SCORED = 3
"""How many of the tools closest by meaning the model's relevance is read for (:func:`scored_tools`),
and whose fit to a request's values decides whether the model may call at all
(:func:`~gbnf.shape._reply.reply_shape`)."""


def scored_tools(tools: list[Tool], request: Request, decision: Decision, closeness: Closeness | None) -> list[Tool]:
    """The tools whose model relevance (:class:`ModelRelevance`) decides a reply that words and
    meaning leave to the model (``decision`` is ``either``): the :data:`SCORED` closest to
    ``request`` by meaning. None for any other decision, without ``closeness``, and for a request
    not in English: the embedded models read English, and a request in another language is then
    left to the model."""
    if decision.kind != "either" or closeness is None or not request.english:
        return []
    return closest_first(tools, tools, closeness)[:SCORED]


def closest_first(among: Sequence[Tool], tools: Sequence[Tool], closeness: Closeness | None) -> list[Tool]:
    """``among`` (some of ``tools``), the closest by meaning first (``closeness``, over ``tools``;
    ties and, without it, all in their order)."""
    if closeness is None:
        return list(among)
    score = dict(zip((t.name for t in tools), closeness.tools))
    return sorted(among, key=lambda t: -score[t.name])


def near_best(among: list[Tool], tools: list[Tool], closeness: Closeness | None) -> list[Tool]:
    """Of ``among`` (some of ``tools``), those within :data:`NEAR` of the closest of them by
    meaning (``closeness``, over ``tools``), closest first; all of them without it."""
    if closeness is None:
        return among
    score = dict(zip((t.name for t in tools), closeness.tools))
    best = max(score[t.name] for t in among)
    return [t for t in closest_first(among, tools, closeness) if score[t.name] >= best - NEAR]


def decide_reply(tools: list[Tool], request: Request, closeness: Closeness | None = None,
                 relevance: Sequence[float] | None = None) -> Decision:
    """Whether ``request`` asks for one of ``tools``, by its words and, where ``closeness`` is
    given (:func:`~gbnf.shape.rules.closeness`), by its meaning.

    By words: it does when it shares :data:`~gbnf.shape._tool_words.CALL_WORDS` words with what
    some tools do (those tools are the ones to call), or, without ``closeness``, half of its own words ("Weather?");
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
    names = [set(terms(tool.name)) - ACTIONS for tool in tools]
    if asked:
        own = own_words(names)
        asked = [tool for tool, mine in zip(tools, own) if tool in asked or words & mine]
    if closeness is not None and tools:
        if closeness.lead < TEXT_LEAD:  # unrelated by meaning; words that ask for a tool and name it disagree
            named = [tool for (tool, count), name in zip(shared, names)
                     if (count >= CALL_WORDS and words & name) or set(terms(tool.name)) <= words]
            return Decision("either", named) if named else Decision("text", [])
        if closeness.lead >= CALL_LEAD:
            asked += [tool for tool in near_best(tools, tools, closeness) if tool not in asked]
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
    request asks for is read from English words (:func:`~gbnf.shape._calls.asked_calls`), so a
    request in another language keeps every tool asked: "Die soccer scores von Real Madrid und auch die basketball
    scores" asks for two."""
    if closeness is None or len(asked) < 2 or not request.english:
        return asked
    score = dict(zip((tool.name for tool in tools), closeness.tools))
    near = sorted(((score[tool.name], i) for i, tool in enumerate(asked)), reverse=True)
    (best, first), (second, _) = near[:2]
    return [asked[first]] if best - second >= ALONE and asked_calls(asked, request, 2) == 1 else asked


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
