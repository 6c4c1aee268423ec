"""Built-in executors for the shipped manifests that are safe to run anywhere (read-only)."""

from __future__ import annotations

import datetime
import zoneinfo
from pathlib import Path
from typing import Any


def get_now(timezone: str | None = None) -> str:
    """The current date and time, ISO 8601, in ``timezone`` or the machine's own zone."""
    zone = zoneinfo.ZoneInfo(timezone) if timezone else None
    return datetime.datetime.now(zone).astimezone(zone).isoformat(timespec="seconds")


def find_files(pattern: str, folder: str | None = None, contains: str | None = None,
               max_results: int = 20) -> list[str]:
    """Paths under ``folder`` (the home folder by default) matching a glob pattern."""
    root = Path(folder).expanduser() if folder else Path.home()
    found = []
    for path in root.rglob(pattern):
        if contains is not None:
            try:
                if contains not in path.read_text(encoding="utf-8", errors="ignore")[:1_000_000]:
                    continue
            except OSError:
                continue
        found.append(str(path))
        if len(found) >= max_results:
            break
    return found


def read_file(path: str, max_bytes: int = 4000) -> str:
    """The first ``max_bytes`` bytes of a text file."""
    with open(Path(path).expanduser(), "rb") as file:
        return file.read(max_bytes).decode("utf-8", "replace")


BUILTIN: dict[str, Any] = {"get_now": get_now, "find_files": find_files, "read_file": read_file}
