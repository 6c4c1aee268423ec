"""The :class:`Tool`: what every stage passes along (a leaf module: it imports nothing of gbnf at load)."""

from __future__ import annotations

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

    @classmethod
    def from_function(cls, function: Callable[..., Any], *, name: str | None = None,
                      description: str | None = None) -> Tool:
        """The tool of a typed Python function (:func:`gbnf.tools._functions.tool_from_function`)."""
        from gbnf.tools._functions import tool_from_function

        return tool_from_function(function, name=name, description=description)
