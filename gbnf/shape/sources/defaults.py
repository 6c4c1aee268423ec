"""The default a number's description states ("Default is 52"), where the conversation writes
no number for it."""

from __future__ import annotations

import re
from typing import Any

from gbnf.shape._values import NUMBER, Number, Values, numbers
from gbnf.shape.sources._source import Example, Source

_DEFAULT = re.compile(rf"\bdefaults?\b(?:\s+(?:is|to|of|value))?\s*[:=]?\s*({NUMBER.pattern})", re.IGNORECASE)
"""A description's default number ("Default is 52", "defaults to 5", "default: 10")."""


def stated_default(schema: Any) -> Number | None:
    """The number an argument's description gives as its default ("The size of the deck.
    Default is 52."): a request may leave it unsaid, and the tool takes it then."""
    found = _DEFAULT.search(str(schema.get("description", ""))) if isinstance(schema, dict) else None
    return numbers(found.group(1))[0] if found else None


def default_stated(_name: str | None, part: dict[str, Any], _values: Values) -> list[Number]:
    """The default the description states, if any."""
    default = stated_default(part)
    return [] if default is None else [default]


SOURCE = Source(
    "defaults", "number", "the default a number's description states",
    Example("Deal me a poker hand", "deck_size",
            {"type": "integer", "description": "The size of the deck. Default is 52."}, (52,)),
    default_stated)
