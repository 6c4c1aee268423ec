"""JSON Schema ``pattern`` (ECMA-262 regex) to GBNF, for the subset a grammar can hold.

Supported: literals, ``.``, classes ``[...]`` with ranges and negation, ``\\d \\w \\s`` and
their negations, escapes, groups ``(...)`` ``(?:...)``, alternation, quantifiers
``* + ? {m} {m,} {m,n}`` (lazy forms too), and ``^``/``$`` at the ends of the pattern or of
its top-level alternatives. A pattern is unanchored unless it starts with ``^`` / ends with
``$``, as JSON Schema says. Anything else
(backreferences, lookarounds, ``\\b``...) raises :class:`Untranslatable`.

The result matches the *JSON text* of the string's content: a ``"`` in the pattern must be
written ``\\"`` in JSON, a newline ``\\n``, and so on, so each character becomes the
alternatives of its JSON spellings.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from gbnf.compiler._literals import COUNT_LIMIT, class_char, gbnf_literal, repetition
from gbnf.errors import Untranslatable

MAX_CODE = 0x10FFFF
_CLASS_ESCAPES = {
    "d": [(0x30, 0x39)],
    "w": [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
    "s": [(0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x2028, 0x2029),
          (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF)],
}
_CHAR_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "f": "\f", "v": "\v", "0": "\0"}
_SPECIAL = set('\\[](){}|.*+?^$"') | {chr(c) for c in range(0xD800, 0xE000)}
"""Characters that are regex syntax, or that a JSON string writes other than as themselves."""
_QUANTIFIERS = ("*", "+", "?", "{")
_JSON_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


Ranges = list[tuple[int, int]]


@functools.lru_cache(maxsize=4096)
def pattern_to_gbnf(pattern: str) -> str:
    """A GBNF expression for the JSON content (between the quotes) of strings matching ``pattern``.

    Each top-level alternative has anchors of its own (``^$|^[0-9]+$``: empty, or digits only),
    as has each alternative of a group that is the whole pattern (``(^gs://.+)|(^https://.+)``)."""
    options = [_search(option) for option in _alternatives(pattern)]
    return options[0] if len(options) == 1 else f"({' | '.join(dict.fromkeys(options))})"


def _search(pattern: str) -> str:
    """Strings with a match of ``pattern``, one alternative (anchored at its own ends)."""
    grouped = pattern.startswith("(") and not pattern.startswith(("(?=", "(?!", "(?<"))
    if grouped and _closing(pattern) == len(pattern) - 1:  # a group that is the whole pattern
        return pattern_to_gbnf(pattern[3 if pattern.startswith("(?:") else 1:-1])
    parser = _Parser(pattern)
    anchored_start = parser.eat("^")
    body = parser.alternation()
    anchored_end = parser.eat("$")
    if not parser.at_end():
        raise Untranslatable(f"unsupported regex syntax at {parser.pos}: {pattern[parser.pos:][:10]!r}")
    parts = ([] if anchored_start else ["stringChar*"]) + [f"({body})"] + ([] if anchored_end else ["stringChar*"])
    return " ".join(parts)


def _structure(pattern: str) -> list[tuple[int, str, int]]:
    """The position, character and group depth after it of each of ``pattern``'s ``(``, ``)``
    and ``|`` outside escapes and classes."""
    found, i, in_class, depth = [], 0, False, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 1
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char in "()|":
            depth += {"(": 1, ")": -1}.get(char, 0)
            found.append((i, char, depth))
        i += 1
    return found


def _alternatives(pattern: str) -> list[str]:
    """``pattern`` split at its top-level ``|``."""
    cuts = [i for i, char, depth in _structure(pattern) if char == "|" and depth == 0]
    return [pattern[start + 1:end] for start, end in zip([-1, *cuts], [*cuts, len(pattern)])]


def _closing(pattern: str) -> int:
    """Where the group ``pattern`` opens with closes (-1: it does not)."""
    return next((i for i, char, depth in _structure(pattern) if char == ")" and depth == 0), -1)


def class_body(ranges: Ranges) -> str:
    """The inside of a GBNF character class holding ``ranges``."""
    return "".join(class_char(chr(lo)) if lo == hi else f"{class_char(chr(lo))}-{class_char(chr(hi))}"
                   for lo, hi in ranges)


def ranges_to_gbnf(ranges: Ranges) -> str:
    """GBNF for one character in ``ranges`` as it is written inside a JSON string."""
    ranges = _normalize(ranges)
    raw = _subtract(ranges, [(0x00, 0x1F), (0x22, 0x22), (0x5C, 0x5C), (0xD800, 0xDFFF)])
    options = []
    if raw:
        options.append(f"[{class_body(raw)}]")
    for lo, hi in ranges:
        for code in range(lo, min(hi, 0x1F) + 1):
            char = chr(code)
            options.append(gbnf_literal(_JSON_SHORT.get(char, f"\\u{code:04x}")))
        for special in (0x22, 0x5C):
            if lo <= special <= hi:
                options.append(gbnf_literal(_JSON_SHORT[chr(special)]))
    if not options:
        raise Untranslatable("a character class that matches nothing")
    return options[0] if len(options) == 1 else "(" + " | ".join(options) + ")"


def _normalize(ranges: Ranges) -> Ranges:
    out: Ranges = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _subtract(ranges: Ranges, remove: Ranges) -> Ranges:
    out = _normalize(ranges)
    for rlo, rhi in remove:
        next_out: Ranges = []
        for lo, hi in out:
            if rhi < lo or rlo > hi:
                next_out.append((lo, hi))
                continue
            if lo < rlo:
                next_out.append((lo, rlo - 1))
            if hi > rhi:
                next_out.append((rhi + 1, hi))
        out = next_out
    return out


def _negate(ranges: Ranges) -> Ranges:
    return _subtract([(0, MAX_CODE)], ranges)


@dataclass
class _Parser:
    text: str
    pos: int = 0

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def eat(self, char: str) -> bool:
        if self.peek() == char:
            self.pos += 1
            return True
        return False

    def alternation(self) -> str:
        options = [self.sequence()]
        while self.eat("|"):
            options.append(self.sequence())
        return " | ".join(o or '""' for o in options)

    def sequence(self) -> str:
        items = []
        while not self.at_end() and self.peek() not in "|)":
            if self.peek() == "$" and self.pos == len(self.text) - 1:
                break
            items.append(self.literal() or self.quantified())
        return " ".join(items)

    def literal(self) -> str:
        """A run of plain characters, none repeated, as one GBNF string ("" when none is here)."""
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in _SPECIAL and self.text[self.pos] >= " " \
                and self.text[self.pos + 1:self.pos + 2] not in _QUANTIFIERS:
            self.pos += 1
        return gbnf_literal(self.text[start:self.pos]) if self.pos > start else ""

    def quantified(self) -> str:
        atom = self.atom()
        char = self.peek()
        if char in ("*", "+", "?"):
            self.pos += 1
            self.eat("?")  # lazy: same language
            return f"({atom}){char}"
        if char == "{":
            close = self.text.find("}", self.pos)
            spec = self.text[self.pos + 1:close] if close > 0 else ""
            parts = spec.split(",")
            if close > 0 and 1 <= len(parts) <= 2 and parts[0].isdigit() and (len(parts) == 1 or parts[1] == ""
                                                                                 or parts[1].isdigit()):
                self.pos = close + 1
                self.eat("?")
                low = int(parts[0])
                high = low if len(parts) == 1 else None if parts[1] == "" else int(parts[1])
                if high is not None and high < low:
                    raise Untranslatable(f"a repetition {{{spec}}} whose maximum is below its minimum")
                if max(low, high or 0) > COUNT_LIMIT:
                    raise Untranslatable(f"a repetition {{{spec}}} past {COUNT_LIMIT}")
                return repetition(f"({atom})", low, high)
        return atom

    def atom(self) -> str:
        char = self.peek()
        if char == "(":
            self.pos += 1
            if self.text.startswith("?:", self.pos):
                self.pos += 2
            elif self.peek() == "?":
                raise Untranslatable("lookarounds and named groups are not supported")
            inner = self.alternation()
            if not self.eat(")"):
                raise Untranslatable("unbalanced parenthesis")
            return f"({inner})"
        if char == "[":
            return ranges_to_gbnf(self.char_class())
        if char == ".":
            self.pos += 1
            return ranges_to_gbnf(_negate([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]))
        if char == "\\":
            return ranges_to_gbnf(self.escape(in_class=False))
        if char in "*+?{":
            raise Untranslatable(f"nothing to repeat at {self.pos}")
        if char in "^$":
            raise Untranslatable(f"anchor {char!r} inside the pattern")
        self.pos += 1
        return ranges_to_gbnf([(ord(char), ord(char))])

    def escape(self, in_class: bool) -> Ranges:
        self.pos += 1
        char = self.peek()
        self.pos += 1
        if char.lower() in _CLASS_ESCAPES:
            ranges = _CLASS_ESCAPES[char.lower()]
            return _negate(ranges) if char.isupper() else list(ranges)
        if char in _CHAR_ESCAPES:
            return [(ord(_CHAR_ESCAPES[char]),) * 2]
        if char in ("x", "u"):
            width = 2 if char == "x" else 4
            digits = self.text[self.pos:self.pos + width]
            if len(digits) == width and all(c in "0123456789abcdefABCDEF" for c in digits):
                self.pos += width
                return [(int(digits, 16),) * 2]
            raise Untranslatable(f"bad \\{char} escape")
        if char == "b" and in_class:
            return [(8, 8)]
        if char.isalnum() or char == "":
            raise Untranslatable(f"unsupported escape \\{char}")
        return [(ord(char), ord(char))]

    def char_class(self) -> Ranges:
        self.pos += 1
        negated = self.eat("^")
        ranges: Ranges = []
        while self.peek() != "]":
            if self.at_end():
                raise Untranslatable("unterminated character class")
            lo = self.class_atom()
            if self.peek() == "-" and self.text[self.pos + 1:self.pos + 2] not in ("]", ""):
                self.pos += 1
                hi = self.class_atom()
                if len(lo) != 1 or len(hi) != 1 or lo[0][0] != lo[0][1] or hi[0][0] != hi[0][1]:
                    raise Untranslatable("a range between classes")
                if lo[0][0] > hi[0][0]:
                    raise Untranslatable("a range out of order")
                ranges.append((lo[0][0], hi[0][0]))
            else:
                ranges.extend(lo)
        self.pos += 1
        return _negate(ranges) if negated else ranges

    def class_atom(self) -> Ranges:
        if self.peek() == "\\":
            return self.escape(in_class=True)
        char = self.peek()
        self.pos += 1
        return [(ord(char), ord(char))]
