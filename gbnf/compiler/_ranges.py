"""Numeric ranges as exact GBNF digit rules: integers (``minimum: 5, maximum: 120`` -> ``[5-9] |
[1-9] [0-9] | ...``) and decimal numbers between whole-number bounds."""

from __future__ import annotations

from gbnf.compiler._literals import repetition


def int_range(low: int | None, high: int | None) -> str:
    """GBNF for the JSON integers n with low <= n <= high (either side may be open)."""
    if low is not None and high is not None and low > high:
        raise ValueError(f"empty range [{low}, {high}]")
    options: list[str] = []
    if low is None or low < 0:
        # negative part: -m for m in [max(1, -high), -low]
        neg_low = 1 if high is None or high >= 0 else -high
        neg_high = None if low is None else -low
        options += [f'"-" {o}' for o in _nonneg(neg_low, neg_high)]
    if high is None or high >= 0:
        options += _nonneg(max(low or 0, 0), high)
    return " | ".join(options)


_FRACTION = '("." [0-9]+)?'


def number_range(low: int | None, high: int | None, low_open: bool = False, high_open: bool = False) -> str:
    """GBNF for the JSON numbers x written without an exponent, low <= x <= high (``<`` on an
    open side), the bounds whole numbers, either side None for no bound."""
    options: list[str] = []
    # negative numbers, -m: x >= low is m <= -low, x <= high is m >= -high ("-0" is 0)
    above = (0, False) if high is None or high > 0 else (-high, high_open)
    below = (None, False) if low is None else (-low, low_open)
    options += [f'"-" {o}' for o in _magnitudes(*above, *below)]
    start = (0, False) if low is None or low < 0 else (low, low_open)
    options += _magnitudes(*start, high, high_open)
    if not options:
        raise ValueError(f"no number lies in the range ({low}, {high})")
    return " | ".join(options)


def _magnitudes(low: int, low_open: bool, high: int | None, high_open: bool) -> list[str]:
    """Alternatives for unsigned decimals m (``12``, ``12.50``), low <= m <= high, ``<`` on an
    open side; empty when none lies there."""
    if high is not None and (high < low or high == low and (low_open or high_open)):
        return []
    options = []
    first, last = low + low_open, None if high is None else high - 1  # whole parts taking any fraction
    if last is None or first <= last:
        whole = _nonneg(first, last)
        options.append(f"{whole[0] if len(whole) == 1 else '(' + ' | '.join(whole) + ')'} {_FRACTION}")
    if low_open:
        options.append(f'"{low}." [0-9]* [1-9] [0-9]*')
    if high is not None and not high_open:
        options.append(f'"{high}" ("." "0"+)?')
    return options


def _nonneg(low: int, high: int | None) -> list[str]:
    """Alternatives for low <= n <= high, n >= 0, without leading zeros; the widths whose every
    number is in range are one alternative (``[1-9] [0-9]{1,3}``)."""
    options, full = [], []
    top = len(str(high)) if high is not None else len(str(low))
    for width in range(len(str(low)), top + 1):
        lo = max(low, 10 ** (width - 1) if width > 1 else 0)
        hi = 10 ** width - 1 if high is None else min(high, 10 ** width - 1)
        if width > 1 and (lo, hi) == (10 ** (width - 1), 10 ** width - 1):
            full.append(width - 1)
        elif lo <= hi:
            options += _same_width(str(lo), str(hi))
    if high is None:  # every wider number: the run of full widths goes on
        full.append(top)
        options.append(f"[1-9] {repetition('[0-9]', full[0], None)}")
    elif full:
        options.append(f"[1-9] {repetition('[0-9]', full[0], full[-1])}")
    return options


def _same_width(lo: str, hi: str) -> list[str]:
    """Alternatives for the numbers between two digit strings of the same length."""
    if lo == hi:
        return [f'"{lo}"']
    if len(lo) == 1:
        return [f"[{lo}-{hi}]"]
    if lo[0] == hi[0]:
        return [f'"{lo[0]}" ({" | ".join(_same_width(lo[1:], hi[1:]))})']
    rest = len(lo) - 1
    if lo[1:] == "0" * rest and hi[1:] == "9" * rest:
        return [f"[{lo[0]}-{hi[0]}] [0-9]{{{rest}}}"]
    options = []
    if lo[1:] == "0" * rest:
        first = int(lo[0])
    else:
        options.append(f'"{lo[0]}" ({" | ".join(_same_width(lo[1:], "9" * rest))})')
        first = int(lo[0]) + 1
    last = int(hi[0]) if hi[1:] == "9" * rest else int(hi[0]) - 1
    if first <= last:
        options.append(f"[{first}-{last}] [0-9]{{{rest}}}")
    if hi[1:] != "9" * rest:
        options.append(f'"{hi[0]}" ({" | ".join(_same_width("0" * rest, hi[1:]))})')
    return options
