"""The generic JSON rules, emitted only when something reachable uses them."""

from __future__ import annotations

import functools
from typing import Any, Literal

from gbnf.compiler._literals import gbnf_literal, json_literal, json_text

Layout = Literal["free", "indented", "line", "compact"]
"""Where a grammar lets whitespace go: ``free``, wherever JSON allows it (bounded); the others
fix it, so the model chooses no whitespace and an engine that fast-forwards appends it
unsampled: ``indented``, one member or item per line, indented by two spaces a level
(``json.dumps(indent=2)``, what small models write unprompted); ``line``, one line with a space
after each comma and colon (``json.dumps``); ``compact``, none at all. Generic values (an
object with no schema) have free whitespace in the indented layout."""


class Spacing:
    """The GBNF of a layout's whitespace; ``level`` is a container's nesting level (0: the
    reply itself). The pieces that follow something (lead, open, close, colon) are empty or
    start with a space; a separator and a key start an element."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self._ws = " ws" if layout == "free" else ""
        self._colon = ":" if layout in ("free", "compact") else ": "

    def lead(self) -> str:
        """After an opening bracket, whether or not members follow."""
        return self._ws

    def open(self, level: int) -> str:
        """Before a container's first member or item."""
        return " " + gbnf_literal("\n" + "  " * (level + 1)) if self.layout == "indented" else ""

    def close(self, level: int) -> str:
        """After a container's last member or item."""
        return " " + gbnf_literal("\n" + "  " * level) if self.layout == "indented" else self._ws

    def sep(self, level: int) -> str:
        """Between a container's members or items."""
        if self.layout == "indented":
            return gbnf_literal(",\n" + "  " * (level + 1))
        return gbnf_literal(", " if self.layout == "line" else ",") + self._ws

    def colon(self) -> str:
        """After a key that is a rule, not a literal."""
        return " " + gbnf_literal(self._colon) + self._ws

    def key(self, key: str) -> str:
        """A member's key and colon."""
        return _key_literal(key, self._colon) + self._ws


@functools.lru_cache(maxsize=4096)
def _key_literal(key: str, colon: str) -> str:
    """The literal of a key and its colon (the same keys recur across compiles)."""
    return gbnf_literal(json_text(key) + colon)


def value_literal(value: Any, layout: Layout) -> str:
    """GBNF for exactly one JSON value (a ``const`` or ``enum`` value), an object's or array's
    tokens spaced as ``layout`` spaces generic values: free, ``{"a": 1}`` and ``{"a":1}`` alike."""
    if not isinstance(value, (dict, list)) or layout == "compact":
        return json_literal(value)
    spacing = Spacing(_generic(layout))
    if isinstance(value, dict):
        opening, closing = '"{"', '"}"'
        items = [f"{spacing.key(key)} {value_literal(item, layout)}" for key, item in value.items()]
    else:
        opening, closing = '"["', '"]"'
        items = [value_literal(item, layout) for item in value]
    inner = f" {spacing.sep(0)} ".join(items) + spacing.close(0) if items else ""
    return " ".join(part for part in (opening + spacing.lead(), inner, closing) if part)


# Each primitive: (body, the primitives its body refers to). ``{lead}``, ``{close}``, ``{sep}``
# and ``{colon}`` stand for the layout's whitespace (:class:`Spacing`). Whitespace is bounded so a small model
# cannot loop in it; digit runs are not (JSON numbers are unbounded; the token limit stops
# a runaway number, and minimum/maximum give exact bounds). A \uXXXX escape never names a
# surrogate: characters outside the BMP are written as themselves (UTF-8), so one stringChar
# is always one character and minLength/maxLength hold exactly.
_PRIMITIVES: dict[str, tuple[str, tuple[str, ...]]] = {
    "ws": ('| " " | "\\n" [ \\t]{0,20}', ()),
    "string": ('"\\"" stringChar* "\\""', ("stringChar",)),
    "stringChar": ('[^"\\\\\\x00-\\x1F] | stringEscape', ("stringEscape",)),
    "stringEscape": ('"\\\\" (["\\\\/bfnrt] | "u" ([0-9a-cA-CeEfF] [0-9a-fA-F]{3} | [dD] [0-7] [0-9a-fA-F]{2}))', ()),
    "integer": ('"-"? ("0" | [1-9] [0-9]*)', ()),
    "number": ('"-"? ("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [-+]? [0-9]+)?', ()),
    "boolean": ('"true" | "false"', ()),
    "null": ('"null"', ()),
    "jsonValue": ("jsonObject | jsonArray | string | number | boolean | null",
                  ("jsonObject", "jsonArray", "string", "number", "boolean", "null")),
    "jsonObject": ('"{"{lead} (string{colon} jsonValue ({sep} string{colon} jsonValue)*{close})? "}"',
                   ("string", "jsonValue")),
    "jsonArray": ('"["{lead} (jsonValue ({sep} jsonValue)*{close})? "]"', ("jsonValue",)),
}

PRIMITIVE_NAMES: tuple[str, ...] = tuple(_PRIMITIVES)


@functools.lru_cache(maxsize=256)
def closure(names: frozenset[str], layout: Layout) -> tuple[str, ...]:
    """``names`` and every primitive they depend on, in a fixed order."""
    wanted = set(names)
    stack = list(names)
    while stack:
        body, deps = _PRIMITIVES[stack.pop()]
        if _generic(layout) == "free" and "{lead}" in body:
            deps = (*deps, "ws")
        for dep in deps:
            if dep not in wanted:
                wanted.add(dep)
                stack.append(dep)
    return tuple(name for name in PRIMITIVE_NAMES if name in wanted)


@functools.lru_cache(maxsize=64)
def body(name: str, layout: Layout) -> str:
    """The GBNF body of primitive ``name`` in ``layout``."""
    text = _PRIMITIVES[name][0]
    if "{lead}" not in text:
        return text
    spacing = Spacing(_generic(layout))
    for piece, gbnf in (("{lead}", spacing.lead()), ("{close}", spacing.close(0)), ("{sep}", spacing.sep(0)),
                        ("{colon}", spacing.colon())):
        text = text.replace(piece, gbnf)
    return " ".join(text.split())


def _generic(layout: Layout) -> Layout:
    """The layout of generic values: an indented one's depth is not known, so it is free."""
    return "free" if layout == "indented" else layout
