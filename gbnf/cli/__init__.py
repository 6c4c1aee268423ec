"""The ``gbnf`` command, ``gbnf doctor``, and the forked child that tells a native crash."""

from gbnf.cli._doctor import inprocess_decode, server_decode
from gbnf.cli._main import command_line, run, shaping_changes
from gbnf.cli._supervise import supervised

__all__ = ["command_line", "inprocess_decode", "run", "server_decode", "shaping_changes", "supervised"]
