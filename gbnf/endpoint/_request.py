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
from gbnf.backends import Message, Sampling
from gbnf.compiler import compile_schema, json_text, key_path
from gbnf.errors import ApiError, GbnfError, SchemaError
from gbnf.read import ToolCall
from gbnf.shape import Called, Conversation, Shaped, Shaping, shape
from gbnf.tools import Tool, import_tools

MAX_PARALLEL = 4
"""How many calls one reply may carry when ``parallel_tool_calls`` is true (OpenAI's default)."""
MAX_TOKENS = 1024
"""The reply's token limit when the request sets none."""
_ROLES = {"system", "developer", "user", "assistant", "tool", "function"}
_REFUSED = {"n": 1, "logprobs": False, "top_logprobs": None, "audio": None, "prediction": None}


def bad(param: str | None, message: str) -> ApiError:
    return ApiError(400, message, param=param)


@dataclass(frozen=True)
class ChatRequest:
    """What one chat completion asks: the model's messages (tools offered in the system
    prompt), the tools a reply may call (``offered``; empty when none), whether a call is
    ``required``, a ``schema`` the reply must be an instance of, how to sample, and the
    ``grammar``. ``shaped``: what the shaping stage decided (:class:`~gbnf.shape.Shaped`), to
    compile the grammar again shortened or with calls kept apart, and to keep the calls asked
    for; ``explain``: the decisions go back with the reply; ``auto``: the client offered tools
    under ``tool_choice`` ``auto``, so the reply may be text whatever the shaping decided."""

    model: str
    messages: list[Message]
    offered: tuple[Tool, ...]
    required: bool
    schema: dict[str, Any] | None
    sampling: Sampling
    stream: bool
    include_usage: bool
    grammar: str | None
    shaped: Shaped | None = None
    explain: bool = False
    auto: bool = False

    @property
    def least(self) -> int:
        """The fewest calls the grammar lets a reply carry."""
        return self.shaped.least if self.shaped is not None else 1

    @property
    def scored(self) -> tuple[Tool, ...]:
        """The tools whose relevance to the user's last words the model is to read before the
        reply is decided again (:attr:`~gbnf.shape.Shaped.scored`)."""
        return self.shaped.scored if self.shaped is not None else ()

    @property
    def short_grammar(self) -> str | None:
        """The grammar for a call asked again after a reply ran past its token limit (None: no tools)."""
        return self.shaped.short_grammar if self.shaped is not None and self.offered else None

    def asked_apart(self, calls: Sequence[ToolCall], called: Called = (),
                    bare: bool = False) -> tuple[str, Called] | None:
        """The grammar to ask a reply again under when one of ``calls`` repeats a value the
        user wrote once, and its first calls (:meth:`~gbnf.shape.Shaped.asked_apart`)."""
        if self.shaped is None or not self.offered:
            return None
        return self.shaped.asked_apart([(call.name, call.arguments) for call in calls], called, bare)

    def asked(self, calls: Sequence[ToolCall]) -> tuple[ToolCall, ...]:
        """``calls`` as the user asked for them (:meth:`~gbnf.shape.Shaped.kept`)."""
        if self.shaped is None:
            return tuple(calls)
        return tuple(calls[i] for i in self.shaped.kept([(call.name, call.arguments) for call in calls]))


def parse_request(body: Any, shaping: Shaping | str = "small",
                  relevance: Sequence[float] | None = None) -> ChatRequest:
    """Check an OpenAI ``/v1/chat/completions`` body, shaped by ``shaping`` (a profile's name
    or its settings; the body's ``profile`` chooses another); raise :class:`ApiError` naming
    what is wrong. ``relevance``: the model's relevance of the tools an earlier parse of the
    same body named (:attr:`ChatRequest.scored`), to decide the reply with. With the body's
    ``explain``, the shaping stage's decisions go back with the reply."""
    if not isinstance(body, dict):
        raise bad(None, "the body must be a JSON object")
    for key, default in _REFUSED.items():
        if body.get(key, default) not in (default, None):
            raise bad(key, f"{key}={json_text(body[key])} is not supported by gbnf serve")
    tools = _request_tools(json.dumps(body.get("tools") or [])) if body.get("tools") else ()
    choice = body.get("tool_choice", "auto" if tools else "none")
    offered, required = _choice(choice, tools)
    parallel = MAX_PARALLEL if _flag(body, "parallel_tool_calls", True) else 1
    schema = _response_schema(body.get("response_format"))
    if offered and schema is not None and not required:
        raise bad("response_format", "response_format with tools under tool_choice 'auto' is not supported: "
                  "use tool_choice 'required' or a named tool, or drop one of them")
    messages = _chat_messages(body.get("messages"))
    sampling = _sampling(body)
    conversation = Conversation(tuple((m["role"], m["content"]) for m in messages), offered,
                                "none" if not offered else "named" if isinstance(choice, dict)
                                else "required" if required else "auto", parallel, sampling.max_tokens)
    shaped = shape(conversation, _profile(body, shaping), relevance=relevance, explain=_flag(body, "explain", False))
    if shaped.bias:
        sampling = replace(sampling, bias=shaped.bias)
    if shaped.one_paragraph:
        sampling = _prose(sampling, shaped.prose_tokens)
    if shaped.prompt:
        messages = _with_system(messages, shaped.prompt)
    grammar = shaped.grammar if shaped.offered else _schema_grammar(json.dumps(schema)) if schema is not None else None
    options = body.get("stream_options") or {}
    include_usage = isinstance(options, dict) and bool(options.get("include_usage"))
    return ChatRequest(model=str(body.get("model") or "gbnf"), messages=messages, offered=shaped.offered,
                       required=shaped.reply == "call", schema=schema, sampling=sampling,
                       stream=_flag(body, "stream", False), include_usage=include_usage, grammar=grammar,
                       shaped=shaped, explain=_flag(body, "explain", False), auto=bool(offered) and not required)


def _profile(body: dict[str, Any], default: Shaping | str) -> Shaping | str:
    """The profile a body asks for (its ``profile``), else ``default``."""
    name = body.get("profile")
    if name is None:
        return default
    if not isinstance(name, str):
        raise bad("profile", f"profile must be a profile's name, not {json_text(name)[:40]}")
    try:
        return Shaping.named(name)
    except GbnfError as exc:
        raise bad("profile", str(exc)) from None


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
