"""Glob patterns of the file types the conversation names ("the PDF files": ``*.pdf``)."""

from __future__ import annotations

import mimetypes
import re
from typing import Any

from gbnf.shape._english import either
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source

_GLOB = re.compile(r"\bglob\b|\*\.\w", re.IGNORECASE)
_FILE_TYPE = re.compile(rf"([A-Za-z0-9]{{1,5}}) (?:{either('file_kinds')})", re.IGNORECASE)


def globs_named(_name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """For a glob pattern (its description says "glob" or gives one, ``*.pdf``), the globs of
    the file types the request names before "files" or "documents": a known file extension or
    a word in capitals (``PDF files``, ``csv files``: ``*.pdf``, ``*.csv``; not ``Find files``)."""
    if not _GLOB.search(str(part.get("description", ""))):
        return []
    words = (match.group(1) for string in values.strings if (match := _FILE_TYPE.fullmatch(string)))
    return list(dict.fromkeys(f"*.{word.lower()}" for word in words
                              if word.isupper() or mimetypes.guess_type(f"x.{word}", strict=False)[0]))


SOURCE = Source(
    "globs", "string", "file types named before \"files\" or \"documents\", for a glob pattern",
    Example("Find the PDF files and csv files in /tmp", "pattern",
            {"type": "string", "description": "A glob pattern, e.g. *.txt"}, ("*.pdf", "*.csv")),
    globs_named)
