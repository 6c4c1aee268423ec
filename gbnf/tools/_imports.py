"""Import tool definitions users did not write: OpenAI tools, MCP tools/list, BFCL functions.

Each importer returns :class:`Tool` objects (checked like manifests); :func:`write_manifests`
writes them as TOML manifests with the schema in a ``.schema.json`` file beside each (JSON
Schema can hold ``null``, TOML cannot). The original tool name is kept: it is what the model
emits, dots and all.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from gbnf import _jsonread as jsonread
from gbnf.compiler import validity
from gbnf.errors import ManifestError
from gbnf.tools._manifests import tool_from_dict
from gbnf.tools._tool import Tool

Source = Literal["openai", "mcp", "bfcl"]

# BFCL's Python-ish and Java type names, mapped as BFCL maps them (except ``any``: any JSON
# value, which includes the string BFCL falls back to).
_BFCL_TYPES: dict[str, Any] = {
    "dict": "object", "float": "number", "tuple": "array", "any": None, "double": "number",
    "String": "string", "char": "string", "Character": "string", "int": "integer", "Integer": "integer",
    "long": "integer", "Long": "integer", "short": "integer", "Short": "integer", "byte": "integer",
    "Byte": "integer", "Float": "number", "Double": "number", "BigDecimal": "number", "Boolean": "boolean",
    "HashMap": "object", "Map": "object", "Hashtable": "object", "Object": "object", "ArrayList": "array",
    "List": "array", "Array": "array", "Set": "array", "LinkedList": "array",
}


@dataclass
class Imported:
    """What an import made of a file or data: the ``tools``, an error per entry ``skipped``
    (naming the file, the entry and the key path), and ``notes`` on quirks repaired."""

    tools: list[Tool] = field(default_factory=list)
    skipped: list[ManifestError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def import_tools(data: Any, source: Source, where: str = "<data>") -> list[Tool]:
    """Tools from already-parsed data of the given source; the first bad entry is an error."""
    imported = import_each(data, source, where)
    if imported.skipped:
        raise imported.skipped[0]
    return imported.tools


def import_each(data: Any, source: Source, where: str = "<data>") -> Imported:
    """Every tool that can be imported from ``data``, and why each other entry cannot: one bad
    entry never costs the others. A schema must be a JSON object: imported data never names a
    file to read."""
    readers = {"openai": _openai_entries, "mcp": _mcp_entries, "bfcl": _bfcl_entries}
    if source not in readers:
        raise ManifestError(where, "", f"unknown source {source!r} (expected openai, mcp or bfcl)")
    out = Imported()
    seen: dict[str, Any] = {}
    for key, entry in readers[source](data, where):
        if isinstance(entry, ManifestError):
            out.skipped.append(entry)
            continue
        name, description, schema = entry
        if schema is not None and not isinstance(schema, dict):
            out.skipped.append(ManifestError(where, f"{key}.parameters", f"{name}: must be a JSON Schema object, "
                                             f"not {type(schema).__name__}"))
            continue
        notes: list[str] = []
        schema = bfcl_schema(schema, notes) if source == "bfcl" else (schema or {"type": "object", "properties": {}})
        if name in seen:
            if seen[name] != schema:
                out.skipped.append(ManifestError(where, f"{key}.name", f"two different tools are both named {name!r}"))
            continue
        try:
            tool = tool_from_dict({"name": name, "description": description or name, "parameters": schema},
                                  f"{where}{key} ({name})")
        except ManifestError as exc:
            out.skipped.append(exc)
            continue
        seen[name] = schema
        out.tools.append(tool)
        out.notes += [f"{where}{key} ({name}): {note}" for note in notes]
    return out


def import_groups(data: Any, source: Source, where: str = "<data>") -> dict[str, Imported]:
    """Imports by pool: BFCL entries (``{"id", "function": [...]}``) are one pool each, keyed by
    their id made a safe, unique folder name (``../x`` becomes ``x``), since different entries
    may define different functions under one name; anything else is one pool, keyed ``""``."""
    if source == "bfcl" and isinstance(data, list) and data and all(
            isinstance(e, dict) and "id" in e and "function" in e for e in data):
        groups: dict[str, Imported] = {}
        for entry in data:
            stem = _safe_stem(str(entry["id"]), "entry")
            folder = next(f"{stem}_{n}" if n else stem for n in range(len(data) + 1)
                          if (f"{stem}_{n}" if n else stem).lower() not in {g.lower() for g in groups})
            groups[folder] = import_each([entry], source, f"{where} {entry['id']}")
        return groups
    return {"": import_each(data, source, where)}


def read_import_file(path: str | Path, source: Source) -> dict[str, Imported]:
    """Imports by pool (see :func:`import_groups`) from a JSON file, or JSON lines."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(str(path), "", f"cannot read: {exc}") from None
    try:
        data = jsonread.loads(text)
    except json.JSONDecodeError:
        try:
            data = [jsonread.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            raise ManifestError(str(path), "", f"neither JSON nor JSON lines: {exc}") from None
    if not data:
        raise ManifestError(str(path), "", "holds no tools")
    return import_groups(data, source, str(path))


def write_manifests(tools: list[Tool], directory: str | Path, *, force: bool = False
                    ) -> tuple[list[Path], list[ManifestError]]:
    """Write one ``NAME.toml`` (and ``NAME.schema.json``) per tool, each file atomically;
    returns the TOML paths written and an error per tool whose manifest exists already
    (overwritten only with ``force``)."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written, refused = [], []
    stems: set[str] = set()
    for tool in tools:
        stem = _safe_stem(tool.name, "tool")
        while stem.lower() in stems:
            stem += "_"
        stems.add(stem.lower())
        manifest, schema_file = out / f"{stem}.toml", out / f"{stem}.schema.json"
        if not force and (manifest.exists() or schema_file.exists()):
            refused.append(ManifestError(str(manifest), "", f"{tool.name}: exists already (--force overwrites it)"))
            continue
        lines = [f"name = {json.dumps(tool.name, ensure_ascii=False)}",
                 f"description = {json.dumps(tool.description, ensure_ascii=False)}",
                 f"parameters = {json.dumps(schema_file.name)}",
                 "additional_properties = true" if _open(tool.parameters) else ""]
        _write_atomically(schema_file, json.dumps(tool.parameters, indent=2, ensure_ascii=False) + "\n")
        _write_atomically(manifest, "\n".join(line for line in lines if line) + "\n")
        written.append(manifest)
    return written, refused


def _write_atomically(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all (a crash never leaves a half-written file)."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def _safe_stem(text: str, fallback: str) -> str:
    """``text`` as a file or folder name: letters, digits, ``._-`` only, never ``.``-led."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or fallback


def bfcl_schema(schema: Any, notes: list[str] | None = None, path: str = "parameters") -> Any:
    """A BFCL parameter schema as JSON Schema: type names mapped, ``optional`` flags dropped, and
    BFCL's known quirks repaired (each repair appended to ``notes``)."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "optional" and isinstance(value, bool):
            continue
        if key == "type" and value == "":  # BFCL's simple_javascript_23: the type is left blank
            if notes is not None:
                notes.append(f"{path}.type: the empty type is dropped (any value)")
            continue
        if key == "type":
            mapped = _bfcl_type(value)
            if mapped is not None:
                out["type"] = mapped
        elif key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            out[key] = {k: bfcl_schema(v, notes, f"{path}.{key}.{k}") for k, v in value.items()}
        elif key == "items":
            out["items"] = bfcl_schema(value, notes, f"{path}.items") if isinstance(value, dict) else value
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(value, list):
            out[key] = [bfcl_schema(v, notes, f"{path}.{key}[{i}]") for i, v in enumerate(value)]
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = bfcl_schema(value, notes, f"{path}.{key}")
        else:
            out[key] = value
    if out.get("type") == "object" and "properties" not in out:
        out.setdefault("additionalProperties", True)
    if out.get("type") == "array" and "enum" in out and not any(isinstance(v, list) for v in out["enum"]):
        # BFCL puts the items' enum on the array itself
        out["items"] = {**(out.get("items") or {}), "enum": out.pop("enum")}
    fits = validity({"type": out["type"]}, {}) if out.get("type") in ("boolean", "integer", "number") else None
    if fits and isinstance(out.get("enum"), list) and not all(map(fits, out["enum"])):
        # BFCL live data: a boolean with the enum ["True", "False", "dontcare"], an integer with
        # ["1", "2", "dontcare"]; the answers use the type, so the type wins
        kept = [v for v in map(_as_json, out["enum"]) if fits(v)]
        if notes is not None:
            repair = f"the enum becomes {json.dumps(kept)}" if kept else "the enum is dropped"
            notes.append(f"{path}: {out['type']} with the enum {json.dumps(out['enum'])}: {repair}")
        if kept:
            out["enum"] = kept
        else:
            del out["enum"]
    return out


def _as_json(value: Any) -> Any:
    """A string enum value read as the JSON scalar it spells (``"True"`` is true, ``"2"`` is 2)."""
    if not isinstance(value, str):
        return value
    try:
        return jsonread.loads(value.lower() if value in ("True", "False") else value)
    except json.JSONDecodeError:
        return value


def _bfcl_type(value: Any) -> Any:
    if isinstance(value, list):
        mapped = [_bfcl_type(v) for v in value]
        return None if None in mapped else mapped
    if value in _BFCL_TYPES:
        return _BFCL_TYPES[value]
    return value


def _open(schema: Any) -> bool:
    """Whether the schema says anywhere that undeclared properties are allowed."""
    if isinstance(schema, dict):
        if schema.get("additionalProperties") not in (None, False):
            return True
        return any(_open(v) for v in schema.values())
    if isinstance(schema, list):
        return any(_open(v) for v in schema)
    return False


Entry = tuple[str, "tuple[str, str, Any] | ManifestError"]
"""One tool of an import: its key path, and (name, description, schema) or why it cannot be read."""


def _openai_entries(data: Any, where: str) -> list[Entry]:
    if isinstance(data, dict):
        data = data.get("tools", data.get("functions", [data]))
    entries: list[Entry] = []
    for i, item in enumerate(_as_list(data, where)):
        function = item.get("function", item) if isinstance(item, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            entries.append((f"[{i}]", ManifestError(where, f"[{i}]", "not an OpenAI tool "
                                                    "({\"type\": \"function\", \"function\": {...}})")))
        else:
            entries.append((f"[{i}]", (function["name"], function.get("description", ""), function.get("parameters"))))
    return entries


def _mcp_entries(data: Any, where: str) -> list[Entry]:
    if isinstance(data, dict):
        data = data.get("result", data)
        data = data.get("tools", [data]) if isinstance(data, dict) else data
    entries: list[Entry] = []
    for i, item in enumerate(_as_list(data, where)):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            entries.append((f"[{i}]", ManifestError(where, f"[{i}]", "not an MCP tool ({\"name\", \"inputSchema\"})")))
        elif "inputSchema" not in item:
            entries.append((f"[{i}]", ManifestError(where, f"[{i}].inputSchema", f"{item['name']}: missing (MCP "
                                                    "requires one; an empty object schema for no arguments)")))
        else:
            entries.append((f"[{i}]", (item["name"], item.get("description", ""), item["inputSchema"])))
    return entries


def _bfcl_entries(data: Any, where: str) -> list[Entry]:
    entries: list[Entry] = []
    for i, item in enumerate(_as_list(data, where)):
        functions = item.get("function", [item]) if isinstance(item, dict) else None
        if not isinstance(functions, (list, dict)):
            entries.append((f"[{i}]", ManifestError(where, f"[{i}]", "not a BFCL entry ({\"function\": [...]})")))
            continue
        for j, function in enumerate(_as_list(functions, f"{where}[{i}]")):
            key = f"[{i}].function[{j}]" if isinstance(item.get("function"), list) else f"[{i}]"
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                entries.append((key, ManifestError(where, key, "not a BFCL function ({\"name\", ...})")))
            else:
                entries.append((key, (function["name"], function.get("description", ""), function.get("parameters"))))
    return entries


def _as_list(value: Any, where: str) -> list[Any]:
    if isinstance(value, dict):
        return [value]
    if not isinstance(value, list):
        raise ManifestError(where, "", "expected a list of tools")
    return value
