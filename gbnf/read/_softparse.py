"""Soft parsing and repair: find tool calls in sloppy model output, repair them toward the schema.

For backends without grammars. :func:`soft_parse` sets reasoning (``<think>``) aside, then reads
calls written the ways model families write them: ``<tool_call>`` tags, headers naming the tool
before its arguments (``<function=x>``, ``<invoke name="x">``, Mistral, Functionary, DeepSeek,
Kimi K2, gpt-oss, GLM, Gemma 4, ReAct, ``CALL x``), fenced ``tool`` blocks, YAML-ish
``tool:``/``args:``, JSON anywhere (broken JSON through json_repair, unless it stops inside a
string), Python-style calls (``[f(x=1)]``) and XML elements named after a tool. Shapes are
normalized (``tool_calls`` lists, OpenAI and Gemini function objects, argument aliases, flat
calls), then repaired toward the tool's schema: tool names differing in case or punctuation or
behind a namespace, keys near the schema's, one unknown key for the one missing required key, a
bare value for the one required argument, ``null`` optionals left out, enum case, stringified
values coerced to the declared type. The validator decides at the end. Output that holds no call
is a final answer; a call cut off inside a string is refused.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

import json_repair

from gbnf import _jsonread as jsonread
from gbnf._text import fold
from gbnf.errors import InvalidCall
from gbnf.read._validate import ToolCall, validate_call
from gbnf.tools import Tool

_ARG_KEYS = ("arguments", "args", "parameters", "params", "input", "kwargs", "action_input", "tool_input")
_NAME_KEYS = ("name", "tool", "tool_name", "function_name", "function", "action")
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
    tools = {tool.name: tool for tool in pool}
    outside = _REASONING.sub(" ", text)
    try:
        candidates = _candidates(outside, tools)
        if not candidates and outside != text:  # a call made inside the reasoning
            candidates = _candidates(text, tools)
    except RecursionError:
        return SoftParse("invalid", text=text, reason="the reply's JSON is nested too deeply")
    if not candidates:
        if _cut_off(text, tools):  # a call that runs on to the token limit is no answer
            return SoftParse("invalid", text=text, reason="the call is cut off before it closes; "
                                                          "give a shorter reply")
        return SoftParse("final", text=outside.strip() or text.strip())  # the answer, not the reasoning
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

_NAME = r"[A-Za-z_][\w.\-]*"
# a header naming the tool, its arguments after it, as model families write them
_HEADS = re.compile("|".join([
    rf"<function=({_NAME})>",  # Llama 3.1, Qwen3-Coder
    rf"<(?:\w+:)?invoke\s+name=[\"']({_NAME})[\"']\s*>",  # invoke/parameter XML (MiniMax, Step3)
    rf"\[TOOL_CALLS\]\s*({_NAME})\s*\[ARGS\]",  # Mistral
    rf"(?:>>>|<\|recipient\|>)[ \t]*(?!all\b)({_NAME})",  # Functionary ("all" is text for the user)
    rf"<｜tool▁sep｜>({_NAME})",  # DeepSeek V3
    rf"<\|tool_call_begin\|>\s*({_NAME})(?::\d+)?",  # Kimi K2
    rf"\bto=(functions\.{_NAME})",  # gpt-oss (harmony)
    rf"<tool_call>\s*({_NAME})(?=\s*(?:<arg_key>|</tool_call>))",  # GLM 4.5
    rf"\bcall:({_NAME})(?=\{{)",  # Gemma 4, FunctionGemma
    rf"^[ \t]*Action[ \t]*:[ \t]*({_NAME})[ \t]*$",  # ReAct
    rf"(?:^[ \t]*(?i:call)|\bCALL)[ \t]+({_NAME})",  # CALL lines
]), re.M)
_ARG_PAIR = re.compile(r"<arg_key>\s*(.*?)\s*</arg_key>\s*<arg_value>(.*?)</arg_value>", re.S)
_PARAMETER = re.compile(r"""<(?:\w+:)?parameter(?:=|\s+name=["'])([\w.\-]+)["']?\s*>(.*?)</(?:\w+:)?parameter>""",
                        re.S)
_ELEMENT = re.compile(r"<([\w.\-]+)>(.*?)</\1>", re.S)
_INPUT_LABEL = re.compile(r"\s*(?:Action[ \t]+)?Input[ \t]*:[ \t]*", re.I)
# where Python-style calls start: a line opening with ``f(x=1)``, ``[f(x=1), g()]`` or
# ``print(f(x=1))``, maybe after a tag (``<|python_tag|>``, ``<function_calls>``) or a label
# (NexusRaven's ``Call:``); or, anywhere, a list that opens with a call
_PY_LINE = re.compile(r"^[ \t]*+(?:(?:<[^<>\s]{1,40}>|\w+:)[ \t]*+)?(?=(?:\[[ \t]*)?[A-Za-z_][\w.]*\()"
                      r"|(?=\[[ \t]*[A-Za-z_][\w.]*\()", re.M)
_PY_CODE = re.compile(r"^[ \t]*(?:def|class|import|from[ \t]+[\w.]+[ \t]+import)[ \t]", re.M)
# reasoning, which may quote a call it then makes (or not): ``<think>``, ``<seed:think>``
_REASONING = re.compile(r"<((?:\w+:)?think(?:ing)?)>.*?</\1>", re.S)
_JSON_CALL = re.compile(r"""\{\s*["']name["']\s*:""")
_CALL_KEYS = ("function", "function_call", "functionCall")


def _candidates(text: str, tools: dict[str, Tool]) -> list[list[dict[str, Any]]]:
    """Every plausible reading of ``text`` as a list of raw calls, most explicit first: all the
    calls a way of writing found together, then each on its own."""
    found: list[list[dict[str, Any]]] = []
    names = {fold(name): name for name in tools}
    for strategy in (_tagged, _headed_calls, _tool_fence, _yaml_ish, _json_values):
        _gather(found, [_as_calls(value, names) for value in strategy(text)])
    _gather(found, [_as_calls(calls, names) for calls in _python_calls(text, tools)])
    _gather(found, [_as_calls(call, names) for call in _tool_elements(text, names)])
    inner = _json_string(text)
    if inner is not None:
        found.extend(c for c in _candidates(inner, tools) if c not in found)
    return found


def _gather(found: list[list[dict[str, Any]]], readings: list[list[dict[str, Any]]]) -> None:
    readings = [calls for calls in readings if calls]
    together = [call for calls in readings for call in calls]
    for calls in ([together] if len(readings) > 1 else []) + readings:
        if calls not in found:
            found.append(calls)


def _tagged(text: str) -> list[Any]:
    return [v for body in re.findall(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", text, re.S)
            for v in _json_values(body)]


def _headed_calls(text: str) -> list[Any]:
    """Calls written as a header naming the tool (see ``_HEADS``) and the arguments after it: a
    JSON object, ``<parameter>`` elements, or after an ``Input:`` label, plain text."""
    heads = list(_HEADS.finditer(text))
    out = []
    for head, after in zip(heads, heads[1:] + [None]):
        body = text[head.end():after.start() if after else len(text)]
        name = next(group for group in head.groups() if group)
        out.append({"name": name, "arguments": _body_arguments(body)})
    return out


def _body_arguments(body: str) -> Any:
    body = body.replace('<|"|>', '"').replace("<escape>", '"')  # Gemma 4's and FunctionGemma's quotes
    parameters = _PARAMETER.findall(body) or _ARG_PAIR.findall(body)
    if parameters:
        return {key: _scalar(value.strip()) for key, value in parameters}
    values = _json_values(body)
    if values and isinstance(values[0], dict):
        return values[0]
    body = body.lstrip("\n")
    label = _INPUT_LABEL.match(body)
    return re.split(r"\n|</|```", body[label.end():], maxsplit=1)[0].strip() if label else {}


def _python_calls(text: str, tools: dict[str, Tool]) -> list[list[dict[str, Any]]]:
    """Python-style calls opening a line, as Llama 3.2, Gemma and BFCL write them, with literal
    arguments only; positional arguments fill the tool's properties in their declared order. A
    call of an unknown function counts only when it is the whole reply; in a reply that defines
    or imports anything, calls are code, not tool calls."""
    if _PY_CODE.search(text):
        return []
    out = []
    whole = re.sub(r"^```\w*\n|\n?```$", "", text.strip()).strip()
    done = 0  # where the last calls read end: a list's inner calls are not read again
    for line in _PY_LINE.finditer(text):
        end = _extent(text, line.end()) if line.start() >= done else None
        if end is None:
            continue
        segment = text[line.end():end].strip()
        try:
            node = ast.parse(segment, mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        nodes = node.elts if isinstance(node, ast.List) else [node]
        read = [_python_call(n, tools) for n in nodes]
        calls = [c for c in read if c is not None]
        if nodes and len(calls) == len(read) and (segment == whole
                                                  or all(_tool_named(c["name"], tools) for c in calls)):
            out.append(calls)
            done = end
    return out


def _python_call(node: ast.expr, tools: dict[str, Tool]) -> dict[str, Any] | None:
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "print" and len(node.args) == 1:
        node = node.args[0]  # Gemma's tool_code: print(f(x=1))
    if not isinstance(node, ast.Call):
        return None
    name = ast.unparse(node.func)
    if not re.fullmatch(r"[\w.]+", name):
        return None
    try:
        positional = [_literal(arg) for arg in node.args]
        arguments = {kw.arg: _literal(kw.value) for kw in node.keywords if kw.arg}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if len(arguments) < len(node.keywords) or not jsonread.is_json([positional, arguments]):
        return None
    tool = _tool_named(name, tools)
    free = [key for key in (tool.parameters.get("properties", {}) if tool else {}) if key not in arguments]
    arguments.update(zip(free, positional))
    return {"name": name, "arguments": arguments}


class _JsonNames(ast.NodeTransformer):
    """Reads JSON's ``true``, ``false`` and ``null`` written in a Python-style call as constants."""

    def visit_Name(self, node: ast.Name) -> ast.expr:
        constants = {"true": True, "false": False, "null": None}
        return ast.Constant(constants[node.id]) if node.id in constants else node


def _literal(node: ast.expr) -> Any:
    return ast.literal_eval(_JsonNames().visit(node))


def _tool_elements(text: str, names: dict[str, str]) -> list[dict[str, Any]]:
    """Calls written as an XML element named after a tool, an element per argument inside it
    (``<get_weather><city>Rome</city></get_weather>``, as Cline prompts for)."""
    return [{"name": tag, "arguments": {key: _scalar(value.strip()) for key, value in _ELEMENT.findall(body)}}
            for tag, body in _ELEMENT.findall(text) if fold(tag) in names]


def _tool_fence(text: str) -> list[Any]:
    out = []
    for body in re.findall(r"```tool[^\n]*\n(.*?)(?:```|$)", text, re.S):
        lines = [line for line in body.strip().splitlines() if line.strip()]
        if lines and not re.match(r"\s*(\{|\[|print\(|" + _NAME + r"\()", lines[0]):
            out.append({"name": lines[0].strip(), "arguments": _key_values(lines[1:])})
    return out


def _yaml_ish(text: str) -> list[Any]:
    match = re.search(r"(?im)^[ \t]*(?:tool|name|function)[ \t]*:[ \t]*([\w.\-]+)[ \t]*$", text)
    if not match:
        return []
    rest = text[match.end():].splitlines()
    start = next((i for i, line in enumerate(rest) if re.match(r"\s*(args|arguments|parameters)\s*:\s*$", line)), None)
    lines = rest[start + 1:] if start is not None else rest
    return [{"name": match.group(1), "arguments": _key_values([ln for ln in lines if re.match(r"\s+\S", ln)])}]


def _json_values(text: str) -> list[Any]:
    """JSON objects or arrays found anywhere in ``text`` (fences and prose around them ignored);
    loosely written ones (trailing commas, single quotes, unquoted keys, comments, missing commas
    or closing brackets) are read by ``json_repair``, unless they stop inside a string."""
    values = []
    i = 0
    while i < len(text):
        if text[i] in "{[":
            try:
                value, end = jsonread.raw_decode(text, i)
            except json.JSONDecodeError as exc:
                if jsonread.unsafe(exc):
                    i = _extent(text, i) or len(text)
                    continue
                extent = _extent(text, i)
                value = _lenient(text[i:extent]) if extent is not None else None
                if value is None or extent is None:
                    i += 1
                    continue
                end = extent
            values.append(value)
            i = end
        else:
            i += 1
    return values


def _lenient(text: str) -> Any:
    """The object or array ``text`` writes loosely, or None when json_repair reads neither."""
    try:
        value = json_repair.loads(text)
    except Exception:  # a third-party parser given untrusted text: any failure means "not JSON"
        return None
    return value if isinstance(value, (dict, list)) and value and jsonread.is_json(value) else None


_MAX_DEPTH = 64  # deeper than any call; past it a reply is hostile, and json_repair slow


def _extent(text: str, start: int) -> int | None:
    """Where the bracket at (or first after) ``start`` closes, quotes of either kind respected;
    the end of ``text`` when brackets are left open outside a string, None inside one or past
    ``_MAX_DEPTH``."""
    depth, quote, i = 0, "", start
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif char in "\"'" and (char == '"' or depth):
            quote = char
        elif char in "{[(":
            depth += 1
            if depth > _MAX_DEPTH:
                return None
        elif char in "}])" and depth:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None if quote or not depth else len(text)


def _cut_off(text: str, tools: dict[str, Tool]) -> bool:
    """Whether ``text`` opens a JSON call, or a Python-style call of a tool, that stops inside
    a string."""
    python = [] if _PY_CODE.search(text) else _PY_LINE.finditer(text)
    openings = [*_JSON_CALL.finditer(text), *(m for m in python if _tool_named(_python_name(text, m.end()), tools))]
    return any(_extent(text, opening.start()) is None for opening in openings)


_PY_NAME = re.compile(r"\[?[ \t]*(?:print\()?([\w.]*)")


def _python_name(text: str, start: int) -> str:
    match = _PY_NAME.match(text, start)
    return match.group(1) if match else ""


def _json_string(text: str) -> str | None:
    """The text of a reply that is one JSON string (a call encoded twice), else None."""
    try:
        value = jsonread.loads(text)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, str) and value.strip() != text.strip() else None


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

def _as_calls(value: Any, names: dict[str, str]) -> list[dict[str, Any]]:
    """Raw calls ``{"name", "arguments"}`` from the many shapes models use, or []; ``names``
    maps the pool's folded tool names to them, for ``{"tool_name": {arguments}}``."""
    if isinstance(value, list):
        calls = [c for item in value for c in _as_calls(item, names)]
        return calls if len(calls) == len(value) else []
    if not isinstance(value, dict):
        return []
    for key in ("tool_calls", "calls", "tool_uses"):
        if isinstance(value.get(key), list):
            return _as_calls(value[key], names)
    for key in _CALL_KEYS:
        if isinstance(value.get(key), dict):
            return _as_calls(value[key], names)
    if len(value) == 1:
        [(key, arguments)] = value.items()
        if fold(key) in names and isinstance(arguments, dict):
            return [{"name": key, "arguments": arguments}]
    name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
    if name is None:
        return []
    arg_key = next((k for k in _ARG_KEYS if k in value), None)
    if arg_key is not None:
        arguments = value[arg_key]
    else:
        arguments = {k: v for k, v in value.items() if k not in (*_NAME_KEYS, "id", "type")}
    if isinstance(arguments, str) and arguments.strip()[:1] in ("", "{", "["):
        try:
            arguments = jsonread.arguments(arguments)
        except json.JSONDecodeError:
            arguments = _lenient(arguments)
            if arguments is None:
                return []
    return [{"name": name, "arguments": {} if arguments is None else arguments}]


# -- repairing toward the schema -------------------------------------------------------------------

def _tool_named(name: str, tools: dict[str, Tool]) -> Tool | None:
    """The tool ``name`` means: itself, or the one whose name differs only in case, spaces or
    punctuation, or that a namespace prefix (``functions.get_now``) hides; None when none or many."""
    if name in tools:
        return tools[name]
    for guess in (name, name.rsplit(".", 1)[-1]):
        matches = [tool for key, tool in tools.items() if fold(key) == fold(guess)]
        if len(matches) == 1:
            return matches[0]
    return None


def _repair(call: dict[str, Any], tools: dict[str, Tool], repairs: list[str]) -> ToolCall:
    name = call["name"]
    tool = _tool_named(name, tools)
    if tool is None:
        raise InvalidCall(f"unknown tool {name!r}; available tools: {', '.join(sorted(tools))}")
    if tool.name != name:
        repairs.append(f"tool name {name!r} -> {tool.name!r}")
    arguments = call["arguments"]
    if not isinstance(arguments, (dict, list)):
        arguments = _lone_argument(arguments, tool.parameters, repairs)
    arguments = _repair_object(arguments, tool.parameters, "", repairs)
    return validate_call({"name": tool.name, "arguments": arguments}, list(tools.values()))


def _lone_argument(value: Any, schema: dict[str, Any], repairs: list[str]) -> Any:
    """A bare value given for the arguments, as the tool's one required property (or its only
    property); the value itself when the schema names no such property."""
    props = schema.get("properties", {})
    required = [key for key in schema.get("required", []) if key in props]
    keys = required if required else list(props)
    if len(keys) != 1:
        return value
    repairs.append(f"arguments {json.dumps(value)} -> {{{json.dumps(keys[0])}: ...}}")
    return {keys[0]: value}


def _repair_object(value: dict[str, Any], schema: Any, path: str, repairs: list[str]) -> dict[str, Any]:
    if not isinstance(schema, dict) or not isinstance(value, dict):
        return value
    props = schema.get("properties", {})
    out: dict[str, Any] = {}
    required = schema.get("required", [])
    for key in value:
        if value[key] is None and key not in required and not _fits(None, props.get(key, {})):
            repairs.append(f"argument {path}{key!r}: null left out")
            continue
        target = key if key in props else _nearest_key(key, [p for p in props if p not in value and p not in out])
        if target != key:
            repairs.append(f"argument {path}{key!r} -> {target!r}")
        out[target] = _coerce(value[key], props.get(target, {}), f"{path}{target}.", repairs)
    unknown = [k for k in out if k not in props]
    missing = [k for k in required if k in props and k not in out]
    if len(unknown) == 1 and len(missing) == 1 and _fits(out[unknown[0]], props[missing[0]]):
        repairs.append(f"argument {path}{unknown[0]!r} -> {missing[0]!r} (the one required argument missing)")
        out[missing[0]] = _coerce(out.pop(unknown[0]), props[missing[0]], f"{path}{missing[0]}.", repairs)
    return out


def _fits(value: Any, schema: Any) -> bool:
    """Whether ``value`` has the JSON type ``schema`` declares (any type when it declares none)."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    kinds = set(kind) if isinstance(kind, list) else {kind}
    types: dict[str, type | tuple[type, ...]] = {
        "string": str, "object": dict, "array": list, "boolean": bool, "integer": int, "number": (int, float),
        "null": type(None)}
    return None in kinds or any(isinstance(value, types[k]) and not (isinstance(value, bool) and k in
                                ("integer", "number")) for k in kinds if k in types)


def _nearest_key(key: str, free: list[str]) -> str:
    """The schema key this one most likely meant, or itself when none is close."""
    folded = {fold(p): p for p in free}
    if fold(key) in folded:
        return folded[fold(key)]
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
        if kinds & {"integer", "number"} and re.fullmatch(r"-?\d{1,300}", text):
            fixed = int(text)
        elif "number" in kinds and re.fullmatch(r"-?\d{1,300}(\.\d{1,300})?([eE][-+]?\d{1,2})?", text):
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
    elif isinstance(value, float) and value.is_integer() and "integer" in kinds:
        fixed = int(value)
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
