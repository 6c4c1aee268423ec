"""Compile time by pool size, and decoding overhead: the same tool call generated unconstrained,
with our grammar (sample-first, full masking, llguidance with fast-forward), and with
llama-cpp-python's converter grammar, on the same model in the same run, in-process (with the
process's peak resident memory after each) and through llama-server."""

from __future__ import annotations

import dataclasses
import json
import resource
import time
from typing import Any

from llama_cpp import LlamaGrammar
from llama_cpp.llama_grammar import json_schema_to_gbnf

from gbnf.backends.base import Backend, Sampling
from gbnf.backends.inprocess import LlamaCppBackend
from gbnf.compiler import compile_pool
from gbnf.manifest import load_manifests
from gbnf.tool import Tool
from gbnf.planner import Planner
from gbnf.prompt import system_prompt

QUERY = "What is the weather in Paris for the next 3 days?"


def pool_of(size: int, tools: list[Tool]) -> list[Tool]:
    """``size`` tools: the manifests, then renamed copies of them."""
    out = []
    for i in range(size):
        base = tools[i % len(tools)]
        out.append(base if i < len(tools) else dataclasses.replace(base, name=f"{base.name}_{i}"))
    return out


def union_schema(tools: list[Tool]) -> dict[str, Any]:
    """The pool as one JSON Schema (a oneOf of name/arguments objects) for the converter."""
    return {"oneOf": [{"type": "object", "properties": {"name": {"const": t.name}, "arguments": t.parameters},
                       "required": ["name", "arguments"], "additionalProperties": False} for t in tools]}


def compile_bench(sizes: tuple[int, ...], repeats: int) -> list[dict[str, Any]]:
    """Milliseconds per compile for each pool size: ours cold, ours cached (the planner's
    cache), and llama-cpp-python's converter on the same schemas."""
    tools = load_manifests("manifests")
    rows = []
    for size in sizes:
        pool = pool_of(size, tools)
        schema = json.dumps(union_schema(pool))
        rules = len(compile_pool(pool).rules)
        planner = Planner(pool, _NoBackend(), {})
        planner.grammar(pool)
        timings = {}
        for label, run in (("ours cold", lambda: compile_pool(pool)), ("ours cached", lambda: planner.grammar(pool)),
                           ("llama.cpp converter", lambda: json_schema_to_gbnf(schema))):
            start = time.perf_counter()
            for _ in range(repeats):
                run()
            timings[label] = round((time.perf_counter() - start) / repeats * 1000, 4)
        rows.append({"tools": size, "rules": rules, **timings})
    return rows


class _NoBackend:
    def complete(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the compile bench makes no model call")


def decoding_bench(inprocess: LlamaCppBackend, server: Backend | None, max_tokens: int) -> list[dict[str, Any]]:
    """Milliseconds per generated token for the same request under each constraint."""
    tools = load_manifests("manifests")
    ours = compile_pool(tools).text
    compact = compile_pool(tools, compact=True).text
    theirs = json_schema_to_gbnf(json.dumps(union_schema(tools)))
    messages = [{"role": "system", "content": system_prompt(tools)}, {"role": "user", "content": QUERY}]
    sampling = Sampling(max_tokens=max_tokens, temperature=0.0)
    rows = []
    cases = [("unconstrained", None, "fast", "llama.cpp"), ("ours, sample first", ours, "fast", "llama.cpp"),
             ("ours, full masking", ours, "full", "llama.cpp"),
             ("ours, llguidance masks and fast-forward", ours, "fast", "llguidance"),
             ("ours compact, llguidance masks and fast-forward", compact, "fast", "llguidance"),
             ("llama.cpp converter, full masking", theirs, "full", "llama.cpp")]
    for label, grammar, mode, engine in cases:
        inprocess.grammar_mode, inprocess.grammar_engine = mode, engine
        inprocess.complete(messages, grammar, sampling)  # warm: prompt cached, grammar parsed
        reply = inprocess.complete(messages, grammar, sampling)
        rows.append({**_speed_row("in-process", label, reply.completion_tokens, reply.decode_seconds),
                     "peak_rss_mb": _peak_rss_mb()})
    inprocess.grammar_mode, inprocess.grammar_engine = "fast", "llama.cpp"
    rows.append(_llama_cpp_python_row(inprocess, messages, theirs, max_tokens))
    if server is not None:
        for label, grammar in (("unconstrained", None), ("ours", ours), ("llama.cpp converter", theirs)):
            server.complete(messages, grammar, sampling)
            reply = server.complete(messages, grammar, sampling)
            rows.append(_speed_row("llama-server", label, reply.completion_tokens, reply.decode_seconds))
    return rows


def _llama_cpp_python_row(backend: LlamaCppBackend, messages: list[dict[str, Any]], grammar: str,
                          max_tokens: int) -> dict[str, Any]:
    """llama-cpp-python's own path (``Llama.create_completion(grammar=...)``) on the same prompt."""
    prompt = backend._formatter(messages=messages).prompt
    llm = backend.llm
    parsed = LlamaGrammar.from_string(grammar, verbose=False)
    llm.create_completion(prompt, max_tokens=max_tokens, temperature=0.0, grammar=parsed)
    start = time.perf_counter()
    out = llm.create_completion(prompt, max_tokens=max_tokens, temperature=0.0, grammar=parsed)
    seconds = time.perf_counter() - start
    return _speed_row("in-process", "llama-cpp-python create_completion(grammar)", out["usage"]["completion_tokens"],
                      seconds)


def _peak_rss_mb() -> float:
    """This process's peak resident memory so far (the model, the grammars, llguidance's tables)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _speed_row(where: str, label: str, tokens: int, seconds: float) -> dict[str, Any]:
    return {"backend": where, "constraint": label, "tokens": tokens,
            "ms_per_token": round(seconds / tokens * 1000, 2) if tokens else None}
