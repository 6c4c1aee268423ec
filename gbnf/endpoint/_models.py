"""What ``gbnf serve`` sends requests to: the in-process model, or one or more llama-servers.

The in-process model loads before the server accepts requests, runs one completion at a
time in a worker thread, and holds a bounded queue: past it, 503 with Retry-After.
llama-servers take requests concurrently (each has its slots); with several, each request
goes to the one with the fewest requests in flight.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal, Protocol

from gbnf.backends._base import Completion, Message, Sampling, TextSink
from gbnf.backends._http import AsyncServerBackend, Upstream
from gbnf.backends._inprocess import GrammarEngine, LlamaCppBackend
from gbnf.backends._model import resolve_model
from gbnf.compiler._dialects import Dialect
from gbnf.errors import Overloaded, ServerError, ServerLoading

Health = Literal["ok", "loading"]


class Model(Protocol):
    """A model behind ``gbnf serve``."""

    async def start(self) -> None: ...

    async def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                       on_text: TextSink | None = None) -> Completion:
        """One completion; ``on_text`` (called on the event loop) gets the text as it is decoded."""

    async def health(self) -> Health: ...

    async def name(self) -> str: ...

    async def close(self) -> None: ...


class LocalModel:
    """A GGUF model in this process (the embedded default when no path is given).

    It loads in :meth:`start`, before the server accepts requests: llama-cpp-python silences
    the process's stdout and stderr while it loads, so nothing else may run meanwhile.
    """

    def __init__(self, path: str | Path | None = None, *, queue: int = 16, n_ctx: int = 8192,
                 engine: GrammarEngine = "llguidance") -> None:
        self.path = resolve_model(path)
        self.queue = queue
        self.n_ctx = n_ctx
        self.engine = engine
        self._backend: LlamaCppBackend | None = None
        self._in_flight = 0
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        if self._backend is None:
            self._backend = LlamaCppBackend(self.path, n_ctx=self.n_ctx, grammar_engine=self.engine)

    async def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                       on_text: TextSink | None = None) -> Completion:
        if self._backend is None:
            raise ServerLoading(f"{self.path.name} is not loaded")
        if self._in_flight > self.queue:
            raise Overloaded(f"{self._in_flight} requests already wait for the model (queue of {self.queue})")
        self._in_flight += 1
        try:
            async with self._lock:
                loop = asyncio.get_running_loop()
                sink: TextSink | None = None
                if on_text is not None:
                    def sink(piece: str) -> None:
                        loop.call_soon_threadsafe(on_text, piece)
                return await asyncio.to_thread(self._backend.complete, messages, grammar, sampling, None, sink)
        finally:
            self._in_flight -= 1

    async def health(self) -> Health:
        return "loading" if self._backend is None else "ok"

    async def name(self) -> str:
        return self.path.stem

    async def close(self) -> None:
        async with self._lock:
            if self._backend is not None:
                self._backend.close()
                self._backend = None


class RemoteModels:
    """One or more upstream servers (llama-server, or vLLM, SGLang: ``upstream``); each request
    goes to the least busy."""

    def __init__(self, urls: list[str], *, timeout: float = 120.0, upstream: Upstream = "llama-server",
                 dialect: Dialect | None = None) -> None:
        if not urls:
            raise ServerError("no upstream server URL given")
        self.upstreams = [AsyncServerBackend(url, timeout=timeout, upstream=upstream, dialect=dialect)
                          for url in urls]
        self._busy = [0] * len(urls)
        self._name: str | None = None

    async def start(self) -> None:
        pass

    async def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                       on_text: TextSink | None = None) -> Completion:
        i = min(range(len(self.upstreams)), key=self._busy.__getitem__)
        self._busy[i] += 1
        try:
            return await self.upstreams[i].acomplete(messages, grammar, sampling, on_text=on_text)
        finally:
            self._busy[i] -= 1

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

    async def close(self) -> None:
        await asyncio.gather(*(u.aclose() for u in self.upstreams))
