"""Salvage: when a plan ends without a valid final answer, answer from the results gathered.

Weak models often get the data with a real tool call, then fail to produce the structured
final answer. One tool-less, plain-text call that answers the user's question from those
results turns that failure into an answer; with no results there is nothing to answer from.
"""

from __future__ import annotations

import json
from typing import Any

from gbnf.backends.base import Backend, Message, Sampling
from gbnf.errors import GbnfError
from gbnf.validate import ToolCall

INSTRUCTIONS = ("Answer the user's question in plain text, in one or two sentences, using only the tool "
                "results below. Do not call tools and do not write JSON.")


def salvage_messages(query: str, results: list[tuple[ToolCall, Any]]) -> list[Message]:
    """The one plain-text request: the question and the tool results gathered so far."""
    if not results:
        raise GbnfError("nothing to salvage: no tool returned a result")
    lines = [f"- {call.name}({json.dumps(call.arguments, ensure_ascii=False)}) returned: "
             f"{value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)}"
             for call, value in results]
    return [{"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": f"Question: {query}\n\nTool results:\n" + "\n".join(lines)}]


def salvage(backend: Backend, query: str, results: list[tuple[ToolCall, Any]],
            sampling: Sampling | None = None) -> str:
    """One plain-text answer from ``results``; :class:`GbnfError` when there are none or the
    reply is empty."""
    reply = backend.complete(salvage_messages(query, results), None, sampling or Sampling(max_tokens=160))
    if not reply.text.strip():
        raise GbnfError("the salvage call returned no text")
    return reply.text.strip()
