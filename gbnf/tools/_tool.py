"""The :class:`Tool`: what every stage passes along (a leaf module: it imports nothing of gbnf at load),
and the tool of a typed Python function (:func:`tool_from_function`; pydantic imported on first use)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pydantic.json_schema import GenerateJsonSchema

    from gbnf.tools._executors import ExecutorSpec

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
    executor: ExecutorSpec | None = field(default=None, compare=False)
    """What runs the tool: its manifest's ``[executor]`` table (None: the caller supplies one)."""

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
        """The tool of a typed Python function (:func:`tool_from_function`)."""
        return tool_from_function(function, name=name, description=description)


def tool_from_function(function: Callable[..., Any], *, name: str | None = None,
                       description: str | None = None) -> Tool:
    """The :class:`Tool` of a typed Python function: its name, its docstring's description, and
    its parameters' JSON Schema (each described from the docstring's arguments section)."""
    import docstring_parser
    import pydantic

    from gbnf.errors import ManifestError

    where = f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', function)}"
    try:
        schema = pydantic.TypeAdapter(function).json_schema(schema_generator=_untitled())  # type: ignore[arg-type]
    except (pydantic.PydanticSchemaGenerationError, pydantic.PydanticUserError, TypeError, NameError) as exc:
        raise ManifestError(where, "", f"its type hints make no JSON Schema: {str(exc).splitlines()[0]}") from None
    docs = docstring_parser.parse(inspect.getdoc(function) or "")
    for param in docs.params:
        target = schema.get("properties", {}).get(param.arg_name)
        if isinstance(target, dict) and param.description:
            target.setdefault("description", param.description)
    text = description or " ".join(part for part in (docs.short_description, docs.long_description) if part)
    return Tool(name or function.__name__, text or "", schema, source=where)


@functools.cache
def _untitled() -> type[GenerateJsonSchema]:
    """pydantic's JSON Schema generator without the titles it makes up from field names ("City")
    (made on first use, as pydantic is imported)."""
    from pydantic.json_schema import GenerateJsonSchema

    class Untitled(GenerateJsonSchema):
        def field_title_should_be_set(self, schema: Any) -> bool:
            return False

    return Untitled


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
