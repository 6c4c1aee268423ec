"""What one request may ask of ``gbnf serve``: each limit is a flag with a safe default, and a
request past one is refused before it reaches the model, with an error naming the limit and
its flag (413 for the body, 400 for the rest)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from gbnf.errors import ApiError


@dataclass(frozen=True)
class Limits:
    """Per request: ``body_bytes`` of JSON; ``messages``; ``tools``; ``schema_bytes`` and
    ``schema_depth`` (nesting of objects and lists) of one tool's parameters; ``max_tokens``
    a reply may ask for; ``compile_seconds`` to check and compile its tools. Per client:
    ``per_client`` requests in flight. None: no limit."""

    body_bytes: int | None = field(default=32 * 2**20, metadata={"help": "bytes of a request body"})
    messages: int | None = field(default=1000, metadata={"help": "messages in a request"})
    tools: int | None = field(default=512, metadata={"help": "tools in a request"})
    schema_bytes: int | None = field(default=256 * 2**10,
                                     metadata={"help": "bytes of one tool's parameters schema, as JSON"})
    schema_depth: int | None = field(default=64, metadata={"help": "nesting depth of one tool's parameters schema"})
    max_tokens: int | None = field(default=16384, metadata={"help": "max_tokens a request may ask for"})
    compile_seconds: float | None = field(default=30.0,
                                          metadata={"help": "seconds to check and compile a request's tools"})
    per_client: int | None = field(default=16, metadata={
        "help": "requests one client (its key, or address) has in flight"})


def check_limits(body: dict[str, Any], limits: Limits) -> None:
    """Raise :class:`ApiError` (400) naming the first limit a chat-completions ``body`` is past."""
    messages, tools = body.get("messages"), body.get("tools")
    if limits.messages is not None and isinstance(messages, list) and len(messages) > limits.messages:
        raise _past("messages", f"{len(messages)} messages", limits.messages, "messages")
    if isinstance(tools, list):
        if limits.tools is not None and len(tools) > limits.tools:
            raise _past("tools", f"{len(tools)} tools", limits.tools, "tools")
        for i, tool in enumerate(tools):
            _check_schema(f"tools[{i}]", tool, limits)
    asked = body.get("max_completion_tokens", body.get("max_tokens"))
    if limits.max_tokens is not None and isinstance(asked, int) and asked > limits.max_tokens:
        raise _past("max_tokens", f"{asked:,} tokens asked for", limits.max_tokens, "max-tokens")


def _check_schema(param: str, tool: Any, limits: Limits) -> None:
    function = tool.get("function") if isinstance(tool, dict) else None
    schema = function.get("parameters") if isinstance(function, dict) else None
    if schema is None:
        return
    name = function.get("name") if isinstance(function.get("name"), str) else "?"  # type: ignore[union-attr]
    where = f"{param} ({name}): parameters"
    if limits.schema_bytes is not None:
        size = len(json.dumps(schema, ensure_ascii=False).encode())
        if size > limits.schema_bytes:
            raise _past(param, f"{where} is {size:,} bytes of JSON", limits.schema_bytes, "schema-bytes")
    if limits.schema_depth is not None:
        depth = _depth(schema)
        if depth > limits.schema_depth:
            raise _past(param, f"{where} nests {depth} levels deep", limits.schema_depth, "schema-depth")


def _depth(value: Any) -> int:
    """How deep objects and lists nest in ``value`` (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _past(param: str, what: str, limit: int, flag: str) -> ApiError:
    return ApiError(400, f"{what}; this server takes at most {limit:,} (--limit-{flag})", param=param,
                    code="limit_exceeded")


def body_too_large(limit: int) -> ApiError:
    """413 for a body past ``limit`` bytes."""
    return ApiError(413, f"the body is larger than {limit:,} bytes (--limit-body-bytes)", code="body_too_large")


def compile_too_slow(seconds: float) -> ApiError:
    """400 for tools whose checking and compiling ran past ``seconds``."""
    return ApiError(400, f"checking and compiling this request's tools took longer than {seconds:g}s "
                         f"(--limit-compile-seconds)", param="tools", code="limit_exceeded")
