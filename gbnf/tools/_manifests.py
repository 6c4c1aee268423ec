"""Executor manifests: one TOML file per tool, checked and loaded into :class:`Tool` objects."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from gbnf.compiler import MAX_DEPTH, check_schema, close_objects, compile_schema_grammar, key_path
from gbnf.errors import ManifestError, SchemaError
from gbnf.tools._executors import executor_from_dict
from gbnf.tools._tool import KINDS, Tool

_TOP_KEYS = {"name", "description", "kind", "parameters", "filter", "additional_properties", "executor"}
_FILTER_KEYS = {"markers", "provider", "min_canonical"}
_BAD_NAME = re.compile(r'[\s"\\\x00-\x1f\x7f]')


def load_manifests(path: str | Path) -> list[Tool]:
    """Load every ``*.toml`` manifest in a folder (or one file), sorted by file name.

    Raises :class:`ManifestError` naming the file and key path of the first problem.
    """
    root = Path(path)
    if root.is_dir():
        files = sorted(root.glob("*.toml"))
        if not files:
            raise ManifestError(str(root), "", "no *.toml manifest in this folder")
    elif root.is_file():
        files = [root]
    else:
        raise ManifestError(str(root), "", "no such file or folder")
    tools: list[Tool] = []
    seen: dict[str, str] = {}
    for file in files:
        tool = load_manifest(file)
        if tool.name in seen:
            raise ManifestError(str(file), "name", f"duplicate tool name {tool.name!r} (also in {seen[tool.name]})")
        seen[tool.name] = str(file)
        tools.append(tool)
    return tools


def load_manifest(file: str | Path) -> Tool:
    """Load and check one manifest file."""
    file = Path(file)
    where = str(file)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(where, "", f"invalid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(where, "", f"cannot read: {exc}") from None
    return tool_from_dict(data, where, file.parent)


def tool_from_dict(data: dict[str, Any], where: str = "<memory>", base: Path | None = None) -> Tool:
    """Check a manifest's data (as parsed from TOML) and build the :class:`Tool`."""
    for key in data:
        if key not in _TOP_KEYS:
            raise ManifestError(where, key, f"unknown key (expected one of {', '.join(sorted(_TOP_KEYS))})")
    name = _require(data, "name", str, where)
    if not name or len(name) > 64 or _BAD_NAME.search(name):
        raise ManifestError(where, "name", f"{name!r} cannot be a tool name: use 1-64 characters, "
                            "no spaces, quotes, backslashes or control characters")
    description = _require(data, "description", str, where)
    kind = data.get("kind", "canonical")
    if kind not in KINDS:
        raise ManifestError(where, "kind", f"{kind!r} is not one of {', '.join(KINDS)}")
    parameters = _parameters(data.get("parameters", {"type": "object", "properties": {}}), where, base)
    open_objects = data.get("additional_properties", False)
    if not isinstance(open_objects, bool):
        raise ManifestError(where, "additional_properties", "must be true or false")
    if not open_objects:
        parameters = close_objects(parameters)
    filters = data.get("filter", {})
    if not isinstance(filters, dict):
        raise ManifestError(where, "filter", "must be a table")
    for key in filters:
        if key not in _FILTER_KEYS:
            raise ManifestError(where, f"filter.{key}",
                                f"unknown key (expected one of {', '.join(sorted(_FILTER_KEYS))})")
    markers = filters.get("markers", [])
    if not isinstance(markers, list) or not all(isinstance(m, str) and m.strip() for m in markers):
        raise ManifestError(where, "filter.markers", "must be a list of non-empty strings")
    provider = filters.get("provider")
    if provider is not None and not isinstance(provider, str):
        raise ManifestError(where, "filter.provider", "must be a string")
    min_canonical = filters.get("min_canonical")
    if min_canonical is not None and (not isinstance(min_canonical, int) or min_canonical < 0):
        raise ManifestError(where, "filter.min_canonical", "must be a whole number >= 0")
    executor = executor_from_dict(data["executor"], where, base or Path(".")) if "executor" in data else None
    return Tool(name, description, parameters, kind, tuple(markers), provider, min_canonical, where, executor)


def _require(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise ManifestError(where, key, "missing")
    if not isinstance(data[key], kind):
        raise ManifestError(where, key, f"must be a {kind.__name__}, not {type(data[key]).__name__}")
    return data[key]


def _parameters(value: Any, where: str, base: Path | None) -> dict[str, Any]:
    """The arguments' JSON Schema: a table, or the path of a .json file beside the manifest."""
    if isinstance(value, str):
        path = (base or Path(".")) / value
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ManifestError(where, "parameters", f"cannot read JSON Schema from {path}: {exc}") from None
    if not isinstance(value, dict):
        raise ManifestError(where, "parameters", "must be a table (a JSON Schema) or a .json file path")
    try:
        check_schema(value, formats=True)
    except SchemaError as exc:
        raise ManifestError(where, key_path("parameters", exc.path), exc.problem) from None
    if value.get("type", "object") != "object":
        raise ManifestError(where, "parameters.type", f"tool arguments must be an object, not {value['type']!r}")
    try:
        compile_schema_grammar(value, max_depth=MAX_DEPTH)  # as deep as a pool compiles tool arguments
    except SchemaError as exc:
        raise ManifestError(where, key_path("parameters", exc.path), exc.problem) from None
    return value
