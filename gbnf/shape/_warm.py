"""Loading now what the shaping stage otherwise loads on the first request that needs it."""

from __future__ import annotations

from gbnf.shape._dates import _names, _patterns, _relative_pattern
from gbnf.shape._meaning import _encoder
from gbnf.shape._options import Shaping
from gbnf.shape._places import _cities
from gbnf.shape._units import _registry


def warm(shaping: Shaping) -> None:
    """Load what reading requests under ``shaping`` needs, so that the first reply takes no
    longer than the next: the sentence encoder (``decide`` by ``meaning``, seconds), Pint's
    unit registry (``asked_only``), the CLDR's month and day names and its words for days from
    today (dates) and the U.S. cities (``copy_values``: "City, State")."""
    if shaping.decide and shaping.meaning:
        _encoder()
    if shaping.asked_only:
        _registry()
    _patterns()
    _names("months", ("wide",))
    _relative_pattern()
    if shaping.copy_values:
        _cities()
