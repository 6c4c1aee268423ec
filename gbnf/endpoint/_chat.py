"""One chat completion: ask under the grammar, validate, feed an error back and retry.

A reply that calls a tool is checked against the tool's full schema; a structured reply
against its schema. An invalid reply goes back to the model as a ``tool`` message and is
asked again (sampled, since greedy decoding would repeat it; after a reply that ran past its
token limit, under a grammar with shorter strings and arrays), up to ``max_retries`` times;
when they run out, the last reply valid for the schema is returned if there was one (one that
only copied a prompt placeholder or repeated a name from the prompt: retried, since it is likely
wrong, but valid). Else, under ``tool_choice`` ``auto``, the model is asked once more, for text
(the conversation as sent, under a grammar that admits only prose), and the last error is
logged; otherwise the request fails with HTTP 422 and the last error, naming the
constraint (the request was sound and the server did not fail: the model could not meet the
schema, and a client's automatic retry of a 5xx would only repeat the attempts). An invalid call is never
returned; a value the validator repairs without changing its meaning (repeated ``uniqueItems``
items dropped) is returned repaired, with no retry. A valid reply whose call repeats a value
the user wrote once in a second argument is asked again with that argument kept from it
(:attr:`~gbnf.shape.Shaped.rounds`); the first stands when the one asked again is not valid.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from gbnf.backends import Completion, Message, Sampling, TextSink
from gbnf.compiler import PLAIN_TEXT, json_text
from gbnf.endpoint._request import ChatRequest
from gbnf.errors import ApiError, InvalidCall
from gbnf.plan import RETRY_TEMPERATURE
from gbnf.read import ToolCall, checked_json, validate_calls
from gbnf.shape import Called, Shaped

log = logging.getLogger("gbnf.serve")
PROSE = f"root ::= {PLAIN_TEXT}"
"""Text alone: what the grammar of a reply under ``auto`` admits besides calls."""
Complete = Callable[[list[Message], str | None, Sampling, TextSink | None], Awaitable[Completion]]
FinishReason = Literal["stop", "length", "tool_calls"]


@dataclass(frozen=True)
class Reply:
    """The assistant's message, with the tokens every attempt cost."""

    content: str | None
    calls: tuple[ToolCall, ...]
    finish_reason: FinishReason
    prompt_tokens: int
    completion_tokens: int
    model_seconds: float = 0.0
    """The time spent waiting for the model, over every attempt."""

    def tool_calls(self) -> list[dict[str, Any]]:
        """The calls in OpenAI's shape, each with a fresh id and its arguments as a JSON string."""
        return [{"id": f"call_{secrets.token_hex(12)}", "type": "function",
                 "function": {"name": call.name, "arguments": json_text(call.arguments)}} for call in self.calls]


async def reply(request: ChatRequest, complete: Complete, max_retries: int, on_text: TextSink | None = None,
                ident: str = "reply") -> Reply:
    """Ask until the reply is valid, at most ``max_retries`` + 1 times. ``on_text`` gets a
    text reply as it is decoded: only one that needs no validation (no call, no schema).
    ``ident`` names the request in the log."""
    messages = list(request.messages)
    prompt_tokens = completion_tokens = 0
    model_seconds = 0.0

    async def ask(grammar: str | None, sampling: Sampling, sink: TextSink | None) -> Completion:
        """One completion of ``messages``, its tokens and seconds counted."""
        nonlocal prompt_tokens, completion_tokens, model_seconds
        start = time.perf_counter()
        completion = await complete(messages, grammar, sampling, sink)
        model_seconds += time.perf_counter() - start
        prompt_tokens += completion.prompt_tokens
        completion_tokens += completion.completion_tokens
        return completion

    error: InvalidCall | None = None
    fallback: tuple[ToolCall, ...] | None = None
    grammar = request.grammar
    for attempt in range(max_retries + 1):
        sampling = request.sampling
        if attempt:
            sampling = replace(sampling, seed=(sampling.seed + attempt) % 2**32,
                               temperature=max(sampling.temperature, RETRY_TEMPERATURE))
        sink = TextOnly(on_text, calls=bool(request.offered)) if on_text and not request.required \
            and request.schema is None else None
        completion = await ask(grammar, sampling, sink)
        try:
            content, calls = read(request, completion)
        except InvalidCall as exc:
            error = exc
            fallback = _schema_valid(request, completion) or fallback
            messages += [{"role": "assistant", "content": completion.text},
                         {"role": "tool", "content": f"error: {exc}"}]
            if completion.truncated:
                grammar = request.short_grammar or grammar
            continue
        called: Called = ()
        for _ in range(Shaped.rounds if calls else 0):
            again = request.asked_apart(calls, called, bare=completion.text.lstrip().startswith("{"))
            if again is None:
                break
            grammar, called = again
            asked = await ask(grammar, sampling, None)
            try:
                _, apart = read(request, asked)
            except InvalidCall as exc:
                log.info("kept a reply whose call repeats a value: asked again, it failed: %s", exc)
                break
            if not apart:
                break
            completion, calls = asked, apart
        finish: FinishReason = "tool_calls" if calls else "length" if completion.truncated else "stop"
        return Reply(content, request.asked(calls), finish, prompt_tokens, completion_tokens, model_seconds)
    if fallback is not None:
        log.warning("returned a call valid for its schema after %d attempts; last error: %s", max_retries + 1, error)
        return Reply(None, request.asked(fallback), "tool_calls", prompt_tokens, completion_tokens, model_seconds)
    if request.auto:
        log.warning("%s answered in text: no valid call in %d attempts; last error: %s", ident, max_retries + 1, error)
        del messages[len(request.messages):]
        completion = await ask(PROSE, request.sampling, on_text)
        return Reply(completion.text, (), "length" if completion.truncated else "stop", prompt_tokens,
                     completion_tokens, model_seconds)
    raise ApiError(422, f"the model gave no valid reply in {max_retries + 1} attempts; last error: {error}",
                   type="model_error", code="invalid_model_output")


def _schema_valid(request: ChatRequest, completion: Completion) -> tuple[ToolCall, ...] | None:
    """The calls of a refused completion when they are valid for their schemas alone."""
    if not _is_call(request, completion.text):
        return None
    try:
        calls = validate_calls(completion.text, list(request.offered), truncated=completion.truncated, copies=False)
    except InvalidCall:
        return None
    return tuple(calls)


def pieces(text: str) -> list[str]:
    """Text in word-sized pieces for a stream (each keeps the spaces before it)."""
    return re.findall(r"\s*\S+|\s+$", text)


class TextOnly:
    """Passes a reply's text on as it comes, unless the reply is a tool call: under ``auto`` the
    grammar makes its first character decide (a call opens with ``{`` or ``[``, text never)."""

    def __init__(self, sink: TextSink, *, calls: bool) -> None:
        self.sink = sink
        self.calls = calls
        self.text: bool | None = None

    def __call__(self, piece: str) -> None:
        if self.text is None and piece:
            self.text = not (self.calls and piece[0] in "{[")
        if self.text:
            self.sink(piece)


def read(request: ChatRequest, completion: Completion) -> tuple[str | None, tuple[ToolCall, ...]]:
    """(content, calls) of one completion, the calls as written (repeats too: a reply asked
    again keeps its first calls in turn); raise :class:`InvalidCall` when it fails its schema."""
    text = completion.text
    if _is_call(request, text):
        calls = validate_calls(text, list(request.offered), truncated=completion.truncated)
        for call in calls:
            if call.repairs:
                log.info("repaired a call of %s: %s", call.name, "; ".join(call.repairs))
        return None, tuple(calls)
    if request.schema is not None:
        value, repairs = checked_json(text, request.schema, truncated=completion.truncated)
        if repairs:
            log.info("repaired a structured reply: %s", "; ".join(repairs))
            return json_text(value), ()
    return text, ()


def _is_call(request: ChatRequest, text: str) -> bool:
    """Whether a reply is a call: one must be, or the grammar let it open as one."""
    return bool(request.offered) and (request.required or text[:1] in ("{", "["))
