"""Per-token mask time of each engine on the same grammar and the same tokens: llama.cpp's
grammar sampler over the whole vocabulary (as full masking and llama-server do), llguidance and
XGrammar (when installed), each given the grammar in its own dialect and the embedded model's
vocabulary. The tokens are a tool call the model wrote under the grammar."""

from __future__ import annotations

import ctypes
import importlib.util
import time
from collections.abc import Callable
from typing import Any

import llama_cpp
import numpy as np

from bench.prompts import plan_prompt
from gbnf.backends import LlamaCppBackend, Sampling, grammar_sampler, llguidance_tokenizer
from gbnf.compiler import compile_pool, translate
from gbnf.tools import load_manifests

QUERY = "What is the weather in Paris for the next 3 days?"
Step = Callable[[int], bool]
"""One engine's work per token: compute the mask for the next token, then accept ``token`` (False
when the engine refuses it)."""
Compile = Callable[[str], Step]
"""An engine with the model's vocabulary loaded: the grammar (GBNF) compiled, ready to step."""


def mask_bench(backend: LlamaCppBackend, folders: tuple[str, ...] = ("manifests", "bench/tools")
               ) -> list[dict[str, Any]]:
    """For each pool and engine: milliseconds to compile the grammar (the vocabulary loaded
    beforehand, untimed), and per token to compute the mask and advance, over the same tokens."""
    engines: dict[str, Compile | None] = {"llama.cpp": _llama_cpp(backend)}
    for name, setup in (("llguidance", _llguidance), ("xgrammar", _xgrammar)):
        engines[name] = setup(backend) if importlib.util.find_spec(name) else None
    rows = []
    for folder in folders:
        tools = load_manifests(folder)
        grammar = compile_pool(tools).text
        messages = [{"role": "system", "content": plan_prompt(tools)}, {"role": "user", "content": QUERY}]
        reply = backend.complete(messages, grammar, Sampling(max_tokens=96, temperature=0.0))
        tokens = backend.llm.tokenize(reply.text.encode("utf-8"), add_bos=False, special=False)
        for name, compile_ in engines.items():
            row: dict[str, Any] = {"pool": folder, "engine": name, "tokens": len(tokens), "compile_ms": None,
                                   "ms_per_token": None, "note": "not installed"}
            if compile_ is not None:
                start = time.perf_counter()
                step = compile_(grammar)
                compiled = time.perf_counter()
                refused = next((i for i, token in enumerate(tokens) if not step(token)), None)
                end = time.perf_counter()
                row.update(compile_ms=round((compiled - start) * 1000, 2),
                           ms_per_token=round((end - compiled) / max(len(tokens), 1) * 1000, 3),
                           note="" if refused is None else f"refused token {refused}")
            rows.append(row)
    return rows


def _llama_cpp(backend: LlamaCppBackend) -> Compile:
    zeros = np.zeros(backend.llm.n_vocab(), dtype=np.float32)

    def compile_(grammar: str) -> Step:
        sampler = grammar_sampler(backend.llm._model.vocab, grammar)

        def step(token: int) -> bool:
            allowed = bool(np.isfinite(backend._applied(zeros, sampler)[token]))  # the backend's full mask
            llama_cpp.llama_sampler_accept(sampler, token)
            return allowed

        return step

    return compile_


def _llguidance(backend: LlamaCppBackend) -> Compile:
    import llguidance

    tokenizer = llguidance_tokenizer(backend.llm._model.vocab)

    def compile_(grammar: str) -> Step:
        matcher = llguidance.LLMatcher(tokenizer, translate(grammar, "llguidance"), log_level=0)

        def step(token: int) -> bool:
            matcher.compute_bitmask()
            return matcher.consume_token(token)

        return step

    return compile_


def _xgrammar(backend: LlamaCppBackend) -> Compile:
    import xgrammar

    vocab = [_piece(backend.llm._model.vocab, i) for i in range(backend.llm.n_vocab())]
    info = xgrammar.TokenizerInfo(vocab, vocab_type=xgrammar.VocabType.RAW, stop_token_ids=[backend.llm.token_eos()])
    compiler = xgrammar.GrammarCompiler(info)

    def compile_(grammar: str) -> Step:
        matcher = xgrammar.GrammarMatcher(compiler.compile_grammar(translate(grammar, "xgrammar")))
        bitmask = xgrammar.allocate_token_bitmask(1, info.vocab_size)

        def step(token: int) -> bool:
            matcher.fill_next_token_bitmask(bitmask)
            return matcher.accept_token(token)

        return step

    return compile_


def _piece(vocab: llama_cpp.llama_vocab_p, token: int) -> bytes:
    """A token's bytes, as llama.cpp writes them (special tokens spelled out)."""
    buffer = ctypes.create_string_buffer(256)
    n = llama_cpp.llama_token_to_piece(vocab, token, buffer, len(buffer), 0, True)
    return buffer.raw[:max(n, 0)]
