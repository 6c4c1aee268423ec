"""Tools the server runs itself (live MCP servers' tools, Python functions).

A request that sends no ``tools`` to a server given tools of its own is a plan: its last user
message is the query, the :class:`~gbnf.plan._planner.Planner` runs with the server's tools (grammar,
validation, execution, the loop's stop rules), and the reply is the plan's answer as text.
Earlier turns are not part of the plan. One planner serves every such request (its grammars
compiled once); each plan runs in a worker thread, so a slow tool never holds up other
requests, and its model requests go back to the event loop's model.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from gbnf.backends import Completion, Message, Sampling, ToolSpec
from gbnf.endpoint._chat import Reply
from gbnf.endpoint._models import Model
from gbnf.errors import ApiError
from gbnf.plan import Executor, Planner, PlanOptions
from gbnf.shape import Shaping
from gbnf.tools import Tool

log = logging.getLogger("gbnf.serve")


@dataclass(frozen=True)
class ServedTools:
    """The tools a request without ``tools`` may use, and the functions that run their calls."""

    tools: tuple[Tool, ...]
    executors: Mapping[str, Executor] = field(default_factory=dict)


def served_planner(served: ServedTools, model: Model, loop: asyncio.AbstractEventLoop,
                   shaping: Shaping = Shaping()) -> Planner:
    """The planner for requests without tools: ``served``'s tools, ``model`` (on ``loop``) asked
    from worker threads, shaping requests as the server does (``shaping``)."""
    options = replace(PlanOptions(), shaping=shaping)
    return Planner(list(served.tools), _ModelBackend(model, loop), served.executors, options=options)


async def plan_reply(planner: Planner, messages: Any) -> Reply:
    """The answer of a plan for the last user message of ``messages`` (a request's checked
    ``messages``); :class:`ApiError` when there is none, or when the plan ends with no answer."""
    query = _query(messages)
    result = await asyncio.to_thread(planner.run, query)
    for call, _ in result.results:
        log.info("ran %s for %r", call.name, query[:80])
    if result.answer is None:
        raise ApiError(422, f"the plan ended with no answer ({result.status}): {result.error}",
                       type="model_error", code="no_answer")
    return Reply(result.answer, (), "stop", result.prompt_tokens, result.completion_tokens)


def _query(messages: list[Message]) -> str:
    last = messages[-1] if messages else {}
    if last.get("role") != "user" or not isinstance(last.get("content"), str) or not last["content"].strip():
        raise ApiError(400, "a request without tools runs the server's tools for its last message, which must be "
                       "a user message with text", param="messages")
    return last["content"]


class _ModelBackend:
    """The endpoint's async model as the planner's synchronous backend, from a worker thread."""

    def __init__(self, model: Model, loop: asyncio.AbstractEventLoop) -> None:
        self.model, self.loop = model, loop

    def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                 tools: list[ToolSpec] | None = None) -> Completion:
        return asyncio.run_coroutine_threadsafe(self.model.complete(messages, grammar, sampling), self.loop).result()
