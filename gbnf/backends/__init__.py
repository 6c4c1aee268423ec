"""Model backends behind one interface: in-process llama-cpp-python, or an OpenAI-compatible
server (llama-server) over HTTP; where the model file lives; what native llama.cpp may do on
this CPU. The engines (llama-cpp-python, httpx) are imported when first asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gbnf._lazy import lazy_names
from gbnf.backends._base import AsyncBackend, Backend, Completion, Message, Sampling, TextSink, ToolSpec
from gbnf.backends._model import (
    default_model,
    embedded_model,
    gemma_model,
    listed_parameters,
    parameters_named,
    resolve_model,
)
from gbnf.backends._native import (
    ENV_REPACK,
    SIMD_FLAGS,
    cpu_flags,
    cpu_has_amx,
    cpuinfo,
    crash_line,
    die_with_parent,
    extra_buffers,
    signal_name,
)

if TYPE_CHECKING:
    from gbnf.backends._http import ENGINE_PROBE, UPSTREAMS, AsyncServerBackend, ServerBackend, Upstream
    from gbnf.backends._inprocess import (
        PLAIN_STOP,
        GrammarEngine,
        GrammarMode,
        LlamaCppBackend,
        penalized,
        pick_constrained,
    )
    from gbnf.backends._llamacpp import (
        amx_kernels,
        captured_stderr,
        gpu_offload,
        grammar_sampler,
        llguidance_tokenizer,
        load_llama,
        system_info,
        token_allowed,
    )

_LAZY = {"gbnf.backends._http": ("ENGINE_PROBE", "UPSTREAMS", "AsyncServerBackend", "ServerBackend", "Upstream"),
         "gbnf.backends._inprocess": ("PLAIN_STOP", "GrammarEngine", "GrammarMode", "LlamaCppBackend", "penalized",
                                      "pick_constrained"),
         "gbnf.backends._llamacpp": ("amx_kernels", "captured_stderr", "gpu_offload", "grammar_sampler",
                                    "llguidance_tokenizer", "load_llama", "system_info", "token_allowed")}
__getattr__ = lazy_names(__name__, {name: module for module, names in _LAZY.items() for name in names})

__all__ = ["ENGINE_PROBE", "ENV_REPACK", "PLAIN_STOP", "SIMD_FLAGS", "UPSTREAMS", "AsyncBackend",
           "AsyncServerBackend", "Backend", "Completion", "GrammarEngine", "GrammarMode", "LlamaCppBackend", "Message",
           "Sampling", "ServerBackend", "TextSink", "ToolSpec", "Upstream", "amx_kernels", "captured_stderr",
           "cpu_flags", "cpu_has_amx", "cpuinfo", "crash_line", "default_model", "die_with_parent", "embedded_model",
           "extra_buffers", "gemma_model", "gpu_offload", "grammar_sampler", "listed_parameters",
           "llguidance_tokenizer", "load_llama", "parameters_named", "penalized", "pick_constrained", "resolve_model",
           "signal_name", "system_info", "token_allowed"]
