"""The shaping stage's one entry point: a conversation and a profile in, one frozen :class:`Shaped` out.

:func:`shape` reads the conversation's last words once and decides, as its profile says, what
the next reply may be (a call, a call or prose, prose), the tools offered and their order, each
tool's shaped schema (optional arguments the words say nothing about left out, free values
limited to the words' own, unbounded values capped), how many calls the reply carries, and
why. The faces (``gbnf serve``, the planner) compile and ask; they read nothing of the words.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from gbnf.compiler import compile_pool
from gbnf.compiler._literals import json_text
from gbnf.shape._calls import asked_calls, asked_order, asked_parts
from gbnf.shape._items import APART_ROUNDS, Called, adds_nothing, apart_tool, asked_items, calls_apart, items_in_turn
from gbnf.shape._meaning import closeness
from gbnf.shape._optional import Asked, as_asked, asked_of
from gbnf.shape._options import Shaping
from gbnf.shape._relevance import decide_reply, scored_tools
from gbnf.shape._request import Request, read_request
from gbnf.shape._shaped import bounded, copied
from gbnf.shape._values import Values, copy_bias, offered_values, own_values, part_values, without_count
from gbnf.tools._tool import Tool

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
    and ``reply_tokens``, the reply's token limit."""

    messages: tuple[tuple[str, str], ...]
    tools: tuple[Tool, ...] = ()
    choice: Choice = "auto"
    parallel: int = 1
    reply_tokens: int = 1024


@dataclass(frozen=True)
class _Key:
    """What a reply's grammar is compiled from, hashable: the pool (``pool``: its tools' JSON),
    the tools offered (``names``), each as ``skip`` has it asked, ``least``..``most`` calls (the
    first calls those ``order`` names in turn), or text (``text``); free values among ``values``,
    caps, and the first calls' own values (``own``)."""

    pool: _Pool
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
    ``decisions``: what was decided and why, as JSON."""

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
    key: _Key | None = None
    rounds: ClassVar[int] = APART_ROUNDS
    """How many times a reply is asked again while a call repeats a value (:meth:`asked_apart`)."""

    @property
    def tools(self) -> tuple[Tool, ...]:
        """The offered tools, each with its shaped schema."""
        if self.key is None:
            return ()
        key = self.key
        return tuple(_shaped_tool(key.pool, name, asked, key.values, key.caps)
                     for name, asked in zip(key.names, key.skip))

    @property
    def grammar(self) -> str | None:
        """The grammar of the reply (None: no tool offered)."""
        return None if self.key is None else _grammar(self.key)

    @property
    def short_grammar(self) -> str | None:
        """The grammar for a call asked again after a reply ran past its token limit, strings
        and arrays capped at :data:`SHORT_CAPS` (None: no tools)."""
        if self.key is None:
            return None
        chars, items, digits = self.key.caps
        short = (min(chars or SHORT_CAPS[0], SHORT_CAPS[0]), min(items or SHORT_CAPS[1], SHORT_CAPS[1]), digits)
        return _grammar(replace(self.key, caps=short))

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
        grammar = _grammar(self.key, firsts, bare) if firsts is not None else None
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


def shape(conversation: Conversation, profile: str | Shaping = "small", *,
          relevance: Sequence[float] | None = None, explain: bool = False) -> Shaped:
    """What the next reply of ``conversation`` may be, shaped as ``profile`` (a name of
    :data:`~gbnf.shape._options.PROFILES`, or a :class:`Shaping`) says. ``relevance``: the model's relevance of the
    tools an earlier shaping of the same conversation named (:attr:`Shaped.scored`). With
    ``explain``, the decisions list each offered argument's candidate values too."""
    shaping = Shaping.named(profile) if isinstance(profile, str) else profile
    name = shaping.profile
    role, last = conversation.messages[-1] if conversation.messages else ("user", "")
    from_user = role == "user"
    request = read_request(last)
    choice = conversation.choice
    offered = conversation.tools if choice != "none" else ()
    required = choice in ("required", "named") and bool(offered)
    why = {"required": "the client requires a call", "named": "the client named the tool",
           "none": "the client allows no call", "auto": "the model decides"}[choice]
    decided = False
    scored: tuple[Tool, ...] = ()
    if shaping.decide and choice in ("auto", "required") and from_user and offered:
        near = closeness(list(offered), request) if shaping.meaning else None
        decision = decide_reply(list(offered), request, near, relevance)
        if shaping.model_relevance and relevance is None and not required:
            scored = tuple(scored_tools(list(offered), request, decision, near))
        lead = f" (lead by meaning {near.lead:+.3f})" if near is not None else ""
        if decision.kind == "call":
            offered, required, decided = tuple(decision.tools), True, True
            why = f"the request asks for what these tools do{lead}"
        elif decision.kind == "text" and not required:
            offered = ()
            why = f"the request is unrelated to every tool{lead}"
        else:
            why = f"the request may or may not need a tool: the model decides{lead}"
    reply: Reply = "call" if required and offered else "either" if offered else "text"
    bias = copy_bias([last], shaping.copy_bias) if offered and shaping.copy_bias and from_user else ()
    prose = choice == "auto" and not required and shaping.prose_tokens is not None
    skip = tuple(asked_of(t, request) if shaping.asked_only and from_user else None for t in offered)
    shown = tuple(replace(t, parameters=as_asked(t.parameters, asked)) for t, asked in zip(offered, skip))
    parallel = conversation.parallel
    counted = shaping.count_calls and required and (decided or len(offered) == 1) and from_user
    least = asked_calls(list(shown), request, parallel) if counted else 1
    order = asked_order(list(shown), request, least) if counted else ()
    values = offered_values([last]) if shaping.copy_values and from_user and last else None
    if values is not None and len(shown) == 1:
        values = without_count(values, last, least)
    items = asked_items(list(shown), request, least) if counted and values is not None else ()
    parts = asked_parts(list(shown), request, least) if counted and values is not None else ()
    turns = items_in_turn(list(shown), request, least) if parts else ()
    own = (tuple(own_values(values, items, call) for call in range(len(items))) if items and values
           else tuple(own_values(part_values(values, *part), *turn) if turn[0] else part_values(values, *part)
                      for part, turn in zip(parts, turns)) if values else ())
    chars = conversation.reply_tokens if shaping.string_chars is None else min(shaping.string_chars,
                                                                               conversation.reply_tokens)
    caps = (chars, shaping.array_items, shaping.number_digits)
    most = least if least > 1 else parallel  # calls counted from the words: that many, no more
    names = tuple(t.name for t in offered)
    key = _Key(_pool(conversation.tools), names, skip, most, least, order, not required, caps, values, own) \
        if offered else None
    shaped = Shaped(name, reply, offered, shown, least, most if offered else 1, bool(counted),
                    request if from_user else None, shaping.values_apart, bias, prose,
                    shaping.prose_tokens if prose and not offered else None, scored, key=key)
    return replace(shaped, decisions=_decisions(shaped, why, skip, explain))


def _decisions(shaped: Shaped, why: str, skip: tuple[Asked | None, ...], explain: bool) -> dict[str, Any]:
    """What :func:`shape` decided, as JSON: the reply, why, the tools offered, the optional
    arguments left out, the calls, and (``explain``) each argument's candidate values."""
    out: dict[str, Any] = {"profile": shaped.profile, "reply": shaped.reply, "why": why,
                           "tools": [t.name for t in shaped.offered],
                           "left_out": {t.name: list(asked.left) for t, asked in zip(shaped.offered, skip)
                                        if asked is not None and asked.left},
                           "calls": {"least": shaped.least, "most": shaped.most}}
    if explain:
        out["values"] = {tool.name: _candidates(tool.parameters) for tool in shaped.tools}
    return out


def _candidates(parameters: dict[str, Any]) -> dict[str, Any]:
    """Each top-level argument's values as the shaped schema lists them (at most
    :data:`SHOWN_VALUES`; "free" where it lists none)."""
    out: dict[str, Any] = {}
    for name, schema in (parameters.get("properties") or {}).items():
        listed = _listed(schema)
        out[name] = listed[:SHOWN_VALUES] if listed is not None else "free"
    return out


def _listed(schema: Any) -> list[Any] | None:
    """The values a schema lists (its ``enum``, ``const``, or those of its ``anyOf`` branches)."""
    if not isinstance(schema, dict):
        return None
    if "enum" in schema and isinstance(schema["enum"], list):
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    branches = [_listed(branch) for branch in schema.get("anyOf") or ()]
    if branches and all(b is not None for b in branches):
        return [value for b in branches for value in b or ()]
    return None


@dataclass(frozen=True)
class _Pool:
    """A conversation's tools by name, compared and hashed by their JSON (``key``)."""

    key: str
    tools: dict[str, Tool] = field(compare=False)


def _pool(tools: tuple[Tool, ...]) -> _Pool:
    return _Pool(json.dumps([[t.name, t.description, t.parameters] for t in tools], sort_keys=True, default=str),
                 {t.name: t for t in tools})


@functools.lru_cache(maxsize=256)
def _shaped_tool(pool: _Pool, name: str, asked: Asked | None, chosen: Values | None,
                 caps: tuple[int | None, int | None, int | None]) -> Tool:
    """Tool ``name`` of ``pool`` as ``asked``, its free values among ``chosen`` (None: free)
    and capped at ``caps``."""
    tool = pool.tools[name]
    parameters = as_asked(tool.parameters, asked)
    if chosen is not None:
        parameters = copied(parameters, *chosen, echoes=tool.echoes)
    return replace(tool, parameters=bounded(parameters, *caps))


@functools.lru_cache(maxsize=64)
def _grammar(key: _Key, called: Called = (), bare: bool = False) -> str | None:
    """The grammar of a reply as ``key`` has it. With ``called`` (a reply asked again), its
    first calls are those tools in turn, each without the values its
    :data:`~gbnf.shape._items.Apart` names (None when an argument does not list that value
    among others); a ``bare`` reply is that one call alone."""
    asks = dict(zip(key.names, key.skip))
    pool = [_shaped_tool(key.pool, name, asked, key.values, key.caps) for name, asked in zip(key.names, key.skip)]
    in_turn = key.order or (key.names[0],) * len(key.own)
    steps: list[str | Tool] = [_shaped_tool(key.pool, name, asks[name], chosen, key.caps)
                               for name, chosen in zip(in_turn, key.own)]
    steps += key.order[len(steps):]
    least = key.least
    if called:
        own = [*key.own, *[key.values] * len(called)]
        firsts = [apart_tool(_shaped_tool(key.pool, name, asks[name], own[i], key.caps), avoid)
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
