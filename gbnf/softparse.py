"""Soft parsing and repair: find a tool call in sloppy model output, repair it toward the schema.

For backends without grammars. :func:`soft_parse` tries, in order: ``<tool_call>`` tags, a
fenced ``tool`` block of ``key: value`` lines, ``CALL name {json}`` lines, YAML-ish
``tool:``/``args:``, then JSON objects anywhere in the text (fenced or not). Shapes are
normalized (``tool_calls`` lists, OpenAI ``function`` objects with stringified arguments,
``args``/``parameters``/``arguments``/``input`` aliases, flat calls), then repaired toward the
tool's schema: a tool name differing in case, spaces or punctuation; keys near the schema's, and
one unknown key taken for the one required key missing when its value fits; an enum value
differing only in case; stringified scalars and JSON-stringified arrays or objects coerced to
the declared type. JSON with trailing commas and Python-style literals (single quotes, ``True``)
are read too. The validator decides at the end. Output that holds no call is a final answer.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from gbnf.errors import InvalidCall
from gbnf import jsonread
from gbnf.tool import Tool
from gbnf.validate import ToolCall, validate_call

_ARG_KEYS = ("arguments", "args", "parameters", "params", "input", "kwargs")
_NAME_KEYS = ("name", "tool", "tool_name", "function", "action")
_SYNONYMS = {"msg": "text", "message": "text", "body": "text", "content": "text", "q": "query",
             "search": "query", "file": "path", "filename": "path", "filepath": "path", "dir": "folder",
             "directory": "folder", "to": "recipients", "recipient": "recipients", "tz": "timezone"}


@dataclass
class SoftParse:
    """What sloppy output held: ``calls`` (validated), a ``final`` answer, or ``invalid`` (why)."""

    kind: Literal["calls", "final", "invalid"]
    calls: list[ToolCall] = field(default_factory=list)
    text: str = ""
    reason: str = ""
    repairs: list[str] = field(default_factory=list)


def soft_parse(text: str, pool: list[Tool]) -> SoftParse:
    """Find, normalize, repair and validate the tool call(s) in ``text``."""
    try:
        candidates = _candidates(text)
    except RecursionError:
        return SoftParse("invalid", text=text, reason="the reply's JSON is nested too deeply")
    if not candidates:
        if _CALL_OPENING.search(text):  # a call that runs on to the token limit is no answer
            return SoftParse("invalid", text=text, reason="the JSON call is cut off before it closes; "
                                                          "give a shorter reply")
        return SoftParse("final", text=text.strip())
    tools = {tool.name: tool for tool in pool}
    reasons = []
    for raw_calls in candidates:
        repairs: list[str] = []
        try:
            calls = [_repair(call, tools, repairs) for call in raw_calls]
        except InvalidCall as exc:
            reasons.append(str(exc))
            continue
        return SoftParse("calls", calls=calls, text=text, repairs=repairs)
    return SoftParse("invalid", text=text, reason=reasons[0])


# -- finding calls --------------------------------------------------------------------------

_CALL_OPENING = re.compile(r"""\{\s*["']name["']\s*:""")


def _candidates(text: str) -> list[list[dict[str, Any]]]:
    """Every plausible reading of ``text`` as a list of raw calls, most explicit first."""
    found: list[list[dict[str, Any]]] = []
    for strategy in (_tagged, _tool_fence, _call_lines, _yaml_ish, _json_values):
        for value in strategy(text):
            calls = _as_calls(value)
            if calls and calls not in found:
                found.append(calls)
    return found


def _tagged(text: str) -> list[Any]:
    return [v for body in re.findall(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", text, re.S)
            for v in _json_values(body)]


def _tool_fence(text: str) -> list[Any]:
    out = []
    for body in re.findall(r"```tool[^\n]*\n(.*?)(?:```|$)", text, re.S):
        lines = [line for line in body.strip().splitlines() if line.strip()]
        if lines and not lines[0].lstrip().startswith("{"):
            out.append({"name": lines[0].strip(), "arguments": _key_values(lines[1:])})
    return out


def _call_lines(text: str) -> list[Any]:
    out = []
    pattern = r"(?m)(?:^[ \t]*(?i:call)|\bCALL)[ \t]+([\w.\-]+)[ \t]*(.*)$"
    for name, rest in re.findall(pattern, text):
        values = _json_values(rest)
        out.append({"name": name, "arguments": values[0] if values and isinstance(values[0], dict) else {}})
    return out


def _yaml_ish(text: str) -> list[Any]:
    match = re.search(r"(?im)^\s*(?:tool|name|function)\s*:\s*([\w.\-]+)\s*$", text)
    if not match:
        return []
    rest = text[match.end():].splitlines()
    start = next((i for i, line in enumerate(rest) if re.match(r"\s*(args|arguments|parameters)\s*:\s*$", line)), None)
    lines = rest[start + 1:] if start is not None else rest
    return [{"name": match.group(1), "arguments": _key_values([ln for ln in lines if re.match(r"\s+\S", ln)])}]


def _json_values(text: str) -> list[Any]:
    """JSON objects or arrays found anywhere in ``text`` (fences and prose around them ignored)."""
    values = []
    i = 0
    while i < len(text):
        if text[i] in "{[":
            try:
                value, end = jsonread.raw_decode(text, i)
            except json.JSONDecodeError:
                value, end = _loose_value(text, i)
                if end is None:
                    i += 1
                    continue
            values.append(value)
            i = end
        else:
            i += 1
    return values


def _loose_value(text: str, start: int) -> tuple[Any, int | None]:
    """The bracketed value at ``start`` written loosely: JSON with trailing commas, or a Python
    literal (single quotes, ``True``/``None``); (None, None) when it is neither."""
    end = _closing(text, start)
    if end is None:
        return None, None
    segment = text[start:end]
    try:
        return jsonread.loads(re.sub(r",\s*([}\]])", r"\1", segment)), end
    except json.JSONDecodeError:
        pass
    try:
        value = ast.literal_eval(segment)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None, None
    return (value, end) if isinstance(value, (dict, list)) and jsonread.is_json(value) else (None, None)


def _closing(text: str, start: int) -> int | None:
    """Where the bracket opened at ``start`` closes (quotes of either kind respected)."""
    depth, quote, i = 0, "", start
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _key_values(lines: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for line in lines:
        match = re.match(r"\s*[-*]?\s*([\w.\-]+)\s*[:=]\s*(.*?)\s*$", line)
        if match:
            out[match.group(1)] = _scalar(match.group(2))
    return out


def _scalar(text: str) -> Any:
    """A ``key: value`` line's value: JSON when it parses (numbers, lists, quoted text), else text."""
    try:
        return jsonread.loads(text)
    except json.JSONDecodeError:
        return text.strip("'\"")


# -- normalizing shapes ------------------------------------------------------------------------

def _as_calls(value: Any) -> list[dict[str, Any]]:
    """Raw calls ``{"name", "arguments"}`` from the many shapes models use, or []."""
    if isinstance(value, list):
        calls = [c for item in value for c in _as_calls(item)]
        return calls if len(calls) == len(value) else []
    if not isinstance(value, dict):
        return []
    for key in ("tool_calls", "calls", "tool_uses"):
        if isinstance(value.get(key), list):
            return _as_calls(value[key])
    function = value.get("function")
    if isinstance(function, dict):
        return _as_calls(function)
    name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
    if name is None:
        return []
    arg_key = next((k for k in _ARG_KEYS if k in value), None)
    if arg_key is not None:
        arguments = value[arg_key]
    else:
        arguments = {k: v for k, v in value.items() if k not in (*_NAME_KEYS, "id", "type")}
    try:
        arguments = jsonread.arguments(arguments)
    except json.JSONDecodeError:
        return []
    return [{"name": name, "arguments": arguments if arguments is not None else {}}] if isinstance(
        arguments, (dict, type(None))) else []


# -- repairing toward the schema -------------------------------------------------------------------

def _fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _repair(call: dict[str, Any], tools: dict[str, Tool], repairs: list[str]) -> ToolCall:
    name = call["name"]
    if name not in tools:
        matches = [t for t in tools if _fold(t) == _fold(name)]
        if len(matches) != 1:
            raise InvalidCall(f"unknown tool {name!r}; available tools: {', '.join(sorted(tools))}")
        repairs.append(f"tool name {name!r} -> {matches[0]!r}")
        name = matches[0]
    tool = tools[name]
    arguments = _repair_object(call["arguments"], tool.parameters, "", repairs)
    return validate_call({"name": name, "arguments": arguments}, list(tools.values()))


def _repair_object(value: dict[str, Any], schema: Any, path: str, repairs: list[str]) -> dict[str, Any]:
    if not isinstance(schema, dict) or not isinstance(value, dict):
        return value
    props = schema.get("properties", {})
    out: dict[str, Any] = {}
    for key in value:
        target = key if key in props else _nearest_key(key, [p for p in props if p not in value and p not in out])
        if target != key:
            repairs.append(f"argument {path}{key!r} -> {target!r}")
        out[target] = _coerce(value[key], props.get(target, {}), f"{path}{target}.", repairs)
    unknown = [k for k in out if k not in props]
    missing = [k for k in schema.get("required", []) if k in props and k not in out]
    if len(unknown) == 1 and len(missing) == 1 and _fits(out[unknown[0]], props[missing[0]]):
        repairs.append(f"argument {path}{unknown[0]!r} -> {missing[0]!r} (the one required argument missing)")
        out[missing[0]] = _coerce(out.pop(unknown[0]), props[missing[0]], f"{path}{missing[0]}.", repairs)
    return out


def _fits(value: Any, schema: Any) -> bool:
    """Whether ``value`` has the JSON type ``schema`` declares (any type when it declares none)."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    kinds = set(kind) if isinstance(kind, list) else {kind}
    types = {"string": str, "object": dict, "array": list, "boolean": bool, "integer": int, "number": (int, float)}
    return None in kinds or any(isinstance(value, types[k]) and not (isinstance(value, bool) and k in
                                ("integer", "number")) for k in kinds if k in types)


def _nearest_key(key: str, free: list[str]) -> str:
    """The schema key this one most likely meant, or itself when none is close."""
    folded = {_fold(p): p for p in free}
    if _fold(key) in folded:
        return folded[_fold(key)]
    synonym = _SYNONYMS.get(key.lower())
    if synonym in free:
        return synonym
    close = difflib.get_close_matches(key, free, n=1, cutoff=0.75)
    return close[0] if close else key


def _coerce(value: Any, schema: Any, path: str, repairs: list[str]) -> Any:
    """A value nudged to the declared type when it is unambiguous (``"3"`` -> 3, ``"[1]"`` -> [1])."""
    if not isinstance(schema, dict):
        return value
    kind = schema.get("type")
    kinds = set(kind) if isinstance(kind, list) else {kind}
    fixed = value
    if isinstance(value, str) and not kinds & {"string", None}:
        text = value.strip()
        if kinds & {"integer", "number"} and re.fullmatch(r"-?\d+", text):
            fixed = int(text)
        elif "number" in kinds and re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", text):
            fixed = float(text)
        elif "boolean" in kinds and text.lower() in ("true", "false"):
            fixed = text.lower() == "true"
        elif kinds & {"array", "object"} and text[:1] in "[{":
            try:
                fixed = jsonread.loads(text)
            except json.JSONDecodeError:
                pass
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and kinds == {"string"}:
        fixed = str(value)
    enum = schema.get("enum")
    if isinstance(fixed, str) and isinstance(enum, list) and fixed not in enum:
        same = [v for v in enum if isinstance(v, str) and v.casefold() == fixed.casefold()]
        fixed = same[0] if len(same) == 1 else fixed
    if kinds == {"array"} and not isinstance(fixed, list) and fixed is not None:
        fixed = [fixed]
    if fixed is not value:
        repairs.append(f"{path.rstrip('.') or 'value'}: {json.dumps(value)} -> {json.dumps(fixed)}")
    if isinstance(fixed, dict):
        return _repair_object(fixed, schema, path, repairs)
    if isinstance(fixed, list) and isinstance(schema.get("items"), dict):
        return [_coerce(v, schema["items"], path, repairs) for v in fixed]
    return fixed
