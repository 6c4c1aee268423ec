"""``gbnf serve`` as a child process, for scripts, benches and tests: started, waited for, stopped."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from types import TracebackType
from typing import IO

from gbnf.errors import GbnfError

READY = "gbnf serve ready at "


class ServeProcess:
    """``gbnf serve --port 0 ARGS``; use as a context manager so nothing is left running."""

    def __init__(self, *args: str, startup_timeout: float = 120.0) -> None:
        self.command = [sys.executable, "-m", "gbnf", "serve", "--port", "0", *args]
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen[str] | None = None
        self.url = ""
        self.returncode: int | None = None
        self.stderr = ""
        """What it wrote to its error output so far (all of it once stopped)."""
        self._errors = self._output = threading.Thread()

    def start(self) -> ServeProcess:
        """Start it and wait for its ready line; raise with its error output if it does not come."""
        self.process = process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                  text=True)
        assert process.stderr is not None
        self._errors = threading.Thread(target=self._drain, args=(process.stderr,), daemon=True)
        self._errors.start()  # read as it comes, so a chatty server never blocks on a full pipe
        line: list[str] = []
        out = process.stdout
        assert out is not None
        reader = threading.Thread(target=lambda: line.append(out.readline()), daemon=True)
        reader.start()
        reader.join(self.startup_timeout)
        if not line or not line[0].startswith(READY):
            self.stop()
            raise GbnfError(f"{' '.join(self.command)} did not get ready within {self.startup_timeout:g}s:\n"
                            f"{self.stderr[-2000:]}")
        self.url = line[0][len(READY):].strip()
        self._output = threading.Thread(target=out.read, daemon=True)  # whatever else it prints, unread
        self._output.start()
        return self

    def stop(self, grace: float = 15.0) -> int:
        """SIGTERM (then kill, after ``grace`` seconds); returns the exit code, keeps ``stderr``."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(grace)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for reader in (self._errors, self._output):
            if reader.ident is not None:  # started
                reader.join()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        self.returncode = self.process.returncode
        return self.returncode

    def _drain(self, stream: IO[str]) -> None:
        for line in stream:
            self.stderr += line

    def __enter__(self) -> ServeProcess:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()
