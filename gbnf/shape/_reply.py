"""Shaping one reply of a chat (``gbnf serve``): call or prose, the tools offered, their
optional arguments, the calls counted, the values copied, and the decisions as JSON."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from gbnf._text import mentions, name_words
from gbnf.compiler import canonicalize
from gbnf.errors import SchemaError
from gbnf.shape._calls import asked_calls, asked_order, asked_parts
from gbnf.shape._choices import options, picks, refused, says_failed, sent_arguments, sent_values
from gbnf.shape._dates import dates_at, sentences
from gbnf.shape._items import asked_items, items_in_turn
from gbnf.shape._meaning import Closeness, closeness
from gbnf.shape._optional import Asked, as_asked, asked_of
from gbnf.shape._options import Shaping
from gbnf.shape._prompt import tools_offer
from gbnf.shape._relevance import (
    SCORED,
    TEXT_LEAD,
    Decision,
    closest_first,
    decide_reply,
    near_best,
    numbers_given,
    scored_tools,
)
from gbnf.shape._request import (
    Request,
    conversation_day,
    offered_values,
    part_values,
    read_request,
    without_the_day,
)
from gbnf.shape._result import SHOWN_VALUES, Conversation, Key, Reply, Shaped, pool_key
from gbnf.shape._shaped import copied
from gbnf.shape._tool_words import numbers_needed
from gbnf.shape._unasked import lacks_values, typed_taken, values_for_all, values_written
from gbnf.shape._values import Values, call_texts, copy_bias, own_values, result_texts, without_count
from gbnf.shape.sources.enum_meaning import enums_meant_first
from gbnf.tools import Tool


def reply_shape(conversation: Conversation, shaping: Shaping, relevance: Sequence[float] | None,
                explain: bool) -> Shaped:
    """What the next reply of ``conversation`` may be, as ``shaping`` says (:func:`~gbnf.shape.shape`)."""
    name = shaping.profile
    role, last = conversation.messages[-1] if conversation.messages else ("user", "")
    from_user = role == "user"
    request = read_request(last)
    choice = conversation.choice
    offered = conversation.tools if choice != "none" else ()
    required = choice in ("required", "named") and bool(offered)
    why = {"required": "the client requires a call", "named": "the client named the tool",
           "none": "the client allows no call", "auto": "the model decides"}[choice]
    decided = widened = False
    scored: tuple[Tool, ...] = ()
    answered = answered_call(conversation.messages)
    heard = conversation_values(conversation, shaping, answered) if from_user and (
        shaping.decide or shaping.copy_values or explain) else None
    if shaping.decide and choice in ("auto", "required") and from_user and offered:
        topic = read_request(without_the_day(followed_request(conversation.messages)))
        near = closeness(list(offered), topic) if shaping.meaning else None
        decision = decide_reply(list(offered), topic, near, relevance)
        alone_near = closeness(list(offered), request) if answered is not None and near is not None else None
        closing = answered is not None and alone_near is not None and closes(request, answered[1], alone_near)
        if closing:
            decision = Decision("text", [])
        if shaping.model_relevance and relevance is None and not required:
            scored = tuple(scored_tools(list(offered), request, decision, near))
        lead = f" (lead by meaning {near.lead:+.3f})" if near is not None else ""
        alone = replace(request.values, today=heard.today, said_today=heard.said_today) if heard is not None else None
        told = alone if request.asks_to_know else heard  # a question brings its own values
        fitting = [t for t in offered if required or told is None or not (
            lacks_values(t, told) or request.asks_to_know and numbers_needed(t) > 0 and not numbers_given(request))]
        if decision.kind == "call" and near is not None and fitting and not request.asks_to_know \
                and not any(t in fitting for t in decision.tools):
            # each tool it asks for lacks a value it gives none of: the tools it asks for among those it gives values
            among = decide_reply(fitting, topic, near.among(offered, fitting))
            widened = among.kind == "call"
            decision = among if widened else decision
        if decision.kind == "text" and not required:
            offered = ()
            why = ("the message after the tool's result asks nothing more of a tool" if closing else
                   f"the request is unrelated to every tool{lead}")
        elif not fitting:
            offered = ()
            why = f"the request offers no value some required argument of each tool takes{lead}"
        elif decision.kind == "call" and not (asked := [t for t in decision.tools if t in fitting]):
            offered = ()
            why = f"the request offers no value some required argument of each tool it asks for takes{lead}"
        elif decision.kind == "call":
            chosen = asked
            written = {t.name: values_written(t, heard, offered) for t in chosen} if heard is not None else {}
            most = max(written.values(), default=0)
            taken = {t.name: typed_taken(t, heard) for t in chosen} if heard is not None and len(chosen) > 1 else {}
            if most and any(written[t.name] < most for t in chosen):  # "HIIT at 18:30": the gym's class
                chosen = [t for t in chosen if written[t.name] == most]
                why = f"the request names the values these tools take, more than the others{lead}"
            elif taken and min(taken.values()) < (top := max(taken.values())):  # a feeder's time, no recipe's
                chosen = [t for t in chosen if taken[t.name] == top]
                why = f"the request writes the codes, dates and times these tools take, more than the others{lead}"
            elif request.undated and 0 == min(needs := [numbers_needed(t) for t in chosen]) < max(needs) \
                    and asked_calls(chosen, request, 2) == 1:  # "zwei Pakete": a collection's count, no shop's
                chosen = [t for t, need in zip(chosen, needs) if need]
                why = f"the request writes a number these tools take and the others take none of{lead}"
            elif widened:
                why = f"the request asks for what these tools do, of those it gives the values they need{lead}"
            else:
                why = f"the request asks for what these tools do{lead}"
            offered, required, decided = tuple(chosen), True, True
        elif alone is not None and (complete := [t for t in fitting if values_for_all(t, alone)]):
            offered, required, decided = tuple(near_best(complete, list(offered), near)), True, True
            why = f"the last message writes a value for each typed argument these tools require{lead}"
        elif near is not None and not required and _none_near_fits(offered, near, fitting):
            offered = ()
            why = f"the tools closest by meaning need values the request does not give{lead}"
        else:  # the tools whose typed values the request gives, the closest by meaning first
            fit = {id(t) for t in fitting}  # each one of ``offered``: found by identity, not field by field
            offered = tuple(closest_first([t for t in offered if id(t) in fit], offered, near))
            why = f"the request may or may not need a tool: the model decides{lead}"
        again = _SAME.search(request.text) is not None
        same = _same_tool(conversation.tools, answered, request, fitting, alone_near, again) \
            if offered and (decided or again) else None
        if same is not None and tuple(offered) != (same,):
            offered = (same,)
            why = f"a follow-up of the call before, answered by its tool{lead}"
    reply: Reply = "call" if required and offered else "either" if offered else "text"
    bias = copy_bias([last], shaping.copy_bias) if offered and shaping.copy_bias and from_user else ()
    prose = choice == "auto" and not required and shaping.prose_tokens is not None
    sent = sent_arguments(answered[0]) if answered else {}
    skip = tuple(_still_asked(asked_of(t, request), sent.get(t.name, frozenset()))
                 if shaping.asked_only and from_user else None for t in offered)
    shown = tuple(replace(t, parameters=as_asked(t.parameters, asked)) for t, asked in zip(offered, skip))
    parallel = conversation.parallel
    counted = shaping.count_calls and required and (decided or len(offered) == 1) and from_user
    least = asked_calls(list(shown), request, parallel) if counted else 1
    order = asked_order(list(shown), request, least) if counted else ()
    values = heard if shaping.copy_values and last else None
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
    key = Key(pool_key(conversation.tools), names, skip, most, least, order, not required, caps, values, own) \
        if offered else None
    listed = [enums_meant_first(t, values) for t in shown] if values is not None else list(shown)
    shaped = Shaped(name, reply, offered, shown, least, most if offered else 1, bool(counted),
                    request if from_user else None, shaping.values_apart, bias, prose,
                    shaping.prose_tokens if prose and not offered else None, scored, key=key,
                    prompt=tools_offer(listed, reply == "call", parallel) if offered else "")
    offered_only = heard if explain and values is None and last else None  # shown where not imposed
    return replace(shaped, decisions=_decisions(shaped, why, skip, explain, offered_only))


def closes(request: Request, result: str, near: Closeness) -> bool:
    """Whether ``request``, the user's message after a tool's ``result``, asks nothing more of a
    tool: the result did not fail (:func:`~gbnf.shape._choices.says_failed`: the message answers
    the failure, "Dann um eins", "じゃあ、それでお願い"), it writes no number and none of the
    result's values, picks nothing among what the result offered
    (:func:`~gbnf.shape._choices.picks`: "Take the late one then." picks; "好的，那就20:30吧"
    writes one), and alone it is unrelated to every tool by meaning (``near``: closer to the
    general requests and replies no tool serves than :data:`~gbnf.shape._relevance.TEXT_LEAD`
    allows: "Parfait, merci beaucoup !", "谢谢！")."""
    if request.numbers or picks(request.text) or says_failed(result) \
            or any(mentions(request.text, text) for text in result_texts(result)):
        return False
    return near.lead < TEXT_LEAD


def _none_near_fits(tools: Sequence[Tool], near: Closeness, fitting: Sequence[Tool]) -> bool:
    """Whether none of the :data:`~gbnf.shape._relevance.SCORED` of ``tools`` closest by meaning
    (``near``, over them) is among ``fitting`` (those the request gives the typed values they
    require)."""
    return not any(tool in fitting for tool in closest_first(tools, tools, near)[:SCORED])


def followed_request(messages: Sequence[tuple[str, str]]) -> str:
    """What the last user message asks, as the call or prose is decided by: the message, after
    the user's message before it where a tool answered between them ("What's on at 8?", a
    result, "Take the late one then."): a follow-up speaks of what the earlier turn asked."""
    if not messages:
        return ""
    last = messages[-1][1]
    users = [i for i, (role, _) in enumerate(messages[:-1]) if role == "user"]
    if users and any(role == "tool" for role, _ in messages[users[-1]:-1]):
        return f"{messages[users[-1]][1]}\n{last}"
    return last


SYSTEM_CHARS = 200
"""The longest system message whose facts the sources of a kind read ("The user's calendar is in
UTC+01:00."): a longer one is a client's instructions."""


def _facts(system: str) -> str:
    """A system message's sentences that write no date: its facts ("The user's calendar is in
    UTC+01:00."), not the day "tomorrow" counts from, which is read apart
    (:func:`~gbnf.shape._request.conversation_day`)."""
    return " ".join(sentence for sentence in sentences(system) if not dates_at(sentence))


def conversation_values(conversation: Conversation, shaping: Shaping,
                        answered: tuple[str, str] | None) -> Values:
    """What the arguments of the reply to a user's last message may be copied from: that
    message's values first, then those of the user's earlier messages (the latest first), of the earlier calls'
    arguments and of the tools' results (each string whole too:
    :func:`~gbnf.shape._values.result_texts`, :func:`~gbnf.shape._values.call_texts`); dates
    from today counted from the conversation's day (:func:`~gbnf.shape._request.conversation_day`),
    the sources ``shaping`` switches off left out; the values the latest answered call sent that
    its result refused, and the options that result lists (``answered``: that call and its
    result, :func:`answered_call`; :mod:`gbnf.shape._choices`). The facts of short system
    messages (:func:`_facts`: "The user's calendar is in UTC+01:00.") are among the texts the
    sources of a kind read (a UTC offset, a time), not among the stretches and numbers: a
    client's instructions ("Never book more than 5 rooms") are no values."""
    messages = conversation.messages
    if not messages:
        return replace(Values(), off=shaping.sources_off)
    earlier = [content for role, content in reversed(messages[:-1]) if role == "user"]  # latest first
    facts = tuple(fact for role, content in messages[:-1] if role == "system" and len(content) <= SYSTEM_CHARS
                  and (fact := _facts(content)))
    results = [text for role, content in messages[:-1] for text in
               (result_texts(content) if role == "tool" else call_texts(content) if role == "assistant" else [])]
    values = offered_values([messages[-1][1], *earlier], whole=results)
    day, said = conversation_day(messages, conversation.today)
    return replace(values, texts=values.texts + facts, today=day, said_today=said, off=shaping.sources_off,
                   refused=refused(*answered) if answered else (), options=options(answered[1]) if answered else (),
                   sent=sent_values(answered[0]) if answered else ())


_SAME = re.compile(r"(?<!\w)(?:same|pareil|pareille|la même|le même|igual|lo mismo|la misma|gleich|dasselbe|genauso|"
                   r"lo stesso|la stessa|uguale|o mesmo|a mesma|hetzelfde|zelfde|to samo|tak samo|aynı|aynısı|"
                   r"то же самое|так же)(?!\w)|同样|一样|同じ|똑같이", re.IGNORECASE)
"""Words that ask for the same again, in the languages the stage reads ("Same for the ride back",
"Et le salon à 21, pareil", "同样"): the tool of the call before."""


def _same_tool(tools: Sequence[Tool], answered: tuple[str, str] | None, request: Request, fitting: Sequence[Tool],
               near: Closeness | None, again: bool) -> Tool | None:
    """The tool of the call before (``answered``, :func:`answered_call`), where it takes the
    values the conversation offers (``fitting``) and the last message alone (``request``, by
    meaning ``near`` where read) asks for none of the other ``tools`` or asks for the same
    ``again`` (:data:`_SAME`) and names no word of another's name ("Take the late one then.": the cinema's,
    not the concert's; "Now get me a taxi": the taxi's; "Same for the ride back": the expense
    log's, not the fuel log's); None otherwise."""
    names = set(sent_arguments(answered[0])) if answered else set()
    same = next((t for t in fitting if t.name in names), None) if len(names) == 1 else None
    if same is None:
        return None
    alone = decide_reply(list(tools), request, near, None)
    if again and not any(mentions(request.text, word) for t in alone.tools if t is not same
                         for word in name_words(t.name) if len(word) > 3):
        return same  # "Same for the ride back", not "Same for the concert"
    return None if alone.kind == "call" and same not in alone.tools else same


def answered_call(messages: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The call a tool's result answered since the user's message before the last: the
    assistant's message and the result's; None where there is none (a call turns ago is no
    follow-up's)."""
    answered = [i for i in range(1, len(messages) - 1)
                if messages[i][0] == "tool" and messages[i - 1][0] == "assistant"]
    if not answered or any(role == "user" for role, _ in messages[answered[-1]:-1]):
        return None
    return messages[answered[-1] - 1][1], messages[answered[-1]][1]


def _still_asked(asked: Asked | None, sent: frozenset[str]) -> Asked | None:
    """``asked`` without leaving out the optional arguments the call before sent (``sent``): a
    follow-up ("a bit later then") changes a call, it does not drop what it asked."""
    if asked is None or not sent & set(asked.left):
        return asked
    return replace(asked, left=tuple(key for key in asked.left if key not in sent))


def _decisions(shaped: Shaped, why: str, skip: tuple[Asked | None, ...], explain: bool,
               offered_only: Values | None = None) -> dict[str, Any]:
    """What :func:`shape` decided, as JSON: the reply, why, the tools offered, the optional
    arguments left out, the calls, and (``explain``) each argument's candidate values: those
    the grammar holds it to, or, where the profile imposes none, those ``offered_only`` offers
    (never imposed)."""
    out: dict[str, Any] = {"profile": shaped.profile, "reply": shaped.reply, "why": why,
                           "tools": [t.name for t in shaped.offered],
                           "left_out": {t.name: list(asked.left) for t, asked in zip(shaped.offered, skip)
                                        if asked is not None and asked.left},
                           "calls": {"least": shaped.least, "most": shaped.most}}
    if explain:
        tools = [replace(t, parameters=copied(t.parameters, offered_only, echoes=t.echoes, tool=t.name))
                 for t in shaped.tools] \
            if offered_only is not None else shaped.tools
        out["values"] = {tool.name: _argument_values(tool.parameters) for tool in tools}
        if offered_only is not None:
            out["values_imposed"] = False
    return out


def _argument_values(parameters: dict[str, Any]) -> dict[str, Any]:
    """Each top-level argument's values as the shaped schema lists them (at most
    :data:`SHOWN_VALUES`; "free" where it lists none)."""
    out: dict[str, Any] = {}
    for name, schema in (parameters.get("properties") or {}).items():
        listed = _schema_values(schema, parameters, f"properties.{name}")
        out[name] = listed[:SHOWN_VALUES] if listed is not None else "free"
    return out


def _schema_values(schema: Any, root: dict[str, Any], path: str) -> list[Any] | None:
    """The values a schema lists (its ``enum`` or ``const``, through ``$ref``, or those of its
    ``anyOf`` branches when each lists some); None when it lists none."""
    try:
        node = canonicalize(schema, root, path)
    except SchemaError:
        return None
    if node.kind == "enum":
        return list(node.schema["enum"]) if "enum" in node.schema else [node.schema["const"]]
    if node.kind == "anyOf":
        branches = [_schema_values(branch, root, path) for branch in node.schema["anyOf"]]
        return [value for b in branches for value in b or ()] if all(b is not None for b in branches) else None
    return None
