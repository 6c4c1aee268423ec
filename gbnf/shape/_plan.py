"""Shaping one step of a plan: the pool (escape hatches dropped without their markers), the
tools ranked for the query, those the step offers, and the values its calls may copy.

A plan's first shaping filters and ranks the pool (the tools the plan's prompt shows), writes
that prompt, and chooses the first step's tools; a later step, once calls succeeded, offers the tools for what
the query still asks for. Every step's free values are the query's stretches and numbers and
the results' texts.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gbnf.shape._meaning import closeness
from gbnf.shape._optional import as_asked, asked_of
from gbnf.shape._options import Shaping
from gbnf.shape._pool import pool_decisions
from gbnf.shape._prompt import system_prompt
from gbnf.shape._relevance import ModelRelevance, follow_up, select_tools, still_to_do
from gbnf.shape._request import Request, conversation_day, offered_values, read_request
from gbnf.shape._result import Conversation, Plan, Shaped
from gbnf.shape._values import copy_bias, value_texts
from gbnf.shape.sources.enum_meaning import enums_meant_first
from gbnf.tools import Tool


def step_shape(conversation: Conversation, shaping: Shaping, plan: Plan) -> Shaped:
    """What a plan's next step offers (:func:`~gbnf.shape.shape` with a :class:`Plan`):
    ``conversation.tools`` are the plan's tools at its first shaping, the pool its prompt shows
    after (:attr:`Shaped.pool`)."""
    query = next((content for role, content in reversed(conversation.messages) if role == "user"), "")
    request = read_request(query)
    tools = list(conversation.tools)
    decisions: dict[str, Any] = {"profile": shaping.profile}
    pool: tuple[Tool, ...] = ()
    prompt = ""
    results = [text for _, _, value in plan.done for text in value_texts(value)]
    values = offered_values([query], whole=results) if shaping.copy_values else None
    if values is not None:
        day, said = conversation_day(conversation.messages, conversation.today)
        values = replace(values, today=day, said_today=said, off=shaping.sources_off)
    if plan.done:
        offered = _follow_up(request, tools, plan, shaping)
    else:
        offered, pool, first = _first(request, tools, plan, shaping)
        decisions.update(first)
        listed = [enums_meant_first(t, values) for t in pool] if values is not None else list(pool)
        prompt = system_prompt(listed, conversation.parallel, plan.style, final_tool=plan.final_tool)
    bias = copy_bias([query, *results], shaping.copy_bias) if shaping.copy_bias else ()
    decisions["tools"] = [t.name for t in offered]
    return Shaped(shaping.profile, "call", tuple(offered), tuple(offered), 1, conversation.parallel, False, request,
                  shaping.values_apart, bias, decisions=decisions, plan=plan, pool=pool, values=values,
                  prompt=prompt)


def _first(request: Request, tools: list[Tool], plan: Plan,
           shaping: Shaping) -> tuple[list[Tool], tuple[Tool, ...], dict[str, Any]]:
    """The first step's tools, the plan's pool, and what decided them: the tools the pool filter
    keeps (with :attr:`Plan.filter`), each as the query asks it, and of those the
    :attr:`Plan.top_k` most relevant and the final tool."""
    decisions = pool_decisions(tools, request.text, plan.policy) if plan.filter else [(t, None) for t in tools]
    pool = [tool for tool, reason in decisions if reason is None]
    if shaping.asked_only:
        pool = [replace(t, parameters=as_asked(t.parameters, asked_of(t, request))) for t in pool]
    out: dict[str, Any] = {"pool": [t.name for t in pool],
                           "dropped": {t.name: reason for t, reason in decisions if reason is not None}}
    first = pool
    if plan.top_k is not None:
        model = ModelRelevance(plan.scorer) if plan.scorer is not None else None
        chosen = select_tools(pool, request, plan.top_k, plan.final_tool, model=model,
                              meaning=closeness if shaping.decide and shaping.meaning else None,
                              act_first=shaping.decide, model_decides=shaping.model_relevance)
        first = chosen.first
        final = [t for t in pool if t.name == plan.final_tool]
        pool = [r.tool for r in chosen.ranking[:plan.top_k]] + final
        out["ranking"] = [(r.tool.name, r.score, r.model) for r in chosen.ranking]
        out["first"] = [t.name for t in first]
    return first, tuple(pool), out


def _follow_up(request: Request, tools: list[Tool], plan: Plan, shaping: Shaping) -> list[Tool]:
    """A step's tools once some call succeeded: without the tools that succeeded (with
    :attr:`Plan.single_use`); with :attr:`Plan.follow`, only those matching what the query still
    asks for (:func:`~gbnf.shape._relevance.follow_up`), and the final tool."""
    used = {name for name, _, _ in plan.done}
    final = plan.final_tool
    offer = [t for t in tools if not (plan.single_use and t.name in used) or t.name == final]
    if plan.top_k is None or not plan.follow:
        return offer
    done = [t for t in tools if t.name in used]
    offer = follow_up(offer, request, done, plan.top_k, final, act=shaping.decide, said=plan.said)
    pending = still_to_do(request, len(plan.done), plan.said) if plan.still_to_do else None
    if pending is not None and all(t.name == final for t in offer):
        return done + offer  # a clause that names no other tool repeats the action ("... and in Madrid")
    return offer
