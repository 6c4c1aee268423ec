"""Tool relevance: rank a pool for a query, so the grammar offers the likely tools.

Two signals. BM25 over each tool's document: its name (``get_weather`` reads as "get
weather"), its description, and its parameters' names, descriptions and enum values; words are
stemmed (Snowball) and English stop words ("how", "what", "my"...) dropped, so "remind" finds ``schedule_reminder``.
And, when the backend can score text (:class:`ModelRelevance`), the model's own view: how much
more likely each tool's name becomes as the reply to this query than to an empty one (pointwise
mutual information), which orders the tools BM25 cannot tell apart, and the whole pool when
no tool shares a word with the query ("euros" and ``convert_currency``). Ranking and
:func:`select_tools` are pure functions of the tools, the query and the scores.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import bm25s
import Stemmer
from bm25s.stopwords import STOPWORDS_EN_PLUS

from gbnf.backends.base import Message
from gbnf.manifest import Tool
from gbnf.prompt import system_prompt

_STEMMER = Stemmer.Stemmer("english")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
RELATIVE = 0.5
"""Step 1 offers the tools scoring at least this share of the best BM25 score."""

Scorer = Callable[[list[Message], str, list[str]], list[float]]
"""``scorer(messages, prefix, continuations)``: each continuation's log-probability after the
chat prompt of ``messages`` and the reply's ``prefix`` (``LlamaCppBackend.score``)."""


@dataclass(frozen=True)
class Ranked:
    """One tool, its BM25 score for the query (0: no word in common) and the model's relevance
    score (None without a model)."""

    tool: Tool
    score: float
    model: float | None = None


class ModelRelevance:
    """The model's relevance of each tool to a query: log P(name | query) - log P(name | empty
    query), with the second term computed once per pool."""

    def __init__(self, scorer: Scorer) -> None:
        self.scorer = scorer
        self._priors: dict[tuple[str, ...], list[float]] = {}

    def __call__(self, tools: list[Tool], query: str) -> list[float]:
        key = tuple(t.name for t in tools)
        if key not in self._priors:
            self._priors[key] = self._likelihoods(tools, "")
        return [a - b for a, b in zip(self._likelihoods(tools, query), self._priors[key])]

    def _likelihoods(self, tools: list[Tool], query: str) -> list[float]:
        messages = [{"role": "system", "content": system_prompt(tools)}, {"role": "user", "content": query}]
        return self.scorer(messages, '{"name": "', [t.name + '"' for t in tools])


def tool_document(tool: Tool) -> str:
    """The words a query can match: name, description, and what the parameters say."""
    return " ".join([_words(tool.name), tool.description, *_schema_words(tool.parameters)])


def rank_tools(tools: list[Tool], query: str, model: list[float] | None = None) -> list[Ranked]:
    """``tools`` from most to least relevant to ``query``: by BM25 score, ties broken by the
    model's relevance (``model``, one score per tool) when given, then by pool order."""
    bm25 = bm25_scores(tools, query) if tools else []
    relevance = model or [0.0] * len(tools)
    ranked = [Ranked(t, s, None if model is None else round(m, 4)) for t, s, m in zip(tools, bm25, relevance)]
    return sorted(ranked, key=lambda r: (-r.score, -(r.model or 0.0)))


def bm25_scores(tools: list[Tool], query: str) -> list[float]:
    """Each tool's BM25 score for ``query``."""
    index, vocabulary = _index(tuple(tool_document(t) for t in tools))
    words = bm25s.tokenize(_words(query), stopwords=STOPWORDS_EN_PLUS, stemmer=_STEMMER, return_ids=False,
                           show_progress=False)[0]
    known = [w for w in words if w in vocabulary]
    scores = index.get_scores(known) if known else [0.0] * len(tools)
    return [round(float(score), 4) for score in scores]


@dataclass(frozen=True)
class Selection:
    """Which tools a plan offers: ``first`` at step 1, ``later`` afterwards (before the tools
    already used are taken out), and the whole ranking."""

    ranking: list[Ranked]
    first: list[Tool]
    later: list[Tool]

    @property
    def evidence(self) -> bool:
        """Whether some tool shares a word with the query."""
        return bool(self.ranking) and self.ranking[0].score > 0


def select_tools(tools: list[Tool], query: str, k: int, final_tool: str, *, model: ModelRelevance | None = None,
                 act_first: bool = True, ratio: float = RELATIVE) -> Selection:
    """The tools to offer for ``query``: the ``k`` most relevant, and the final tool.

    When some tool shares words with the query, every step offers only the tools (of the top
    ``k``) scoring at least ``ratio`` of the best BM25 score, and the final tool, except step 1
    with ``act_first``: there the final tool is left out, so the plan starts with an action.
    When no tool shares a word, every step offers the top ``k`` (by the model's relevance, when
    there is a model) and the final tool, and the model decides.
    """
    final = [t for t in tools if t.name == final_tool]
    candidates = [t for t in tools if t.name != final_tool]
    ranking = rank_tools(candidates, query, model(candidates, query) if model and candidates else None)
    top = ranking[:k]
    if not top or top[0].score <= 0:
        offered = [r.tool for r in top] + final
        return Selection(ranking, offered, offered)
    strong = [r.tool for r in top if r.score >= ratio * top[0].score]
    return Selection(ranking, strong if act_first else strong + final, strong + final)


@functools.lru_cache(maxsize=64)
def _index(documents: tuple[str, ...]) -> tuple[bm25s.BM25, dict[str, int]]:
    """The BM25 index of a pool's documents and its vocabulary, built once per pool."""
    corpus = bm25s.tokenize(list(documents), stopwords=STOPWORDS_EN_PLUS, stemmer=_STEMMER, show_progress=False)
    index = bm25s.BM25()
    index.index(corpus, show_progress=False)
    return index, corpus.vocab


def _words(text: str) -> str:
    """Identifiers as words: ``get_weather`` and ``getWeather`` both read "get weather"."""
    return re.sub(r"[_\-./]+", " ", _CAMEL.sub(" ", text))


def _schema_words(schema: Any) -> Iterator[str]:
    """Property names, descriptions and enum values anywhere in a schema."""
    if isinstance(schema, dict):
        for key, sub in (schema.get("properties") or {}).items():
            yield _words(key)
            yield from _schema_words(sub)
        if isinstance(schema.get("description"), str):
            yield schema["description"]
        for value in schema.get("enum") or []:
            if isinstance(value, str):
                yield _words(value)
        for key in ("items", "anyOf", "oneOf", "allOf"):
            sub = schema.get(key)
            for part in sub if isinstance(sub, list) else [sub]:
                yield from _schema_words(part)
