"""What the shaping stage takes and gives: a :class:`Conversation` (and, for a plan's step, a
:class:`Plan`) in, a frozen :class:`Shaped` out, with what the faces ask of it (the grammar of
a reply, the grammar again shortened or with calls kept apart, the calls as asked)."""

from __future__ import annotations

import datetime
import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from gbnf.compiler import compile_pool, json_text
from gbnf.shape._items import APART_ROUNDS, Called, adds_nothing, apart_tool, calls_apart
from gbnf.shape._optional import Asked, as_asked
from gbnf.shape._prompt import Style
from gbnf.shape._relevance import Scorer, still_to_do
from gbnf.shape._request import Request
from gbnf.shape._shaped import bounded, copied
from gbnf.shape._values import Values
from gbnf.tools import Policy, Tool

Choice = Literal["auto", "required", "named", "none"]
Reply = Literal["call", "either", "text"]

SHORT_CAPS = (64, 8)
"""The string characters and array items a call may have when it is asked again after a reply
ran past its token limit (a small model looping in a list: ``[-1, -2, -3, ...]``)."""
SHOWN_VALUES = 20
"""The most candidate values per argument the decisions list."""


@dataclass(frozen=True)
class Conversation:
    """What the next reply answers: every message as ``(role, content)`` (roles ``system``,
    ``user``, ``assistant``, ``tool``), the ``tools`` it may call (under ``choice``: ``named``
    is one tool the client chose, ``none`` no call), at most ``parallel`` calls in one reply,
    ``reply_tokens``, the reply's token limit, and ``today``, the date of the clock it is read by
    (None: this machine's); a message that says what day today is counts over the clock."""

    messages: tuple[tuple[str, str], ...]
    tools: tuple[Tool, ...] = ()
    choice: Choice = "auto"
    parallel: int = 1
    reply_tokens: int = 1024
    today: datetime.date | None = None


@dataclass(frozen=True)
class Plan:
    """What shaping a plan's step reads besides its conversation: the tool that ends the plan
    (``final_tool``), the ``top_k`` tools offered by relevance (None: every tool), whether the
    pool filter drops escape hatches (``filter``, by ``policy``; None: the packaged one), the
    model's likelihoods to rank with (``scorer``),
    whether later steps offer by what the query still asks for (``follow``), whether a tool that
    succeeded is offered again (``single_use``), whether the query's next clause is named
    (``still_to_do``), the calls that succeeded so far with their results (``done``), and how
    the plan's prompt shows the tools (``style``: ``signature`` under a grammar, ``skeleton``
    where a literal call is the model's only guide)."""

    final_tool: str = "final_answer"
    top_k: int | None = 3
    filter: bool = True
    policy: Policy | None = None
    scorer: Scorer | None = None
    follow: bool = True
    single_use: bool = True
    still_to_do: bool = True
    done: tuple[tuple[str, Mapping[str, Any], Any], ...] = ()
    style: Style = "signature"

    @property
    def said(self) -> list[str]:
        """What the arguments of the calls that succeeded wrote."""
        return said([arguments for _, arguments, _ in self.done])


@dataclass(frozen=True)
class Key:
    """What a reply's grammar is compiled from, hashable: the pool (``pool``: its tools' JSON),
    the tools offered (``names``), each as ``skip`` has it asked, ``least``..``most`` calls (the
    first calls those ``order`` names in turn), or text (``text``); free values among ``values``,
    caps, and the first calls' own values (``own``)."""

    pool: Pool
    names: tuple[str, ...]
    skip: tuple[Asked | None, ...]
    most: int
    least: int
    order: tuple[str, ...]
    text: bool
    caps: tuple[int | None, int | None, int | None]
    values: Values | None = None
    own: tuple[Values, ...] = ()


@dataclass(frozen=True)
class Shaped:
    """What a conversation's next reply may be, as :func:`shape` decided it.

    ``reply``: ``call`` (the reply must call one of ``offered``), ``either`` (a call or prose:
    the model decides) or ``text`` (prose, no tool offered). ``offered``: the tools a reply may
    call, as declared (calls are validated against these); ``shown``: the same, as asked (what
    the prompt shows); :attr:`tools`: each with its shaped schema (what the grammar holds the
    model to). ``least``..``most`` calls. ``bias``: token biases for the words to copy;
    ``one_paragraph`` and ``prose_tokens``: how prose ends. ``scored``: tools whose relevance
    the model is to read before the reply is decided again (:func:`shape`'s ``relevance``).
    ``decisions``: what was decided and why, as JSON. ``prompt``: the system text the faces add
    before the conversation (the tools offered and how to call them; empty: none).

    A plan's step (:func:`shape` with a :class:`Plan`) offers ``offered``; its first also says
    which tools the plan's prompt shows (``pool``); each step's free values are among ``values``
    (:meth:`with_values`)."""

    profile: str
    reply: Reply
    offered: tuple[Tool, ...]
    shown: tuple[Tool, ...]
    least: int = 1
    most: int = 1
    counted: bool = False
    words: Request | None = None
    apart: bool = False
    bias: tuple[tuple[str, float], ...] = ()
    one_paragraph: bool = False
    prose_tokens: int | None = None
    scored: tuple[Tool, ...] = ()
    decisions: dict[str, Any] = field(default_factory=dict, compare=False)
    key: Key | None = None
    plan: Plan | None = None
    pool: tuple[Tool, ...] = ()
    values: Values | None = None
    prompt: str = ""
    rounds: ClassVar[int] = APART_ROUNDS
    """How many times a reply is asked again while a call repeats a value (:meth:`asked_apart`)."""

    @property
    def tools(self) -> tuple[Tool, ...]:
        """The offered tools, each with its shaped schema."""
        if self.key is None:
            return ()
        key = self.key
        return tuple(shaped_tool(key.pool, name, asked, key.values, key.caps)
                     for name, asked in zip(key.names, key.skip))

    @property
    def grammar(self) -> str | None:
        """The grammar of the reply (None: no tool offered)."""
        return None if self.key is None else grammar_of(self.key)

    @property
    def short_grammar(self) -> str | None:
        """The grammar for a call asked again after a reply ran past its token limit, strings
        and arrays capped at :data:`SHORT_CAPS` and the calls at those the words ask for (a small
        model repeats a call until the limit cuts it; None: no tools)."""
        if self.key is None:
            return None
        chars, items, digits = self.key.caps
        short = (min(chars or SHORT_CAPS[0], SHORT_CAPS[0]), min(items or SHORT_CAPS[1], SHORT_CAPS[1]), digits)
        return grammar_of(replace(self.key, caps=short, most=self.key.least))

    def asked_apart(self, calls: Sequence[tuple[str, dict[str, Any]]], called: Called = (),
                    bare: bool = False) -> tuple[str, Called] | None:
        """When one of ``calls`` (name, arguments) repeats in an argument a value the user wrote
        once, the grammar to ask the reply again under and its first calls
        (:func:`~gbnf.shape._items.calls_apart`: the tools of those up to that one, in turn, that
        argument kept from that value, and what ``called``, an earlier asking, kept them from; a
        ``bare`` reply, one call, not a list). None when no call repeats one, or its argument
        lists no other value."""
        if not self.apart or self.key is None or self.words is None or self.key.values is None:
            return None
        firsts = calls_apart(list(calls), self.words, called)
        grammar = grammar_of(self.key, firsts, bare) if firsts is not None else None
        return (grammar, firsts) if grammar is not None and firsts is not None else None

    def kept(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> list[int]:
        """The indexes of ``calls`` (name, arguments) as the user asked for them: without those
        that repeat an earlier one exactly (a small model that loops writes the same call again
        and again, and when the grammar asks for more calls than the model had values for, it
        fills the rest with copies), and, past the calls counted from the user's words, without
        those that add nothing of theirs (:func:`~gbnf.shape._items.adds_nothing`: "Mix yellow
        and blue", then blue and yellow)."""
        kept: dict[tuple[str, str], int] = {}
        for i, (name, arguments) in enumerate(calls):
            key = (name, json_text(arguments))
            if key in kept or (self.counted and self.words is not None and len(kept) >= self.least and adds_nothing(
                    arguments, [calls[j][1] for j in kept.values()], self.words)):
                continue
            kept[key] = i
        return list(kept.values())

    def with_values(self, tools: Sequence[Tool]) -> list[Tool]:
        """``tools`` (a plan's step's) with the free strings and numbers of every tool but the
        final one among :attr:`values` (:func:`~gbnf.shape._shaped.copied`; as they are without values)."""
        final = self.plan.final_tool if self.plan is not None else None
        if self.values is None:
            return list(tools)
        return [t if t.name == final else
                replace(t, parameters=copied(t.parameters, self.values, echoes=t.echoes, tool=t.name)) for t in tools]

    def apart_steps(self, calls: Sequence[tuple[str, dict[str, Any]]], tools: Sequence[Tool],
                    called: Called = ()) -> tuple[Called, list[Tool]] | None:
        """When one of ``calls`` repeats a value the user wrote once, the first calls of a plan's
        step asked again and their tools in turn, each of ``tools`` with values
        (:meth:`with_values`) kept from the values it names (:func:`~gbnf.shape._items.calls_apart`,
        :func:`~gbnf.shape._items.apart_tool`); None when none repeats one or one cannot be kept."""
        if not self.apart or self.words is None or self.values is None:
            return None
        firsts = calls_apart(list(calls), self.words, called)
        if firsts is None:
            return None
        shown = {t.name: t for t in self.with_values(tools)}
        steps = [apart_tool(shown[name], avoid) for name, avoid in firsts]
        kept = [tool for tool in steps if tool is not None]
        return (firsts, kept) if len(kept) == len(steps) else None

    def pending(self, done: Sequence[Mapping[str, Any]]) -> str | None:
        """The query's clause still to do once calls with the arguments ``done`` succeeded
        (:func:`~gbnf.shape._relevance.still_to_do`; None: none, or not asked)."""
        if self.plan is None or not self.plan.still_to_do or self.words is None:
            return None
        return still_to_do(self.words, len(done), said(done))


def said(done: Sequence[Mapping[str, Any]]) -> list[str]:
    """What calls with the arguments ``done`` wrote, each call's as JSON."""
    return [json_text(dict(arguments)) for arguments in done]


@dataclass(frozen=True)
class Pool:
    """A conversation's tools by name, compared and hashed by their JSON (``key``)."""

    key: str
    tools: dict[str, Tool] = field(compare=False)


POOLS_KEPT = 64
"""How many pools :func:`pool_key` keeps by identity (the most recently used)."""
_POOLS: OrderedDict[int, tuple[tuple[Tool, ...], Pool]] = OrderedDict()
_POOLS_LOCK = threading.Lock()  # requests are shaped in worker threads


def pool_key(tools: tuple[Tool, ...]) -> Pool:
    """``tools`` as a :class:`Pool`, its key their JSON; the same tuple (a server's cached
    request tools) gives the pool it gave before, without writing the JSON again."""
    with _POOLS_LOCK:
        kept = _POOLS.get(id(tools))
        if kept is not None and kept[0] is tools:
            _POOLS.move_to_end(id(tools))
            return kept[1]
    pool = Pool(json.dumps([[t.name, t.description, t.parameters] for t in tools], sort_keys=True, default=str),
                {t.name: t for t in tools})
    with _POOLS_LOCK:
        _POOLS[id(tools)] = (tools, pool)
        while len(_POOLS) > POOLS_KEPT:
            _POOLS.popitem(last=False)
    return pool


@functools.lru_cache(maxsize=256)
def shaped_tool(pool: Pool, name: str, asked: Asked | None, chosen: Values | None,
                 caps: tuple[int | None, int | None, int | None]) -> Tool:
    """Tool ``name`` of ``pool`` as ``asked``, its free values among ``chosen`` (None: free)
    and capped at ``caps``."""
    tool = pool.tools[name]
    parameters = as_asked(tool.parameters, asked)
    if chosen is not None:
        parameters = copied(parameters, chosen, echoes=tool.echoes, declared=tool.parameters.get("required") or (),
                            tool=name)
    return replace(tool, parameters=bounded(parameters, *caps))


@functools.lru_cache(maxsize=64)
def grammar_of(key: Key, called: Called = (), bare: bool = False) -> str | None:
    """The grammar of a reply as ``key`` has it. With ``called`` (a reply asked again), its
    first calls are those tools in turn, each without the values its
    :data:`~gbnf.shape._items.Apart` names (None when an argument does not list that value
    among others); a ``bare`` reply is that one call alone."""
    asks = dict(zip(key.names, key.skip))
    pool = [shaped_tool(key.pool, name, asked, key.values, key.caps) for name, asked in zip(key.names, key.skip)]
    in_turn = key.order or (key.names[0],) * len(key.own)
    steps: list[str | Tool] = [shaped_tool(key.pool, name, asks[name], chosen, key.caps)
                               for name, chosen in zip(in_turn, key.own)]
    steps += key.order[len(steps):]
    least = key.least
    if called:
        own = [*key.own, *[key.values] * len(called)]
        firsts = [apart_tool(shaped_tool(key.pool, name, asks[name], own[i], key.caps), avoid)
                  for i, (name, avoid) in enumerate(called)]
        if None in firsts:
            return None
        asked = [tool for tool in firsts if tool is not None]
        if bare:
            pool, steps = asked, []
        else:
            steps, least = [*asked, *steps[len(asked):]], max(least, len(asked))
    return compile_pool(pool, parallel=max(key.most, least), least=least, single=True, text=key.text,
                        order=steps, layout="indented").text
