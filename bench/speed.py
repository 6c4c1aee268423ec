"""Compile time by pool size, and decoding overhead: the same tool call generated unconstrained,
with our grammar (sample-first, full masking, llguidance with fast-forward), and with
llama-cpp-python's converter grammar, on the same model in the same run, in-process (with the
process's peak resident memory after each) and through llama-server; and the planner's own
calls, replayed with their grammar and without."""

from __future__ import annotations

import dataclasses
import json
import resource
import statistics
import time
from collections.abc import Callable
from typing import Any

from llama_cpp import LlamaGrammar
from llama_cpp.llama_grammar import json_schema_to_gbnf

from bench.prompts import plan_prompt
from gbnf.backends import (
    Backend,
    Completion,
    GrammarEngine,
    GrammarMode,
    LlamaCppBackend,
    Message,
    Sampling,
    TextSink,
    ToolSpec,
)
from gbnf.compiler import compile_pool
from gbnf.plan import Planner
from gbnf.tools import Tool, load_manifests

QUERY = "What is the weather in Paris for the next 3 days?"


def pool_of(size: int, tools: list[Tool]) -> list[Tool]:
    """``size`` tools, no two with the same schema: the manifests, then copies of them renamed,
    each schema with a description of its own."""
    out = []
    for i in range(size):
        base = tools[i % len(tools)]
        out.append(base if i < len(tools) else _variant(base, f"{base.name}_{i}", f"copy {i}"))
    return out


def _variant(tool: Tool, name: str, description: str) -> Tool:
    """``tool`` renamed, its schema given a description: the same grammar, a schema never seen."""
    return dataclasses.replace(tool, name=name, parameters={**tool.parameters, "description": description})


def union_schema(tools: list[Tool]) -> dict[str, Any]:
    """The pool as one JSON Schema (a oneOf of name/arguments objects) for the converter."""
    return {"oneOf": [{"type": "object", "properties": {"name": {"const": t.name}, "arguments": t.parameters},
                       "required": ["name", "arguments"], "additionalProperties": False} for t in tools]}


def compile_bench(sizes: tuple[int, ...], repeats: int, rounds: int = 5) -> list[dict[str, Any]]:
    """Milliseconds per compile for each pool size, and each as a ratio to llama-cpp-python's
    converter on the same schemas: ours on schemas never compiled before (each compile's
    schemas differ), on tools renamed (each compile renames every tool; the schemas were seen,
    so their rules are replayed), on known tools (the same pool again), and from the planner's
    cache of whole pools; each the median of ``rounds`` interleaved rounds of ``repeats``
    compiles."""
    tools = load_manifests("manifests")
    rows = []
    for size in sizes:
        pool = pool_of(size, tools)
        schema = json.dumps(union_schema(pool))
        rules = len(compile_pool(pool).rules)
        planner = Planner(pool, _NoBackend(), {})
        planner.grammar(pool)
        runs = range(repeats * rounds)
        new_schemas = iter([[_variant(t, t.name, f"run {k}, tool {i}") for i, t in enumerate(pool)] for k in runs])
        new_names = iter([[dataclasses.replace(t, name=f"{t.name}_{k}") for t in pool] for k in runs])
        cases = {"ours, new schemas": lambda: compile_pool(next(new_schemas)),
                 "ours, new names": lambda: compile_pool(next(new_names)),
                 "ours, known tools": lambda: compile_pool(pool), "ours cached": lambda: planner.grammar(pool),
                 "llama.cpp converter": lambda: json_schema_to_gbnf(schema)}
        timings: dict[str, list[float]] = {label: [] for label in cases}
        for _ in range(rounds):
            for label, run in cases.items():
                start = time.perf_counter()
                for _ in range(repeats):
                    run()
                timings[label].append((time.perf_counter() - start) / repeats * 1000)
        ms = {label: statistics.median(times) for label, times in timings.items()}
        rows.append({"tools": size, "rules": rules, **{label: round(value, 4) for label, value in ms.items()},
                     **{f"{label} / converter": round(value / ms["llama.cpp converter"], 2)
                        for label, value in ms.items() if label.startswith("ours")}})
    return rows


class _NoBackend:
    def complete(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the compile bench makes no model call")


def decoding_bench(inprocess: LlamaCppBackend, server: Backend | None, max_tokens: int,
                   rounds: int = 3) -> list[dict[str, Any]]:
    """Milliseconds per generated token for the same request under each constraint: the median
    of ``rounds`` rounds, each round running every case once (this machine's speed drifts by a
    fifth within minutes, so cases timed apart are not comparable)."""
    tools = load_manifests("manifests")
    ours = compile_pool(tools).text
    indented = compile_pool(tools, layout="indented").text
    compact = compile_pool(tools, layout="compact").text
    theirs = json_schema_to_gbnf(json.dumps(union_schema(tools)))
    messages = [{"role": "system", "content": plan_prompt(tools)}, {"role": "user", "content": QUERY}]
    sampling = Sampling(max_tokens=max_tokens, temperature=0.0)

    def local(grammar: str | None, mode: GrammarMode, engine: GrammarEngine) -> Callable[[], tuple[int, float]]:
        def run() -> tuple[int, float]:
            default = inprocess.grammar_mode, inprocess.grammar_engine
            inprocess.grammar_mode, inprocess.grammar_engine = mode, engine
            try:
                reply = inprocess.complete(messages, grammar, sampling)
            finally:
                inprocess.grammar_mode, inprocess.grammar_engine = default
            return reply.completion_tokens, reply.decode_seconds
        return run

    def remote(grammar: str | None) -> Callable[[], tuple[int, float]]:
        def run() -> tuple[int, float]:
            reply = server.complete(messages, grammar, sampling)  # type: ignore[union-attr]
            return reply.completion_tokens, reply.decode_seconds
        return run

    cases = [("in-process", "unconstrained", local(None, "fast", "llama.cpp")),
             ("in-process", "ours, sample first", local(ours, "fast", "llama.cpp")),
             ("in-process", "ours, full masking", local(ours, "full", "llama.cpp")),
             ("in-process", "ours, llguidance masks and fast-forward", local(ours, "fast", "llguidance")),
             ("in-process", "ours indented, llguidance masks and fast-forward", local(indented, "fast", "llguidance")),
             ("in-process", "ours compact, llguidance masks and fast-forward", local(compact, "fast", "llguidance")),
             ("in-process", "llama.cpp converter, full masking", local(theirs, "full", "llama.cpp")),
             ("in-process", "llama-cpp-python create_completion(grammar)",
              _llama_cpp_python(inprocess, messages, theirs, max_tokens))]
    if server is not None:
        cases += [("llama-server", label, remote(grammar))
                  for label, grammar in (("unconstrained", None), ("ours", ours), ("llama.cpp converter", theirs))]
    rows = []
    for where, label, run in cases:  # warm: the prompt cached, the grammar parsed
        run()
        rows.append({"backend": where, "constraint": label,
                     "peak_rss_mb": _peak_rss_mb() if where == "in-process" else None})
    timings: list[list[tuple[int, float]]] = [[] for _ in cases]
    for _ in range(rounds):
        for timing, (_, _, run) in zip(timings, cases):
            timing.append(run())
    for row, timing in zip(rows, timings):
        tokens = timing[0][0]
        row.update(tokens=tokens, ms_per_token=round(statistics.median(s / n * 1000 for n, s in timing), 2)
                   if tokens else None)
    return rows


def _llama_cpp_python(backend: LlamaCppBackend, messages: list[dict[str, Any]], grammar: str,
                      max_tokens: int) -> Callable[[], tuple[int, float]]:
    """llama-cpp-python's own path (``Llama.create_completion(grammar=...)``) on the same prompt."""
    prompt = backend._formatter(messages=messages).prompt
    parsed = LlamaGrammar.from_string(grammar, verbose=False)

    def run() -> tuple[int, float]:
        start = time.perf_counter()
        out = backend.llm.create_completion(prompt, max_tokens=max_tokens, temperature=0.0, grammar=parsed)
        return out["usage"]["completion_tokens"], time.perf_counter() - start
    return run


def _peak_rss_mb() -> float:
    """This process's peak resident memory so far (the model, the grammars, llguidance's tables)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


class Recorder:
    """Passes requests on to an in-process backend and keeps the first ``keep`` that carry a
    grammar (the planner's calls), for :func:`call_bench`."""

    def __init__(self, backend: LlamaCppBackend, keep: int) -> None:
        self.backend = backend
        self.keep = keep
        self.requests: list[tuple[list[Message], str, Sampling]] = []
        self.loglik = backend.loglik

    def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                 tools: list[ToolSpec] | None = None, on_text: TextSink | None = None) -> Completion:
        if grammar and len(self.requests) < self.keep:
            self.requests.append((list(messages), grammar, sampling))  # the planner appends to its list
        return self.backend.complete(messages, grammar, sampling, tools, on_text)


def call_bench(inprocess: LlamaCppBackend, recorded: dict[str, Recorder]) -> list[dict[str, Any]]:
    """Each configuration's recorded calls replayed with their grammar and without it, the two
    interleaved request by request: milliseconds per output token of each, their ratio, and
    seconds per call."""
    rows = []
    for config, recorder in recorded.items():
        totals = {"grammar": [0, 0.0], "free": [0, 0.0]}
        for messages, grammar, sampling in recorder.requests:
            for kind, constraint in (("grammar", grammar), ("free", None)):
                reply = inprocess.complete(messages, constraint, sampling)
                totals[kind][0] += reply.completion_tokens
                totals[kind][1] += reply.decode_seconds
        (tokens, seconds), (free_tokens, free_seconds) = totals["grammar"], totals["free"]
        calls = len(recorder.requests)
        if not calls or not tokens or not free_tokens:
            continue
        ms, free_ms = seconds / tokens * 1000, free_seconds / free_tokens * 1000
        rows.append({"config": config, "calls": calls, "tokens_per_call": round(tokens / calls, 1),
                     "ms_per_token": round(ms, 2), "free_ms_per_token": round(free_ms, 2),
                     "ratio": round(ms / free_ms, 3), "seconds_per_call": round(seconds / calls, 3)})
    return rows


if __name__ == "__main__":
    import argparse

    from bench.report import rows_table

    parser = argparse.ArgumentParser(description="Compile time by pool size, as a ratio to the converter.")
    parser.add_argument("--repeats", type=int, default=10, help="compiles per case in each of five rounds")
    print(rows_table(compile_bench((8, 100, 1000), parser.parse_args().repeats)))
