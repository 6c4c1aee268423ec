"""Built-in executors for the shipped manifests that are safe to run anywhere: read-only, bounded.

``find_files`` searches under the current folder unless told otherwise (never from the
filesystem root by default) and returns at most 20 paths; ``read_file`` returns at most 4,000
bytes. A relative path that is not under the current folder is looked for under the home
folder. Paths are shown relative to the current folder when they lie under it.
"""

from __future__ import annotations

import datetime
import functools
import itertools
import zoneinfo
from pathlib import Path
from typing import Any

MAX_RESULTS = 20
RESULT_CAP = 100  # the most paths a search returns, whatever it is asked for
MAX_BYTES = 4000
MAX_VISITED = 20_000  # paths looked at before a search gives up


def get_now(timezone: str | None = None) -> str:
    """The current date and time, ISO 8601, in ``timezone`` or the machine's own zone. A zone
    that does not exist gives the machine's own time, with a note: the question ("what is the
    date?") still gets its answer when a small model invents a zone."""
    try:
        zone = zoneinfo.ZoneInfo(timezone) if timezone else None
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return f"{get_now()} (local time: there is no time zone {timezone!r})"
    return datetime.datetime.now(zone).astimezone(zone).isoformat(timespec="seconds")


def find_files(pattern: str, folder: str | None = None, contains: str | None = None,
               max_results: int = MAX_RESULTS) -> list[str]:
    """Paths under ``folder`` (the current folder by default) whose name matches a glob
    pattern (``*.toml``; a bare word such as ``pdf`` means ``*pdf*``), at most ``max_results``."""
    root = _located(folder) if folder else Path.cwd()
    if Path(pattern).is_absolute():  # "/tmp/*.pdf": the folder is in the pattern
        root, pattern = Path(pattern).parent, Path(pattern).name
    if not root.is_dir():
        raise FileNotFoundError(f"no such folder: {root}")
    if not any(c in pattern for c in "*?["):
        pattern = f"*{pattern}*"
    found = []
    for path in itertools.islice(root.rglob(pattern), MAX_VISITED):
        if contains is not None and not _contains(path, contains):
            continue
        found.append(_shown(path))
        if len(found) >= min(max_results, RESULT_CAP):
            break
    return found


def read_file(path: str, max_bytes: int = MAX_BYTES) -> str:
    """The first ``max_bytes`` bytes (at most 4,000) of a text file."""
    with open(_located(path), "rb") as file:
        return file.read(min(max_bytes, MAX_BYTES)).decode("utf-8", "replace")


def convert_units(value: float, from_unit: str, to_unit: str) -> dict[str, float | str]:
    """``value`` in ``from_unit`` written in ``to_unit`` (pint's units: km, lb, degF, mph, ...)."""
    import pint

    registry = _units()
    try:
        converted = registry.Quantity(value, from_unit).to(to_unit)
    except pint.UndefinedUnitError as exc:
        raise ValueError(f"unknown unit {exc.unit_names[0] if exc.unit_names else ''!r}") from None
    except pint.DimensionalityError:
        raise ValueError(f"{from_unit} cannot be converted to {to_unit}") from None
    except (pint.PintError, AttributeError, TypeError, ValueError, SyntaxError) as exc:
        raise ValueError(f"cannot read the units {from_unit!r} and {to_unit!r}: {exc}") from None
    return {"value": float(f"{converted.magnitude:.6g}"), "unit": to_unit}


@functools.cache
def _units() -> Any:
    import pint

    return pint.UnitRegistry()


def _located(path: str) -> Path:
    """``path`` as written (``~`` expanded), or under the home folder when it is relative and
    not under the current one: "my Documents folder" is ``~/Documents``."""
    written = Path(path).expanduser()
    if written.is_absolute() or written.exists():
        return written
    home = Path.home() / written
    return home if home.exists() else written


def _contains(path: Path, text: str) -> bool:
    try:
        with open(path, "rb") as file:
            return text in file.read(1_000_000).decode("utf-8", "ignore")
    except OSError:
        return False


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)

