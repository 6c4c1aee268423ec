"""What shaping one request costs before the model writes a word: the relevance by meaning
(:func:`gbnf.shape.rules.closeness`), the decision (:func:`gbnf.shape.rules.decide_reply`), and the whole of
``parse_request`` (the decision, the request's values, and the grammar compiled for them), at
8 and 100 tools; and, beside the meaning's time and the model's relevance where ``gbnf serve
--model-relevance`` reads it, the time to a reply's first token (the shaped prompt read and
one token sampled, the embedded model in-process).

    python -m bench.shaping [-o FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.coverage import bfcl_entries
from bench.intent import cases, set_tools
from gbnf.backends import LlamaCppBackend
from gbnf.endpoint import parse_request
from gbnf.plan import openai_tools
from gbnf.shape import ModelRelevance, Shaping
from gbnf.shape.rules import closeness, decide_reply, read_request
from gbnf.tools import Tool, import_tools

SIZES = (8, 100)
READ = Shaping(model_relevance=True)
"""Shaping that reads the model's relevance where words and meaning leave the reply open."""


def bfcl_pool(size: int) -> list[Tool]:
    """``size`` distinct BFCL functions (from its multiple set, in order)."""
    pool: dict[str, Tool] = {}
    for entry in bfcl_entries("BFCL_v4_multiple.json"):
        for tool in import_tools(entry["function"], "bfcl", entry["id"]):
            pool.setdefault(tool.name, tool)
        if len(pool) >= size:
            break
    return list(pool.values())[:size]


def queries(count: int) -> list[str]:
    """``count`` requests: BFCL's simple ones and this project's dev requests, interleaved."""
    simple = [e["question"][0][-1]["content"] for e in bfcl_entries("BFCL_v4_simple_python.json")]
    dev = [c["query"] for c in cases("dev")]
    return [q for pair in zip(simple, dev * 10) for q in pair][:count]


def _percentiles(seconds: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles([s * 1000 for s in seconds], n=100, method="inclusive")
    return {"p50 ms": round(cuts[49], 2), "p99 ms": round(cuts[98], 2)}


def _timed(run: Callable[[str], Any], texts: list[str]) -> list[float]:
    """Each run's seconds, every text read afresh (:func:`gbnf.shape.rules.read_request` keeps what it read)."""
    out = []
    for text in texts:
        read_request.cache_clear()
        start = time.perf_counter()
        run(text)
        out.append(time.perf_counter() - start)
    return out


def shaping_rows(count: int) -> list[dict[str, Any]]:
    """Per pool size, the p50 and p99 milliseconds of each part of shaping ``count`` requests."""
    texts = queries(count)
    rows = []
    for size in SIZES:
        tools = bfcl_pool(size)
        closeness(tools, read_request("warm up"))  # the encoder loaded and the cards encoded once, as a server does
        body = {"tools": openai_tools(tools)}
        parts = {
            "meaning": lambda q: closeness(tools, read_request(q)),
            "decision by words": lambda q: decide_reply(tools, read_request(q)),
            "decision by words and meaning": lambda q: decide_reply(tools, read_request(q), closeness(tools, read_request(q))),
            "parse_request, meaning off": lambda q: parse_request(
                {**body, "messages": [{"role": "user", "content": q}]}, Shaping(meaning=False)),
            "parse_request": lambda q: parse_request({**body, "messages": [{"role": "user", "content": q}]}),
        }
        for label, run in parts.items():
            rows.append({"tools": size, "part": label, **_percentiles(_timed(run, texts))})
    return rows


def first_token_rows(count: int) -> list[dict[str, Any]]:
    """The time to a reply's first token (the shaped prompt read and one token sampled, the
    embedded model in-process) beside the time the meaning takes, for ``count`` dev requests;
    and the time the model's relevance takes (:class:`gbnf.shape.ModelRelevance`) for each dev
    request that ``gbnf serve --model-relevance`` reads it for (:attr:`gbnf.endpoint.ChatRequest.scored`)."""
    backend = LlamaCppBackend()
    tools = set_tools("dev")
    body = {"tools": openai_tools(tools)}
    closeness(tools, read_request("warm up"))
    first, meaning, model = [], [], []
    scorer = ModelRelevance(backend.loglik)
    for i, text in enumerate(c["query"] for c in cases("dev")):
        parsed = parse_request({**body, "messages": [{"role": "user", "content": text}]}, READ)
        if parsed.scored:  # the default parse but for naming the tools whose relevance is to be read
            model += _timed(lambda q: scorer(list(parsed.scored), q), [text])
        if i >= count:
            continue
        start = time.perf_counter()
        backend.complete(parsed.messages, parsed.grammar, replace(parsed.sampling, max_tokens=1))
        first.append(time.perf_counter() - start)
        meaning += _timed(lambda q: closeness(tools, read_request(q)), [text])
    return [{"part": "first token (prompt read, one token)", "requests": len(first), **_percentiles(first)},
            {"part": "meaning", "requests": len(meaning), **_percentiles(meaning)},
            {"part": "model relevance, where read", "requests": len(model), **_percentiles(model)}]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.shaping", description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--first-token", type=int, default=20, metavar="N", help="requests whose first token is "
                        "timed (0: none)")
    parser.add_argument("-o", "--output", type=Path)
    args = parser.parse_args(argv)
    report = {"shaping": shaping_rows(args.requests),
              "first token": first_token_rows(args.first_token) if args.first_token else []}
    text = json.dumps(report, indent=1)
    print(text)
    if args.output:
        args.output.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
