"""The :class:`Tool`: what every stage passes along (a leaf module: it imports nothing of gbnf at load)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

KINDS = ("canonical", "escape_hatch")


@dataclass(frozen=True)
class Tool:
    """One executor: what the model may call, and what the pool filter needs to know."""

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})
    kind: Literal["canonical", "escape_hatch"] = "canonical"
    markers: tuple[str, ...] = ()
    provider: str | None = None
    min_canonical: int | None = None
    source: str = "<memory>"

    @property
    def is_escape_hatch(self) -> bool:
        return self.kind == "escape_hatch"

    @functools.cached_property
    def echoes(self) -> frozenset[str]:
        """The names the prompt shows, folded (:func:`gbnf._text.fold`): the tool's and its
        parameters', less any value its schema lists. A free string that is only one of them
        (``"symbol": "get_stock_price"``) copies the prompt, not what the user gave."""
        from gbnf._text import fold

        names = {fold(self.name), *(fold(key) for key in _property_names(self.parameters))}
        return frozenset(names - {fold(value) for value in _enum_strings(self.parameters)})

    @classmethod
    def from_function(cls, function: Callable[..., Any], *, name: str | None = None,
                      description: str | None = None) -> Tool:
        """The tool of a typed Python function (:func:`gbnf.tools._functions.tool_from_function`)."""
        from gbnf.tools._functions import tool_from_function

        return tool_from_function(function, name=name, description=description)


def _property_names(schema: Any) -> list[str]:
    if isinstance(schema, dict):
        own = list(schema.get("properties") or {}) if isinstance(schema.get("properties"), dict) else []
        return own + [k for v in schema.values() for k in _property_names(v)]
    if isinstance(schema, list):
        return [k for v in schema for k in _property_names(v)]
    return []


def _enum_strings(schema: Any, listed: bool = False) -> list[str]:
    """Every string ``schema`` lists (in an ``enum`` or ``const``, at any depth); ``listed``:
    ``schema`` is itself a listed value."""
    if isinstance(schema, dict):
        return [v for key, sub in schema.items() for v in _enum_strings(sub, listed or key in ("enum", "const"))]
    if isinstance(schema, list):
        return [v for sub in schema for v in _enum_strings(sub, listed)]
    return [schema] if listed and isinstance(schema, str) else []
