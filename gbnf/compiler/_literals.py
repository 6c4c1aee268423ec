"""Text helpers shared by the compiler: canonical JSON, GBNF string literals, camelCase names."""

from __future__ import annotations

import functools
import json
import os
import re
import unicodedata
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
_PLAIN = re.compile(r'[ !#-\[\]-~]*')  # printable ASCII but quote and backslash: written as it is
_PRINTABLE = re.compile(r"[ -~]*")
_GBNF_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


REPETITION_LIMIT = 2000
"""The largest lower bound llama.cpp accepts in ``x{m,n}`` ("number of repetitions exceeds sane
defaults" past it)."""
COUNT_LIMIT = 10_000
"""Counts past this (a length, items, properties, a pattern's repetition) are left to the
validator: the grammar would be large to hold them, and no small model's reply reaches them."""


def repetition(body: str, low: int, high: int | None) -> str:
    """``body{low,high}`` (high None: unbounded) in GBNF; a lower bound past llama.cpp's limit is
    split into consecutive repetitions, ``x{2000} x{500,}`` for ``x{2500,}``, the same language."""
    parts = []
    while low > REPETITION_LIMIT:
        parts.append(f"{body}{{{REPETITION_LIMIT}}}")
        low -= REPETITION_LIMIT
        high = None if high is None else high - REPETITION_LIMIT
    if (low, high) == (0, None):
        parts.append(f"{body}*")
    elif (low, high) == (0, 1):
        parts.append(f"{body}?")
    elif low == high:
        parts.append(f"{body}{{{low}}}")
    else:
        parts.append(f"{body}{{{low},{'' if high is None else high}}}")
    return " ".join(parts)


def repeat(item: str, low: int, high: int | None) -> str:
    """`` item{low,high}`` with a leading space, ``item`` parenthesized when it is a sequence;
    empty when ``high`` is 0 or less."""
    if high is not None and high <= 0:
        return ""
    body = item if " " not in item or item.startswith("(") and item.endswith(")") else f"({item})"
    return " " + repetition(body, low, high)


def json_text(value: Any) -> str:
    """The canonical JSON text of a value: compact, key order kept, non-ASCII kept raw.

    Lone surrogates (legal in a Python str, not in UTF-8) are written as ``\\uXXXX`` escapes.
    """
    if isinstance(value, str) and _PLAIN.fullmatch(value):
        return f'"{value}"'
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


@functools.lru_cache(maxsize=4096)
def gbnf_literal(text: str) -> str:
    """A GBNF string literal matching exactly ``text``; the result is printable ASCII."""
    if _PRINTABLE.fullmatch(text):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    out = []
    for char in text:
        code = ord(char)
        if char in _GBNF_ESCAPES:
            out.append(_GBNF_ESCAPES[char])
        elif 0x20 <= code < 0x7F:
            out.append(char)
        else:
            out.append(_hex_escape(code))
    return '"' + "".join(out) + '"'


def class_char(char: str) -> str:
    """One character inside a GBNF character class: ``[ ] \\`` escaped, ``- ^`` and anything
    outside printable ASCII as a hex escape (llama.cpp knows no other escapes)."""
    if char in "[]\\":
        return "\\" + char
    if 0x20 <= ord(char) < 0x7F and char not in "-^":
        return char
    return _hex_escape(ord(char))


def _hex_escape(code: int) -> str:
    if code <= 0xFF:
        return f"\\x{code:02X}"
    return f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"


def json_literal(value: Any) -> str:
    """A GBNF literal matching the canonical JSON text of ``value``."""
    return gbnf_literal(json_text(value))


_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


@functools.lru_cache(maxsize=4096)
def camel(text: str, fallback: str = "x") -> str:
    """Fold any text to a camelCase word of ASCII letters and digits (``get_inputs`` -> ``getInputs``)."""
    ascii_text = text if text.isascii() else unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = _WORDS.findall(ascii_text)
    word = words[0].lower() + "".join(w[:1].upper() + w[1:] for w in words[1:]) if words else ""
    if not word or not word[0].isalpha():
        word = fallback + word[:1].upper() + word[1:]
    return word


def literal_choice(texts: dict[str, str]) -> str:
    """A GBNF choice of ``texts`` (each followed by its GBNF expression, maybe empty) with every
    shared prefix written once. llama.cpp's engine keeps a stack for each alternative still
    live and masks the vocabulary once per stack, so 120 tool names that all open with a quote
    would cost 120 stacks until the name's first letter. No text may be a prefix of another
    (JSON strings end with their quote); the language is the same as one alternative each."""
    if len(texts) == 1:
        (text, then), = texts.items()
        return f"{gbnf_literal(text)} {then}".strip()
    prefix = os.path.commonprefix(list(texts))
    branches: dict[str, dict[str, str]] = {}
    for text, then in texts.items():
        branches.setdefault(text[len(prefix)], {})[text[len(prefix):]] = then
    choice = " | ".join(literal_choice(branch) for branch in branches.values())
    return f"{gbnf_literal(prefix)} ({choice})" if prefix else choice
