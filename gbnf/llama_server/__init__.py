"""A real ``llama-server``: found or built once from the pinned llama.cpp source, then run on a
free loopback port, waited for, and stopped cleanly."""

from gbnf.llama_server._build import (
    CMAKE_FLAGS,
    build_llama_server,
    built_binary,
    cmake_flags,
    cuda_wanted,
    ensure_llama_server,
    find_llama_server,
    gpus,
)
from gbnf.llama_server._process import LlamaServer, free_port

__all__ = ["CMAKE_FLAGS", "LlamaServer", "build_llama_server", "built_binary", "cmake_flags", "cuda_wanted",
           "ensure_llama_server", "find_llama_server", "free_port", "gpus"]
