"""The post-decode validator: check each call against its tool's full JSON Schema.

Errors are short sentences written for the model to act on; the planner feeds them back as
a ``tool`` message, and the executor is never called with arguments that fail the schema.

One repair is made before a value is called invalid, because it cannot change what the value
means: repeated items of an array marked ``uniqueItems`` are dropped (the first of each stays).
None is made that would put words in the model's mouth: a number is never clamped, a string
never cut, an enum value never guessed, a missing argument never filled in.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any

import jsonschema
from referencing.exceptions import Unresolvable

from gbnf import _jsonread as jsonread
from gbnf._text import fold
from gbnf.compiler import json_text, skeleton
from gbnf.errors import InvalidCall, SchemaError
from gbnf.tools import Tool


@dataclass(frozen=True)
class ToolCall:
    """One validated call: a tool name, its arguments, and the repairs they needed."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    repairs: tuple[str, ...] = field(default=(), compare=False)


def validate_call(call: str | dict[str, Any], pool: list[Tool], *, truncated: bool = False,
                  copies: bool = True) -> ToolCall:
    """Parse (if text) and check one call; raise :class:`InvalidCall` with a model-facing message.
    ``copies=False`` checks the schema alone (see :func:`validate_calls`)."""
    [one] = _validate(call, pool, truncated=truncated, many=False, copies=copies)
    return one


def validate_calls(calls: str | list[Any] | dict[str, Any], pool: list[Tool], *,
                   truncated: bool = False, copies: bool = True) -> list[ToolCall]:
    """Like :func:`validate_call` for a step that may carry one call or a JSON array of calls;
    ``copies=False`` checks the schema alone (a prompt placeholder or a name only repeated from
    the prompt passes)."""
    return _validate(calls, pool, truncated=truncated, many=True, copies=copies)


def validate_json(text: str, schema: dict[str, Any] | bool, *, truncated: bool = False) -> Any:
    """Parse a reply that must be one instance of ``schema`` (a structured-output reply) and
    check it; raise :class:`InvalidCall` with a model-facing message."""
    return checked_json(text, schema, truncated=truncated)[0]


def checked_json(text: str, schema: dict[str, Any] | bool, *, truncated: bool = False
                 ) -> tuple[Any, tuple[str, ...]]:
    """Like :func:`validate_json`, with the repairs the value needed (none: it is as written)."""
    return _repaired(schema, _parse(text, truncated, "JSON", ""), "the reply's schema", "the reply")


def _validate(value: Any, pool: list[Tool], *, truncated: bool, many: bool, copies: bool = True) -> list[ToolCall]:
    if isinstance(value, str):
        value = _parse(value, truncated)
    items = value if many and isinstance(value, list) else [value]
    if not items:
        raise InvalidCall("empty list of calls: give at least one call")
    tools = {tool.name: tool for tool in pool}
    return [_checked_call(item, tools, f"call {i}: " if len(items) > 1 else "", copies) for i, item in enumerate(items)]


_CALL_HINT = '; answer with {"name": ..., "arguments": {...}}'


def _parse(text: str, truncated: bool, what: str = "a JSON tool call", hint: str = _CALL_HINT) -> Any:
    try:
        return jsonread.loads(text)
    except json.JSONDecodeError as exc:
        if truncated or exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"):
            raise InvalidCall("output truncated: the JSON ended before it was complete; "
                              "give a shorter reply") from None
        raise InvalidCall(f"not {what} ({exc.msg} at character {exc.pos}){hint}") from None


def _errors(schema: Any, value: Any, whose: str) -> list[Any]:
    """``value``'s validation errors against ``schema``; a schema that cannot be evaluated (a
    ``multipleOf`` of 0, a pattern Python cannot compile, a ``$ref`` to nothing or to a schema
    not at hand) is a :class:`SchemaError`."""
    try:
        return list(_validator(json.dumps(schema, sort_keys=True)).iter_errors(value))
    except (ArithmeticError, re.error, RecursionError, TypeError, ValueError, Unresolvable) as exc:
        raise SchemaError(whose, f"its schema cannot check a value ({type(exc).__name__}: {exc})") from None


def _checked_call(item: Any, tools: dict[str, Tool], where: str, copies: bool = True) -> ToolCall:
    if not isinstance(item, dict) or "name" not in item:
        raise InvalidCall(f'{where}a call is a JSON object {{"name": <tool>, "arguments": {{...}}}}')
    name = item["name"]
    extra = sorted(set(item) - {"name", "arguments"})
    if extra:
        raise InvalidCall(f"{where}unexpected key {extra[0]!r} in the call; put arguments inside \"arguments\"")
    if not isinstance(name, str) or name not in tools:
        available = ", ".join(sorted(tools))
        raise InvalidCall(f"{where}unknown tool {name!r}; available tools: {available}")
    arguments = item.get("arguments", {})
    if not isinstance(arguments, dict):
        raise InvalidCall(f"{where}arguments of tool {name!r} must be an object, not {type(arguments).__name__}")
    try:
        arguments, repairs = _repaired(tools[name].parameters, arguments, f"tool {name!r}", f"tool '{name}'")
    except InvalidCall as exc:
        raise InvalidCall(f"{where}{exc}") from None
    copied = _placeholders_in(arguments, tools[name]) if copies else None
    if copied:
        raise InvalidCall(f"{where}{copied} still holds the prompt's placeholder; put the real value "
                          f"for tool '{name}'")
    echoed = _echo_in(arguments, tools[name]) if copies else None
    if echoed:
        raise InvalidCall(f"{where}{echoed} only repeats a name from the prompt; put the value the user "
                          f"gave for tool '{name}'")
    return ToolCall(name, arguments, repairs)


def _repaired(schema: Any, value: Any, whose: str, what: str) -> tuple[Any, tuple[str, ...]]:
    """``value`` valid against ``schema``, with its repeated ``uniqueItems`` items dropped
    (deepest arrays first, again while dropping makes new repeats), and what was dropped; raise
    :class:`InvalidCall`, describing ``value`` as written, when it fails."""
    first_errors = errors = _errors(schema, value, whose)
    repaired, notes = copy.deepcopy(value) if _only_repeats(errors) else value, list[str]()
    while _only_repeats(errors):
        for error in sorted(errors, key=lambda e: -len(e.absolute_path)):
            array = repaired
            for part in error.absolute_path:
                array = array[part]
            first: dict[str, Any] = {}
            for item in array:
                first.setdefault(json.dumps(item, sort_keys=True), item)
            dropped = len(array) - len(first)
            if not dropped:  # equal only as JSON Schema sees it (1 and 1.0): not repaired
                raise InvalidCall(_describe(first_errors, what))
            notes.append(f"'{_path(error.absolute_path) or '(value)'}': dropped {dropped} repeated "
                         f"item{'s' if dropped > 1 else ''} (uniqueItems)")
            array[:] = list(first.values())
        errors = _errors(schema, repaired, whose)
    if errors:
        raise InvalidCall(_describe(first_errors, what))  # the model is told what it wrote
    return repaired, tuple(notes)


def _only_repeats(errors: list[Any]) -> bool:
    """Whether there are errors and each is a ``uniqueItems`` array with repeated items."""
    return bool(errors) and all(e.validator == "uniqueItems" and isinstance(e.instance, list) for e in errors)


def _placeholders_in(arguments: dict[str, Any], tool: Tool) -> str | None:
    """The path of an argument copied verbatim from the prompt's skeleton (``"<city>"``), if any."""
    placeholders = set(_strings(skeleton(tool.parameters)))
    for path, value in _leaves(arguments, ""):
        if isinstance(value, str) and value in placeholders:
            return f"'{path}' = {value!r}"
    return None


def _echo_in(arguments: dict[str, Any], tool: Tool) -> str | None:
    """The path of a free string argument that is just the tool's name or a parameter's name
    (:attr:`Tool.echoes`): small models copy the text they just wrote."""
    for path, value in _leaves(arguments, ""):
        if isinstance(value, str) and fold(value) in tool.echoes:
            return f"'{path}' = {value!r}"
    return None


def _strings(value: Any) -> list[str]:
    return [v for _, v in _leaves(value, "") if isinstance(v, str)]


def _leaves(value: Any, path: str) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, f"{path}.{k}" if path else k)]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, f"{path}[{i}]")]
    return [(path, value)]


@functools.lru_cache(maxsize=512)
def _validator(schema_json: str) -> jsonschema.protocols.Validator:
    schema = json.loads(schema_json)
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def _describe(errors: list[jsonschema.ValidationError], what: str) -> str:
    """One short sentence per problem (at most three), missing arguments grouped first."""
    missing: list[str] = []
    sentences: list[str] = []
    for error in sorted(errors, key=lambda e: (list(map(str, e.absolute_path)), e.validator)):
        at = _path(error.absolute_path)
        if error.validator == "required" and not error.absolute_path:
            missing += [k for k in error.validator_value if k not in error.instance and k not in missing]
        elif error.validator == "required":
            need = [k for k in error.validator_value if k not in error.instance]
            sentences.append(f"missing {need} in '{at}'")
        elif error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = list(error.schema.get("properties", {}))
            for key in sorted(set(error.instance) - set(allowed)):
                place = f"'{at}.{key}'" if at else repr(key)
                sentences.append(f"unexpected argument {place} (allowed: {', '.join(allowed) or 'none'})")
        elif error.validator == "type":
            sentences.append(f"'{at or '(arguments)'}' must be {_type_words(error.validator_value)}, "
                             f"got {_json_type(error.instance)} {json_text(error.instance)[:40]}")
        elif error.validator in _SIZES:
            unit, more = _SIZES[error.validator]
            sentences.append(f"'{at or '(arguments)'}' must have {'at most' if more else 'at least'} "
                             f"{error.validator_value} {unit}, got {len(error.instance)}")
        elif error.validator == "enum":
            sentences.append(f"'{at}' must be one of {json_text(error.validator_value)}, got "
                             f"{json_text(error.instance)[:40]}")
        else:
            sentences.append(f"'{at or '(arguments)'}': {error.message[:160]}")
    if missing:
        sentences.insert(0, f"missing required args {missing}")
    return "; ".join(dict.fromkeys(sentences[:3])) + f" for {what}"


_SIZES = {"maxLength": ("characters", True), "minLength": ("characters", False), "maxItems": ("items", True),
          "minItems": ("items", False), "maxProperties": ("properties", True),
          "minProperties": ("properties", False)}


def _path(parts: Any) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _type_words(value: Any) -> str:
    return " or ".join(value) if isinstance(value, list) else str(value)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"
