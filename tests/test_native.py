"""Native code: decodes that survive this CPU (each in a child, so a crash fails the test with its
signal's name instead of killing the suite), the extra-buffer policy, and crashes told in one line."""

from __future__ import annotations

import ctypes
import importlib.metadata
import platform
import subprocess
import sys

import pytest

from gbnf.backends import ENV_REPACK, LlamaCppBackend, Sampling, extra_buffers, signal_name
from gbnf.cli import inprocess_decode, server_decode, supervised
from gbnf.errors import BackendError
from gbnf.llama_server import (
    CMAKE_FLAGS,
    ENV_LLGUIDANCE,
    LLGUIDANCE_FLAG,
    LlamaServer,
    built_binary,
    cmake_flags,
    cuda_wanted,
    llguidance_wanted,
    python_stubs,
    wheel_llguidance_library,
)


def test_the_embedded_model_decodes_in_process_in_a_child():
    check = inprocess_decode(None)
    assert check.ok, check.detail
    assert " tokens in " in check.detail


def test_the_embedded_model_decodes_through_llama_server():
    check = server_decode(None)
    assert check.ok, check.detail


def test_a_decode_that_fails_is_reported_not_suffered(tmp_path):
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"GGUF but not really")
    check = inprocess_decode(str(junk))
    assert not check.ok
    assert "could not load" in check.detail


def test_doctor_prints_the_facts_and_fails_on_a_bad_model(tmp_path):
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a model")
    done = subprocess.run([sys.executable, "-m", "gbnf", "doctor", "--no-server", "--model", str(junk)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    for fact in ("cpu:", "llama.cpp in-process:", "extra CPU buffer types:", "llama-server build:"):
        assert fact in done.stdout
    assert "FAILED in-process decode" in done.stdout


def test_extra_buffers_follow_the_cpu_and_the_switch(monkeypatch):
    monkeypatch.delenv(ENV_REPACK, raising=False)
    monkeypatch.setattr("gbnf.backends._native.cpu_flags", lambda: frozenset({"avx2", "amx_tile", "amx_int8"}))
    assert extra_buffers(amx_kernels=True) is False
    assert extra_buffers(amx_kernels=False) is True
    monkeypatch.setattr("gbnf.backends._native.cpu_flags", lambda: frozenset({"avx2"}))
    assert extra_buffers(amx_kernels=True) is True
    monkeypatch.setenv(ENV_REPACK, "0")
    assert extra_buffers(amx_kernels=False) is False
    monkeypatch.setenv(ENV_REPACK, "1")
    monkeypatch.setattr("gbnf.backends._native.cpu_flags", lambda: frozenset({"amx_int8"}))
    assert extra_buffers(amx_kernels=True) is True
    monkeypatch.setenv(ENV_REPACK, "maybe")
    with pytest.raises(BackendError, match="GBNF_REPACK='maybe'"):
        extra_buffers(amx_kernels=True)


def test_llama_server_is_started_without_repack_where_it_is_not_safe(monkeypatch):
    monkeypatch.setenv(ENV_REPACK, "0")
    assert "--no-repack" in LlamaServer(binary="/bin/true").command()
    monkeypatch.delenv(ENV_REPACK)
    monkeypatch.setattr("gbnf.backends._native.cpu_flags", lambda: frozenset({"amx_int8"}))
    assert "--no-repack" in LlamaServer(binary="/bin/true").command()  # a binary of unknown build
    assert "--no-repack" not in LlamaServer(binary=built_binary()).command()  # ours has no AMX kernels


def test_the_server_cache_is_keyed_on_the_build_options(monkeypatch):
    first = built_binary()
    monkeypatch.setattr("gbnf.llama_server._build.CMAKE_FLAGS", [*CMAKE_FLAGS, "-DGGML_AVX512=OFF"])
    assert built_binary() != first
    assert built_binary().parent.parent == first.parent.parent


def test_a_cuda_build_is_cached_apart_and_chosen_by_gbnf_cuda_or_by_a_gpu_with_nvcc(monkeypatch):
    cpu, gpu = built_binary(cuda=False), built_binary(cuda=True)
    assert cpu != gpu and cpu.parent.parent == gpu.parent.parent
    assert "-DGGML_CUDA=ON" in cmake_flags(cuda=True) and "-DGGML_CUDA=ON" not in cmake_flags(cuda=False)
    assert cmake_flags(cuda=False)[:len(CMAKE_FLAGS)] == CMAKE_FLAGS
    for value, wanted in [("1", gpu), ("on", gpu), ("0", cpu), ("", cpu)]:
        monkeypatch.setenv("GBNF_CUDA", value)
        assert built_binary() == wanted
    monkeypatch.delenv("GBNF_CUDA")
    monkeypatch.setattr("gbnf.llama_server._build.shutil.which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr("gbnf.llama_server._build.gpus", lambda: ("NVIDIA H100 80GB HBM3, 81559 MiB",))
    assert cuda_wanted() and built_binary() == gpu
    monkeypatch.setattr("gbnf.llama_server._build.gpus", lambda: ())
    assert not cuda_wanted() and built_binary() == cpu


def test_a_llguidance_build_is_cached_apart_and_is_the_default_on_linux(monkeypatch):
    plain, guided = built_binary(llguidance=False), built_binary(llguidance=True)
    assert plain != guided and plain.parent.parent == guided.parent.parent
    assert LLGUIDANCE_FLAG in cmake_flags(llguidance=True) and LLGUIDANCE_FLAG not in cmake_flags(llguidance=False)
    assert f"-DGBNF_LLGUIDANCE_VERSION={importlib.metadata.version('llguidance')}" in cmake_flags(llguidance=True)
    for value, wanted in [("1", guided), ("0", plain), ("off", plain)]:
        monkeypatch.setenv(ENV_LLGUIDANCE, value)
        assert built_binary() == wanted
    monkeypatch.delenv(ENV_LLGUIDANCE)
    assert llguidance_wanted() == (platform.system() == "Linux")


def test_the_stubs_give_every_python_name_the_wheels_library_needs(tmp_path):
    """What the build links: the wheel's library refers to the Python C API, and the stubs
    define each name, objects as objects and functions as functions that abort; a program
    linked against both loads and runs."""
    library = wheel_llguidance_library()
    source = python_stubs(library)
    assert "char PyExc_TypeError[64];" in source and "char _Py_NoneStruct[64];" in source
    assert 'void PyLong_FromLong(void) { gone("PyLong_FromLong"); }' in source
    (tmp_path / "libllguidance.so").write_bytes(library.read_bytes())
    (tmp_path / "stubs.c").write_text(source)
    (tmp_path / "main.c").write_text('#include <stdio.h>\nconst char *llg_get_version(void);\n'
                                     'int main(void) { puts(llg_get_version()); return 0; }\n')
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(tmp_path / "libstubs.so"), str(tmp_path / "stubs.c")],
                   check=True)
    subprocess.run(["cc", "-o", str(tmp_path / "main"), str(tmp_path / "main.c"), f"-L{tmp_path}", "-lllguidance",
                    "-Wl,--no-as-needed", "-lstubs", f"-Wl,-rpath,{tmp_path}"], check=True)
    done = subprocess.run([str(tmp_path / "main")], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and done.stdout.startswith("llguidance@"), done.stderr  # its version


@pytest.mark.parametrize("layers, flags", [(None, []), (0, ["-ngl", "0"]), (20, ["-ngl", "20"]), (-1, ["-ngl", "all"])])
def test_gpu_layers_reach_the_llama_server_command(layers, flags):
    command = LlamaServer(binary="/bin/true", n_gpu_layers=layers).command()
    found = command[command.index("-ngl"):command.index("-ngl") + 2] if "-ngl" in command else []
    assert found == flags


@pytest.mark.model
def test_gpu_layers_asked_of_a_cpu_build_in_process_still_decode():
    backend = LlamaCppBackend(n_gpu_layers=-1, n_ctx=512)
    try:
        assert backend.complete([{"role": "user", "content": "Hi"}], None, Sampling(max_tokens=4)).text
    finally:
        backend.close()


def test_a_native_crash_is_one_line_naming_the_signal(capfd):
    code = supervised(lambda: ctypes.string_at(0), "probe")
    assert code == 128 + 11
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("gbnf: probe crashed with SIGSEGV in native code called from ")
    assert "GBNF_REPACK=0" in err[0] and "gbnf doctor" in err[0]


def test_a_supervised_command_keeps_its_output_and_exit_code(capfd):
    def run() -> int:
        print("out")
        print("err", file=sys.stderr)
        return 3

    assert supervised(run, "probe") == 3
    captured = capfd.readouterr()
    assert (captured.out, captured.err) == ("out\n", "err\n")
    assert supervised(lambda: sys.exit(4), "probe") == 4


@pytest.mark.parametrize(("code", "name"), [(-11, "SIGSEGV"), (139, "SIGSEGV"), (-6, "SIGABRT"), (1, None)])
def test_signal_names(code, name):
    assert signal_name(code) == name
