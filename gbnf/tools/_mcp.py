"""Live MCP servers as tools: connect over stdio or Streamable HTTP with the official ``mcp``
SDK, list their tools (every page), and run the model's calls through ``tools/call``.

    with McpTools([stdio_server("python notes_server.py")]) as mcp:
        planner = Planner(mcp.tools, backend, mcp.executors)

Each server lives in one task of a background event loop, so the planner stays synchronous. A
server that cannot start, dies, hangs or answers garbage never hangs a plan: every request has
a timeout, and its failure is an :class:`McpError` naming the server (a call's failure goes back
to the model as a tool error, and is kept in ``failures``). A tool whose name or schema cannot
be used is skipped with a warning naming it; two servers' tools of one name get the servers'
names as prefix.
"""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from gbnf.compiler import compile_pool
from gbnf.errors import GbnfError, ManifestError, McpError, ToolError
from gbnf.tools._imports import import_each
from gbnf.tools._tool import Tool

MAX_PAGES = 100
"""The most ``tools/list`` pages read from one server (a paginator that never ends cannot hang)."""
STOP_SECONDS = 10.0
"""How long a server has to stop: the SDK closes its stdin, then terminates and kills it (about
6.5 s at most); only past this is its task cancelled."""


@dataclass(frozen=True)
class McpServer:
    """One MCP server: a ``command`` to run (stdio) or a ``url`` (Streamable HTTP)."""

    name: str
    command: tuple[str, ...] = ()
    env: dict[str, str] | None = field(default=None, hash=False)
    url: str | None = None


def stdio_server(command: str, name: str | None = None) -> McpServer:
    """A server started as ``command`` (split as a shell would), named after its script."""
    parts = tuple(shlex.split(command))
    if not parts:
        raise McpError("an MCP server command is empty")
    script = next((Path(p).stem for p in reversed(parts) if p.endswith((".py", ".js", ".ts"))), Path(parts[0]).name)
    return McpServer(name or _safe(script), command=parts)


def http_server(url: str, name: str | None = None) -> McpServer:
    """A server at a Streamable HTTP ``url``, named after its host and port."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise McpError(f"{url}: not an http(s) URL of an MCP server")
    return McpServer(name or _safe(parts.netloc), url=url)


def read_config(path: str | Path) -> list[McpServer]:
    """The servers of an ``mcp.json`` as LM Studio and Cursor write it:
    ``{"mcpServers": {name: {"command", "args", "env"} | {"url"}}}``."""
    where = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ManifestError(where, "", f"cannot read an MCP config: {exc}") from None
    entries = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        raise ManifestError(where, "mcpServers", "missing: expected {\"mcpServers\": {name: {...}}}")
    servers = []
    for name, entry in entries.items():
        key = f"mcpServers.{name}"
        if not isinstance(entry, dict):
            raise ManifestError(where, key, "must be an object with command (and args, env) or url")
        if isinstance(entry.get("url"), str):
            servers.append(replace(http_server(entry["url"]), name=_safe(name)))
            continue
        command, args, env = entry.get("command"), entry.get("args", []), entry.get("env")
        if not isinstance(command, str) or not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise ManifestError(where, key, "needs a command (a string) and args (a list of strings), or a url")
        if env is not None and not (isinstance(env, dict) and all(isinstance(v, str) for v in env.values())):
            raise ManifestError(where, f"{key}.env", "must map names to strings")
        servers.append(McpServer(_safe(name), command=(command, *args), env=env))
    return servers


class McpTools:
    """Live MCP servers as :class:`Tool` s and their executors; a context manager that connects
    on entry and stops every server on exit. ``timeout`` bounds each request in seconds."""

    def __init__(self, servers: list[McpServer], *, timeout: float = 30.0) -> None:
        self.servers = servers
        self.timeout = timeout
        self.tools: list[Tool] = []
        self.executors: dict[str, Callable[..., Any]] = {}
        self.warnings: list[str] = []
        self.failures: list[str] = []
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="gbnf-mcp", daemon=True)
        self._sessions: dict[str, _Session] = {}

    def __enter__(self) -> McpTools:
        self._thread.start()
        listed: list[tuple[McpServer, list[Tool]]] = []
        sessions = [_Session(server, self.timeout) for server in self.servers]
        starting = [session.start(self._loop) for session in sessions]  # all at once
        for server, session, started in zip(self.servers, sessions, starting):
            try:
                tools = self._wait(started, server, "start", self.timeout * 2)
            except McpError as exc:
                self.warnings.append(str(exc))
                self._stop(session)
                continue
            self._sessions[server.name] = session
            listed.append((server, self._usable(server, tools)))
        counts: dict[str, int] = {}
        for _, tools in listed:
            for tool in tools:
                counts[tool.name] = counts.get(tool.name, 0) + 1
        for server, tools in listed:
            for tool in tools:
                name = f"{server.name}_{tool.name}" if counts[tool.name] > 1 else tool.name
                self.tools.append(replace(tool, name=name))
                self.executors[name] = self._executor(server, tool.name)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Stop every server and the event loop (bounded: a server that will not stop is killed)."""
        for session in self._sessions.values():
            self._stop(session)
        self._sessions.clear()
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(self.timeout)

    def _usable(self, server: McpServer, listed: list[dict[str, Any]]) -> list[Tool]:
        """The listed tools the grammar can carry; a warning naming each one skipped."""
        imported = import_each(listed, "mcp", f"MCP server {server.name}")
        self.warnings += [f"skipped {problem}" for problem in imported.skipped]
        usable = []
        for tool in imported.tools:
            try:
                compile_pool([tool])
            except GbnfError as exc:
                self.warnings.append(f"skipped MCP server {server.name} tool {tool.name}: {exc}")
                continue
            usable.append(tool)
        return usable

    def _executor(self, server: McpServer, name: str) -> Callable[..., Any]:
        def run(**arguments: Any) -> Any:
            session = self._sessions.get(server.name)
            if session is None:
                raise McpError(f"MCP server {server.name} is stopped")
            try:
                result = self._wait(session.call(self._loop, name, arguments), server, f"call {name}",
                                    self.timeout + 5)
            except McpError as exc:
                self.failures.append(str(exc))
                raise
            return _value(result, server, name)

        return run

    def _wait(self, future: Future[Any], server: McpServer, what: str, timeout: float) -> Any:
        try:
            return future.result(timeout)
        except FutureTimeout:
            future.cancel()
            raise McpError(f"MCP server {server.name} did not {what} within {timeout:g} s") from None
        except McpError:
            raise
        except Exception as exc:  # the SDK's and the transport's own errors, whatever their class
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise McpError(f"MCP server {server.name} failed to {what}: {message}") from None

    def _stop(self, session: _Session) -> None:
        try:
            session.stop(self._loop).result(STOP_SECONDS)
        except (FutureTimeout, Exception):  # a server that will not stop: its task is cancelled
            session.cancel(self._loop)


class _Session:
    """One server's client, held open in one task of the loop (the SDK's contexts must be left
    in the task that entered them); calls reach it through a queue."""

    def __init__(self, server: McpServer, timeout: float) -> None:
        self.server = server
        self.timeout = timeout
        self.task: asyncio.Task[None] | None = None
        self.requests: asyncio.Queue[tuple[str, dict[str, Any], asyncio.Future[Any]] | None] | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> Future[list[dict[str, Any]]]:
        """Connect and list the tools (as MCP's JSON, every page)."""
        ready: Future[list[dict[str, Any]]] = Future()

        def begin() -> None:
            self.requests = asyncio.Queue()
            self.task = loop.create_task(self._run(ready))

        loop.call_soon_threadsafe(begin)
        return ready

    def call(self, loop: asyncio.AbstractEventLoop, name: str, arguments: dict[str, Any]) -> Future[Any]:
        """One ``tools/call``; its ``CallToolResult``."""
        async def ask() -> Any:
            if self.task is None or self.task.done() or self.requests is None:
                raise McpError(f"MCP server {self.server.name} has stopped")
            answer: asyncio.Future[Any] = loop.create_future()
            await self.requests.put((name, arguments, answer))
            await asyncio.wait([answer, self.task], return_when=asyncio.FIRST_COMPLETED)
            if answer.done():
                return answer.result()
            return _stopped(self.server, self.task)

        return asyncio.run_coroutine_threadsafe(ask(), loop)

    def stop(self, loop: asyncio.AbstractEventLoop) -> Future[None]:
        """End the session: the client's context closes, and the SDK stops the server."""
        async def end() -> None:
            if self.task is not None and not self.task.done() and self.requests is not None:
                await self.requests.put(None)
                await asyncio.wait([self.task])

        return asyncio.run_coroutine_threadsafe(end(), loop)

    def cancel(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.task is not None:
            loop.call_soon_threadsafe(self.task.cancel)

    async def _run(self, ready: Future[list[dict[str, Any]]]) -> None:
        from mcp import Client
        from mcp.client.stdio import StdioServerParameters

        server = self.server
        target: Any = server.url if server.url else StdioServerParameters(
            command=server.command[0], args=list(server.command[1:]), env=server.env)
        try:
            async with Client(target, read_timeout_seconds=self.timeout) as client:
                tools, cursor = [], None
                for _ in range(MAX_PAGES):
                    page = await client.list_tools(cursor=cursor)
                    tools += [tool.model_dump(by_alias=True, exclude_none=True) for tool in page.tools]
                    cursor = page.next_cursor
                    if not cursor:
                        break
                ready.set_result(tools)
                assert self.requests is not None
                while (request := await self.requests.get()) is not None:
                    name, arguments, answer = request
                    try:
                        answer.set_result(await client.call_tool(name, arguments))
                    except Exception as exc:  # a failed call; the session may still serve others
                        answer.set_exception(exc)
        except BaseException as exc:  # could not start, or died: every waiter learns why
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else McpError(f"MCP server {server.name} "
                                                                                    "was stopped"))
            if not isinstance(exc, Exception):
                raise


def _stopped(server: McpServer, task: asyncio.Task[None]) -> Any:
    """Raise why a server's task ended while a call waited."""
    error = None if task.cancelled() else task.exception()
    raise McpError(f"MCP server {server.name} stopped" + (f": {error}" if error else ""))


def _value(result: Any, server: McpServer, name: str) -> Any:
    """A ``CallToolResult`` as the planner's tool result: structured content when there is some,
    else the text parts; a result flagged ``isError`` raises :class:`ToolError`."""
    parts = []
    for item in getattr(result, "content", None) or []:
        text = getattr(item, "text", None)
        parts.append(text if isinstance(text, str) else f"[{getattr(item, 'type', 'content')}]")
    text = "\n".join(parts)
    if getattr(result, "is_error", False):
        raise ToolError(f"{name} (MCP server {server.name}) failed: {text or 'no reason given'}")
    structured = getattr(result, "structured_content", None)
    if isinstance(structured, dict):
        return structured.get("result", structured) if set(structured) == {"result"} else structured
    if result is None or not hasattr(result, "content"):
        raise McpError(f"MCP server {server.name} answered {name} with something that is not a tool result")
    return text


def _safe(name: str) -> str:
    """A server's name as a tool-name prefix: letters, digits and underscores."""
    return re.sub(r"\W+", "_", name).strip("_") or "mcp"
