"""What runs a tool: a manifest's ``[executor]`` table, checked when the manifest loads and run
with a call's arguments.

One of three kinds: ``command`` (an argument list run without a shell; the arguments as JSON on
standard input, the result on standard output), ``python`` (``"package.module:function"``,
called with the arguments; a module file beside the manifest comes first) or ``url`` (an HTTP
endpoint that takes the arguments as a JSON POST). Every failure (a missing program, a non-zero
exit, a timeout, too much output, output that is not what the table promised, an HTTP error)
raises :class:`ExecutorFailed` with one plain sentence, which the planner hands to the model.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from gbnf.errors import ExecutorFailed, ManifestError

KINDS = ("command", "python", "url")
OUTPUTS = ("text", "json")
TIMEOUT = 30.0
"""Seconds a command or an HTTP endpoint may take, unless its table says otherwise."""
MAX_OUTPUT = 1_000_000
"""Bytes of output a command or an HTTP endpoint may return; more is a failure, not a cut."""
_KEYS = {*KINDS, "timeout", "output", "read_only"}
_STDERR_TAIL = 500


@dataclass(frozen=True)
class ExecutorSpec:
    """A manifest's ``[executor]``: what runs the tool (``target``: the argument list, the
    ``module:function`` or the URL), how long it may take, what its output is, and whether it
    only reads (``read_only``: a dry run runs it)."""

    kind: Literal["command", "python", "url"]
    target: tuple[str, ...] | str
    timeout: float = TIMEOUT
    output: Literal["text", "json"] = "text"
    read_only: bool = False
    where: str = "<memory>"
    base: Path = Path(".")

    def __call__(self, **arguments: Any) -> Any:
        """The result of one call (raises :class:`ExecutorFailed`; a Python callable raises what it raises)."""
        if self.kind == "command":
            return _output(_command(self._argv(), arguments, self.timeout), self.output)
        if self.kind == "url":
            return _output(_post(str(self.target), arguments, self.timeout), self.output)
        return self.function()(**arguments)

    def function(self) -> Callable[..., Any]:
        """The Python callable a ``python`` executor names (raises :class:`ExecutorFailed`)."""
        module_name, _, name = str(self.target).partition(":")
        beside = self.base / (module_name.replace(".", "/") + ".py")
        try:
            module = _module_at(beside.resolve()) if beside.is_file() else importlib.import_module(module_name)
        except Exception as exc:  # the module's own import failed: say so, whatever it raised
            raise ExecutorFailed(f"cannot import {module_name} ({self.where}): {type(exc).__name__}: {exc}") from None
        function = getattr(module, name, None)
        if not callable(function):
            raise ExecutorFailed(f"{module_name} has no function {name!r} ({self.where})")
        return function

    def check(self) -> None:
        """What can be checked before a call: the program exists, the function imports."""
        if self.kind == "python":
            self.function()
        elif self.kind == "command":
            program = self._argv()[0]
            if not (Path(program).is_file() if "/" in program else _on_path(program)):
                raise ExecutorFailed(f"program not found: {program}")

    def _argv(self) -> list[str]:
        """The argument list, each ``./`` or ``../`` argument read from the manifest's folder."""
        return [str(self.base / arg) if arg.startswith(("./", "../")) else arg for arg in self.target]


def executor_from_dict(data: Any, where: str, base: Path) -> ExecutorSpec:
    """Check a manifest's ``[executor]`` table (raises :class:`ManifestError` naming the key)."""
    if not isinstance(data, dict):
        raise ManifestError(where, "executor", "must be a table")
    for key in data:
        if key not in _KEYS:
            raise ManifestError(where, f"executor.{key}", f"unknown key (expected one of {', '.join(sorted(_KEYS))})")
    kinds = [k for k in KINDS if k in data]
    if len(kinds) != 1:
        raise ManifestError(where, "executor", f"give exactly one of {', '.join(KINDS)}")
    kind = kinds[0]
    target = data[kind]
    if kind == "command":
        if isinstance(target, str):
            raise ManifestError(where, "executor.command", "must be a list of arguments (no shell): "
                                f"[{', '.join(json.dumps(a) for a in target.split())}]")
        if not isinstance(target, list) or not target or not all(isinstance(a, str) and a for a in target):
            raise ManifestError(where, "executor.command", "must be a non-empty list of non-empty strings")
        target = tuple(target)
    elif kind == "python":
        if not isinstance(target, str) or target.count(":") != 1 or not all(target.split(":")):
            raise ManifestError(where, "executor.python", 'must be "package.module:function"')
    elif not isinstance(target, str) or not target.startswith(("http://", "https://")):
        raise ManifestError(where, "executor.url", "must be an http:// or https:// URL")
    timeout = data.get("timeout", TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise ManifestError(where, "executor.timeout", "must be a number of seconds above 0")
    output = data.get("output", "text")
    if output not in OUTPUTS:
        raise ManifestError(where, "executor.output", f"must be one of {', '.join(OUTPUTS)}")
    if kind == "python" and "output" in data:
        raise ManifestError(where, "executor.output", "a Python callable returns its value: output is for a "
                            "command or a URL")
    read_only = data.get("read_only", False)
    if not isinstance(read_only, bool):
        raise ManifestError(where, "executor.read_only", "must be true or false")
    return ExecutorSpec(kind, target, float(timeout), output, read_only, where, base)  # type: ignore[arg-type]


@functools.cache
def _module_at(path: Path) -> ModuleType:
    """The module of a Python file, imported once (under a name of its own, so that two
    folders' ``orders.py`` are two modules)."""
    name = "gbnf_executor_" + re.sub(r"\W", "_", str(path.with_suffix("")))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import would: dataclasses and pickling look it up
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _command(argv: list[str], arguments: dict[str, Any], timeout: float) -> bytes:
    """A command's standard output, the arguments written to its standard input as JSON."""
    try:
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except FileNotFoundError:
        raise ExecutorFailed(f"program not found: {argv[0]}") from None
    except OSError as exc:
        raise ExecutorFailed(f"cannot run {argv[0]}: {exc.strerror or exc}") from None
    out, err = bytearray(), bytearray()

    def feed() -> None:
        try:
            assert process.stdin is not None
            process.stdin.write(json.dumps(arguments, ensure_ascii=False).encode())
            process.stdin.close()
        except OSError:  # the program did not read its input: that is its business
            pass

    def drain(stream: Any, into: bytearray, cap: int, kill: bool) -> None:
        while chunk := stream.read(65536):
            into.extend(chunk)
            if len(into) > cap:
                if kill:
                    process.kill()
                    return
                del into[:-cap]

    threads = [threading.Thread(target=feed, daemon=True),
               threading.Thread(target=drain, args=(process.stdout, out, MAX_OUTPUT, True), daemon=True),
               threading.Thread(target=drain, args=(process.stderr, err, _STDERR_TAIL, False), daemon=True)]
    for thread in threads:
        thread.start()
    try:
        code = process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise ExecutorFailed(f"{argv[0]} did not finish within {timeout:g} s") from None
    finally:
        for thread in threads:
            thread.join(5)
    if len(out) > MAX_OUTPUT:
        raise ExecutorFailed(f"{argv[0]} wrote more than {MAX_OUTPUT:,} bytes")
    if code != 0:
        why = err.decode("utf-8", "replace").strip().splitlines()
        raise ExecutorFailed(f"{argv[0]} exited with status {code}" + (f": {why[-1]}" if why else ""))
    return bytes(out)


def _post(url: str, arguments: dict[str, Any], timeout: float) -> bytes:
    """An HTTP endpoint's answer to the arguments as a JSON POST."""
    import httpx

    try:
        with httpx.stream("POST", url, json=arguments, timeout=timeout) as response:
            body = bytearray()
            for chunk in response.iter_bytes():
                body.extend(chunk)
                if len(body) > MAX_OUTPUT:
                    raise ExecutorFailed(f"{url} answered more than {MAX_OUTPUT:,} bytes")
            if response.status_code >= 400:
                text = body.decode("utf-8", "replace").strip()[:_STDERR_TAIL]
                raise ExecutorFailed(f"{url} answered HTTP {response.status_code}" + (f": {text}" if text else ""))
    except httpx.TimeoutException:
        raise ExecutorFailed(f"{url} did not answer within {timeout:g} s") from None
    except httpx.HTTPError as exc:
        raise ExecutorFailed(f"cannot reach {url}: {exc}") from None
    return bytes(body)


def _output(output: bytes, kind: str) -> Any:
    """Output as the table promised: JSON, or text (stripped)."""
    text = output.decode("utf-8", "replace").strip()
    if kind == "text":
        return text
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ExecutorFailed(f"the output is not JSON ({exc}): {text[:80]!r}") from None


def _on_path(program: str) -> bool:
    import shutil

    return shutil.which(program) is not None
