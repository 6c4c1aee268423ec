"""Find ``llama-server``, or build it once from the llama.cpp source of the pinned llama-cpp-python.

The build is native (``-march=native``) but without Intel AMX kernels, which fault on some
machines (:mod:`gbnf.backends._native`), and with CUDA where the machine has an NVIDIA GPU and
``nvcc`` (or ``$GBNF_CUDA=1`` says so); the cache is keyed on the llama.cpp version and the
build options, so a server built with other options is never picked up again.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from gbnf.errors import ServerError

ENV_BINARY = "GBNF_LLAMA_SERVER"
ENV_CUDA = "GBNF_CUDA"
CUDA_FLAGS = ["-DGGML_CUDA=ON", "-DCMAKE_CUDA_ARCHITECTURES=native"]
"""Added to the build with CUDA: llama.cpp's CUDA backend, for the GPUs of the building machine."""
CMAKE_FLAGS = [
    "-DCMAKE_BUILD_TYPE=Release",
    "-DBUILD_SHARED_LIBS=OFF",
    "-DLLAMA_BUILD_UI=OFF",
    "-DLLAMA_USE_PREBUILT_UI=OFF",
    "-DLLAMA_OPENSSL=OFF",
    "-DLLAMA_CURL=OFF",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DGGML_NATIVE=ON",
]
NO_AMX = "-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
"""GCC and Clang flags that keep AMX out of a native build (they win over ``-march=native``)."""


@functools.cache
def gpus() -> tuple[str, ...]:
    """The NVIDIA GPUs ``nvidia-smi`` lists (name and memory), none where it is missing or fails."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return ()
    try:
        done = subprocess.run([smi, "--query-gpu=name,memory.total", "--format=csv,noheader"], capture_output=True,
                              text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return tuple(line.strip() for line in done.stdout.splitlines() if line.strip()) if done.returncode == 0 else ()


def cuda_wanted() -> bool:
    """Whether llama-server is built with CUDA: ``$GBNF_CUDA`` (1 or 0) when set, else when the
    machine has ``nvcc`` and an NVIDIA GPU."""
    if (env := os.environ.get(ENV_CUDA)) is not None:
        return env.strip().lower() not in ("", "0", "no", "false", "off")
    return shutil.which("nvcc") is not None and bool(gpus())


def cmake_flags(cuda: bool | None = None) -> list[str]:
    """The options the server is configured with: :data:`CMAKE_FLAGS`, on x86 no AMX kernels,
    and with ``cuda`` (None: :func:`cuda_wanted`) :data:`CUDA_FLAGS`."""
    flags = list(CMAKE_FLAGS)
    if platform.machine().lower() in ("x86_64", "amd64"):
        flags += [f"-DCMAKE_C_FLAGS={NO_AMX}", f"-DCMAKE_CXX_FLAGS={NO_AMX}"]
    return flags + CUDA_FLAGS if (cuda_wanted() if cuda is None else cuda) else flags


def llama_cpp_python_version() -> str:
    """The installed llama-cpp-python version: the server is built from the same llama.cpp."""
    return importlib.metadata.version("llama-cpp-python")


def cache_dir() -> Path:
    """Where built servers live: ``$GBNF_CACHE`` or ``~/.cache/gbnf`` (outside the repo)."""
    return Path(os.environ.get("GBNF_CACHE", Path.home() / ".cache" / "gbnf"))


def built_binary(cuda: bool | None = None) -> Path:
    """Path of the server built for the installed llama-cpp-python with :func:`cmake_flags` (it may
    not exist yet)."""
    options = hashlib.sha256("\n".join(cmake_flags(cuda)).encode()).hexdigest()[:12]
    return cache_dir() / f"llama-server-{llama_cpp_python_version()}-{options}" / "llama-server"


def find_llama_server() -> Path | None:
    """``$GBNF_LLAMA_SERVER``, else our cached build, else ``llama-server`` on PATH."""
    if env := os.environ.get(ENV_BINARY):
        path = Path(env)
        if not path.is_file():
            raise ServerError(f"{ENV_BINARY}={env} is not a file")
        return path
    if built_binary().is_file():
        return built_binary()
    on_path = shutil.which("llama-server")
    return Path(on_path) if on_path else None


def build_llama_server(jobs: int | None = None, cuda: bool | None = None) -> Path:
    """Download the pinned llama-cpp-python sdist and build its vendored llama-server, with CUDA
    when ``cuda`` says so (None: :func:`cuda_wanted`)."""
    version = llama_cpp_python_version()
    target = built_binary(cuda)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        work = Path(tmp)
        run_step([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
              f"llama-cpp-python=={version}", "-d", str(work)], "download the llama-cpp-python sdist")
        sdist = next(work.glob("llama_cpp_python-*.tar.gz"))
        with tarfile.open(sdist) as tar:
            tar.extractall(work, filter="data")
        source = work / f"llama_cpp_python-{version}" / "vendor" / "llama.cpp"
        build = work / "build"
        run_step(["cmake", "-S", str(source), "-B", str(build), *cmake_flags(cuda)], "configure llama.cpp")
        run_step(["cmake", "--build", str(build), "--target", "llama-server", "-j", str(jobs or os.cpu_count() or 2)],
             "build llama-server")
        shutil.copy2(build / "bin" / "llama-server", target)
    return target


def ensure_llama_server() -> Path:
    """A usable ``llama-server``: found, or built once (about 10 minutes on 2 cores)."""
    return find_llama_server() or build_llama_server()


def run_step(cmd: list[str], what: str) -> None:
    """Run ``cmd``; :class:`ServerError` with its output's tail, naming ``what``, when it fails."""
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-20:])
        raise ServerError(f"could not {what} ({' '.join(cmd[:3])} ... exited {done.returncode}):\n{tail}")


if __name__ == "__main__":
    print(ensure_llama_server())
