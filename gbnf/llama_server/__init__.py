"""A real ``llama-server``: found or built once from the pinned llama.cpp source (with
llguidance as its grammar engine, from the llguidance wheel), then run on a free loopback port,
waited for, and stopped cleanly."""

from gbnf.llama_server._build import (
    CMAKE_FLAGS,
    ENV_CUDA,
    ENV_LLGUIDANCE,
    LLGUIDANCE_FLAG,
    build_llama_server,
    built_binary,
    cache_dir,
    cmake_flags,
    cuda_wanted,
    ensure_llama_server,
    find_llama_server,
    gpus,
    llguidance_wanted,
    python_stubs,
    run_step,
    wheel_llguidance_library,
)
from gbnf.llama_server._process import LlamaServer, end_process, free_port, log_tail

__all__ = ["CMAKE_FLAGS", "ENV_CUDA", "ENV_LLGUIDANCE", "LLGUIDANCE_FLAG", "LlamaServer", "build_llama_server",
           "built_binary", "cache_dir", "cmake_flags", "cuda_wanted", "end_process", "ensure_llama_server",
           "find_llama_server", "free_port", "gpus", "llguidance_wanted", "log_tail", "python_stubs", "run_step",
           "wheel_llguidance_library"]
