"""Run a command in a forked child, so that a crash in native code is told in one line.

A segmentation fault inside llama.cpp kills the process that made it, with nothing printed but a
shell's "exit 139". The ``gbnf`` command therefore runs in a child: the parent waits, forwards
SIGTERM and SIGHUP, and when a signal ends the child it prints what crashed (from the child's
:mod:`faulthandler` record) and what to do.
"""

from __future__ import annotations

import faulthandler
import os
import re
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable

from gbnf.backends import crash_line, die_with_parent, signal_name

_FRAME = re.compile(r'File "([^"]+)", line (\d+) in (\S+)')


def supervised(run: Callable[[], int], what: str) -> int:
    """``run()`` in a forked child where ``os.fork`` exists, else here; its exit code, or, when a
    signal ends it, one line on stderr naming ``what`` crashed and 128 + the signal's number."""
    if not hasattr(os, "fork"):
        return run()
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as record:
        pid = os.fork()
        if pid == 0:
            os._exit(_child(run, record.fileno()))
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C reaches the child itself
        for number in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, lambda sig, _frame: os.kill(pid, sig))
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        if code >= 0 or signal_name(code) == "SIGINT":
            return code if code >= 0 else 128 - code
        record.seek(0)
        frame = _FRAME.search(record.read().decode("utf-8", "replace"))
        where = f"{frame[1].rpartition('site-packages/')[2]}:{frame[2]} ({frame[3]})" if frame else ""
        if line := crash_line(what, code, where):
            print(f"gbnf: {line}", file=sys.stderr)
        return 128 - code


def _child(run: Callable[[], int], record: int) -> int:
    """The child's side: record a crash's Python stack, run, flush, and give the exit code."""
    die_with_parent()
    faulthandler.enable(file=record, all_threads=False)
    code = 1
    try:
        code = run()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    except BaseException:  # a bug: show it as Python would, then exit 1
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    return code
