"""Integer ranges as exact GBNF digit rules (``minimum: 5, maximum: 120`` -> ``[5-9] | [1-9] [0-9] | ...``)."""

from __future__ import annotations


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


def _nonneg(low: int, high: int | None) -> list[str]:
    """Alternatives for low <= n <= high, n >= 0, without leading zeros."""
    options = []
    top = len(str(high)) if high is not None else len(str(low))
    for width in range(len(str(low)), top + 1):
        lo = max(low, 10 ** (width - 1) if width > 1 else 0)
        hi = 10 ** width - 1 if high is None else min(high, 10 ** width - 1)
        if lo <= hi:
            options += _same_width(str(lo), str(hi))
    if high is None:
        options.append(f"[1-9] [0-9]{{{top},}}")
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
