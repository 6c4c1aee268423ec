"""Host time the grammar adds per generated token, by engine path and pool size, apart from the
model's own time.

Each pool is BFCL's tools (the first ``size`` distinct names of its simple, multiple, parallel,
live and irrelevance sets), and every pool gets the same requests and the same prompt (the
system prompt lists only the requests' own tools), so the model writes the same calls and only
the grammar grows.
The grammar is the one ``gbnf serve`` and the planner send: :func:`gbnf.compiler.compile_pool`
with the indented layout. The model's own logits drive three paths, and only the grammar's work
in each is timed:

- ``llama-server's sampler``: llama.cpp's ``common_sampler_sample`` at temperature 0. The best
  token is checked alone; only when the grammar refuses it is the whole vocabulary masked. The
  same llama.cpp functions, called in this process, so each call can be timed.
- ``in-process llama.cpp``: gbnf's ``fast`` mode, which checks the best 8 tokens in turn and
  masks only when all are refused.
- ``in-process llguidance``: gbnf's default, a mask at each drawn token, and the tokens the
  grammar forces appended without a draw.

Both llama.cpp paths pick the same tokens (the best one the grammar allows), so they share one
decode; llguidance's forced tokens make a decode of its own. A token is ``forced`` (appended
with no draw), ``one check`` (the best token was allowed), or ``masked`` (the whole vocabulary
was masked).

    python -m bench.grammar_cost                   # pools of 8, 14 (manifests), 100, 120, 1000
    python -m bench.grammar_cost --sizes 120 --label cost
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import json
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import llama_cpp
import llguidance
import numpy as np

from bench.coverage import bfcl_entries
from bench.prompts import plan_prompt
from bench.report import rows_table
from gbnf.backends import LlamaCppBackend, grammar_sampler, llguidance_tokenizer, token_allowed
from gbnf.compiler import compile_pool, compile_schema, json_text, literal_choice, translate
from gbnf.tools import Tool, import_each, load_manifests

RESULTS = Path(__file__).resolve().parent / "results"
BFCL_SETS = ("BFCL_v4_simple_python.json", "BFCL_v4_multiple.json", "BFCL_v4_parallel.json",
             "BFCL_v4_parallel_multiple.json", "BFCL_v4_live_simple.json", "BFCL_v4_irrelevance.json")
MAX_TOKENS = 96
FAST_TRIES = 8
"""How many of the best tokens gbnf's ``fast`` mode checks before it masks (``pick_constrained``)."""
MANIFEST_REQUESTS = ("What is the weather in Paris for the next 3 days?", "Find my notes about the dentist",
                     "Remind me to call Anna tomorrow at 9", "Read the file notes/todo.txt",
                     "Create a folder called invoices", "Send a message to Bob saying I am late")


@dataclass
class Case:
    """One request with the pool whose grammar constrains the reply."""

    pool: str
    size: int
    request: str
    prompt: str
    grammar: str


@dataclass
class Cost:
    """What one path's grammar cost over some replies."""

    tokens: int = 0
    draws: int = 0
    replies: int = 0
    seconds: float = 0.0
    model_seconds: float = 0.0
    forced: int = 0
    one_check: int = 0
    masked: int = 0
    mask_seconds: list[float] = field(default_factory=list)
    check_seconds: list[float] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        """The figures, per generated token and per reply."""
        tokens, draws = max(self.tokens, 1), max(self.draws, 1)
        return {"tokens": self.tokens, "draws": self.draws, "replies": self.replies,
                "grammar ms per token": round(self.seconds / tokens * 1000, 4),
                "model ms per token": round(self.model_seconds / tokens * 1000, 3),
                "grammar ms per reply": round(self.seconds / max(self.replies, 1) * 1000, 2),
                "forced": _share(self.forced, tokens), "draws one check": _share(self.one_check, draws),
                "draws masked": _share(self.masked, draws),
                "full mask ms": _median_ms(self.mask_seconds), "one check us": _median_us(self.check_seconds)}


def bfcl_pool(size: int) -> list[Tool]:
    """The first ``size`` BFCL tools with distinct names, in the order of :data:`BFCL_SETS`."""
    tools = _bfcl_tools()
    if size > len(tools):
        raise ValueError(f"BFCL has only {len(tools)} tools with distinct names, not {size}")
    return list(tools[:size])


@functools.cache
def _bfcl_tools() -> tuple[Tool, ...]:
    """Every BFCL tool with a distinct name, in the order of :data:`BFCL_SETS` (read once)."""
    tools: dict[str, Tool] = {}
    for name in BFCL_SETS:
        for entry in bfcl_entries(name):
            for tool in import_each(entry["function"], "bfcl", entry["id"]).tools:
                tools.setdefault(tool.name, tool)
    return tuple(tools.values())


def bfcl_requests(count: int) -> list[tuple[str, str]]:
    """The first ``count`` BFCL simple requests and their function's name (the pool's first tools)."""
    entries = bfcl_entries(BFCL_SETS[0])[:count]
    return [(entry["question"][0][-1]["content"], entry["function"][0]["name"]) for entry in entries]


def cases(backend: LlamaCppBackend, sizes: tuple[int, ...], requests: int) -> list[Case]:
    """Every request of every pool, its prompt written with the model's chat template."""
    out = []
    asked = bfcl_requests(requests)
    names = {name for _, name in asked}
    requests_tools = [tool for tool in bfcl_pool(max(requests, 8)) if tool.name in names]
    for size in sizes:
        if size == 14:
            pool, label = load_manifests("manifests"), "manifests"
            shown, queries = pool, list(MANIFEST_REQUESTS[:requests])
        else:
            pool, label = bfcl_pool(size), f"BFCL {size}"
            shown, queries = requests_tools, [q for q, _ in asked]
        grammar = compile_pool(pool, layout="indented").text
        for query in queries:
            messages = [{"role": "system", "content": plan_prompt(shown)}, {"role": "user", "content": query}]
            prompt = backend._formatter(messages=messages).prompt  # type: ignore[arg-type]
            out.append(Case(label, len(pool), query, prompt, grammar))
    return out


class Tracer:
    """Decodes with the model's logits and times only the grammar's calls."""

    def __init__(self, backend: LlamaCppBackend) -> None:
        self.backend = backend
        self.llm = backend.llm
        self.vocab = backend.llm._model.vocab
        self.n_vocab = backend.llm.n_vocab()
        self.candidates = np.zeros(self.n_vocab, dtype=[("id", np.int32), ("logit", np.float32), ("p", np.float32)])
        self.tokenizer = llguidance_tokenizer(self.vocab)
        self.matchers: dict[str, Any] = {}

    def llama_cpp(self, case: Case, server: Cost, fast: Cost) -> list[int]:
        """One reply through llama-server's sampler and gbnf's ``fast`` mode at once (they pick
        the same tokens); the reply's tokens."""
        first, second = grammar_sampler(self.vocab, case.grammar), grammar_sampler(self.vocab, case.grammar)
        out: list[int] = []
        try:
            self._prompt(case)
            for _ in range(MAX_TOKENS):
                logits = self._logits()
                best = np.argpartition(logits, -FAST_TRIES)[-FAST_TRIES:]
                best = best[np.argsort(logits[best])[::-1]]
                token = self._server_pick(first, logits, int(best[0]), server)
                self._fast_pick(second, logits, best, token, fast)
                if llama_cpp.llama_vocab_is_eog(self.vocab, token):
                    break
                for sampler, cost in ((first, server), (second, fast)):
                    start = time.perf_counter()
                    llama_cpp.llama_sampler_accept(sampler, token)
                    cost.seconds += time.perf_counter() - start
                out.append(token)
                self._eval([token], (server, fast))
        finally:
            llama_cpp.llama_sampler_free(first)
            llama_cpp.llama_sampler_free(second)
        for cost in (server, fast):
            cost.tokens += len(out)
            cost.replies += 1
        return out

    def llguidance(self, case: Case, cost: Cost) -> list[int]:
        """One reply through llguidance with fast-forward (gbnf's in-process default); its tokens."""
        if case.grammar not in self.matchers:  # compiled once per grammar, as gbnf's backend keeps them
            self.matchers[case.grammar] = llguidance.LLMatcher(self.tokenizer, translate(case.grammar, "llguidance"),
                                                               log_level=0)
        start = time.perf_counter()
        matcher = self.matchers[case.grammar].deep_copy()
        cost.seconds += time.perf_counter() - start
        out: list[int] = []
        self._prompt(case)
        while len(out) < MAX_TOKENS and not matcher.is_stopped():
            new = self._forced(matcher, cost, MAX_TOKENS - len(out))
            if not new:
                logits = self._logits()
                start = time.perf_counter()
                allowed = np.unpackbits(np.frombuffer(matcher.compute_bitmask(), dtype=np.uint8), bitorder="little")
                token = int(np.argmax(np.where(allowed[:self.n_vocab].astype(bool), logits, -np.inf)))
                elapsed = time.perf_counter() - start
                cost.seconds += elapsed
                cost.mask_seconds.append(elapsed)
                cost.masked += 1
                cost.draws += 1
                if llama_cpp.llama_vocab_is_eog(self.vocab, token):
                    break
                start = time.perf_counter()
                matcher.consume_token(token)
                cost.seconds += time.perf_counter() - start
                new = [token, *self._forced(matcher, cost, MAX_TOKENS - len(out) - 1)]
            out.extend(new)
            if matcher.is_stopped() or len(out) >= MAX_TOKENS:
                break
            self._eval(new, (cost,))
        cost.tokens += len(out)
        cost.replies += 1
        return out

    def _forced(self, matcher: Any, cost: Cost, room: int) -> list[int]:
        start = time.perf_counter()
        forced = [t for t in matcher.compute_ff_tokens()[:room] if not llama_cpp.llama_vocab_is_eog(self.vocab, t)]
        if forced:
            matcher.consume_tokens(forced)
        cost.seconds += time.perf_counter() - start
        cost.forced += len(forced)
        return forced

    def _server_pick(self, sampler: llama_cpp.llama_sampler_p, logits: np.ndarray, best: int, cost: Cost) -> int:
        """``common_sampler_sample``: the best token if the grammar allows it, else the best of the mask."""
        cost.draws += 1
        start = time.perf_counter()
        allowed = token_allowed(sampler, best)
        elapsed = time.perf_counter() - start
        cost.seconds += elapsed
        cost.check_seconds.append(elapsed)
        if allowed:
            cost.one_check += 1
            return best
        cost.masked += 1
        return self._masked_best(sampler, logits, cost)

    def _fast_pick(self, sampler: llama_cpp.llama_sampler_p, logits: np.ndarray, best: np.ndarray, token: int,
                   cost: Cost) -> None:
        """gbnf's ``fast`` mode on the same logits: the best tokens checked in turn, then a mask."""
        cost.draws += 1
        for rank, candidate in enumerate(best):
            start = time.perf_counter()
            allowed = token_allowed(sampler, int(candidate))
            elapsed = time.perf_counter() - start
            cost.seconds += elapsed
            cost.check_seconds.append(elapsed)
            if allowed:
                cost.one_check += rank == 0
                if int(candidate) != token:
                    raise AssertionError("the fast mode and the server's sampler picked different tokens")
                return
        cost.masked += 1
        if self._masked_best(sampler, logits, cost) != token:
            raise AssertionError("the fast mode and the server's sampler picked different tokens")

    def _masked_best(self, sampler: llama_cpp.llama_sampler_p, logits: np.ndarray, cost: Cost) -> int:
        """The best token the grammar allows, from llama.cpp's mask over the whole vocabulary."""
        candidates = self.candidates
        candidates["id"] = np.arange(self.n_vocab, dtype=np.int32)
        candidates["logit"] = logits
        pointer = candidates.ctypes.data_as(ctypes.POINTER(llama_cpp.llama_token_data))
        array = llama_cpp.llama_token_data_array(pointer, self.n_vocab, -1, False)
        start = time.perf_counter()
        llama_cpp.llama_sampler_apply(sampler, ctypes.byref(array))
        elapsed = time.perf_counter() - start
        cost.seconds += elapsed
        cost.mask_seconds.append(elapsed)
        return int(np.argmax(candidates["logit"]))

    def _prompt(self, case: Case) -> None:
        tokens = self.llm.tokenize(case.prompt.encode("utf-8"), add_bos=False, special=True)
        self.backend._eval_prompt(tokens)

    def _logits(self) -> np.ndarray:
        return self.backend._logits().copy()

    def _eval(self, tokens: list[int], costs: tuple[Cost, ...]) -> None:
        start = time.perf_counter()
        self.llm.eval(tokens)
        elapsed = time.perf_counter() - start
        for cost in costs:
            cost.model_seconds += elapsed


def grammar_cost(backend: LlamaCppBackend, all_cases: list[Case],
                 replies: dict[tuple[str, str], str]) -> list[dict[str, Any]]:
    """One row per pool and path: host grammar time per generated token and per reply, the
    model's time per token, and the share of tokens forced, checked once or masked; each
    case's in-process llguidance reply goes into ``replies`` (by pool and request)."""
    tracer = Tracer(backend)
    rows = []
    by_pool: dict[str, list[Case]] = {}
    for case in all_cases:
        by_pool.setdefault(case.pool, []).append(case)
    for pool, pool_cases in by_pool.items():
        server, fast, guided = Cost(), Cost(), Cost()
        for case in pool_cases:
            tracer.llama_cpp(case, server, fast)
            tokens = tracer.llguidance(case, guided)
            replies[case.pool, case.request] = backend.llm.detokenize(tokens).decode("utf-8", "replace")
        rules = len(pool_cases[0].grammar.splitlines())
        for path, cost in (("llama-server's sampler", server), ("in-process llama.cpp (fast)", fast),
                           ("in-process llguidance, fast-forward", guided)):
            rows.append({"pool": pool, "tools": pool_cases[0].size, "rules": rules, "path": path, **cost.row()})
    return rows


def mask_floor(backend: LlamaCppBackend, names: int = 120, repeats: int = 20) -> list[dict[str, Any]]:
    """llama.cpp's full mask over the model's vocabulary at the start of small grammars (the
    median of ``repeats``): one allowed character, any string character, ``names`` tool names
    written one alternative each or with their shared prefixes once, and the same names as the
    values of an enum, as :func:`gbnf.compile_schema` writes it. What a mask costs when the
    grammar leaves almost nothing to check is the floor that no grammar's shape lowers."""
    tracer = Tracer(backend)
    listed = [json_text(tool.name) for tool in bfcl_pool(names)]
    grammars = {"one character": 'root ::= "{"', "any string character": 'root ::= [^"\\\\]*',
                f"{names} names, one alternative each": "root ::= " + " | ".join(literal_choice({n: ""}) for n in listed),
                f"{names} names, shared prefixes once": "root ::= " + literal_choice(dict.fromkeys(listed, "")),
                f"an enum of the {names} names (compile_schema)":
                    compile_schema({"enum": [tool.name for tool in bfcl_pool(names)]})}
    rows = []
    logits = np.zeros(tracer.n_vocab, dtype=np.float32)
    for label, grammar in grammars.items():
        seconds = []
        for _ in range(repeats):
            sampler = grammar_sampler(tracer.vocab, grammar)
            cost = Cost()
            tracer._masked_best(sampler, logits, cost)
            llama_cpp.llama_sampler_free(sampler)
            seconds += cost.mask_seconds
        rows.append({"grammar": label, "full mask ms": _median_ms(seconds)})
    return rows


def write_cases(pool_cases: list[Case], replies: dict[tuple[str, str], str], path: Path) -> None:
    """The prompts and grammars as JSON, for :mod:`bench.server_cost` on a machine without gbnf:
    each grammar in GBNF and in llguidance's dialect, with the reply the in-process llguidance
    path wrote."""
    path.write_text(json.dumps([{**case.__dict__, "llguidance": translate(case.grammar, "llguidance"),
                                 "in-process reply": replies[case.pool, case.request]} for case in pool_cases]))


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.0%}"


def _median_ms(values: list[float]) -> float | None:
    return round(statistics.median(values) * 1000, 3) if values else None


def _median_us(values: list[float]) -> float | None:
    return round(statistics.median(values) * 1e6, 1) if values else None


def iter_sizes(text: str) -> Iterator[int]:
    """Pool sizes from a comma-separated list."""
    return (int(part) for part in text.split(",") if part.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.grammar_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="GGUF file or packaged model (default: the embedded SmolLM2-135M)")
    parser.add_argument("--sizes", default="8,14,100,120,1000", help="pool sizes (14: the manifests)")
    parser.add_argument("--requests", type=int, default=6, help="requests per pool")
    parser.add_argument("--cases-out", type=Path, help="also write the prompts and grammars for bench.server_cost")
    parser.add_argument("--label", default="grammar-cost", help="name of the results files")
    args = parser.parse_args(argv)
    sizes = tuple(iter_sizes(args.sizes))
    with LlamaCppBackend(args.model, n_ctx=4096) as backend:
        all_cases, replies = cases(backend, sizes, args.requests), dict[tuple[str, str], str]()
        rows = grammar_cost(backend, all_cases, replies)
        if args.cases_out:
            write_cases(all_cases, replies, args.cases_out)
        floor = mask_floor(backend)
    table = rows_table(rows) + "\n\n" + rows_table(floor)
    print(table)
    (RESULTS / f"{args.label}.md").write_text(table + "\n")
    (RESULTS / f"{args.label}.json").write_text(json.dumps({"paths": rows, "mask floor": floor}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
