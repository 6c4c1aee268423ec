"""The ASGI app: ``POST /v1/chat/completions``, ``POST /v1/responses``, ``GET /v1/models``, ``GET /health``.

Errors are answered in OpenAI's shape (``{"error": {"message", "type", "param", "code"}}``):
400 for a bad body or one past a limit (413 past the body's), 401 without a known API key,
429 (with Retry-After) when a client has too many requests in flight, 422 when the model gives
no valid reply where a call or a schema is required (under ``tool_choice`` ``auto`` the reply
is then text), 502 when the upstream fails, 503 (with Retry-After) while the model loads, the
queue is full or no upstream can be reached, 504 on an upstream timeout.
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
import sys
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Protocol

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gbnf.compiler import key_path
from gbnf.endpoint._chat import Reply, pieces, reply
from gbnf.endpoint._guard import Guard, respond
from gbnf.endpoint._limits import Limits, body_too_large, check_limits, compile_too_slow
from gbnf.endpoint._models import Model
from gbnf.endpoint._request import ChatRequest, parse_request
from gbnf.endpoint._responses import ResponseRendering, chat_body, input_param
from gbnf.endpoint._served import ServedTools, plan_reply, served_planner
from gbnf.errors import (
    ApiError,
    ConnectionFailed,
    ContextExceeded,
    GbnfError,
    Overloaded,
    ServerError,
    ServerLoading,
    ServerRefused,
    ServerTimeout,
)
from gbnf.plan import Planner
from gbnf.shape import Shaping

log = logging.getLogger("gbnf.serve")


def create_app(model: Model, *, max_retries: int = 2, shaping: Shaping | None = None,
               changes: Mapping[str, Any] = MappingProxyType({}), served: ServedTools | None = None,
               limits: Limits = Limits(), keys: tuple[str, ...] = ()) -> Starlette:
    """The OpenAI-compatible app in front of ``model``: requests shaped by ``shaping`` (None:
    the profile for the model's size, :meth:`~gbnf.shape.Shaping.for_model`, chosen once the model
    has started, with ``changes`` to its fields) and held to ``limits``, invalid replies asked
    again up to ``max_retries`` times; every route but ``/health`` needs one of ``keys`` when there are any
    (:mod:`gbnf.endpoint._guard`); a request with no ``tools`` is planned with ``served`` when
    given (:mod:`gbnf.endpoint._served`)."""

    planner: Planner | None = None  # the one planner for requests without tools, made on the app's loop

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal planner, shaping
        await model.start()
        if shaping is None:
            parameters = await model.parameters()
            shaping = replace(Shaping.for_model(parameters), **changes)
            size = f"{parameters / 1e6:,.0f} M parameters" if parameters else "its size unknown"
            print(f"gbnf serve: profile {shaping.profile} for {await model.name()} ({size}); "
                  "--profile chooses another", file=sys.stderr, flush=True)
            await asyncio.to_thread(shaping.warm)  # before the first request: the encoder and the word data
        if served is not None:
            planner = served_planner(served, model, asyncio.get_running_loop(), shaping)
        yield
        await model.close()

    async def parsed_body(body: Any) -> ChatRequest:
        """``body`` checked against the limits, then parsed and compiled (in a worker thread:
        compiling may take a while), within the compile limit; when the parse names tools whose
        relevance the model is to read (:attr:`ChatRequest.scored`), parsed again with it."""
        if isinstance(body, dict):
            check_limits(body, limits)
        parsed = await compiled(body, None)
        if not parsed.scored:
            return parsed
        relevance = await model.relevance(list(parsed.scored), parsed.messages[-1]["content"])
        return parsed if relevance is None else await compiled(body, relevance)

    async def compiled(body: Any, relevance: list[float] | None) -> ChatRequest:
        """``body`` parsed and compiled in a worker thread, within the compile limit."""
        parsing = asyncio.to_thread(parse_request, body, shaping or "small", relevance)
        try:
            return await asyncio.wait_for(parsing, limits.compile_seconds)
        except TimeoutError:
            raise compile_too_slow(limits.compile_seconds or 0) from None

    async def chat(request: Request) -> Response:
        start = time.perf_counter()
        body = await _json_body(request, limits.body_bytes)
        parsed = await parsed_body(body)
        ident, created = f"chatcmpl-{secrets.token_hex(12)}", int(time.time())
        rendering = ChatRendering(parsed, ident, created)
        if planner is not None and not body.get("tools"):
            return await _planned(parsed, rendering, lambda answer: _completion(parsed, answer, ident, created))
        if parsed.stream:
            return await _stream(parsed, model, max_retries, rendering, ident)
        answer = await reply(parsed, model.complete, max_retries, ident=ident)
        return _timed(JSONResponse(_explained(parsed, _completion(parsed, answer, ident, created))), request, start,
                      answer)

    async def responses(request: Request) -> Response:
        start = time.perf_counter()
        body = await _json_body(request, limits.body_bytes)
        chat_request, origins = chat_body(body)
        try:
            parsed = await parsed_body(chat_request)
        except ApiError as exc:
            exc.param = input_param(exc.param, origins)
            raise
        rendering = ResponseRendering(body, chat_request)
        if planner is not None and not chat_request.get("tools"):
            return await _planned(parsed, rendering, rendering.response)
        if parsed.stream:
            return await _stream(parsed, model, max_retries, rendering, rendering.id)
        answer = await reply(parsed, model.complete, max_retries, ident=rendering.id)
        return _timed(JSONResponse(_explained(parsed, rendering.response(answer))), request, start, answer)

    async def _planned(parsed: ChatRequest, rendering: Rendering,
                       whole: Callable[[Reply], dict[str, Any]]) -> Response:
        """The reply of a request that sent no tools, planned with the server's own."""
        assert planner is not None
        answer = await plan_reply(planner, parsed.messages)
        if parsed.stream:
            return EventSourceResponse(_whole(rendering, answer), sep="\n", ping=15)
        return JSONResponse(whole(answer))

    async def models(request: Request) -> Response:
        name = await model.name()
        return JSONResponse({"object": "list", "data": [
            {"id": name, "object": "model", "created": int(time.time()), "owned_by": "gbnf"}]})

    async def health(request: Request) -> Response:
        status = await model.health()
        return JSONResponse({"status": status}, status_code=200 if status == "ok" else 503)

    routes = [Route("/v1/chat/completions", chat, methods=["POST"]),
              Route("/v1/responses", responses, methods=["POST"]),
              Route("/v1/models", models, methods=["GET"]), Route("/health", health, methods=["GET"])]
    handlers = {ApiError: _api_error, GbnfError: _gbnf_error, HTTPException: _http_error, Exception: _crash}
    guard = Middleware(Guard, keys=keys, per_client=limits.per_client)
    return Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan,  # type: ignore[arg-type]
                     middleware=[guard])


def _timed(response: Response, request: Request, start: float, answer: Reply) -> Response:
    """``response`` with a ``Server-Timing`` header (the model's milliseconds and gbnf's own:
    reading, shaping, compiling, checking and writing), also logged at INFO."""
    total = (time.perf_counter() - start) * 1000
    model, own = answer.model_seconds * 1000, total - answer.model_seconds * 1000
    response.headers["Server-Timing"] = f"model;dur={model:.1f}, gbnf;dur={own:.1f}"
    log.info("%s answered in %.1f ms: the model %.1f ms, gbnf %.1f ms", request.url.path, total, model, own)
    return response


async def _json_body(request: Request, limit: int | None) -> Any:
    """The request's JSON; 413 past ``limit`` bytes, 400 when it is not JSON or a string in it
    holds a lone surrogate (naming its key path)."""
    parts, size = [], 0
    async for part in request.stream():
        parts.append(part)
        size += len(part)
        if limit is not None and size > limit:
            raise body_too_large(limit)
    raw = b"".join(parts)
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ApiError(400, f"the body is not JSON: {str(exc)[:200]}") from None
    if _LONE_SURROGATE.search(raw) or json.detect_encoding(raw) not in ("utf-8", "utf-8-sig"):
        where = await asyncio.to_thread(_lone_surrogate, body)
        if where is not None:
            raise ApiError(400, f"{where or 'the body'}: a lone surrogate (a \\ud800 escape not in a pair) is no "
                           "character; text must be valid Unicode", param=where or None)
    return body


_LONE_SURROGATE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"
                             rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F]|\xed[\xa0-\xbf]")
"""What a UTF-8 body with a lone surrogate holds: a ``\\ud800`` escape not in a pair, or one
encoded in its bytes (an escaped backslash before ``u`` matches too: the body is then read)."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(body: Any) -> str | None:
    """The key path of the first string or key of ``body``, in the order written, that holds a
    lone surrogate (a key named in its path, the surrogate escaped); None when none does."""
    stack: list[tuple[str, str | None, Any]] = [("", None, body)]
    while stack:
        path, key, value = stack.pop()
        if key is not None and _SURROGATE.search(key) or isinstance(value, str) and _SURROGATE.search(value):
            return path
        if isinstance(value, dict):
            stack += reversed([(key_path(path, k.encode("utf-8", "backslashreplace").decode()), k, item)
                               for k, item in value.items()])
        elif isinstance(value, list):
            stack += reversed([(f"{path}[{i}]", None, item) for i, item in enumerate(value)])
    return None


def _explained(request: ChatRequest, reply: dict[str, Any]) -> dict[str, Any]:
    """``reply`` with the shaping stage's decisions (``shaping``) when the request asked to
    ``explain`` them."""
    if request.explain and request.shaped is not None:
        return {**reply, "shaping": request.shaped.decisions}
    return reply


def _completion(request: ChatRequest, answer: Reply, ident: str, created: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.content, "refusal": None}
    if answer.calls:
        message["tool_calls"] = answer.tool_calls()
    return {"id": ident, "object": "chat.completion", "created": created, "model": request.model,
            "choices": [{"index": 0, "message": message, "finish_reason": answer.finish_reason, "logprobs": None}],
            "usage": _usage(answer)}


class Rendering(Protocol):
    """A reply as server-sent events, in one API's shapes."""

    def start(self) -> list[dict[str, str]]: ...

    def text(self, piece: str) -> list[dict[str, str]]: ...

    def finish(self, answer: Reply, sent: str) -> list[dict[str, str]]: ...

    def error(self, exc: ApiError) -> list[dict[str, str]]: ...

    def done(self) -> list[dict[str, str]]: ...


async def _stream(request: ChatRequest, model: Model, max_retries: int, rendering: Rendering,
                  ident: str) -> Response:
    """The reply as server-sent events (``ident`` names it in the log). Text that needs no
    validation goes out as it is decoded; anything else once it is valid. Until the first
    piece, a failure is still a plain HTTP error."""
    queue: asyncio.Queue[str] = asyncio.Queue()
    task = asyncio.create_task(reply(request, model.complete, max_retries, queue.put_nowait, ident))
    first = asyncio.create_task(queue.get())
    await asyncio.wait({task, first}, return_when=asyncio.FIRST_COMPLETED)
    if not first.done():
        first.cancel()
        events = _whole(rendering, task.result())
    else:
        events = _live(rendering, task, queue, first.result())
    return EventSourceResponse(events, sep="\n", ping=15)


async def _whole(rendering: Rendering, answer: Reply) -> AsyncIterator[dict[str, str]]:
    """Events of a reply that is complete already."""
    for event in [*rendering.start(), *rendering.finish(answer, ""), *rendering.done()]:
        yield event


async def _live(rendering: Rendering, task: asyncio.Task[Reply], queue: asyncio.Queue[str],
                first: str) -> AsyncIterator[dict[str, str]]:
    """Events of a text reply while it is decoded, then the rest of the reply."""
    sent = first
    for event in [*rendering.start(), *rendering.text(first)]:
        yield event
    try:
        while not (task.done() and queue.empty()):
            piece = asyncio.create_task(queue.get())
            await asyncio.wait({task, piece}, return_when=asyncio.FIRST_COMPLETED)
            if not piece.done():
                piece.cancel()
                continue
            sent += piece.result()
            for event in rendering.text(piece.result()):
                yield event
        try:
            answer = task.result()
        except GbnfError as exc:
            for event in rendering.error(exc if isinstance(exc, ApiError) else _as_api_error(exc)):
                yield event
            return
        for event in [*rendering.finish(answer, sent), *rendering.done()]:
            yield event
    finally:
        task.cancel()


class ChatRendering:
    """A reply as ``chat.completion.chunk`` objects: role, content pieces, each call's id and
    name then its arguments in pieces, the finish reason, usage when asked for, ``[DONE]``."""

    def __init__(self, request: ChatRequest, ident: str, created: int) -> None:
        self.request, self.ident, self.created = request, ident, created

    def start(self) -> list[dict[str, str]]:
        return [self._chunk({"role": "assistant", "content": ""})]

    def text(self, piece: str) -> list[dict[str, str]]:
        return [self._chunk({"content": piece})]

    def finish(self, answer: Reply, sent: str) -> list[dict[str, str]]:
        events = [self._chunk({"content": piece}) for piece in pieces((answer.content or "")[len(sent):])]
        for i, call in enumerate(answer.tool_calls()):
            function = call["function"]
            events.append(self._chunk({"tool_calls": [{"index": i, "id": call["id"], "type": "function",
                                                       "function": {"name": function["name"], "arguments": ""}}]}))
            events += [self._chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
                       for piece in pieces(function["arguments"])]
        events.append(_data(_explained(self.request, self._body({}, answer.finish_reason))))
        if self.request.include_usage:
            events.append(_data({**self._body({}), "choices": [], "usage": _usage(answer)}))
        return events

    def error(self, exc: ApiError) -> list[dict[str, str]]:
        return [_data(exc.body())]

    def done(self) -> list[dict[str, str]]:
        return [{"data": "[DONE]"}]

    def _chunk(self, delta: dict[str, Any], finish: str | None = None) -> dict[str, str]:
        return _data(self._body(delta, finish))

    def _body(self, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": self.ident, "object": "chat.completion.chunk", "created": self.created,
                "model": self.request.model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]}


def _data(body: dict[str, Any]) -> dict[str, str]:
    """One SSE ``data`` event."""
    return {"data": json.dumps(body)}


def _usage(answer: Reply) -> dict[str, int]:
    return {"prompt_tokens": answer.prompt_tokens, "completion_tokens": answer.completion_tokens,
            "total_tokens": answer.prompt_tokens + answer.completion_tokens}


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return respond(exc)


async def _gbnf_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, GbnfError)
    return respond(_as_api_error(exc))


def _as_api_error(exc: GbnfError) -> ApiError:
    """A model or upstream failure as the status a client can act on."""
    message = str(exc)
    if isinstance(exc, (ServerLoading, Overloaded)):
        return ApiError(503, message, type="server_error", code="overloaded" if isinstance(exc, Overloaded)
                        else "model_loading", retry_after=1 if isinstance(exc, Overloaded) else 5)
    if isinstance(exc, ConnectionFailed):
        return ApiError(503, message, type="server_error", code="upstream_unavailable", retry_after=2)
    if isinstance(exc, ServerRefused):
        return ApiError(400, f"the model server refused the request: {message}", code="upstream_refused")
    if isinstance(exc, ServerTimeout):
        return ApiError(504, message, type="server_error", code="upstream_timeout")
    if isinstance(exc, ServerError):
        return ApiError(502, message, type="server_error", code="upstream_error")
    if isinstance(exc, ContextExceeded):
        return ApiError(400, message, param="messages", code="context_length_exceeded")
    return ApiError(500, message, type="server_error")


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return respond(ApiError(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}",
                             code="not_found" if exc.status_code == 404 else None))


async def _crash(request: Request, exc: Exception) -> Response:
    """A bug: logged here with its traceback, answered as one line."""
    log.exception("%s %s failed", request.method, request.url.path)
    return respond(ApiError(500, f"internal error: {type(exc).__name__}: {exc}", type="server_error"))
