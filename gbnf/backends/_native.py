"""What native llama.cpp may do on this CPU, and a native crash told in one line.

llama.cpp's CPU backend has *extra buffer types*: weights repacked for wider SIMD kernels and,
where the library was compiled for it, Intel AMX tiles. The AMX kernels fault on some machines
(a general protection fault at ``ldtilecfg`` in ``ggml_backend_amx_mul_mat``: worker threads
without the tile permission), so both backends turn the extra buffer types off where the CPU
has AMX and the llama.cpp they run was compiled with AMX kernels. ``$GBNF_REPACK`` decides
instead when set: ``1`` keeps them on, ``0`` turns them off on any CPU.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal
import sys
from pathlib import Path

from gbnf.errors import BackendError

ENV_REPACK = "GBNF_REPACK"
AMX_FLAGS = ("amx_tile", "amx_int8", "amx_bf16")
SIMD_FLAGS = ("sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512_vnni", "avx512_bf16", *AMX_FLAGS,
              "neon", "asimd", "sve", "i8mm")
"""The CPU features that decide which llama.cpp kernels run (x86 and Arm names)."""


@functools.cache
def cpuinfo() -> dict[str, str]:
    """The first CPU's fields as Linux reports them (empty where there is no ``/proc/cpuinfo``)."""
    try:
        text = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return {}
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    return fields


def cpu_flags() -> frozenset[str]:
    """The CPU's feature flags (x86 ``flags``, Arm ``Features``)."""
    fields = cpuinfo()
    return frozenset((fields.get("flags") or fields.get("Features") or "").split())


def cpu_has_amx() -> bool:
    """Whether the CPU has Intel AMX tiles (Sapphire Rapids and later Xeons)."""
    return any(flag in cpu_flags() for flag in AMX_FLAGS)


def extra_buffers(amx_kernels: bool) -> bool:
    """Whether llama.cpp may use its extra CPU buffer types (repacked weights, AMX): ``$GBNF_REPACK``
    when set, else not where the CPU has AMX and the llama.cpp build has ``amx_kernels``."""
    value = os.environ.get(ENV_REPACK, "").strip().lower()
    if value in ("1", "on", "true", "yes"):
        return True
    if value in ("0", "off", "false", "no"):
        return False
    if value:
        raise BackendError(f"{ENV_REPACK}={os.environ[ENV_REPACK]!r}: use 1 (extra CPU buffer types on) "
                           "or 0 (off)")
    return not (amx_kernels and cpu_has_amx())


def signal_name(returncode: int) -> str | None:
    """``SIGSEGV`` for a process that a signal ended (a negative return code, or 128+N from a shell)."""
    number = -returncode if returncode < 0 else returncode - 128 if 128 < returncode < 160 else 0
    try:
        return signal.Signals(number).name if number else None
    except ValueError:
        return f"signal {number}"


def crash_line(what: str, returncode: int, where: str = "") -> str | None:
    """One line naming a crash of ``what`` (in native code, called ``where``) and what to do, or
    None when ``returncode`` is no crash (an exit code, or a signal sent to stop the process)."""
    name = signal_name(returncode)
    if name is None or name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE"):
        return None
    if name == "SIGKILL":
        return f"{what} was killed with SIGKILL (by the system when memory runs out, or by a user)"
    called = f" called from {where}" if where else ""
    return (f"{what} crashed with {name} in native code{called}; {ENV_REPACK}=0 turns off llama.cpp's extra CPU "
            "kernels (AMX, repacked weights), and `gbnf doctor` prints what a bug report needs")


def die_with_parent() -> None:
    """In a child process: on Linux, ask for SIGTERM when the parent dies, so a killed parent
    leaves nothing running."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
