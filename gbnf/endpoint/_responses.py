"""OpenAI's Responses API (``POST /v1/responses``) on the chat-completions machinery.

A Responses body is read into the chat-completions body it asks for (``instructions`` as the
system message, ``input`` items as messages, ``function_call`` and ``function_call_output``
items as an assistant's calls and their results, flat function tools, ``text.format`` as
``response_format``), so the same grammar, validation and retries serve both. The reply is
written back as a ``response`` object, or as its stream of typed events.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from typing import Any

from gbnf.compiler import json_text
from gbnf.endpoint._chat import Reply, pieces
from gbnf.endpoint._request import bad
from gbnf.errors import ApiError

_UNSUPPORTED = {"previous_response_id": None, "conversation": None, "background": False, "prompt": None}
"""Parameters that need state this endpoint does not keep, with the value that asks nothing."""
_ROLES = ("user", "system", "developer", "assistant")


def chat_body(body: Any) -> tuple[dict[str, Any], list[str]]:
    """The chat-completions body a Responses ``body`` asks for, and the ``input`` path each of
    its messages came from (for errors that name a message)."""
    if not isinstance(body, dict):
        raise bad(None, "the body must be a JSON object")
    for key, default in _UNSUPPORTED.items():
        if body.get(key, default) not in (default, None):
            raise bad(key, f"{key} is not supported by gbnf serve (it keeps no state): send the whole input")
    messages, origins = _input_messages(body.get("input"), body.get("instructions"))
    chat: dict[str, Any] = {"model": body.get("model"), "messages": messages, "stream": body.get("stream", False)}
    for key in ("temperature", "top_p", "parallel_tool_calls", "profile", "explain"):
        if body.get(key) is not None:
            chat[key] = body[key]
    if body.get("max_output_tokens") is not None:
        chat["max_tokens"] = body["max_output_tokens"]
    if body.get("tools"):
        chat["tools"] = _chat_tools(body["tools"])
    if body.get("tool_choice") is not None:
        chat["tool_choice"] = _tool_choice(body["tool_choice"])
    text = body.get("text")
    if text is not None and not isinstance(text, dict):
        raise bad("text", "text must be an object such as {\"format\": {\"type\": \"json_schema\", ...}}")
    if isinstance(text, dict) and text.get("format") is not None:
        chat["response_format"] = _format(text["format"])
    return chat, origins


def input_param(param: str | None, origins: list[str]) -> str | None:
    """A chat-completions error's ``param`` as the Responses body's path (``messages[2]`` ->
    ``input[1]``, ``response_format`` -> ``text.format``)."""
    if param is None:
        return None
    if param.startswith("response_format"):
        return "text.format" + param[len("response_format"):]
    if param == "max_tokens":
        return "max_output_tokens"
    found = re.match(r"messages\[(\d+)\]", param)
    if found and int(found[1]) < len(origins):
        return origins[int(found[1])] + param[found.end():]
    return param


def _input_messages(value: Any, instructions: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """``instructions`` and ``input`` as chat messages; consecutive ``function_call`` items make
    one assistant message with several calls."""
    messages: list[dict[str, Any]] = []
    origins: list[str] = []
    if instructions is not None:
        if not isinstance(instructions, str):
            raise bad("instructions", "instructions must be a string")
        messages.append({"role": "system", "content": instructions})
        origins.append("instructions")
    if isinstance(value, str):
        return [*messages, {"role": "user", "content": value}], [*origins, "input"]
    if not isinstance(value, list) or not value:
        raise bad("input", "input must be a string or a non-empty list of items")
    for i, item in enumerate(value):
        where = f"input[{i}]"
        if not isinstance(item, dict):
            raise bad(where, "an input item must be an object")
        kind = item.get("type", "message")
        if kind == "message":
            if item.get("role") not in _ROLES:
                raise bad(f"{where}.role", f"role must be one of {', '.join(_ROLES)}")
            messages.append({"role": item["role"], "content": _content(item.get("content"), f"{where}.content")})
        elif kind == "function_call":
            call = _function_call(item, where)
            if messages and messages[-1]["role"] == "assistant" and messages[-1].get("tool_calls") \
                    and origins[-1].startswith("input["):
                messages[-1]["tool_calls"].append(call)
                continue
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif kind == "function_call_output":
            output = item.get("output")
            if not isinstance(output, (str, list)):
                raise bad(f"{where}.output", "output must be a string or a list of text parts")
            messages.append({"role": "tool", "tool_call_id": str(item.get("call_id")),
                             "content": _content(output, f"{where}.output")})
        elif kind == "reasoning":
            continue  # a model's earlier reasoning: nothing this endpoint reads back
        else:
            raise bad(f"{where}.type", f"input items of type {json_text(kind)[:40]} are not supported: use message, "
                      "function_call or function_call_output")
        origins.append(where)
    return messages, origins


def _content(content: Any, where: str) -> str:
    """Text content: a string, or ``input_text``/``output_text``/``text`` parts."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise bad(where, "content must be a string or a list of text parts")
    parts = []
    for j, part in enumerate(content):
        if not isinstance(part, dict) or part.get("type") not in ("input_text", "output_text", "text") \
                or not isinstance(part.get("text"), str):
            raise bad(f"{where}[{j}]", "only text content parts are supported (input_text, output_text)")
        parts.append(part["text"])
    return "\n".join(parts)


def _function_call(item: dict[str, Any], where: str) -> dict[str, Any]:
    if not isinstance(item.get("name"), str) or not isinstance(item.get("arguments", ""), str):
        raise bad(where, "a function_call item has a name and its arguments as a JSON string")
    return {"id": str(item.get("call_id")), "type": "function",
            "function": {"name": item["name"], "arguments": item.get("arguments") or "{}"}}


def _chat_tools(tools: Any) -> list[dict[str, Any]]:
    """Responses' flat function tools as chat-completions tools."""
    if not isinstance(tools, list):
        raise bad("tools", "tools must be a list")
    out = []
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict) or tool.get("type") != "function":
            kind = tool.get("type") if isinstance(tool, dict) else None
            raise bad(f"tools[{i}]", f"only function tools are supported, not {json_text(kind)[:40]}: "
                      "{\"type\": \"function\", \"name\": ..., \"parameters\": {...}}")
        function = {key: tool[key] for key in ("name", "description", "parameters", "strict") if key in tool}
        out.append({"type": "function", "function": function})
    return out


def _tool_choice(choice: Any) -> Any:
    if isinstance(choice, dict) and choice.get("type") == "function":
        return {"type": "function", "function": {"name": choice.get("name")}}
    return choice


def _format(value: Any) -> dict[str, Any]:
    """``text.format`` as a chat ``response_format``."""
    if not isinstance(value, dict):
        raise bad("text.format", "text.format must be an object")
    if value.get("type") == "json_schema":
        spec = {key: value[key] for key in ("name", "schema", "strict", "description") if key in value}
        return {"type": "json_schema", "json_schema": spec}
    return value


class ResponseRendering:
    """One reply in the Responses API's shapes: the ``response`` object, or the events that
    stream it (text as it comes, then each call, then ``response.completed``). Item ids are made
    once, so the stream and the final object agree."""

    def __init__(self, body: dict[str, Any], chat: dict[str, Any]) -> None:
        self.body = body
        self.id = f"resp_{secrets.token_hex(12)}"
        self.created = int(time.time())
        self.message_id = f"msg_{secrets.token_hex(12)}"
        self.sequence = 0
        self.text_open = False
        self.tools = body.get("tools") or []
        self.model = str(chat.get("model") or "gbnf")

    def response(self, answer: Reply | None, status: str = "completed") -> dict[str, Any]:
        """The ``response`` object (``answer`` None: still in progress)."""
        output: list[dict[str, Any]] = []
        if answer is not None and answer.content is not None:
            output.append(self._message(answer.content, "completed"))
        for i, call in enumerate(answer.calls if answer else ()):
            output.append(self._call(i, call.name, json_text(call.arguments), "completed"))
        truncated = answer is not None and answer.finish_reason == "length"
        text: dict[str, Any] = self.body["text"] if isinstance(self.body.get("text"), dict) else {}
        return {
            "id": self.id, "object": "response", "created_at": self.created,
            "status": "incomplete" if truncated else status, "model": self.model, "output": output,
            "error": None, "incomplete_details": {"reason": "max_output_tokens"} if truncated else None,
            "instructions": self.body.get("instructions"), "metadata": self.body.get("metadata") or {},
            "parallel_tool_calls": self.body.get("parallel_tool_calls", True) is not False,
            "temperature": self.body.get("temperature"), "top_p": self.body.get("top_p"),
            "max_output_tokens": self.body.get("max_output_tokens"),
            "tool_choice": self.body.get("tool_choice", "auto"), "tools": self.tools,
            "text": {"format": text.get("format") or {"type": "text"}}, "store": False,
            "usage": None if answer is None else {
                "input_tokens": answer.prompt_tokens, "output_tokens": answer.completion_tokens,
                "total_tokens": answer.prompt_tokens + answer.completion_tokens,
                "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
        }

    def start(self) -> list[dict[str, str]]:
        return [self._event("response.created", response=self.response(None, "in_progress")),
                self._event("response.in_progress", response=self.response(None, "in_progress"))]

    def text(self, piece: str) -> list[dict[str, str]]:
        events = []
        if not self.text_open:
            self.text_open = True
            events += [self._event("response.output_item.added", output_index=0,
                                   item=self._message("", "in_progress", parts=False)),
                       self._event("response.content_part.added", item_id=self.message_id, output_index=0,
                                   content_index=0, part=_text_part(""))]
        return events + [self._event("response.output_text.delta", item_id=self.message_id, output_index=0,
                                     content_index=0, delta=piece, logprobs=[])]

    def finish(self, answer: Reply, sent: str) -> list[dict[str, str]]:
        events = []
        content = answer.content or ""
        if answer.content is not None:
            for piece in pieces(content[len(sent):]) or ([] if self.text_open else [""]):
                events += self.text(piece)
            events += [self._event("response.output_text.done", item_id=self.message_id, output_index=0,
                                   content_index=0, text=content, logprobs=[]),
                       self._event("response.content_part.done", item_id=self.message_id, output_index=0,
                                   content_index=0, part=_text_part(content)),
                       self._event("response.output_item.done", output_index=0,
                                   item=self._message(content, "completed"))]
        first = 1 if answer.content is not None else 0
        for i, call in enumerate(answer.calls):
            arguments = json_text(call.arguments)
            item = self._call(i, call.name, arguments, "completed")
            events.append(self._event("response.output_item.added", output_index=first + i,
                                      item={**self._call(i, call.name, "", "in_progress")}))
            for piece in pieces(arguments):
                events.append(self._event("response.function_call_arguments.delta", item_id=item["id"],
                                          output_index=first + i, delta=piece))
            events += [self._event("response.function_call_arguments.done", item_id=item["id"],
                                   output_index=first + i, arguments=arguments, name=call.name),
                       self._event("response.output_item.done", output_index=first + i, item=item)]
        final = self.response(answer)
        kind = "response.incomplete" if final["status"] == "incomplete" else "response.completed"
        return events + [self._event(kind, response=final)]

    def error(self, exc: ApiError) -> list[dict[str, str]]:
        return [self._event("error", code=exc.code, message=str(exc), param=exc.param)]

    def done(self) -> list[dict[str, str]]:
        return []

    def _event(self, kind: str, **fields: Any) -> dict[str, str]:
        event = {"type": kind, "sequence_number": self.sequence, **fields}
        self.sequence += 1
        return {"event": kind, "data": json.dumps(event)}

    def _message(self, text: str, status: str, parts: bool = True) -> dict[str, Any]:
        return {"type": "message", "id": self.message_id, "status": status, "role": "assistant",
                "content": [_text_part(text)] if parts else []}

    def _call(self, index: int, name: str, arguments: str, status: str) -> dict[str, Any]:
        suffix = f"{self.id[5:]}{index:02d}"
        return {"type": "function_call", "id": f"fc_{suffix}", "call_id": f"call_{suffix}", "name": name,
                "arguments": arguments, "status": status}


def _text_part(text: str) -> dict[str, Any]:
    return {"type": "output_text", "text": text, "annotations": [], "logprobs": []}

