"""The generic JSON rules, emitted only when something reachable uses them."""

from __future__ import annotations

# Each primitive: (body, the primitives its body refers to). ``{ws}`` stands for the
# whitespace reference, which compact grammars drop. Whitespace is bounded so a small model
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
    "jsonObject": ('"{" {ws} (string ":" {ws} jsonValue ("," {ws} string ":" {ws} jsonValue)* {ws})? "}"',
                   ("string", "jsonValue")),
    "jsonArray": ('"[" {ws} (jsonValue ("," {ws} jsonValue)* {ws})? "]"', ("jsonValue",)),
}

PRIMITIVE_NAMES: tuple[str, ...] = tuple(_PRIMITIVES)


def closure(names: set[str], compact: bool) -> list[str]:
    """``names`` and every primitive they depend on, in a fixed order."""
    wanted = set(names)
    stack = list(names)
    while stack:
        body, deps = _PRIMITIVES[stack.pop()]
        if not compact and "{ws}" in body:
            deps = (*deps, "ws")
        for dep in deps:
            if dep not in wanted:
                wanted.add(dep)
                stack.append(dep)
    return [name for name in PRIMITIVE_NAMES if name in wanted]


def body(name: str, compact: bool) -> str:
    """The GBNF body of primitive ``name``."""
    text = _PRIMITIVES[name][0]
    return " ".join(text.replace("{ws}", "" if compact else "ws").split()) if "{ws}" in text else text
