"""The ASGI app: ``POST /v1/chat/completions``, ``GET /v1/models``, ``GET /health``.

Errors are answered in OpenAI's shape (``{"error": {"message", "type", "param", "code"}}``):
400 for a bad body, 500 when the model gives no valid reply, 502 when llama-server fails,
503 (with Retry-After) while the model loads or the queue is full, 504 on an upstream timeout.
A stream starts only once the reply is valid, so an error is always a plain HTTP error.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gbnf.endpoint.chat import Reply, reply
from gbnf.endpoint.models import Model
from gbnf.endpoint.request import ApiError, ChatRequest, Shaping, parse_request
from gbnf.errors import ContextExceeded, GbnfError, Overloaded, ServerError, ServerLoading, ServerTimeout

log = logging.getLogger("gbnf.serve")


def create_app(model: Model, *, max_retries: int = 2, shaping: Shaping = Shaping()) -> Starlette:
    """The OpenAI-compatible app in front of ``model``: requests shaped by ``shaping``, invalid
    replies asked again up to ``max_retries`` times."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await model.start()
        yield
        await model.close()

    async def chat(request: Request) -> Response:
        parsed = parse_request(await _json_body(request), shaping)
        answer = await reply(parsed, model.complete, max_retries)
        ident, created = f"chatcmpl-{secrets.token_hex(12)}", int(time.time())
        if parsed.stream:
            events = ({"data": json.dumps(chunk)} for chunk in _chunks(parsed, answer, ident, created))
            return EventSourceResponse(_then_done(events), sep="\n", ping=15)
        return JSONResponse(_completion(parsed, answer, ident, created))

    async def models(request: Request) -> Response:
        name = await model.name()
        return JSONResponse({"object": "list", "data": [
            {"id": name, "object": "model", "created": int(time.time()), "owned_by": "gbnf"}]})

    async def health(request: Request) -> Response:
        status = await model.health()
        return JSONResponse({"status": status}, status_code=200 if status == "ok" else 503)

    routes = [Route("/v1/chat/completions", chat, methods=["POST"]), Route("/v1/models", models, methods=["GET"]),
              Route("/health", health, methods=["GET"])]
    handlers = {ApiError: _api_error, GbnfError: _gbnf_error, HTTPException: _http_error, Exception: _crash}
    return Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)  # type: ignore[arg-type]


async def _json_body(request: Request) -> Any:
    raw = await request.body()
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, f"the body is not JSON: {exc}") from None


def _completion(request: ChatRequest, answer: Reply, ident: str, created: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.content, "refusal": None}
    if answer.calls:
        message["tool_calls"] = answer.tool_calls()
    return {"id": ident, "object": "chat.completion", "created": created, "model": request.model,
            "choices": [{"index": 0, "message": message, "finish_reason": answer.finish_reason, "logprobs": None}],
            "usage": _usage(answer)}


def _chunks(request: ChatRequest, answer: Reply, ident: str, created: int) -> Iterator[dict[str, Any]]:
    """The reply as ``chat.completion.chunk`` objects: role, content pieces, each call's id and
    name then its arguments in pieces, the finish reason, and usage when asked for."""
    base = {"id": ident, "object": "chat.completion.chunk", "created": created, "model": request.model}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}

    yield chunk({"role": "assistant", "content": ""})
    for piece in _pieces(answer.content or ""):
        yield chunk({"content": piece})
    for i, call in enumerate(answer.tool_calls()):
        function = call["function"]
        yield chunk({"tool_calls": [{"index": i, "id": call["id"], "type": "function",
                                     "function": {"name": function["name"], "arguments": ""}}]})
        for piece in _pieces(function["arguments"]):
            yield chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
    yield chunk({}, answer.finish_reason)
    if request.include_usage:
        yield {**base, "choices": [], "usage": _usage(answer)}


def _then_done(events: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    yield from events
    yield {"data": "[DONE]"}


def _pieces(text: str) -> list[str]:
    """Text in word-sized pieces (each keeps the spaces before it)."""
    return re.findall(r"\s*\S+|\s+$", text)


def _usage(answer: Reply) -> dict[str, int]:
    return {"prompt_tokens": answer.prompt_tokens, "completion_tokens": answer.completion_tokens,
            "total_tokens": answer.prompt_tokens + answer.completion_tokens}


def _respond(error: ApiError) -> JSONResponse:
    headers = {"Retry-After": str(error.retry_after)} if error.retry_after is not None else None
    return JSONResponse(error.body(), status_code=error.status, headers=headers)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _respond(exc)


async def _gbnf_error(request: Request, exc: Exception) -> Response:
    """A model or upstream failure as the status a client can act on."""
    message = str(exc)
    if isinstance(exc, (ServerLoading, Overloaded)):
        error = ApiError(503, message, type="server_error", code="overloaded" if isinstance(exc, Overloaded)
                         else "model_loading", retry_after=1 if isinstance(exc, Overloaded) else 5)
    elif isinstance(exc, ServerTimeout):
        error = ApiError(504, message, type="server_error", code="upstream_timeout")
    elif isinstance(exc, ServerError):
        error = ApiError(502, message, type="server_error", code="upstream_error")
    elif isinstance(exc, ContextExceeded):
        error = ApiError(400, message, param="messages", code="context_length_exceeded")
    else:
        error = ApiError(500, message, type="server_error")
    return _respond(error)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _respond(ApiError(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}",
                             code="not_found" if exc.status_code == 404 else None))


async def _crash(request: Request, exc: Exception) -> Response:
    """A bug: logged here with its traceback, answered as one line."""
    log.exception("%s %s failed", request.method, request.url.path)
    return _respond(ApiError(500, f"internal error: {type(exc).__name__}: {exc}", type="server_error"))
