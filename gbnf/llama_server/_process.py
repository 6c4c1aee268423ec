"""Run a real ``llama-server``: free loopback port, wait until healthy, capture the log, stop cleanly."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType

from gbnf.backends import ServerBackend, crash_line, die_with_parent, extra_buffers, resolve_model
from gbnf.errors import ServerError
from gbnf.llama_server._build import built_binary, ensure_llama_server


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def _main_thread() -> bool:
    """Whether this is the main thread: Linux signals a child when the *thread* that started it
    ends, so a server started from any other thread is not tied to its parent's death (it would
    die with the thread); :meth:`LlamaServer.stop` and the context manager still stop it."""
    return threading.current_thread() is threading.main_thread()


class LlamaServer:
    """A llama-server process; use as a context manager so nothing is left running."""

    def __init__(
        self,
        model: str | Path | None = None,
        *,
        binary: str | Path | None = None,
        host: str = "127.0.0.1",
        port: int | None = None,
        n_ctx: int = 8192,
        threads: int | None = None,
        parallel: int = 1,
        n_gpu_layers: int | None = None,
        extra_args: tuple[str, ...] = (),
        log_path: str | Path | None = None,
        startup_timeout: float = 120.0,
    ) -> None:
        self.model = resolve_model(model)
        self.binary = Path(binary) if binary else None
        self.host = host
        self.port = port or free_port(host)
        self.n_ctx = n_ctx
        self.threads = threads or os.cpu_count() or 2
        self.parallel = parallel
        self.n_gpu_layers = n_gpu_layers
        self.extra_args = extra_args
        self.log_path = Path(log_path) if log_path else Path(tempfile.mkstemp(prefix="llama-server-", suffix=".log")[1])
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def command(self) -> list[str]:
        """The command line; ``--no-repack`` where llama.cpp's extra CPU buffer types are not safe
        (:func:`gbnf.backends._native.extra_buffers`: a binary other than our AMX-free build may hold AMX kernels)."""
        binary = self.binary or ensure_llama_server()
        repack = [] if extra_buffers(amx_kernels=binary != built_binary()) else ["--no-repack"]
        gpu = [] if self.n_gpu_layers is None else ["-ngl", "all" if self.n_gpu_layers < 0 else str(self.n_gpu_layers)]
        return [str(binary), "-m", str(self.model), "--host", self.host, "--port", str(self.port),
                "-c", str(self.n_ctx), "-t", str(self.threads), "-np", str(self.parallel), "--no-warmup", *repack, *gpu,
                *self.extra_args]

    def start(self) -> LlamaServer:
        """Start the process and wait until ``/health`` answers ok; raise with the log's tail if not."""
        if not self.model.is_file():
            raise ServerError(f"model file {self.model} does not exist")
        command = self.command()
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            preexec_fn=die_with_parent if _main_thread() else None)
        deadline = time.monotonic() + self.startup_timeout
        with ServerBackend(self.url, timeout=2.0) as backend:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    code = self.process.returncode
                    why = crash_line("llama-server", code) or f"llama-server exited with code {code} while starting"
                    raise ServerError(f"{why} ({' '.join(command)}):\n{self.log_tail()}")
                try:
                    if backend.health() == "ok":
                        return self
                except ServerError:
                    pass
                time.sleep(0.2)
        self.stop()
        raise ServerError(f"llama-server did not become healthy within {self.startup_timeout:g}s:\n{self.log_tail()}")

    def stop(self, grace: float = 10.0) -> None:
        """Terminate (then kill, after ``grace`` seconds) and wait: nothing is left running."""
        end_process(self.process, grace)

    def log_tail(self, lines: int = 20) -> str:
        """The last lines of the server's log."""
        return log_tail(self.log_path, lines)

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def end_process(process: subprocess.Popen[bytes] | None, grace: float, group: bool = False) -> None:
    """SIGTERM ``process`` (its whole process group with ``group``), SIGKILL after ``grace``
    seconds, and wait: nothing is left running."""
    if process is None or process.poll() is not None:
        return
    send = (lambda sig: os.killpg(process.pid, sig)) if group else process.send_signal
    send(signal.SIGTERM)
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        send(signal.SIGKILL)
        process.wait()


def log_tail(path: Path, lines: int) -> str:
    """The last ``lines`` lines of a server's log file."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"
