"""The ASGI app: ``POST /v1/chat/completions``, ``GET /v1/models``, ``GET /health``.

Errors are answered in OpenAI's shape (``{"error": {"message", "type", "param", "code"}}``):
400 for a bad body, 500 when the model gives no valid reply, 502 when llama-server fails,
503 (with Retry-After) while the model loads or the queue is full, 504 on an upstream timeout.
A stream carries text that needs no validation as it is decoded; anything else (calls,
structured replies) only once valid. Until its first piece, an error is a plain HTTP error.
"""

from __future__ import annotations

import asyncio
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
from gbnf.endpoint.request import ChatRequest, Shaping, parse_request
from gbnf.errors import ApiError, ContextExceeded, GbnfError, Overloaded, ServerError, ServerLoading, ServerTimeout

log = logging.getLogger("gbnf.serve")
MAX_BODY = 32 * 2**20
"""The largest request body accepted, in bytes."""


def create_app(model: Model, *, max_retries: int = 2, shaping: Shaping = Shaping()) -> Starlette:
    """The OpenAI-compatible app in front of ``model``: requests shaped by ``shaping``, invalid
    replies asked again up to ``max_retries`` times."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await model.start()
        yield
        await model.close()

    async def chat(request: Request) -> Response:
        body = await _json_body(request)
        parsed = await asyncio.to_thread(parse_request, body, shaping)  # compiling may take a while
        ident, created = f"chatcmpl-{secrets.token_hex(12)}", int(time.time())
        if parsed.stream:
            return await _stream(parsed, model, max_retries, ident, created)
        answer = await reply(parsed, model.complete, max_retries)
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
    """The request's JSON; 413 past ``MAX_BODY`` bytes, 400 when it is not JSON."""
    parts, size = [], 0
    async for part in request.stream():
        parts.append(part)
        size += len(part)
        if size > MAX_BODY:
            raise ApiError(413, f"the body is larger than {MAX_BODY // 2**20} MiB", code="body_too_large")
    try:
        return json.loads(b"".join(parts))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ApiError(400, f"the body is not JSON: {str(exc)[:200]}") from None


def _completion(request: ChatRequest, answer: Reply, ident: str, created: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.content, "refusal": None}
    if answer.calls:
        message["tool_calls"] = answer.tool_calls()
    return {"id": ident, "object": "chat.completion", "created": created, "model": request.model,
            "choices": [{"index": 0, "message": message, "finish_reason": answer.finish_reason, "logprobs": None}],
            "usage": _usage(answer)}


async def _stream(request: ChatRequest, model: Model, max_retries: int, ident: str, created: int) -> Response:
    """The reply as server-sent events. Text that needs no validation goes out as it is decoded;
    anything else once it is valid. Until the first piece, a failure is still a plain HTTP error."""
    queue: asyncio.Queue[str] = asyncio.Queue()
    task = asyncio.create_task(reply(request, model.complete, max_retries, queue.put_nowait))
    first = asyncio.create_task(queue.get())
    await asyncio.wait({task, first}, return_when=asyncio.FIRST_COMPLETED)
    if not first.done():
        first.cancel()
        events = _chunks(request, task.result(), ident, created)
    else:
        events = _live(request, task, queue, first.result(), ident, created)
    return EventSourceResponse(_data(events), sep="\n", ping=15)


async def _live(request: ChatRequest, task: asyncio.Task[Reply], queue: asyncio.Queue[str], first: str,
                ident: str, created: int) -> AsyncIterator[dict[str, Any]]:
    """Chunks of a text reply while it is decoded, then the rest of the reply."""
    sent = first
    yield _chunk(request, ident, created, {"role": "assistant", "content": ""})
    yield _chunk(request, ident, created, {"content": first})
    try:
        while not (task.done() and queue.empty()):
            piece = asyncio.create_task(queue.get())
            await asyncio.wait({task, piece}, return_when=asyncio.FIRST_COMPLETED)
            if not piece.done():
                piece.cancel()
                continue
            sent += piece.result()
            yield _chunk(request, ident, created, {"content": piece.result()})
        try:
            answer = task.result()
        except ApiError as exc:
            yield exc.body()
            return
        except GbnfError as exc:
            yield _as_api_error(exc).body()
            return
        for chunk in _chunks(request, answer, ident, created, sent):
            yield chunk
    finally:
        task.cancel()


def _chunk(request: ChatRequest, ident: str, created: int, delta: dict[str, Any],
           finish: str | None = None) -> dict[str, Any]:
    return {"id": ident, "object": "chat.completion.chunk", "created": created, "model": request.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}


def _chunks(request: ChatRequest, answer: Reply, ident: str, created: int,
            sent: str | None = None) -> Iterator[dict[str, Any]]:
    """The reply as ``chat.completion.chunk`` objects: role, content pieces, each call's id and
    name then its arguments in pieces, the finish reason, and usage when asked for. With
    ``sent``, the role and that much content already went out."""
    if sent is None:
        yield _chunk(request, ident, created, {"role": "assistant", "content": ""})
    for piece in _pieces((answer.content or "")[len(sent or ""):]):
        yield _chunk(request, ident, created, {"content": piece})
    for i, call in enumerate(answer.tool_calls()):
        function = call["function"]
        yield _chunk(request, ident, created, {"tool_calls": [{"index": i, "id": call["id"], "type": "function",
                                                               "function": {"name": function["name"], "arguments": ""}}]})
        for piece in _pieces(function["arguments"]):
            yield _chunk(request, ident, created, {"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
    yield _chunk(request, ident, created, {}, answer.finish_reason)
    if request.include_usage:
        yield {**_chunk(request, ident, created, {}), "choices": [], "usage": _usage(answer)}


async def _data(chunks: Iterator[dict[str, Any]] | AsyncIterator[dict[str, Any]]) -> AsyncIterator[dict[str, str]]:
    """Chunks as SSE ``data`` events, then ``[DONE]``."""
    if isinstance(chunks, Iterator):
        for chunk in chunks:
            yield {"data": json.dumps(chunk)}
    else:
        async for chunk in chunks:
            yield {"data": json.dumps(chunk)}
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
    assert isinstance(exc, GbnfError)
    return _respond(_as_api_error(exc))


def _as_api_error(exc: GbnfError) -> ApiError:
    """A model or upstream failure as the status a client can act on."""
    message = str(exc)
    if isinstance(exc, (ServerLoading, Overloaded)):
        return ApiError(503, message, type="server_error", code="overloaded" if isinstance(exc, Overloaded)
                        else "model_loading", retry_after=1 if isinstance(exc, Overloaded) else 5)
    if isinstance(exc, ServerTimeout):
        return ApiError(504, message, type="server_error", code="upstream_timeout")
    if isinstance(exc, ServerError):
        return ApiError(502, message, type="server_error", code="upstream_error")
    if isinstance(exc, ContextExceeded):
        return ApiError(400, message, param="messages", code="context_length_exceeded")
    return ApiError(500, message, type="server_error")


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _respond(ApiError(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}",
                             code="not_found" if exc.status_code == 404 else None))


async def _crash(request: Request, exc: Exception) -> Response:
    """A bug: logged here with its traceback, answered as one line."""
    log.exception("%s %s failed", request.method, request.url.path)
    return _respond(ApiError(500, f"internal error: {type(exc).__name__}: {exc}", type="server_error"))
