"""What ``gbnf serve`` sends requests to: the in-process model, or one or more llama-servers.

The in-process model loads before the server accepts requests, runs one completion at a
time in a worker thread, and holds a bounded queue: past it, 503 with Retry-After. A request
cancelled while it waits leaves the queue; one cancelled while it decodes stops at its next
token.

llama-servers take requests concurrently (each has its slots); with several, each request
goes to the healthy one with the fewest requests in flight. A request whose connection fails
before any of its reply was passed on (a server killed or restarting, a kept-alive connection
it closed) is asked once more, on another replica when there is one. A replica whose request
failed so, or whose ``/health`` fails or says it is loading, is left out of the pick until its
``/health`` says ok again (looked at every second).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Literal, Protocol

from gbnf.backends import (
    AsyncServerBackend,
    Completion,
    GrammarEngine,
    LlamaCppBackend,
    Message,
    Sampling,
    TextSink,
    Upstream,
    resolve_model,
)
from gbnf.compiler import Dialect
from gbnf.errors import Cancelled, ConnectionFailed, Overloaded, ServerError, ServerLoading
from gbnf.shape import ModelRelevance
from gbnf.tools import Tool

log = logging.getLogger("gbnf.serve")
Health = Literal["ok", "loading"]


class Model(Protocol):
    """A model behind ``gbnf serve``."""

    async def start(self) -> None: ...

    async def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                       on_text: TextSink | None = None) -> Completion:
        """One completion; ``on_text`` (called on the event loop) gets the text as it is decoded."""

    async def relevance(self, tools: list[Tool], query: str) -> list[float] | None:
        """The model's relevance of each of ``tools`` to ``query`` (:class:`~gbnf.shape.ModelRelevance`);
        None when the model cannot score text."""

    async def health(self) -> Health: ...

    async def name(self) -> str: ...

    async def parameters(self) -> float | None:
        """The model's parameters (None: not known)."""

    async def close(self) -> None: ...


class LocalModel:
    """A GGUF model in this process (the embedded default when no path is given).

    It loads in :meth:`start`, before the server accepts requests: llama-cpp-python silences
    the process's stdout and stderr while it loads, so nothing else may run meanwhile.
    """

    def __init__(self, path: str | Path | None = None, *, queue: int = 16, n_ctx: int = 8192,
                 engine: GrammarEngine = "llguidance", n_gpu_layers: int = 0) -> None:
        self.path = resolve_model(path)
        self.queue = queue
        self.n_ctx = n_ctx
        self.engine = engine
        self.n_gpu_layers = n_gpu_layers
        self._backend: LlamaCppBackend | None = None
        self._in_flight = 0
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        if self._backend is None:
            self._backend = LlamaCppBackend(self.path, n_ctx=self.n_ctx, grammar_engine=self.engine,
                                            n_gpu_layers=self.n_gpu_layers)

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[LlamaCppBackend]:
        """The model, once the requests before this one are done with it; refused while it is
        not loaded or when the queue is full."""
        if self._backend is None:
            raise ServerLoading(f"{self.path.name} is not loaded")
        if self._in_flight > self.queue:
            raise Overloaded(f"{self._in_flight} requests already wait for the model (queue of {self.queue})")
        self._in_flight += 1
        try:
            async with self._lock:
                yield self._backend
        finally:
            self._in_flight -= 1

    async def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                       on_text: TextSink | None = None) -> Completion:
        async with self._turn() as backend:
            loop, stop = asyncio.get_running_loop(), threading.Event()

            def sink(piece: str) -> None:  # called by the decode at each token; stops it when cancelled
                if stop.is_set():
                    raise Cancelled("the request was cancelled")
                if on_text is not None:
                    loop.call_soon_threadsafe(on_text, piece)

            work = asyncio.ensure_future(asyncio.to_thread(backend.complete, messages, grammar, sampling, None, sink))
            try:
                return await asyncio.shield(work)
            except asyncio.CancelledError:
                stop.set()
                with contextlib.suppress(BaseException):
                    await work  # the model is free again before the next request takes the lock
                raise

    async def relevance(self, tools: list[Tool], query: str) -> list[float] | None:
        """Read in turn with the completions, as one of them."""
        async with self._turn() as backend:
            return await asyncio.to_thread(ModelRelevance(backend.loglik), tools, query)

    async def health(self) -> Health:
        return "loading" if self._backend is None else "ok"

    async def name(self) -> str:
        return self.path.stem

    async def parameters(self) -> float | None:
        return self._backend.parameters() if self._backend is not None else None

    async def close(self) -> None:
        async with self._lock:
            if self._backend is not None:
                self._backend.close()
                self._backend = None


class RemoteModels:
    """One or more upstream servers (llama-server, or vLLM, SGLang: ``upstream``); each request
    goes to the least busy healthy one (of those equally busy, the next in turn after the last
    picked: requests that arrive one at a time, each after the last has finished, still spread),
    and is asked once more when its connection fails. Each replica's ``/health`` is looked at
    every ``health_every`` seconds."""

    def __init__(self, urls: list[str], *, timeout: float = 120.0, upstream: Upstream = "llama-server",
                 dialect: Dialect | None = None, health_every: float = 1.0) -> None:
        if not urls:
            raise ServerError("no upstream server URL given")
        retries = 4 if len(urls) == 1 else 0  # with replicas, a failed one is left for another at once
        self.upstreams = [AsyncServerBackend(url, timeout=timeout, upstream=upstream, dialect=dialect,
                                             retries=retries) for url in urls]
        self.health_every = health_every
        self._busy = [0] * len(urls)
        self._turn = 0
        self._down: set[int] = set()
        self._watch: asyncio.Task[None] | None = None
        self._name: str | None = None

    async def start(self) -> None:
        if self._watch is None:
            self._watch = asyncio.create_task(self._watching())

    async def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                       on_text: TextSink | None = None) -> Completion:
        tried: list[int] = []
        while True:
            i = self._pick(tried)
            self._busy[i] += 1
            try:
                return await self.upstreams[i].acomplete(messages, grammar, sampling, on_text=on_text)
            except (ConnectionFailed, ServerLoading) as exc:
                self._down.add(i)
                if tried:
                    raise
                log.warning("%s; asked once more", exc)
                tried.append(i)
            finally:
                self._busy[i] -= 1

    async def relevance(self, tools: list[Tool], query: str) -> list[float] | None:
        """None: an upstream server's likelihoods are not read."""
        return None

    def _pick(self, tried: list[int]) -> int:
        """The least busy replica, among the healthy ones not yet tried, else those not tried, else
        all; of those equally busy, the first in turn from the one after the last picked."""
        every = range(len(self.upstreams))
        for pool in ([i for i in every if i not in tried and i not in self._down],
                     [i for i in every if i not in tried], list(every)):
            if pool:
                picked = min(pool, key=lambda i: (self._busy[i], (i - self._turn) % len(self.upstreams)))
                self._turn = picked + 1
                return picked
        raise AssertionError("no upstream")  # unreachable: there is at least one

    async def _watching(self) -> None:
        """Every ``health_every`` seconds, each replica's ``/health``: one that fails it or is
        loading is left out of the pick, one that says ok is put back."""
        while True:
            await asyncio.sleep(self.health_every)
            looks = await asyncio.gather(*(u.health() for u in self.upstreams), return_exceptions=True)
            for i, look in enumerate(looks):
                if look == "ok" and i in self._down:
                    self._down.discard(i)
                    log.warning("%s is healthy again", self.upstreams[i].url)
                elif look != "ok" and i not in self._down:
                    self._down.add(i)
                    log.warning("%s is left out until healthy: %s", self.upstreams[i].url, look)

    async def health(self) -> Health:
        """"ok" when any upstream is, "loading" when none is but one loads; else the first error."""
        results = await asyncio.gather(*(u.health() for u in self.upstreams), return_exceptions=True)
        for wanted in ("ok", "loading"):
            if wanted in results:
                return wanted  # type: ignore[return-value]
        raise next(r for r in results if isinstance(r, BaseException))

    async def name(self) -> str:
        """The first upstream's model: llama-server's model file name, vLLM's or SGLang's first
        served model (the upstream kind when it does not say)."""
        upstream = self.upstreams[0]
        if self._name is None:
            try:
                if upstream.upstream == "llama-server":
                    self._name = Path(str((await upstream.props()).get("model_path") or "llama-server")).stem
                else:
                    self._name = str((await upstream.call("GET", "/v1/models"))["data"][0]["id"])
            except (ServerError, KeyError, IndexError, TypeError):
                return upstream.upstream
        return self._name

    async def parameters(self) -> float | None:
        """The first upstream's model's parameters (:meth:`~gbnf.backends.AsyncServerBackend.parameters`)."""
        return await self.upstreams[0].parameters()

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        await asyncio.gather(*(u.aclose() for u in self.upstreams))
