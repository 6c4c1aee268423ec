"""What stands at ``gbnf serve``'s door, before any route: API keys, requests in flight per
client, and a client that hangs up.

Every route but ``/health`` needs one of the server's keys (when it has any) as a bearer token,
compared in constant time; a wrong or missing key is 401 in OpenAI's shape. A client (its key,
or its address when the server has no keys) has at most ``per_client`` requests in flight;
one more is 429 with Retry-After. A client that disconnects before its reply is complete
cancels the request's work: a queued request leaves the queue, a decode stops, an upstream
request is closed.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from starlette.responses import JSONResponse

from gbnf.errors import ApiError, GbnfError

log = logging.getLogger("gbnf.serve")
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]
OPEN = frozenset({"/health"})
"""The routes that need no key: a load balancer's health check carries none."""


def read_keys(given: list[str], env: str | None, file: Path | None) -> tuple[str, ...]:
    """The API keys: those ``given``, the environment's (``env``), and ``file``'s, one per line
    (blank lines and ``#`` comments skipped); :class:`GbnfError` naming the file it cannot read."""
    keys = [*given, *([env] if env else [])]
    if file is not None:
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise GbnfError(f"--api-key-file {file}: {getattr(exc, 'strerror', None) or exc}") from None
        keys += [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
        if not keys:
            raise GbnfError(f"--api-key-file {file}: no key in the file")
    for key in keys:
        if not key.strip() or any(c.isspace() for c in key.strip()):
            raise GbnfError("an API key must be one word without spaces")
    return tuple(dict.fromkeys(key.strip() for key in keys))


def respond(error: ApiError) -> JSONResponse:
    """``error`` as its HTTP reply, with Retry-After when it has one."""
    headers = {"Retry-After": str(error.retry_after)} if error.retry_after is not None else None
    return JSONResponse(error.body(), status_code=error.status, headers=headers)


class Guard:
    """ASGI middleware in front of ``app``: ``keys`` (none: open), ``per_client`` requests in
    flight (None: no limit), and work cancelled when its client disconnects."""

    def __init__(self, app: Asgi, *, keys: tuple[str, ...] = (), per_client: int | None = None) -> None:
        self.app = app
        self._digests = tuple(_digest(key) for key in keys)
        self.per_client = per_client
        self._in_flight: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in OPEN:
            await self.app(scope, receive, send)
            return
        token = _bearer(scope)
        if self._digests and not self._known(token):
            why = "no API key was given (Authorization: Bearer KEY)" if token is None else "the API key is not known"
            await respond(ApiError(401, f"{why}; gbnf serve was started with --api-key",
                                   code="invalid_api_key"))(scope, receive, send)
            return
        client = f"key:{_digest(token or '').hex()}" if self._digests else f"address:{_address(scope)}"
        if self.per_client is not None and self._in_flight[client] >= self.per_client:
            await respond(ApiError(429, f"this client already has {self._in_flight[client]} requests in flight "
                                        f"(--limit-per-client {self.per_client})", type="requests",
                                   code="rate_limit_exceeded", retry_after=1))(scope, receive, send)
            return
        self._in_flight[client] += 1
        try:
            await _until_gone(self.app, scope, receive, send)
        finally:
            self._in_flight[client] -= 1
            if not self._in_flight[client]:
                del self._in_flight[client]

    def _known(self, token: str | None) -> bool:
        """Whether ``token`` is one of the keys, compared in constant time (digests of equal length)."""
        if token is None:
            return False
        digest = _digest(token)
        return any([hmac.compare_digest(digest, known) for known in self._digests])


async def _until_gone(app: Asgi, scope: Scope, receive: Receive, send: Send) -> None:
    """Run ``app``; cancel it when the client disconnects once its body is read and before its
    reply is complete."""
    read, sent = asyncio.Event(), asyncio.Event()

    async def receiving() -> Message:
        message = await receive()
        if message["type"] == "http.disconnect" or not message.get("more_body"):
            read.set()
        return message

    async def sending(message: Message) -> None:
        await send(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            sent.set()

    async def gone() -> None:
        await read.wait()
        if (await receive())["type"] != "http.disconnect":  # not a hang-up: watch no more
            await asyncio.Event().wait()

    work: asyncio.Future[None] = asyncio.ensure_future(app(scope, receiving, sending))
    watch = asyncio.create_task(gone())
    try:
        await asyncio.wait({work, watch}, return_when=asyncio.FIRST_COMPLETED)
        if not work.done() and not sent.is_set():
            work.cancel()
            log.info("%s %s: the client disconnected; its work is cancelled", scope["method"], scope["path"])
            await asyncio.wait({work})
            return
        await work
    finally:
        watch.cancel()
        work.cancel()


def _bearer(scope: Scope) -> str | None:
    """The token of the request's ``Authorization: Bearer`` header, if any."""
    for name, value in scope.get("headers") or ():
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            return token.strip() if scheme.lower() == "bearer" else None
    return None


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
