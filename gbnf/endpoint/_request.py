"""An OpenAI chat-completions body, checked and turned into what the model is asked.

Every problem is an :class:`ApiError` naming the parameter (``messages[2].content``,
``tools[0] (get_weather): parameters.properties.days.type``), answered as HTTP 400.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import jsonschema

from gbnf import _jsonread as jsonread
from gbnf.backends._base import Message, Sampling
from gbnf.compiler import compile_pool, compile_schema
from gbnf.compiler._literals import json_text
from gbnf.compiler._schema import key_path
from gbnf.errors import ApiError, GbnfError, SchemaError
from gbnf.plan._prompt import tools_offer
from gbnf.read._validate import ToolCall
from gbnf.shape import (
    Asked,
    Called,
    Request,
    Shaping,
    Values,
    adds_nothing,
    apart_tool,
    as_asked,
    asked_calls,
    asked_items,
    asked_of,
    asked_order,
    asked_parts,
    bounded,
    calls_apart,
    closeness,
    copied,
    copy_bias,
    decide_reply,
    items_in_turn,
    offered_values,
    own_values,
    part_values,
    read_request,
    scored_tools,
    without_count,
)
from gbnf.tools._imports import import_tools
from gbnf.tools._tool import Tool

MAX_PARALLEL = 4
"""How many calls one reply may carry when ``parallel_tool_calls`` is true (OpenAI's default)."""
MAX_TOKENS = 1024
"""The reply's token limit when the request sets none."""
SHORT_CAPS = (64, 8)
"""The string characters and array items a call may have when it is asked again after a reply
ran past its token limit (a small model looping in a list: ``[-1, -2, -3, ...]``)."""
_ROLES = {"system", "developer", "user", "assistant", "tool", "function"}
_REFUSED = {"n": 1, "logprobs": False, "top_logprobs": None, "audio": None, "prediction": None}


def bad(param: str | None, message: str) -> ApiError:
    return ApiError(400, message, param=param)


@dataclass(frozen=True)
class ReplyShape:
    """What a reply that may call tools is compiled from: the request's tools (``tools_json``),
    those offered (``names``), each as ``skip`` has it asked (:class:`~gbnf.shape.Asked`; None:
    as declared), ``least``..``parallel`` calls (the first calls those ``order`` names in
    turn), or text (``text``); free strings and numbers among ``values`` where given and any
    fits, unbounded strings, arrays and numbers capped at ``caps`` (characters, items, digits),
    and, with ``own``, its first calls (of the tools ``order`` names, or of the one tool) each
    copying from their own values in turn (:func:`~gbnf.shape.own_values`,
    :func:`~gbnf.shape.part_values`, :func:`~gbnf.shape.items_in_turn`)."""

    tools_json: str
    names: tuple[str, ...]
    skip: tuple[Asked | None, ...]
    parallel: int
    least: int
    order: tuple[str, ...]
    text: bool
    caps: tuple[int | None, int | None, int | None]
    values: Values | None = None
    own: tuple[Values, ...] = ()


@dataclass(frozen=True)
class ChatRequest:
    """What one chat completion asks: the model's messages (tools offered in the system
    prompt), the tools a reply may call (``offered``; empty when none), whether a call is
    ``required``, a ``schema`` the reply must be an instance of, how to sample, and the
    fewest calls the grammar lets a reply carry (``least``), counted from the user's ``words``
    where ``counted`` (then a call past those adds something of theirs: :meth:`asked`). ``shape``
    is what ``grammar`` was compiled from when tools are offered, to compile it again shortened
    (:attr:`short_grammar`) or, where ``apart``, with calls kept apart (:meth:`asked_apart`) from
    the user's ``words``. ``scored``: the
    tools whose relevance to the user's last words (the last message) the model is to read
    before the reply (:func:`~gbnf.shape.scored_tools`), for :func:`parse_request` to decide again."""

    model: str
    messages: list[Message]
    offered: tuple[Tool, ...]
    required: bool
    schema: dict[str, Any] | None
    sampling: Sampling
    stream: bool
    include_usage: bool
    grammar: str | None
    least: int = 1
    counted: bool = False
    shape: ReplyShape | None = None
    words: Request | None = None
    apart: bool = False
    scored: tuple[Tool, ...] = ()

    @property
    def short_grammar(self) -> str | None:
        """The grammar for a call asked again after a reply ran past its token limit, strings
        and arrays capped at :data:`SHORT_CAPS` (None: no tools)."""
        if self.shape is None:
            return None
        chars, items, digits = self.shape.caps
        short = (min(chars or SHORT_CAPS[0], SHORT_CAPS[0]), min(items or SHORT_CAPS[1], SHORT_CAPS[1]), digits)
        return _pool_grammar(replace(self.shape, caps=short))

    def asked_apart(self, calls: Sequence[ToolCall], called: Called = (),
                    bare: bool = False) -> tuple[str, Called] | None:
        """When one of ``calls`` repeats in an argument a value the user wrote once, the
        grammar to ask the reply again under and its first calls (:func:`~gbnf.shape.calls_apart`:
        the tools of those up to that one, in turn, that argument kept from that value, and what
        ``called``, an earlier asking, kept them from; a ``bare`` reply, one call, not a list).
        None when no call repeats one, or its argument lists no other value."""
        if not self.apart or self.shape is None or self.words is None or self.shape.values is None:
            return None
        firsts = calls_apart([(call.name, call.arguments) for call in calls], self.words, called)
        grammar = _pool_grammar(self.shape, firsts, bare) if firsts is not None else None
        return (grammar, firsts) if grammar is not None and firsts is not None else None

    def asked(self, calls: Sequence[ToolCall]) -> tuple[ToolCall, ...]:
        """``calls`` as the user asked for them: without those that repeat an earlier one
        exactly (a small model that loops writes the same call again and again, and when the
        grammar asks for more calls than the model had values for, it fills the rest with
        copies), and, past the calls counted from the user's words, without those that add
        nothing of theirs (:func:`~gbnf.shape.adds_nothing`: "Mix yellow and blue", then blue
        and yellow)."""
        kept: dict[tuple[str, str], ToolCall] = {}
        for call in calls:
            key = (call.name, json_text(call.arguments))
            if key in kept or (self.counted and self.words is not None and len(kept) >= self.least and adds_nothing(
                    call.arguments, [done.arguments for done in kept.values()], self.words)):
                continue
            kept[key] = call
        return tuple(kept.values())


def parse_request(body: Any, shaping: Shaping = Shaping(), relevance: Sequence[float] | None = None) -> ChatRequest:
    """Check an OpenAI ``/v1/chat/completions`` body, shaped by ``shaping``; raise
    :class:`ApiError` naming what is wrong. ``relevance``: the model's relevance of the tools
    an earlier parse of the same body named (:attr:`ChatRequest.scored`), to decide the reply
    with (:func:`~gbnf.shape.decide_reply`)."""
    if not isinstance(body, dict):
        raise bad(None, "the body must be a JSON object")
    for key, default in _REFUSED.items():
        if body.get(key, default) not in (default, None):
            raise bad(key, f"{key}={json_text(body[key])} is not supported by gbnf serve")
    tools_json = json.dumps(body.get("tools") or [])
    tools = _request_tools(tools_json) if body.get("tools") else ()
    choice = body.get("tool_choice", "auto" if tools else "none")
    offered, required = _choice(choice, tools)
    parallel = MAX_PARALLEL if _flag(body, "parallel_tool_calls", True) else 1
    schema = _response_schema(body.get("response_format"))
    if offered and schema is not None and not required:
        raise bad("response_format", "response_format with tools under tool_choice 'auto' is not supported: "
                  "use tool_choice 'required' or a named tool, or drop one of them")
    messages = _chat_messages(body.get("messages"))
    last, from_user = messages[-1]["content"], messages[-1]["role"] == "user"  # the words a reply answers
    request = read_request(last)
    sampling = _sampling(body)
    decided = False  # the user's words named the tools offered
    scored: tuple[Tool, ...] = ()
    if shaping.decide and choice in ("auto", "required") and from_user:
        near = closeness(list(offered), request) if shaping.meaning else None
        decision = decide_reply(list(offered), request, near, relevance)
        if shaping.model_relevance and relevance is None and not required:
            scored = tuple(scored_tools(list(offered), request, decision, near))
        if decision.kind == "call":
            offered, required, decided = tuple(decision.tools), True, True
        elif decision.kind == "text" and not required:
            offered = ()
    if offered and shaping.copy_bias and from_user:
        sampling = replace(sampling, bias=copy_bias([last], shaping.copy_bias))
    if choice == "auto" and not required and shaping.prose_tokens is not None:
        sampling = _prose(sampling, shaping.prose_tokens if not offered else None)
    skip = tuple(asked_of(t, request) if shaping.asked_only and from_user else None for t in offered)
    shown = [replace(t, parameters=as_asked(t.parameters, asked)) for t, asked in zip(offered, skip)]
    if offered:
        messages = _with_system(messages, tools_offer(shown, required, parallel))
    names = tuple(t.name for t in offered)
    counted = shaping.count_calls and required and (decided or len(offered) == 1) and from_user
    least = asked_calls(shown, request, parallel) if counted else 1
    order = asked_order(shown, request, least) if counted else ()
    values = offered_values([last]) if shaping.copy_values and from_user and last else None
    if values is not None and len(shown) == 1:
        values = without_count(values, last, least)
    items = asked_items(shown, request, least) if counted and values is not None else ()
    parts = asked_parts(shown, request, least) if counted and values is not None else ()
    turns = items_in_turn(shown, request, least) if parts else ()
    own = (tuple(own_values(values, items, call) for call in range(len(items))) if items and values
           else tuple(own_values(part_values(values, *part), *turn) if turn[0] else part_values(values, *part)
                      for part, turn in zip(parts, turns)) if values else ())
    caps = (_string_cap(shaping.string_chars, sampling.max_tokens), shaping.array_items, shaping.number_digits)
    most = least if least > 1 else parallel  # calls counted from the words: that many, no more
    shape = ReplyShape(tools_json, names, skip, most, least, order, not required, caps, values, own) \
        if offered else None
    grammar = (_pool_grammar(shape) if shape is not None
               else _schema_grammar(json.dumps(schema)) if schema is not None else None)
    options = body.get("stream_options") or {}
    include_usage = isinstance(options, dict) and bool(options.get("include_usage"))
    return ChatRequest(model=str(body.get("model") or "gbnf"), messages=messages, offered=offered,
                       required=required, schema=schema, sampling=sampling,
                       stream=_flag(body, "stream", False), include_usage=include_usage, grammar=grammar,
                       least=least, counted=bool(counted), shape=shape, words=request if from_user else None,
                       apart=shaping.values_apart, scored=scored)


@functools.lru_cache(maxsize=64)
def _request_tools(tools_json: str) -> tuple[Tool, ...]:
    """The request's tools, checked like manifests (cached by content)."""
    data = json.loads(tools_json)
    if not isinstance(data, list):
        raise bad("tools", "tools must be a list")
    for i, item in enumerate(data):
        if not isinstance(item, dict) or item.get("type", "function") != "function":
            raise bad(f"tools[{i}]", "only function tools are supported: {\"type\": \"function\", \"function\": {...}}")
    try:
        return tuple(import_tools(data, "openai", "tools"))
    except GbnfError as exc:
        raise bad("tools", str(exc)) from None


@functools.lru_cache(maxsize=64)
def _pool_grammar(shape: ReplyShape, called: Called = (), bare: bool = False) -> str | None:
    """The grammar of a reply as ``shape`` has it. With ``called`` (a reply asked again), its
    first calls are those tools in turn, each without the values its :data:`~gbnf.shape.Apart` names (None
    when an argument does not list that value among others); a ``bare`` reply is that one call
    alone."""
    tools_json, names, skip, caps = shape.tools_json, shape.names, shape.skip, shape.caps
    asks = dict(zip(names, skip))
    pool = [_shaped_tool(tools_json, name, asked, shape.values, caps) for name, asked in zip(names, skip)]
    in_turn = shape.order or (names[0],) * len(shape.own)
    steps: list[str | Tool] = [_shaped_tool(tools_json, name, asks[name], chosen, caps)
                               for name, chosen in zip(in_turn, shape.own)]
    steps += shape.order[len(steps):]
    least = shape.least
    if called:
        own = [*shape.own, *[shape.values] * len(called)]
        firsts = [apart_tool(_shaped_tool(tools_json, name, asks[name], own[i], caps), avoid)
                  for i, (name, avoid) in enumerate(called)]
        if None in firsts:
            return None
        asked = [tool for tool in firsts if tool is not None]
        if bare:
            pool, steps = asked, []
        else:
            steps, least = [*asked, *steps[len(asked):]], max(least, len(asked))
    return compile_pool(pool, parallel=max(shape.parallel, least), least=least, single=True, text=shape.text,
                        order=steps, layout="indented").text


@functools.lru_cache(maxsize=256)
def _shaped_tool(tools_json: str, name: str, asked: Asked | None, chosen: Values | None,
                 caps: tuple[int | None, int | None, int | None]) -> Tool:
    """Tool ``name`` of ``tools_json`` as ``asked``, its free values among ``chosen`` (None:
    free) and capped at ``caps``."""
    tool = next(t for t in _request_tools(tools_json) if t.name == name)
    parameters = as_asked(tool.parameters, asked)
    if chosen is not None:
        parameters = copied(parameters, *chosen, echoes=tool.echoes)
    return replace(tool, parameters=bounded(parameters, *caps))


def _string_cap(chars: int | None, max_tokens: int) -> int | None:
    """The cap on free strings: ``chars``, and no more characters than the reply has tokens (a
    string of that many characters takes at most that many tokens, so a run-on string ends
    while the call can still close)."""
    return max_tokens if chars is None else min(chars, max_tokens)


@functools.lru_cache(maxsize=64)
def _schema_grammar(schema_json: str) -> str:
    try:
        return compile_schema(json.loads(schema_json))
    except SchemaError as exc:
        where = key_path("response_format.json_schema.schema", exc.path)
        raise bad("response_format", f"{where}: {exc.problem}") from None


def _choice(choice: Any, tools: tuple[Tool, ...]) -> tuple[tuple[Tool, ...], bool]:
    """(the tools a reply may call, whether it must call one) for a ``tool_choice``."""
    if choice == "none":
        return (), False
    if choice in ("auto", "required"):
        if not tools:
            raise bad("tool_choice", f"tool_choice {choice!r} needs tools")
        return tools, choice == "required"
    if isinstance(choice, dict):
        function = choice.get("function")
        name = function.get("name") if isinstance(function, dict) else None
        chosen = tuple(t for t in tools if t.name == name)
        if choice.get("type") != "function" or not chosen:
            available = ", ".join(t.name for t in tools) or "none"
            raise bad("tool_choice", f"tool_choice names no tool of this request ({json_text(choice)[:80]}; "
                      f"tools: {available})")
        return chosen, True
    raise bad("tool_choice", "tool_choice must be 'auto', 'none', 'required' or "
              "{\"type\": \"function\", \"function\": {\"name\": ...}}")


def _response_schema(value: Any) -> dict[str, Any] | None:
    """The JSON Schema a ``response_format`` asks for (None: plain text)."""
    if value is None:
        return None
    kind = value.get("type") if isinstance(value, dict) else None
    if kind == "text":
        return None
    if kind == "json_object":
        return {"type": "object"}
    if kind == "json_schema":
        spec = value.get("json_schema")
        schema = spec.get("schema") if isinstance(spec, dict) else None
        if not isinstance(schema, dict):
            raise bad("response_format", "response_format.json_schema.schema must be a JSON Schema object")
        try:
            jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator).check_schema(schema)
        except jsonschema.SchemaError as exc:
            where = ".".join(["response_format.json_schema.schema", *map(str, exc.absolute_path)])
            raise bad("response_format", f"{where}: not valid JSON Schema: {exc.message}") from None
        return schema
    raise bad("response_format", "response_format.type must be 'text', 'json_object' or 'json_schema'")


def _chat_messages(value: Any) -> list[Message]:
    """The conversation as the model reads it: calls written as the grammar writes them,
    tool results named after the call they answer."""
    if not isinstance(value, list) or not value:
        raise bad("messages", "messages must be a non-empty list")
    names: dict[str, str] = {}
    out: list[Message] = []
    for i, message in enumerate(value):
        where = f"messages[{i}]"
        role = message.get("role") if isinstance(message, dict) else None
        if role not in _ROLES:
            raise bad(f"{where}.role", f"role must be one of {', '.join(sorted(_ROLES))}, not {json_text(role)[:40]}")
        content = _text(message.get("content"), f"{where}.content")
        if role == "assistant" and message.get("tool_calls"):
            calls = [_call(call, f"{where}.tool_calls[{j}]", names) for j, call in enumerate(message["tool_calls"])]
            content = json_text(calls[0] if len(calls) == 1 else calls)
        elif role in ("tool", "function"):
            name = names.get(str(message.get("tool_call_id")), message.get("name") or "tool")
            content = f"{name} result: {content}"
            role = "tool"
        out.append({"role": "system" if role == "developer" else role, "content": content})
    return out


def _call(call: Any, where: str, names: dict[str, str]) -> dict[str, Any]:
    """An assistant's earlier ``tool_calls`` entry as ``{"name", "arguments"}``."""
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        raise bad(where, "a tool call is {\"id\", \"type\": \"function\", \"function\": {\"name\", \"arguments\"}}")
    try:
        arguments = jsonread.arguments(function.get("arguments") or {})
    except json.JSONDecodeError as exc:
        raise bad(f"{where}.function.arguments", f"not JSON: {exc.msg}") from None
    names[str(call.get("id"))] = function["name"]
    return {"name": function["name"], "arguments": arguments}


def _text(content: Any, where: str) -> str:
    """A message's content as text: a string, text parts, or nothing."""
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list):
        parts = []
        for j, part in enumerate(content):
            if not isinstance(part, dict) or part.get("type") != "text" or not isinstance(part.get("text"), str):
                raise bad(f"{where}[{j}]", "only text content parts are supported")
            parts.append(part["text"])
        return "\n".join(parts)
    raise bad(where, "content must be a string or a list of text parts")


def _with_system(messages: list[Message], offer: str) -> list[Message]:
    """The messages with ``offer`` added to the system prompt (one is made when there is none)."""
    if messages[0]["role"] == "system":
        first = messages[0]["content"]
        return [{"role": "system", "content": f"{first}\n\n{offer}" if first else offer}, *messages[1:]]
    return [{"role": "system", "content": offer}, *messages]


def _sampling(body: dict[str, Any]) -> Sampling:
    temperature = _number(body, "temperature", 0.0, 0.0, 2.0)
    top_p = _number(body, "top_p", 1.0, 0.0, 1.0)
    limit = body.get("max_completion_tokens", body.get("max_tokens"))
    if limit is None:
        limit = MAX_TOKENS
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise bad("max_tokens", "max_tokens must be a whole number >= 1")
    seed = body.get("seed") or 0
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise bad("seed", "seed must be a whole number")
    stop = body.get("stop") or ()
    stop = (stop,) if isinstance(stop, str) else stop
    if not isinstance(stop, (list, tuple)) or len(stop) > 4 or not all(isinstance(s, str) for s in stop):
        raise bad("stop", "stop must be a string or a list of up to 4 strings")
    return Sampling(max_tokens=limit, temperature=temperature, top_p=top_p, seed=seed % 2**32, stop=tuple(stop))


def _prose(sampling: Sampling, tokens: int | None) -> Sampling:
    """``sampling`` for a reply that may be prose: one paragraph, of at most ``tokens`` (None:
    the request's limit, which a call may need)."""
    limit = sampling.max_tokens if tokens is None else min(sampling.max_tokens, tokens)
    return replace(sampling, max_tokens=limit, stop=(*sampling.stop, "\n\n"))


def _number(body: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = body.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not low <= value <= high:
        raise bad(key, f"{key} must be a number from {low:g} to {high:g}")
    return float(value)


def _flag(body: dict[str, Any], key: str, default: bool) -> bool:
    value = body.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise bad(key, f"{key} must be true or false")
    return value
