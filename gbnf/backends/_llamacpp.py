"""llama.cpp through llama-cpp-python: what the in-process backend, the bench and the grammar
oracle share (a model loaded with only the CPU kernels that are safe here, a grammar sampler, a
one-token grammar check, llguidance's tokenizer for the vocabulary, llama.cpp's stderr captured)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator
from typing import Any

import llama_cpp

from gbnf.backends._native import extra_buffers
from gbnf.errors import GrammarError

_LOCK = threading.Lock()  # file descriptor 2 is the process's
_LOADING = threading.Lock()  # llama-cpp-python's default model parameters are too


def system_info() -> str:
    """llama.cpp's own account of how it was compiled (``CPU : SSE3 = 1 | AVX = 1 | ...``)."""
    return llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()


def amx_kernels() -> bool:
    """Whether the loaded llama.cpp library holds Intel AMX kernels (compiled on an AMX CPU)."""
    return "AMX_INT8 = 1" in system_info()


def gpu_offload() -> bool:
    """Whether the llama.cpp in this process can put layers on a GPU (built with CUDA, Metal...)."""
    return bool(llama_cpp.llama_supports_gpu_offload())


def load_llama(path: str, **options: Any) -> llama_cpp.Llama:
    """``llama_cpp.Llama(path, **options)`` with llama.cpp's extra CPU buffer types only where
    :func:`gbnf.backends._native.extra_buffers` allows them (``Llama`` has no option for them: while it
    loads, its default model parameters carry the choice)."""
    module = llama_cpp.llama_cpp
    default = module.llama_model_default_params
    use_extra_bufts = extra_buffers(amx_kernels())

    def params() -> llama_cpp.llama_model_params:
        chosen = default()
        chosen.use_extra_bufts = use_extra_bufts
        return chosen

    with _LOADING:
        module.llama_model_default_params = params
        try:
            return llama_cpp.Llama(model_path=path, **options)
        finally:
            module.llama_model_default_params = default


def grammar_sampler(vocab: llama_cpp.llama_vocab_p, grammar: str) -> llama_cpp.llama_sampler_p:
    """A llama.cpp grammar sampler (free it with ``llama_sampler_free``), or :class:`GrammarError`."""
    with captured_stderr() as log:
        sampler = llama_cpp.llama_sampler_init_grammar(vocab, grammar.encode("utf-8"), b"root")
    if not sampler:
        text = "".join(log)
        first = next((line for line in text.splitlines() if line.strip()), "no message")
        raise GrammarError(f"llama.cpp refused the grammar: {first.strip()}", grammar, text)
    return sampler


def token_allowed(sampler: llama_cpp.llama_sampler_p, token: int) -> bool:
    """Whether the grammar, in its current state, allows ``token`` next (a one-candidate check)."""
    data = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(token, 0.0, 0.0))
    array = llama_cpp.llama_token_data_array(data, 1, -1, False)
    llama_cpp.llama_sampler_apply(sampler, ctypes.byref(array))
    return data[0].logit != float("-inf")


def llguidance_tokenizer(vocab: llama_cpp.llama_vocab_p) -> Any:
    """llguidance's tokenizer for a llama.cpp vocabulary (about a second; keep it)."""
    from llguidance.llamacpp import lltokenizer_from_vocab

    with warnings.catch_warnings():  # it reads each token through a deprecated llama-cpp-python call
        warnings.simplefilter("ignore", DeprecationWarning)
        return lltokenizer_from_vocab(vocab)


@contextlib.contextmanager
def captured_stderr() -> Iterator[list[str]]:
    """Collect what native code writes to file descriptor 2 (llama.cpp's parser uses fprintf)."""
    lines: list[str] = []
    with _LOCK, tempfile.TemporaryFile() as sink:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(sink.fileno(), 2)
        try:
            yield lines
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            lines.append(sink.read().decode("utf-8", "replace"))
