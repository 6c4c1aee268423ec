"""What llama.cpp's extra CPU buffer types (repacked weights, and AMX where compiled in) are worth:
tokens per second with them and without (``GBNF_REPACK=1`` and ``0``), in-process and through
llama-server, on one model, in one run. Without them is what a CPU with AMX gets by default
(:mod:`gbnf.backends._native`), so the ratio is the price of never faulting there.

Each configuration is loaded once; the rounds alternate between them, so both see the same
machine. Prompt speed: a long prompt and one generated token; generation speed: 128 tokens
after a short prompt, greedy, no stop.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from bench.report import rows_table
from gbnf.backends import ENV_REPACK, Backend, LlamaCppBackend, Message, Sampling, ServerBackend
from gbnf.llama_server import LlamaServer

SHORT = "Tell me about the history of the bicycle."
LONG = " ".join(["The quick brown fox jumps over the lazy dog."] * 50)
GENERATE = Sampling(max_tokens=128, temperature=0.0)
PROMPT_ONLY = Sampling(max_tokens=1, temperature=0.0)


@contextmanager
def repack(value: str) -> Iterator[None]:
    """``$GBNF_REPACK`` set to ``value`` while a model loads or a server starts."""
    saved = os.environ.get(ENV_REPACK)
    os.environ[ENV_REPACK] = value
    try:
        yield
    finally:
        if saved is None:
            del os.environ[ENV_REPACK]
        else:
            os.environ[ENV_REPACK] = saved


def speeds(backend: Backend, turn: int) -> tuple[float, float]:
    """(prompt tokens per second, generated tokens per second) of one round; each round's
    prompts open with its number, so no cached prefix is reused."""
    start = time.perf_counter()
    prompt = backend.complete(_ask(f"{turn}. {LONG}"), None, PROMPT_ONLY)
    prompt_rate = prompt.prompt_tokens / (time.perf_counter() - start)
    start = time.perf_counter()
    generated = backend.complete(_ask(f"{turn}. {SHORT}"), None, GENERATE)
    return prompt_rate, generated.completion_tokens / (time.perf_counter() - start)


def _ask(text: str) -> list[Message]:
    return [{"role": "user", "content": text}]


def bench(model: str | None, rounds: int) -> list[dict[str, Any]]:
    """Each backend with and without the extra buffer types, ``rounds`` alternating rounds."""
    with ExitStack() as stack:
        backends: dict[tuple[str, str], Backend] = {}
        for value in ("1", "0"):
            with repack(value):
                local = LlamaCppBackend(model, n_ctx=2048)
                stack.callback(local.close)
                server = stack.enter_context(LlamaServer(model, n_ctx=2048))
            backends["in-process", value] = local
            backends["llama-server", value] = stack.enter_context(ServerBackend(server.url, timeout=300))
        for backend in backends.values():
            speeds(backend, 0)  # warm up
        seen: dict[tuple[str, str], list[tuple[float, float]]] = {key: [] for key in backends}
        for turn in range(1, rounds + 1):
            for key, backend in backends.items():
                seen[key].append(speeds(backend, turn))
    rows = []
    for (kind, value), rates in seen.items():
        rows.append({"backend": kind, "extra buffer types": "on" if value == "1" else "off",
                     "prompt tok/s": round(statistics.median(r[0] for r in rates), 1),
                     "generated tok/s": round(statistics.median(r[1] for r in rates), 1)})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", help="GGUF file or packaged model (default: the embedded model)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print(rows_table(bench(args.model, args.rounds)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
