"""Import tool definitions users did not write: OpenAI tools, MCP tools/list, BFCL functions.

Each importer returns :class:`Tool` objects (checked like manifests); :func:`write_manifests`
writes them as TOML manifests with the schema in a ``.schema.json`` file beside each (JSON
Schema can hold ``null``, TOML cannot). The original tool name is kept: it is what the model
emits, dots and all.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

from gbnf.errors import ManifestError
from gbnf.manifest import Tool, tool_from_dict

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


def import_tools(data: Any, source: Source, where: str = "<data>") -> list[Tool]:
    """Tools from already-parsed data of the given source."""
    readers = {"openai": _openai_entries, "mcp": _mcp_entries, "bfcl": _bfcl_entries}
    if source not in readers:
        raise ManifestError(where, "", f"unknown source {source!r} (expected openai, mcp or bfcl)")
    tools: list[Tool] = []
    seen: dict[str, dict[str, Any]] = {}
    for i, (name, description, schema) in enumerate(readers[source](data, where)):
        schema = bfcl_schema(schema) if source == "bfcl" else (schema or {"type": "object", "properties": {}})
        if name in seen:
            if seen[name] != schema:
                raise ManifestError(where, f"[{i}].name", f"two different tools are both named {name!r}")
            continue
        seen[name] = schema
        tools.append(tool_from_dict({"name": name, "description": description or name, "parameters": schema},
                                    f"{where}[{i}] ({name})"))
    return tools


def import_groups(data: Any, source: Source, where: str = "<data>") -> dict[str, list[Tool]]:
    """Tools by pool: BFCL entries (``{"id", "function": [...]}``) are one pool each, keyed by
    id, since different entries may define different functions under one name; anything else
    is one pool, keyed ``""``."""
    if source == "bfcl" and isinstance(data, list) and data and all(
            isinstance(e, dict) and "id" in e and "function" in e for e in data):
        return {str(e["id"]): import_tools([e], source, f"{where} {e['id']}") for e in data}
    return {"": import_tools(data, source, where)}


def read_import_file(path: str | Path, source: Source) -> dict[str, list[Tool]]:
    """Tools by pool (see :func:`import_groups`) from a JSON file, or JSON lines."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(str(path), "", f"cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            raise ManifestError(str(path), "", f"neither JSON nor JSON lines: {exc}") from None
    return import_groups(data, source, str(path))


def write_manifests(tools: list[Tool], directory: str | Path) -> list[Path]:
    """Write one ``NAME.toml`` (and ``NAME.schema.json``) per tool; returns the TOML paths."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    stems: set[str] = set()
    for tool in tools:
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", tool.name).strip("._") or "tool"
        while stem.lower() in stems:
            stem += "_"
        stems.add(stem.lower())
        schema_file = out / f"{stem}.schema.json"
        schema_file.write_text(json.dumps(tool.parameters, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        lines = [f"name = {json.dumps(tool.name, ensure_ascii=False)}",
                 f"description = {json.dumps(tool.description, ensure_ascii=False)}",
                 f"parameters = {json.dumps(schema_file.name)}",
                 "additional_properties = true" if _open(tool.parameters) else ""]
        manifest = out / f"{stem}.toml"
        manifest.write_text("\n".join(line for line in lines if line) + "\n", encoding="utf-8")
        written.append(manifest)
    return written


def bfcl_schema(schema: Any) -> Any:
    """A BFCL parameter schema as JSON Schema: type names mapped, ``optional`` flags dropped."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "optional" and isinstance(value, bool):
            continue
        if key == "type":
            mapped = _bfcl_type(value)
            if mapped is not None:
                out["type"] = mapped
        elif key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            out[key] = {k: bfcl_schema(v) for k, v in value.items()}
        elif key == "items":
            out["items"] = bfcl_schema(value) if isinstance(value, dict) else value
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(value, list):
            out[key] = [bfcl_schema(v) for v in value]
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = bfcl_schema(value)
        else:
            out[key] = value
    if out.get("type") == "object" and "properties" not in out:
        out.setdefault("additionalProperties", True)
    if out.get("type") == "array" and "enum" in out and not any(isinstance(v, list) for v in out["enum"]):
        # BFCL puts the items' enum on the array itself
        out["items"] = {**(out.get("items") or {}), "enum": out.pop("enum")}
    return out


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


def _openai_entries(data: Any, where: str) -> list[tuple[str, str, Any]]:
    if isinstance(data, dict):
        data = data.get("tools", data.get("functions", [data]))
    entries = []
    for i, item in enumerate(_as_list(data, where)):
        function = item.get("function", item) if isinstance(item, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise ManifestError(where, f"[{i}]", "not an OpenAI tool ({\"type\": \"function\", \"function\": {...}})")
        entries.append((function["name"], function.get("description", ""), function.get("parameters")))
    return entries


def _mcp_entries(data: Any, where: str) -> list[tuple[str, str, Any]]:
    if isinstance(data, dict):
        data = data.get("result", data)
        data = data.get("tools", [data]) if isinstance(data, dict) else data
    entries = []
    for i, item in enumerate(_as_list(data, where)):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise ManifestError(where, f"[{i}]", "not an MCP tool ({\"name\", \"inputSchema\"})")
        entries.append((item["name"], item.get("description", ""), item.get("inputSchema")))
    return entries


def _bfcl_entries(data: Any, where: str) -> list[tuple[str, str, Any]]:
    entries = []
    for i, item in enumerate(_as_list(data, where)):
        functions = item.get("function", [item]) if isinstance(item, dict) else None
        for function in _as_list(functions, f"{where}[{i}]"):
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                raise ManifestError(where, f"[{i}]", "not a BFCL entry ({\"function\": [{\"name\", ...}]})")
            entries.append((function["name"], function.get("description", ""), function.get("parameters")))
    return entries


def _as_list(value: Any, where: str) -> list[Any]:
    if isinstance(value, dict):
        return [value]
    if not isinstance(value, list):
        raise ManifestError(where, "", "expected a list of tools")
    return value
