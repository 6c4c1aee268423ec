"""Reading JSON a model wrote: only what JSON allows, and every failure a JSONDecodeError.

Python's ``json`` accepts ``NaN`` and ``Infinity``, turns ``1e999`` into ``inf``, and raises
``ValueError`` past 4,300 integer digits or ``RecursionError`` on deep nesting. A reply is
untrusted text, so each of these is a decoding error here (``unsafe`` tells them apart), which
the validator and the soft parser turn into a message for the model; the soft parser does not
repair them.
"""

from __future__ import annotations

import json
import math
from typing import Any


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"{text} is too large for a number")
    return value


_UNSAFE = "unsafe JSON: "


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)


def loads(text: str) -> Any:
    """``json.loads`` for untrusted text (see the module's docstring)."""
    value, end = raw_decode(text, len(text) - len(text.lstrip()))
    if text[end:].strip():
        raise json.JSONDecodeError("Extra data", text, end)
    return value


def raw_decode(text: str, start: int) -> tuple[Any, int]:
    """One JSON value of ``text`` from ``start``: the value and where it ends."""
    try:
        return _DECODER.raw_decode(text, start)
    except json.JSONDecodeError:
        raise
    except (ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise json.JSONDecodeError(_UNSAFE + reason, text, start) from None


def unsafe(exc: json.JSONDecodeError) -> bool:
    """Whether ``exc`` is well-formed JSON holding a value no reader should accept (see above),
    as opposed to a syntax error that a lenient reader may repair."""
    return exc.msg.startswith(_UNSAFE)


def is_json(value: Any) -> bool:
    """Whether ``value`` is something JSON can write: objects with string keys, arrays,
    strings, booleans, null and finite numbers, all the way down (no NaN, no tuples, no sets)."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(is_json(v) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (str, int, bool))


def arguments(value: Any) -> Any:
    """A call's arguments as they arrive: an object as is, a JSON string (the OpenAI wire form)
    decoded, an empty string as ``{}``; raises ``JSONDecodeError`` when the string is not JSON."""
    if not isinstance(value, str):
        return value
    return loads(value) if value.strip() else {}
