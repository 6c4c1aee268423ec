"""Planner events: what happened at each step, for subscribers and ``--trace`` files."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

EventKind = Literal["pool", "rank", "step", "call", "result", "tool_error", "validation_error", "final", "abort",
                    "salvage", "cite", "reasked"]


@dataclass(frozen=True)
class Event:
    """One thing the planner did or saw; ``data`` is JSON-able; ``run`` names the plan."""

    kind: EventKind
    step: int
    data: dict[str, Any] = field(default_factory=dict)
    run: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, default=str)


Subscriber = Callable[[Event], None]


class TraceWriter:
    """A subscriber that writes each event as one JSON line."""

    def __init__(self, path: str | Path) -> None:
        self._file: IO[str] = open(path, "w", encoding="utf-8")

    def __call__(self, event: Event) -> None:
        self._file.write(event.to_json() + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
