"""``gbnf doctor``: what a bug report needs, and whether a decode works in-process and through
llama-server. Each decode runs in a child process, so a crash in native code is reported, not
suffered."""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass

from gbnf.backends import (
    ENV_REPACK,
    SIMD_FLAGS,
    cpu_flags,
    cpu_has_amx,
    cpuinfo,
    crash_line,
    extra_buffers,
    resolve_model,
)
from gbnf.errors import GbnfError

PROMPT = [{"role": "user", "content": "Name one colour."}]
TOKENS = 16


@dataclass(frozen=True)
class Check:
    """One thing that works or does not, and what was seen."""

    name: str
    ok: bool
    detail: str


def facts(model: str | None) -> list[tuple[str, str]]:
    """What a bug report needs: the CPU, Python, the llama.cpp build and its options, the model."""
    from gbnf.backends import amx_kernels, gpu_offload, system_info
    from gbnf.llama_server import built_binary, cmake_flags, gpus

    flags = cpu_flags()
    cpu = cpuinfo().get("model name") or platform.processor() or "unknown"
    amx = amx_kernels()
    repack = extra_buffers(amx)
    why = f"${ENV_REPACK}={os.environ[ENV_REPACK]}" if os.environ.get(ENV_REPACK) else \
        "AMX CPU and AMX kernels" if not repack else "no AMX kernels can run here"
    try:
        model_text = str(resolve_model(model))
    except GbnfError as exc:
        model_text = f"not found: {exc}"
    return [
        ("cpu", f"{cpu} ({platform.machine()}, {os.cpu_count()} cores)"),
        ("cpu features", " ".join(flag for flag in SIMD_FLAGS if flag in flags) or "unknown"),
        ("amx", f"cpu {'yes' if cpu_has_amx() else 'no'}, in-process llama.cpp kernels {'yes' if amx else 'no'}"),
        ("python", f"{platform.python_version()} on {platform.platform()}"),
        ("llama-cpp-python", importlib.metadata.version("llama-cpp-python")),
        ("llama.cpp in-process", system_info().replace("\n", " ")),
        ("gpu", ", ".join(gpus()) or "none listed by nvidia-smi"),
        ("in-process GPU offload", "yes (--n-gpu-layers)" if gpu_offload() else
         "no: llama-cpp-python was built for the CPU (README: GPU)"),
        ("extra CPU buffer types", f"{'on' if repack else 'off'} ({why})"),
        ("llama-server build", f"{built_binary()} ({'built' if built_binary().is_file() else 'not built'}; "
                               f"{' '.join(cmake_flags())})"),
        ("model", model_text),
    ]


def inprocess_decode(model: str | None, timeout: float = 300.0) -> Check:
    """Load the model and decode a few tokens in a child Python process."""
    command = [sys.executable, "-c", "import sys; from gbnf.cli._doctor import decode_here; decode_here(sys.argv[1])",
               model or ""]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Check("in-process decode", False, f"no reply within {timeout:g} s")
    if done.returncode != 0:
        line = crash_line("the in-process decode", done.returncode)
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Check("in-process decode", False, line or f"exited {done.returncode}: {tail}")
    return Check("in-process decode", True, done.stdout.strip().splitlines()[-1])


def decode_here(model: str) -> None:
    """The child's side of :func:`inprocess_decode`: print one line on what was decoded."""
    from gbnf.backends import LlamaCppBackend, Sampling, gpu_offload

    backend = LlamaCppBackend(model or None, n_ctx=512, n_gpu_layers=-1 if gpu_offload() else 0)
    start = time.perf_counter()
    completion = backend.complete(PROMPT, None, Sampling(max_tokens=TOKENS))
    where = "every layer on the GPU" if gpu_offload() else "on the CPU"
    print(_decoded(completion.text, completion.completion_tokens, time.perf_counter() - start) + f"; {where}")


def server_decode(model: str | None, timeout: float = 120.0) -> Check:
    """Start the built llama-server with the model and decode a few tokens through it."""
    from gbnf.backends import Sampling, ServerBackend
    from gbnf.llama_server import LlamaServer, find_llama_server

    try:
        binary = find_llama_server()
        if binary is None:
            return Check("llama-server decode", False, "llama-server is not built: run `gbnf server build`")
        with LlamaServer(model, binary=binary, n_ctx=512, startup_timeout=timeout) as server:
            start = time.perf_counter()
            try:
                with ServerBackend(server.url, timeout=timeout) as client:
                    completion = client.complete(PROMPT, None, Sampling(max_tokens=TOKENS))
            except GbnfError as exc:
                code = server.process.poll() if server.process else None
                line = crash_line("llama-server", code) if code is not None else None
                return Check("llama-server decode", False, line or str(exc))
    except GbnfError as exc:
        return Check("llama-server decode", False, str(exc).splitlines()[0])
    offloaded = re.search(r"offloaded (\d+/\d+) layers to GPU", server.log_tail(400))
    return Check("llama-server decode", True,
                 f"{binary}: " + _decoded(completion.text, completion.completion_tokens, time.perf_counter() - start)
                 + f"; {offloaded[1] if offloaded else 'no'} layers on the GPU")


def report(model: str | None, server: bool = True) -> int:
    """Print the facts and the checks; 0 when every check passed, else 1."""
    for name, value in facts(model):
        print(f"{name + ':':24} {value}")
    checks = [inprocess_decode(model), *([server_decode(model)] if server else [])]
    for check in checks:
        print(f"{'ok' if check.ok else 'FAILED':6} {check.name}: {check.detail}")
    return 0 if all(check.ok for check in checks) else 1


def _decoded(text: str, tokens: int, seconds: float) -> str:
    return f"{tokens} tokens in {seconds:.2f} s: {json.dumps(text[:60])}"

