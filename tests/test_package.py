"""The package's shape: one public face, one error tree, no import cycles."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import gbnf
from gbnf import errors

PACKAGE = Path(gbnf.__file__).parent


def test_every_public_name_resolves_from_the_package():
    missing = [name for name in gbnf.__all__ if getattr(gbnf, name, None) is None]
    assert missing == []


def test_every_exception_is_a_gbnf_error_defined_in_errors():
    defined = {name: [cls.__name__ for _, cls in inspect.getmembers(importlib.import_module(name), inspect.isclass)
                      if issubclass(cls, BaseException) and cls.__module__ == name]
               for name in _modules() if not name.endswith("__main__")}
    assert {name: classes for name, classes in defined.items() if classes and name != "gbnf.errors"} == {}
    assert all(issubclass(getattr(errors, name), gbnf.GbnfError) for name in defined["gbnf.errors"])


def test_no_import_cycles_between_modules():
    graph = {name: _imports(path) for name, path in _modules().items()}
    cycles = []

    def walk(name: str, stack: list[str]) -> None:
        for dep in graph[name]:
            if dep in stack:
                cycles.append(stack[stack.index(dep):] + [dep])
            elif dep not in done:
                walk(dep, stack + [dep])
        done.add(name)

    done: set[str] = set()
    for name in graph:
        walk(name, [name])
    assert cycles == []


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(path: Path) -> set[str]:
    """The package modules a module imports when it is loaded (not under TYPE_CHECKING, not in functions)."""
    known = _modules()
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for item in [node] if not isinstance(node, (ast.If, ast.Try)) else ast.walk(node):
            if isinstance(item, ast.ImportFrom) and item.module and item.module.split(".")[0] == "gbnf":
                found |= {f"{item.module}.{a.name}" if f"{item.module}.{a.name}" in known else item.module
                          for a in item.names}
            elif isinstance(item, ast.Import):
                found |= {a.name for a in item.names if a.name.split(".")[0] == "gbnf"}
    return found & set(known)

