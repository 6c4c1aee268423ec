"""Runs of numbers written as one list ("[3, 4, 5]", "5, 10 and 15"), for an array of numbers."""

from __future__ import annotations

from typing import Any

from gbnf.shape._values import Number, Values
from gbnf.shape.sources._source import Example, Source


def runs_written(_name: str | None, _part: dict[str, Any], values: Values) -> list[list[Number]]:
    """Each run of numbers, whole."""
    return [list(run) for run in values.runs]


SOURCE = Source(
    "runs", "array", "runs of numbers written as one list",
    Example("Compare group A [3, 4, 5] with group B [7, 8]", "group_a",
            {"type": "array", "items": {"type": "integer"}}, ([3, 4, 5], [7, 8])),
    runs_written)
