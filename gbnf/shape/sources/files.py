"""File names the conversation writes, for a string that names a file."""

from __future__ import annotations

import mimetypes
import re
from typing import Any

from gbnf._text import name_words
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source

_FILE_NAMES = frozenset({"file", "filename", "document", "attachment", "spreadsheet"})
"""Words of a property's name that say it names a file (``file_name``, ``attachment``)."""
_FILE_TEXT = re.compile(r"\b(?:file|document|attachment)s?\b", re.IGNORECASE)
_WRITTEN = re.compile(r".*\S\.([a-z][a-z0-9]{1,4})")


def files_written(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """For a string whose name or description speaks of a file (``file_name``, "Name of the
    document"), the stretches written as a file's name: ending in the extension of a known file
    type ("Q3-budget.xlsx", "季度报告.docx", "企画書.pdf"; not "3.50"): those without spaces where
    any is, each whole ("jaarplan-2027.pdf", not "2027.pdf" nor "bestand jaarplan-2027.pdf"), else
    all ("Attach Annual Report.pdf" gives "Annual Report.pdf" and its longer stretches)."""
    if not (name_words(name or "") & _FILE_NAMES or _FILE_TEXT.search(str(part.get("description", "")))):
        return []
    found = [string for string in values.strings
             if (match := _WRITTEN.fullmatch(string)) and mimetypes.guess_type(f"x.{match.group(1)}", strict=False)[0]]
    whole = [string for string in found if " " not in string]
    return [string for string in whole if not any(other != string and other.endswith(string) for other in whole)] \
        or found


SOURCE = Source(
    "files", "string", "file names written with the extension of a known file type, for a string that names a file",
    Example("把季度报告.docx分享给王磊", "file_name", {"type": "string"}, ("季度报告.docx",)),
    files_written)
