"""What the word rules read of a tool: the words a query can match (its document), what its
schema declares of an argument (its type, its items, its free strings), the words one tool has
that the others do not, and the words of what any tool does. Relevance (:mod:`gbnf.shape._relevance`)
and the readers of what a request asks of the tools (calls, optional arguments, items) read them alike.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from gbnf._text import identifier_words
from gbnf.shape._english import words
from gbnf.shape._request import terms
from gbnf.shape.sources.defaults import stated_default
from gbnf.tools import Tool

CALL_WORDS = 2
"""A query that shares this many words with what a tool does (its name and description), or
half of its own words, asks for that tool (:func:`~gbnf.shape._relevance.decide_reply`)."""


def tool_document(tool: Tool) -> str:
    """The words a query can match: name, description, and what the parameters say."""
    return " ".join([identifier_words(tool.name), tool.description, *schema_words(tool.parameters)])


ACTIONS = frozenset(terms(" ".join(words("actions"))))
"""Words of what any tool does, not of what one tool does: a query's "Find" names no tool."""


def numbers_needed(tool: Tool) -> int:
    """How many of ``tool``'s required arguments are numbers or integers that a request must
    give: not one with a default, in its schema or its description ("The size of the deck.
    Default is 52.")."""
    properties = tool.parameters.get("properties") or {}
    needed = [sub for key in tool.parameters.get("required") or [] if isinstance(sub := properties.get(key), dict)]
    return sum(is_numeric(sub) and "default" not in sub and stated_default(sub) is None for sub in needed)


def free_string_keys(props: dict[str, Any]) -> list[str]:
    """The properties of ``props`` that are strings the model writes freely (no ``enum``)."""
    return [key for key, sub in props.items() if schema_type(sub) == "string" and "enum" not in sub]


def most_alike(keys: Iterable[str]) -> int:
    """The most of ``keys`` named alike but for their digits (``team1``, ``team2``: two); one when none are."""
    return max(Counter(re.sub(r"\d+", "", key) for key in keys).values(), default=1)


@functools.lru_cache(maxsize=64)
def own_terms(tools: tuple[tuple[str, str], ...]) -> tuple[frozenset[str], ...]:
    """For tools given as (name, description), each one's words (:func:`terms`) that not all of
    them have."""
    words = [frozenset(terms(f"{name} {description}")) for name, description in tools]
    common = frozenset.intersection(*words)
    return tuple(found - common for found in words)


def item_schema(schema: Any) -> Any:
    """An array schema's ``items`` (None for anything else)."""
    return schema.get("items") if isinstance(schema, dict) else None


def schema_type(schema: Any) -> Any:
    """A schema's ``type`` (None for anything but a schema object)."""
    return schema.get("type") if isinstance(schema, dict) else None


def is_numeric(schema: Any) -> bool:
    """Whether a schema is an integer or a number."""
    return schema_type(schema) in ("integer", "number")


def is_number_array(schema: Any) -> bool:
    """Whether a schema is an array of integers or numbers."""
    return schema_type(schema) == "array" and is_numeric(item_schema(schema))


def schema_words(schema: Any) -> Iterator[str]:
    """Property names, descriptions and enum values anywhere in a schema."""
    if isinstance(schema, dict):
        for key, sub in (schema.get("properties") or {}).items():
            yield identifier_words(key)
            yield from schema_words(sub)
        if isinstance(schema.get("description"), str):
            yield schema["description"]
        for value in schema.get("enum") or []:
            if isinstance(value, str):
                yield identifier_words(value)
        for key in ("items", "anyOf", "oneOf", "allOf"):
            sub = schema.get(key)
            for part in sub if isinstance(sub, list) else [sub]:
                yield from schema_words(part)
