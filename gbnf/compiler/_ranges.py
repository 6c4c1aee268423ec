"""Numeric ranges as exact GBNF digit rules: integers (``minimum: 5, maximum: 120`` -> ``[5-9] |
[1-9] [0-9] | ...``) and decimal numbers (``minimum: 0.5`` -> ``"0." [5-9] [0-9]* | ...``)."""

from __future__ import annotations

from decimal import Decimal

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


def number_range(low: Decimal | None, high: Decimal | None, low_open: bool = False, high_open: bool = False,
                 places: int | None = None) -> str:
    """GBNF for the JSON numbers x written without an exponent, low <= x <= high (``<`` on an
    open side), either side None for no bound; with ``places``, only zeros past that many
    fraction digits (multiples of 10**-places: the bounds then closed and on that grid)."""
    zero = Decimal(0)
    options: list[str] = []
    # negative numbers, -m: x >= low is m <= -low, x <= high is m >= -high ("-0" is 0)
    above = (zero, False) if high is None or high > 0 else (-high, high_open)
    below = (None, False) if low is None else (-low, low_open)
    options += [f'"-" {o}' for o in _magnitudes(above[0], above[1], below[0], below[1], places)]
    start = (zero, False) if low is None or low < 0 else (low, low_open)
    options += _magnitudes(*start, high, high_open, places)
    if not options:
        raise ValueError(f"no number lies in the range ({low}, {high})")
    return " | ".join(options)


def _magnitudes(low: Decimal, low_open: bool, high: Decimal | None, high_open: bool, places: int | None) -> list[str]:
    """Alternatives for unsigned decimals m (``12``, ``12.50``), low <= m <= high, ``<`` on an
    open side, ``places`` as for :func:`number_range`; empty when none lies there."""
    if high is not None and (high < low or high == low and (low_open or high_open)):
        return []
    low_whole, low_digits = _split(low)
    high_whole, high_digits = (None, "") if high is None else _split(high)
    plain_low = not low_digits and not low_open  # the low whole part takes any fraction
    options = []
    first, last = low_whole + (not plain_low), None if high_whole is None else high_whole - 1
    if last is None or first <= last:
        whole = _nonneg(first, last)
        fraction = f'("." {_tail(places, 1)})?'
        options.append(f"{whole[0] if len(whole) == 1 else '(' + ' | '.join(whole) + ')'} {fraction}")
    if high_whole is not None and high_whole == low_whole:
        options.append(_with_fraction(low_whole, *_fraction(low_digits, low_open, high_digits, high_open, places)))
    else:
        if not plain_low:
            options.append(_with_fraction(low_whole, *_fraction(low_digits, low_open, None, False, places)))
        if high_whole is not None:
            options.append(_with_fraction(high_whole, *_fraction("", False, high_digits, high_open, places)))
    return [option for option in options if option]


def _split(value: Decimal) -> tuple[int, str]:
    """A bound >= 0 as its whole part and its fraction's digits (no trailing zeros)."""
    whole, _, digits = format(value, "f").partition(".")
    return int(whole), digits.rstrip("0")


def _with_fraction(whole: int, empty: bool, digits: str | None) -> str:
    """``whole`` followed by ``.`` and ``digits`` (a GBNF expression), or by nothing where ``empty``."""
    return _digit_then(whole, empty, None if digits is None else f'"." ({digits})')


def _fraction(low: str, low_open: bool, high: str | None, high_open: bool, places: int | None
              ) -> tuple[bool, str | None]:
    """The digit strings d with 0.low <= 0.d <= 0.high (``<`` on an open side; ``high`` None:
    no bound), only zeros past ``places`` digits: whether the empty string is one (0), and GBNF
    for the others (None: none)."""
    if high == "":  # 0.d <= 0: only zeros, where both bounds allow 0
        zero = not low and not low_open and not high_open
        return zero, '"0"+' if zero else None
    if not low and high is None:
        return (True, _tail(places, 1)) if not low_open else (False, "[0-9]* [1-9] [0-9]*")  # open: no places
    empty = not low and not low_open
    first, top = int(low[:1] or 0), 9 if high is None else int(high[0])
    options = []
    free_low, free_high = first + 1, top - (high is not None)  # digits after which any digits may follow
    more = None if places is None else places - 1
    if free_low <= free_high and places != 0:
        options.append(f"{_digits(free_low, free_high)} {_tail(more, 0)}")
    if high is not None and first == top:
        options.append(_digit_then(first, *_fraction(low[1:], low_open, high[1:], high_open, more)))
    else:
        options.append(_digit_then(first, *_fraction(low[1:], low_open, None, False, more)))
        if high is not None:
            options.append(_digit_then(top, *_fraction("", False, high[1:], high_open, more)))
    kept = [option for option in options if option]
    return empty, " | ".join(kept) or None


def _tail(places: int | None, least: int) -> str:
    """Fraction digits (at least ``least``: 0 or 1), only zeros past ``places`` of them (None: no limit)."""
    if places is None:
        return "[0-9]+" if least else "[0-9]*"
    if places == 0:
        return '"0"+' if least else '"0"*'
    return f'{repetition("[0-9]", least, places)} "0"*'


def _digits(low: int, high: int) -> str:
    """One digit from low to high."""
    return f'"{low}"' if low == high else f"[{low}-{high}]"


def _digit_then(digit: int, empty: bool, rest: str | None) -> str:
    """The digits of ``digit``, then ``rest`` (or nothing where ``empty``); empty when neither may follow."""
    if rest is None:
        return f'"{digit}"' if empty else ""
    return f'"{digit}" ({rest})' + ("?" if empty else "")


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
