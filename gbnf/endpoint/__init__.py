"""``gbnf serve``: an OpenAI-compatible chat endpoint whose tool calls are grammar-safe and validated.

Any OpenAI client sends ``tools``; the reply's grammar is the tools' discriminated union
(plus plain text under ``tool_choice: "auto"``), every call is checked against its schema,
and an invalid one is retried with the error fed back, never returned.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import uvicorn

from gbnf.endpoint.app import STRING_CHARS, create_app
from gbnf.endpoint.models import LocalModel, Model, RemoteModels
from gbnf.errors import GbnfError

__all__ = ["LocalModel", "Model", "RemoteModels", "create_app", "serve"]


def serve(model: Model, *, host: str = "127.0.0.1", port: int = 8000, max_retries: int = 2,
          string_chars: int | None = STRING_CHARS, log_level: str = "warning",
          on_ready: Callable[[str], None] | None = None) -> None:
    """Serve until Ctrl-C or SIGTERM; ``on_ready`` gets the base URL (``http://HOST:PORT/v1``)
    once requests are accepted (port 0 picks a free port)."""
    config = uvicorn.Config(create_app(model, max_retries=max_retries, string_chars=string_chars), host=host, port=port,
                            log_level=log_level, access_log=log_level in ("info", "debug"))
    asyncio.run(_run(uvicorn.Server(config), model, host, on_ready or (lambda url: print(
        f"gbnf serve ready at {url}", flush=True))))


async def _run(server: uvicorn.Server, model: Model, host: str, on_ready: Callable[[str], None]) -> None:
    await model.start()
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            break
        await asyncio.sleep(0.02)
    else:
        port = server.servers[0].sockets[0].getsockname()[1]
        on_ready(f"http://{host}:{port}/v1")
    try:
        await task
    except SystemExit:  # uvicorn exits when it cannot bind; it has logged why
        raise GbnfError(f"could not serve on {host}:{server.config.port}") from None
    if not server.started:
        raise GbnfError(f"could not serve on {host}:{server.config.port}")
