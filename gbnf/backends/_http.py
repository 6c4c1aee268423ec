"""An OpenAI-compatible server over HTTP (httpx), sync and async, with clear errors and bounded
retries: llama-server, or (``upstream``) vLLM or SGLang, which take the grammar in their own
field and dialect.

The request never carries ``tools`` beside a grammar (llama-server answers 400 to both).
Connection failures (none made, or one dropped before the reply: a kept-alive connection the
server closed as it was reused) and 503 (model still loading) are retried with bounded backoff;
every other fault is a :class:`ServerError` naming the request, within the configured timeout.
"""

from __future__ import annotations

import asyncio
import json
import time
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

import httpx

from gbnf import _jsonread as jsonread
from gbnf.backends._base import (
    DRY_ALLOWED,
    DRY_BASE,
    DRY_BREAKERS,
    REPEAT_LAST_N,
    Completion,
    Message,
    Sampling,
    TextSink,
    ToolSpec,
)
from gbnf.backends._model import listed_parameters
from gbnf.compiler import DIALECTS, Dialect, translate
from gbnf.errors import (
    ConnectionFailed,
    GbnfError,
    GrammarError,
    ServerError,
    ServerLoading,
    ServerRefused,
    ServerTimeout,
)

Endpoint = Literal["chat", "completion"]
Upstream = Literal["llama-server", "vllm", "sglang"]
UPSTREAMS: tuple[Upstream, ...] = ("llama-server", "vllm", "sglang")
DEFAULT_DIALECT: dict[Upstream, Dialect | None] = {"llama-server": None, "vllm": "xgrammar", "sglang": "xgrammar"}
"""The grammar dialect each upstream takes by default: vLLM and SGLang their default backend,
XGrammar (``llguidance`` for a server run with the guidance/llguidance backend); llama-server
``llguidance`` when it was built with llguidance (asked once, before its first grammar:
:data:`ENGINE_PROBE`), else GBNF for its own engine."""
ENGINE_PROBE = {"prompt": "a", "n_predict": 1, "temperature": 0, "cache_prompt": False,
                "grammar": '%llguidance {}\nstart: "a"'}
"""A one-token completion that llama-server answers only when it was built with llguidance."""
DROPPED = (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)
"""A connection that closed before its reply was complete."""


@dataclass(frozen=True)
class _Retry:
    """The outcome of one attempt that should be tried again, with why; ``dropped``: its
    connection closed before the reply (:data:`DROPPED`)."""

    why: str
    error: type[ServerError] = ServerError
    dropped: bool = False


class _Waits:
    """How long one request waits before each try again: doubling delays, bounded in count
    (``retries``) and by the deadline; and, the first time a connection drops before its reply
    (a kept-alive connection the server closed as it was reused), no wait and no retry counted,
    so a server asked with no retries (a replica, which another may stand in for) is not taken
    for down."""

    def __init__(self, retries: int, backoff: float, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        self._delays = (min(backoff * 2 ** attempt, max(0.0, deadline - time.monotonic()))
                        for attempt in range(retries))
        self._dropped = False

    def before_next(self, outcome: _Retry) -> float:
        """Seconds to wait before trying again after ``outcome``; raises its error where no try is left."""
        if outcome.dropped and not self._dropped:
            self._dropped = True
            return 0.0
        delay = next(self._delays, 0.0)
        if delay <= 0:
            raise outcome.error(outcome.why)
        return delay


class _Base:
    def __init__(self, url: str, *, timeout: float = 120.0, retries: int = 4, backoff: float = 0.25,
                 endpoint: Endpoint = "chat", upstream: Upstream = "llama-server", dialect: Dialect | None = None,
                 transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None) -> None:
        """Speak to the server at ``url``: each request within ``timeout`` seconds, retried up to
        ``retries`` times with doubling delays from ``backoff`` seconds; llama-server's chat or
        completion ``endpoint``; ``upstream`` the server's kind (llama-server, vLLM, SGLang),
        which fixes how a grammar is sent and, unless ``dialect`` is given, in which dialect;
        ``transport`` an httpx transport to send through (sync or async, as the class is)."""
        if upstream not in UPSTREAMS:
            raise GbnfError(f"unknown upstream kind {upstream!r}: choose one of {', '.join(UPSTREAMS)}")
        if dialect is not None and dialect not in DIALECTS:
            raise GbnfError(f"unknown grammar dialect {dialect!r}: choose one of {', '.join(DIALECTS)}")
        if upstream != "llama-server" and endpoint != "chat":
            raise GbnfError(f"{upstream} is spoken to through its chat endpoint only")
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.endpoint = endpoint
        self.upstream = upstream
        self.dialect: Dialect | None = dialect or DEFAULT_DIALECT[upstream]
        self._open(transport)

    def _open(self, transport: Any) -> None:
        """Make the httpx client."""
        raise NotImplementedError

    def _waits(self) -> _Waits:
        """The waits of one request before each try again (:class:`_Waits`)."""
        return _Waits(self.retries, self.backoff, self.timeout)

    def _outcome(self, method: str, path: str, response: httpx.Response | Exception, grammar: str | None) -> Any:
        """Decode a reply into JSON, or return :class:`_Retry`, or raise :class:`ServerError`."""
        where = f"{method} {self.url}{path}"
        if isinstance(response, httpx.ConnectError):
            return _Retry(f"{where}: server unreachable ({response})", ConnectionFailed)
        if isinstance(response, httpx.TimeoutException):
            raise ServerTimeout(f"{where}: no reply within {self.timeout:g}s")
        if isinstance(response, DROPPED):  # a kept-alive connection closed under the request, or a server gone
            return _Retry(f"{where}: the connection dropped before the reply was complete ({response})",
                          ConnectionFailed, dropped=True)
        if isinstance(response, Exception):
            raise ServerError(f"{where}: {type(response).__name__}: {response}")
        if response.status_code == 503:
            return _Retry(f"{where}: 503, the server is still loading the model", ServerLoading)
        message = _server_message(response)
        if 400 <= response.status_code < 500:
            text = f"{where}: HTTP {response.status_code}: {message}"
            if grammar is not None and "grammar" in message.lower() and self.upstream != "llama-server":
                raise ServerError(f"{text} ({self._dialect_hint()})")
            if grammar is not None and "grammar" in message.lower():
                raise GrammarError(f"{text}\n(this grammar was refused by llama-server; please report it, with "
                                   f"the grammar attached: {len(grammar)} characters, .grammar on this error)", grammar)
            raise ServerRefused(text)
        if response.status_code >= 500:
            hint = "" if grammar is None or self.upstream == "llama-server" else f" ({self._dialect_hint()})"
            raise ServerError(f"{where}: HTTP {response.status_code} (server error): {message}{hint}")
        try:
            return response.json()
        except ValueError:
            raise ServerError(f"{where}: the reply is not JSON: {response.text[:200]!r}") from None

    def _llguidance_sent(self, body: dict[str, Any], grammar: str) -> bool:
        """Whether ``body`` took ``grammar`` to llama-server in llguidance's dialect (so a
        refusal is llguidance's, and llama.cpp's own engine may decide the grammar instead)."""
        return self.upstream == "llama-server" and body.get("grammar") not in (None, grammar)

    def _as_gbnf(self, body: dict[str, Any], grammar: str) -> dict[str, Any]:
        """``body`` with ``grammar`` in GBNF, for llama.cpp's own engine, after llguidance refused it."""
        warnings.warn("llguidance refused a grammar, so llama.cpp decides it (llama-server)", stacklevel=3)
        return {**body, "grammar": grammar}

    def _dialect_hint(self) -> str:
        """Why vLLM or SGLang may refuse a grammar (with a 400, or a 500 from its engine)."""
        return (f"{self.upstream} refuses a grammar its structured-outputs backend cannot read: does "
                f"--grammar-dialect {self.dialect} match the backend it was started with?")

    def _health(self, response: httpx.Response | Exception) -> Literal["ok", "loading"]:
        """What one look at ``/health`` says: "ok", "loading" (503), or a :class:`ServerError`. A
        look is not retried, but made once more on a new connection where the kept-alive one it
        reused was closed under it (:data:`DROPPED`: the server's keep-alive ran out between the
        pool's check and the request, as it does when the caller's event loop is held up)."""
        if isinstance(response, Exception):
            raise ServerError(f"GET {self.url}/health: {type(response).__name__}: {response}")
        if response.status_code == 503:
            return "loading"
        if response.status_code != 200:
            raise ServerError(f"GET {self.url}/health: HTTP {response.status_code}: {_server_message(response)}")
        return "ok"

    def _request(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                 tools: list[ToolSpec] | None) -> tuple[str, dict[str, Any]]:
        """The path and body of one completion; ``grammar`` (GBNF) goes in the upstream's field,
        in its dialect."""
        if grammar is not None and tools:
            raise ServerError("a request carries a grammar or tools, never both (llama-server answers 400)")
        common: dict[str, Any] = {"temperature": sampling.temperature, "seed": sampling.seed, "stream": False,
                                  "top_p": sampling.top_p}
        if sampling.stop:
            common["stop"] = list(sampling.stop)
        if self.upstream == "llama-server":
            common.update(cache_prompt=True, repeat_penalty=sampling.repeat_penalty, repeat_last_n=REPEAT_LAST_N)
            if sampling.dry:
                common.update(dry_multiplier=sampling.dry, dry_base=DRY_BASE, dry_allowed_length=DRY_ALLOWED,
                              dry_sequence_breakers=list(DRY_BREAKERS))
            if sampling.bias:
                common["logit_bias"] = [[text, weight] for text, weight in sampling.bias]
        else:  # vLLM and SGLang take a bias by token id, and have no DRY: neither is sent
            common["repetition_penalty"] = sampling.repeat_penalty
        if grammar is not None:
            common.update(self._grammar_field(grammar))
        if self.endpoint == "chat":
            body = {"messages": messages, "max_tokens": sampling.max_tokens, **common}
            return "/v1/chat/completions", {**body, "tools": tools} if tools else body
        if tools:
            raise ServerError("native tools need the chat endpoint")
        return "/completion", {"n_predict": sampling.max_tokens, **common}

    def _grammar_field(self, grammar: str) -> dict[str, Any]:
        """The body field that carries ``grammar``: llama-server ``grammar``, vLLM
        ``structured_outputs.grammar``, SGLang ``ebnf``. A grammar that is not written in
        llguidance's dialect (too deep, or not a grammar) goes to llama-server as GBNF, for its
        own engine to decide and report."""
        try:
            text = translate(grammar, self.dialect or "gbnf")
        except GbnfError:
            if self.upstream != "llama-server":
                raise
            text = grammar
        if self.upstream == "vllm":
            return {"structured_outputs": {"grammar": text}}
        return {"ebnf": text} if self.upstream == "sglang" else {"grammar": text}

    def _completion(self, data: Any, seconds: float) -> Completion:
        """Read a chat or completion reply; a reply without the expected fields is an error."""
        try:
            timings = data.get("timings", {})
            calls: tuple[dict[str, Any], ...] = ()
            if "choices" in data:
                choice = data["choices"][0]
                text = choice["message"].get("content") or ""
                truncated = choice.get("finish_reason") == "length"
                calls = tuple(_native_call(c) for c in choice["message"].get("tool_calls") or [])
                usage = data.get("usage", {})
                prompt, predicted = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
            else:
                text = data["content"]
                truncated = bool(data.get("truncated")) or data.get("stop_type") == "limit"
                prompt, predicted = data.get("tokens_evaluated", 0), data.get("tokens_predicted", 0)
        except (KeyError, IndexError, TypeError, AttributeError):
            raise ServerError(f"POST {self.url}: unexpected reply shape: {str(data)[:200]}") from None
        decode = timings.get("predicted_ms", 0.0) / 1000
        return Completion(text, truncated, prompt, predicted, seconds, decode, calls)


class ServerBackend(_Base):
    """A llama-server (or vLLM, SGLang: ``upstream``) over HTTP, synchronous."""

    def _open(self, transport: httpx.BaseTransport | None) -> None:
        self._client = httpx.Client(base_url=self.url, timeout=self.timeout, transport=transport)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, grammar: str | None = None) -> Any:
        """One JSON request with retries; returns the decoded reply."""
        waits = self._waits()
        while True:
            try:
                response: httpx.Response | Exception = self._client.request(method, path, json=body)
            except httpx.HTTPError as exc:
                response = exc
            outcome = self._outcome(method, path, response, grammar)
            if not isinstance(outcome, _Retry):
                return outcome
            time.sleep(waits.before_next(outcome))

    def wait_healthy(self) -> None:
        """Return once ``/health`` says ok (503 while loading is waited out, within the timeout)."""
        self.call("GET", "/health")

    def health(self) -> Literal["ok", "loading"]:
        """One look at ``/health`` (:meth:`_Base._health`)."""
        try:
            try:
                response = self._client.get("/health", timeout=min(self.timeout, 5.0))
            except DROPPED:
                response = self._client.get("/health", timeout=min(self.timeout, 5.0))
        except httpx.HTTPError as exc:
            return self._health(exc)
        return self._health(response)

    def props(self) -> dict[str, Any]:
        """The server's ``/props``: model, context size, chat template..."""
        return self.call("GET", "/props")

    def parameters(self) -> float | None:
        """The served model's parameters, from one look at ``/v1/models``
        (:func:`~gbnf.backends._model.listed_parameters`; None: not said, or no answer)."""
        try:
            return listed_parameters(self._client.get("/v1/models", timeout=min(self.timeout, 5.0)).json())
        except (httpx.HTTPError, ValueError):
            return None

    def engine(self) -> Dialect:
        """The dialect llama-server's grammars are written in: ``llguidance`` when it answers
        :data:`ENGINE_PROBE`, else ``gbnf`` (asked once)."""
        if self.dialect is None:
            try:
                self.call("POST", "/completion", ENGINE_PROBE)
                self.dialect = "llguidance"
            except (ConnectionFailed, ServerTimeout, ServerLoading):
                raise
            except ServerError:
                self.dialect = "gbnf"
        return self.dialect

    def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                 tools: list[ToolSpec] | None = None) -> Completion:
        start = time.perf_counter()
        if grammar is not None:
            self.engine()
        path, body = self._request(messages, grammar, sampling, tools)
        if self.endpoint == "completion":
            body["prompt"] = self.call("POST", "/apply-template", {"messages": messages})["prompt"]
        try:
            return self._completion(self.call("POST", path, body, grammar), time.perf_counter() - start)
        except (GrammarError, ServerRefused):
            if grammar is None or not self._llguidance_sent(body, grammar):
                raise
            return self._completion(self.call("POST", path, self._as_gbnf(body, grammar), grammar),
                                    time.perf_counter() - start)

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> ServerBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncServerBackend(_Base):
    """A llama-server (or vLLM, SGLang: ``upstream``) over HTTP, asynchronous."""

    def _open(self, transport: httpx.AsyncBaseTransport | None) -> None:
        self._client = httpx.AsyncClient(base_url=self.url, timeout=self.timeout, transport=transport)

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None,
                   grammar: str | None = None) -> Any:
        """One JSON request with retries; returns the decoded reply."""
        async def attempt() -> Any:
            try:
                response: httpx.Response | Exception = await self._client.request(method, path, json=body)
            except httpx.HTTPError as exc:
                response = exc
            return self._outcome(method, path, response, grammar)

        return await self._retrying(attempt)

    async def _retrying(self, attempt: Callable[[], Awaitable[Any]]) -> Any:
        """``attempt()`` until it gives something other than a :class:`_Retry`, with backoff."""
        waits = self._waits()
        while isinstance(outcome := await attempt(), _Retry):
            await asyncio.sleep(waits.before_next(outcome))
        return outcome

    async def wait_healthy(self) -> None:
        await self.call("GET", "/health")

    async def health(self) -> Literal["ok", "loading"]:
        """One look at ``/health`` (:meth:`_Base._health`)."""
        try:
            try:
                response = await self._client.get("/health", timeout=min(self.timeout, 5.0))
            except DROPPED:
                response = await self._client.get("/health", timeout=min(self.timeout, 5.0))
        except httpx.HTTPError as exc:
            return self._health(exc)
        return self._health(response)

    async def props(self) -> dict[str, Any]:
        return await self.call("GET", "/props")

    async def parameters(self) -> float | None:
        """The served model's parameters, from one look at ``/v1/models``
        (:func:`~gbnf.backends._model.listed_parameters`; None: not said, or no answer)."""
        try:
            return listed_parameters((await self._client.get("/v1/models", timeout=min(self.timeout, 5.0))).json())
        except (httpx.HTTPError, ValueError):
            return None

    async def acomplete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                        tools: list[ToolSpec] | None = None, on_text: TextSink | None = None) -> Completion:
        """One completion; with ``on_text`` (chat endpoint) it is streamed and each piece of
        content passed on as it arrives."""
        start = time.perf_counter()
        if grammar is not None:
            await self.engine()
        path, body = self._request(messages, grammar, sampling, tools)
        if self.endpoint == "completion":
            body["prompt"] = (await self.call("POST", "/apply-template", {"messages": messages}))["prompt"]
        try:
            return await self._sent(path, body, grammar, on_text, start)
        except (GrammarError, ServerRefused):
            if grammar is None or not self._llguidance_sent(body, grammar):
                raise
            return await self._sent(path, self._as_gbnf(body, grammar), grammar, on_text, start)

    async def _sent(self, path: str, body: dict[str, Any], grammar: str | None, on_text: TextSink | None,
                    start: float) -> Completion:
        """One completion request, streamed when ``on_text`` is given on the chat endpoint."""
        if on_text is not None and self.endpoint == "chat":
            return await self._streamed(path, body, grammar, on_text, start)
        return self._completion(await self.call("POST", path, body, grammar), time.perf_counter() - start)

    async def engine(self) -> Dialect:
        """The dialect llama-server's grammars are written in (:meth:`ServerBackend.engine`)."""
        if self.dialect is None:
            try:
                await self.call("POST", "/completion", ENGINE_PROBE)
                self.dialect = "llguidance"
            except (ConnectionFailed, ServerTimeout, ServerLoading):
                raise
            except ServerError:
                self.dialect = "gbnf"
        return self.dialect

    async def _streamed(self, path: str, body: dict[str, Any], grammar: str | None, on_text: TextSink,
                        start: float) -> Completion:
        """A streamed chat completion. Only what fails before any text (no connection, 503) is
        tried again, or raised as :class:`ConnectionFailed`, so no piece is ever passed on twice."""
        body = {**body, "stream": True, "stream_options": {"include_usage": True}}
        sent = False

        def passing(piece: str) -> None:
            nonlocal sent
            sent = True
            on_text(piece)

        async def attempt() -> Completion | _Retry:
            try:
                async with self._client.stream("POST", path, json=body) as response:
                    if response.status_code == 200:
                        return await self._read_stream(path, response, passing, start)
                    await response.aread()
                    outcome = self._outcome("POST", path, response, grammar)
            except httpx.HTTPError as exc:
                if sent:
                    raise ServerError(f"POST {self.url}{path}: the stream broke after part of the reply was passed "
                                      f"on ({type(exc).__name__}: {exc})") from None
                outcome = self._outcome("POST", path, exc, grammar)
            if not isinstance(outcome, _Retry):
                raise ServerError(f"POST {self.url}{path}: the reply is not a stream")
            return outcome

        return await self._retrying(attempt)

    async def _read_stream(self, path: str, response: httpx.Response, on_text: TextSink, start: float) -> Completion:
        pieces: list[str] = []
        finish, usage, timings = None, dict[str, Any](), dict[str, Any]()
        async for line in response.aiter_lines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            try:
                chunk = json.loads(data)
                if "error" in chunk:
                    raise ServerError(f"POST {self.url}{path}: the stream ended in an error: {chunk['error']}")
                for choice in chunk.get("choices") or []:
                    piece = (choice.get("delta") or {}).get("content")
                    if piece:
                        pieces.append(piece)
                        on_text(piece)
                    finish = choice.get("finish_reason") or finish
                usage, timings = chunk.get("usage") or usage, chunk.get("timings") or timings
            except (ValueError, AttributeError, TypeError):
                raise ServerError(f"POST {self.url}{path}: unexpected stream event: {data[:200]}") from None
        return Completion("".join(pieces), finish == "length", usage.get("prompt_tokens", 0),
                          usage.get("completion_tokens", 0), time.perf_counter() - start,
                          timings.get("predicted_ms", 0.0) / 1000)

    async def aclose(self) -> None:
        await self._client.aclose()

    async def __aenter__(self) -> AsyncServerBackend:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _native_call(call: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI ``tool_calls`` entry as ``{"name", "arguments"}`` (arguments decoded when JSON)."""
    function = call.get("function", call)
    arguments = function.get("arguments", {})
    try:
        arguments = jsonread.arguments(arguments)
    except json.JSONDecodeError:
        pass  # left as text: the validator reports it to the model
    return {"name": function.get("name"), "arguments": arguments}


def _server_message(response: httpx.Response) -> str:
    """The error text llama-server put in its reply (``{"error": {"message": ...}}``), or the body."""
    try:
        data = response.json()
    except ValueError:
        return response.text[:300] or response.reason_phrase
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict):
        return str(error.get("message", error))
    return str(error or data)[:300]
