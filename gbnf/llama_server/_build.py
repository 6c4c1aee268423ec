"""Find ``llama-server``, or build it once from the llama.cpp source of the pinned llama-cpp-python.

The build is native (``-march=native``) but without Intel AMX kernels, which fault on some
machines (:mod:`gbnf.backends._native`), and with CUDA where the machine has an NVIDIA GPU and
``nvcc`` (or ``$GBNF_CUDA=1`` says so); the cache is keyed on the llama.cpp version and the
build options, so a server built with other options is never picked up again.

On Linux it has llguidance as its grammar engine (``$GBNF_LLGUIDANCE=0`` builds without): a
grammar that starts with ``%llguidance {}`` is decided by llguidance, any other by llama.cpp's
own engine. llama.cpp's build would clone llguidance and fetch its crates; here its C API comes
from the ``llguidance`` wheel gbnf already installs (the library a Python extension is, copied
beside the server), with the header in ``llguidance/`` and, for the Python functions that
library also refers to (never called outside Python), stubs that abort.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from gbnf.errors import ServerError

ENV_BINARY = "GBNF_LLAMA_SERVER"
ENV_CUDA = "GBNF_CUDA"
ENV_LLGUIDANCE = "GBNF_LLGUIDANCE"
LLGUIDANCE_FLAG = "-DLLAMA_LLGUIDANCE=ON"
"""Added to the build with llguidance (the block that would fetch it is replaced: :func:`use_wheel_llguidance`)."""
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


def llguidance_wanted() -> bool:
    """Whether llama-server is built with llguidance: ``$GBNF_LLGUIDANCE`` (1 or 0) when set,
    else on Linux (where the wheel's library links as built here)."""
    if (env := os.environ.get(ENV_LLGUIDANCE)) is not None:
        return env.strip().lower() not in ("", "0", "no", "false", "off")
    return platform.system() == "Linux"


def cmake_flags(cuda: bool | None = None, llguidance: bool | None = None) -> list[str]:
    """The options the server is configured with: :data:`CMAKE_FLAGS`, on x86 no AMX kernels,
    with ``cuda`` (None: :func:`cuda_wanted`) :data:`CUDA_FLAGS`, and with ``llguidance`` (None:
    :func:`llguidance_wanted`) :data:`LLGUIDANCE_FLAG`."""
    flags = list(CMAKE_FLAGS)
    if platform.machine().lower() in ("x86_64", "amd64"):
        flags += [f"-DCMAKE_C_FLAGS={NO_AMX}", f"-DCMAKE_CXX_FLAGS={NO_AMX}"]
    if cuda_wanted() if cuda is None else cuda:
        flags += CUDA_FLAGS
    if llguidance_wanted() if llguidance is None else llguidance:  # keyed on the wheel whose library it links
        flags += [LLGUIDANCE_FLAG, "-DCMAKE_BUILD_RPATH=$ORIGIN",
                  f"-DGBNF_LLGUIDANCE_VERSION={importlib.metadata.version('llguidance')}"]
    return flags


def llama_cpp_python_version() -> str:
    """The installed llama-cpp-python version: the server is built from the same llama.cpp."""
    return importlib.metadata.version("llama-cpp-python")


def cache_dir() -> Path:
    """Where built servers live: ``$GBNF_CACHE`` or ``~/.cache/gbnf`` (outside the repo)."""
    return Path(os.environ.get("GBNF_CACHE", Path.home() / ".cache" / "gbnf"))


def built_binary(cuda: bool | None = None, llguidance: bool | None = None) -> Path:
    """Path of the server built for the installed llama-cpp-python with :func:`cmake_flags` (it may
    not exist yet)."""
    options = hashlib.sha256("\n".join(cmake_flags(cuda, llguidance)).encode()).hexdigest()[:12]
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


def build_llama_server(jobs: int | None = None, cuda: bool | None = None, llguidance: bool | None = None) -> Path:
    """Download the pinned llama-cpp-python sdist and build its vendored llama-server, with CUDA
    when ``cuda`` says so (None: :func:`cuda_wanted`) and llguidance when ``llguidance`` does
    (None: :func:`llguidance_wanted`)."""
    version = llama_cpp_python_version()
    flags = cmake_flags(cuda, llguidance)
    target = built_binary(cuda, llguidance)
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
        if LLGUIDANCE_FLAG in flags:
            use_wheel_llguidance(source, target.parent)
        run_step(["cmake", "-S", str(source), "-B", str(build), *flags], "configure llama.cpp")
        run_step(["cmake", "--build", str(build), "--target", "llama-server", "-j", str(jobs or os.cpu_count() or 2)],
             "build llama-server")
        shutil.copy2(build / "bin" / "llama-server", target)
    return target


_FETCHED = re.compile(r"include\(ExternalProject\).*?target_link_libraries\(\$\{TARGET\} PRIVATE llguidance\)",
                      re.DOTALL)
_WHEEL_LIBRARY = """\
    # gbnf: llguidance's C API from the llguidance wheel's library, nothing fetched
    add_library(llguidance SHARED IMPORTED)
    set_target_properties(llguidance PROPERTIES IMPORTED_LOCATION ${GBNF_LIBS}/libllguidance.so IMPORTED_NO_SONAME TRUE)
    add_library(llguidance_python_stubs SHARED IMPORTED)
    set_target_properties(llguidance_python_stubs PROPERTIES
        IMPORTED_LOCATION ${GBNF_LIBS}/libllguidance_python_stubs.so IMPORTED_NO_SONAME TRUE)
    target_compile_definitions(${TARGET} PUBLIC LLAMA_USE_LLGUIDANCE)
    target_include_directories(${TARGET} PRIVATE ${GBNF_INCLUDE})
    target_link_options(${TARGET} PUBLIC "LINKER:--no-as-needed")
    target_link_libraries(${TARGET} PRIVATE llguidance llguidance_python_stubs)"""


def use_wheel_llguidance(source: Path, libs: Path) -> None:
    """Make llama.cpp's llguidance build take the wheel's library instead of fetching the
    project: copy it to ``libs`` (beside the server, found by its ``$ORIGIN`` run path) with a
    library of stubs for the Python functions it refers to, replace the block of
    ``common/CMakeLists.txt`` that would clone and build it, and make its sampler fail closed
    (:data:`_FAIL_CLOSED`)."""
    library = wheel_llguidance_library()
    libs.mkdir(parents=True, exist_ok=True)
    shutil.copy2(library, libs / "libllguidance.so")
    stubs = source / "gbnf_llguidance_python_stubs.c"
    stubs.write_text(python_stubs(library))
    run_step([os.environ.get("CC", "cc"), "-shared", "-fPIC", "-O1", "-o", str(libs / "libllguidance_python_stubs.so"),
              str(stubs)], "compile the stubs of llguidance's Python functions")
    cmake = source / "common" / "CMakeLists.txt"
    text = cmake.read_text()
    if len(_FETCHED.findall(text)) != 1:
        raise ServerError(f"{cmake}: the block that fetches llguidance is not where gbnf expects it; "
                          f"build without llguidance ({ENV_LLGUIDANCE}=0)")
    include = Path(__file__).resolve().parent / "llguidance"
    cmake.write_text(_FETCHED.sub(lambda _: _WHEEL_LIBRARY.replace("${GBNF_LIBS}", libs.as_posix())
                                  .replace("${GBNF_INCLUDE}", include.as_posix()), text))
    glue = source / "common" / "llguidance.cpp"
    code = glue.read_text()
    for was, now in _FAIL_CLOSED.items():
        if code.count(was) != 1:
            raise ServerError(f"{glue}: the code gbnf makes fail closed is not where it expects it; build without "
                              f"llguidance ({ENV_LLGUIDANCE}=0)")
        code = code.replace(was, now)
    glue.write_text(code)


_FAIL_CLOSED = {
    # a grammar llguidance refuses: no sampler (the server answers 400), not a reply left free
    """        if (ctx->grammar) {
            GGML_ASSERT(""":
    """        if (!ctx->grammar) {  // gbnf: a grammar llguidance refuses fails the request
            llg_free_tokenizer(ctx->tokenizer);
            delete ctx;
            return nullptr;
        }
        if (ctx->grammar) {
            GGML_ASSERT(""",
    # a matcher in error mid-reply: only end-of-generation tokens stay, not every token
    """                LOG_ERR("llg error: %s\\n", llg_matcher_get_error(ctx->grammar));
                llg_free_matcher(ctx->grammar);
                ctx->grammar = nullptr;
                return;""":
    """                LOG_ERR("llg error: %s\\n", llg_matcher_get_error(ctx->grammar));
                for (size_t i = 0; i < cur_p->size; ++i) {  // gbnf: fail closed, the reply ends here
                    if (!llama_vocab_is_eog(ctx->vocab, cur_p->data[i].id)) {
                        cur_p->data[i].logit = -INFINITY;
                    }
                }
                return;""",
}
"""What gbnf changes in llama.cpp's ``common/llguidance.cpp``: where llguidance refuses a grammar
or fails mid-reply, llama.cpp would go on decoding without any grammar (HTTP 200, a free
reply); here the request fails, or the reply ends."""


def wheel_llguidance_library() -> Path:
    """The library of the installed ``llguidance`` wheel, which exports its C API."""
    import importlib.util

    spec = importlib.util.find_spec("llguidance")
    found = [p for folder in (spec.submodule_search_locations or []) for p in Path(folder).glob("_lib*.so")] \
        if spec else []
    if not found:
        raise ServerError(f"the llguidance wheel's library (_lib*.so) is not installed; build without llguidance "
                          f"({ENV_LLGUIDANCE}=0)")
    return found[0]


def python_stubs(library: Path) -> str:
    """C source defining each Python C API name ``library`` refers to: an object for each
    exception, type or singleton, a function that aborts (naming itself) for the rest."""
    head = ("#include <stdio.h>\n#include <stdlib.h>\n"
            "static void gone(const char *name) { fprintf(stderr, \"llguidance called Python's %s outside Python\\n\", "
            "name); abort(); }\n")
    return head + "".join(f"char {name}[64];\n" if _is_data(name) else f"void {name}(void) {{ gone(\"{name}\"); }}\n"
                          for name in _python_symbols(library))


def _python_symbols(library: Path) -> list[str]:
    """The Python C API names ``library`` refers to and does not define (``nm -D``)."""
    try:
        done = subprocess.run(["nm", "-D", "--undefined-only", str(library)], capture_output=True, text=True)
    except FileNotFoundError:
        raise ServerError(f"nm (binutils) reads the llguidance library's symbols: install it, or build without "
                          f"llguidance ({ENV_LLGUIDANCE}=0)") from None
    if done.returncode != 0:
        raise ServerError(f"nm could not read {library}: {done.stderr.strip()[:200]}")
    names = [line.split()[-1].split("@")[0] for line in done.stdout.splitlines() if line.strip()]
    return sorted({name for name in names if name.startswith(("Py", "_Py"))})


def _is_data(name: str) -> bool:
    """Whether a Python C API name is an object (an exception, a type, a singleton), not a function."""
    return name.startswith("PyExc_") or name.endswith("_Type") or (name.startswith("_Py_") and name.endswith("Struct"))


def ensure_llama_server() -> Path:
    """A usable ``llama-server``: found, or built once (about 10 minutes on 2 cores)."""
    return find_llama_server() or build_llama_server()


def run_step(cmd: list[str], what: str) -> None:
    """Run ``cmd``; :class:`ServerError` with its output's tail, naming ``what``, when it fails."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        raise ServerError(f"could not {what}: {cmd[0]} is not installed") from None
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-20:])
        raise ServerError(f"could not {what} ({' '.join(cmd[:3])} ... exited {done.returncode}):\n{tail}")


if __name__ == "__main__":
    print(ensure_llama_server())
