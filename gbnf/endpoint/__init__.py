"""``gbnf serve``: an OpenAI-compatible chat endpoint whose tool calls are grammar-safe and validated.

Any OpenAI client sends ``tools``; the reply's grammar is the tools' discriminated union
(plus plain text under ``tool_choice: "auto"``), every call is checked against its schema,
and an invalid one is retried with the error fed back, never returned. A server given tools of
its own (:class:`ServedTools`: MCP servers' tools, Python functions) runs them for requests
that send none, and answers with the plan's result.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import uvicorn

from gbnf.endpoint._app import create_app
from gbnf.endpoint._chat import read, reply
from gbnf.endpoint._guard import read_keys
from gbnf.endpoint._limits import Limits
from gbnf.endpoint._models import LocalModel, Model, RemoteModels
from gbnf.endpoint._process import ServeProcess
from gbnf.endpoint._request import MAX_PARALLEL, parse_request
from gbnf.endpoint._served import ServedTools
from gbnf.errors import GbnfError
from gbnf.shape import Shaping

__all__ = ["MAX_PARALLEL", "Limits", "LocalModel", "Model", "RemoteModels", "ServeProcess", "ServedTools",
           "create_app", "parse_request", "read", "read_keys", "reply", "serve"]


def serve(model: Model, *, host: str = "127.0.0.1", port: int = 8000, max_retries: int = 2,
          shaping: Shaping | None = None, changes: Mapping[str, Any] = MappingProxyType({}),
          served: ServedTools | None = None, limits: Limits = Limits(), keys: tuple[str, ...] = (),
          open_without_key: bool = False, drain_seconds: int = 30,
          log_level: str = "warning", on_ready: Callable[[str], None] | None = None) -> None:
    """Serve until Ctrl-C or SIGTERM, which stop accepting and give the requests in flight up to
    ``drain_seconds`` to finish; ``on_ready`` gets the base URL (``http://HOST:PORT/v1``) once
    requests are accepted (port 0 picks a free port). Requests are shaped by ``shaping`` (None:
    the profile for the model's size, with ``changes``). Every route but ``/health`` needs one of
    ``keys`` when there are any; without keys, a host other than loopback is refused unless
    ``open_without_key``."""
    if not keys and not open_without_key and not _loopback(host):
        raise GbnfError(f"serving on {host} without an API key lets anyone who reaches the port use the model: "
                        "give --api-key (or $GBNF_API_KEY, --api-key-file), or --no-api-key to allow it")
    sock = _bind(host, port)
    if shaping is not None:
        shaping.warm()  # the encoder and the word data, before the first request and the model's health checks
    app = create_app(model, max_retries=max_retries, shaping=shaping, changes=changes, served=served, limits=limits,
                     keys=keys)
    config = uvicorn.Config(app, log_level=log_level, access_log=log_level in ("info", "debug"),
                            timeout_graceful_shutdown=drain_seconds)
    url = f"http://{host}:{sock.getsockname()[1]}/v1"
    asyncio.run(_serve_until_done(uvicorn.Server(config), sock, model, lambda: (on_ready or _announce)(url)))


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so a taken port is one clear error."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise GbnfError(f"could not serve on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def _announce(url: str) -> None:
    print(f"gbnf serve ready at {url}", flush=True)


async def _serve_until_done(server: uvicorn.Server, sock: socket.socket, model: Model,
                            ready: Callable[[], None]) -> None:
    await model.start()
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not task.done():
        await asyncio.sleep(0.02)
    if server.started:
        ready()
    await task
