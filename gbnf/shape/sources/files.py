"""File names the conversation writes, for a string that names a file."""

from __future__ import annotations

import re
from typing import Any

from gbnf._text import name_words
from gbnf.shape._values import Values
from gbnf.shape.sources._source import Example, Source

_FILE_NAMES = frozenset({"file", "filename", "document", "attachment", "spreadsheet"})
"""Words of a property's name that say it names a file (``file_name``, ``attachment``)."""
_FILE_TEXT = re.compile(r"\b(?:file|document|attachment)s?\b", re.IGNORECASE)
_EXTENSIONS = frozenset(
    "pdf doc docx odt rtf txt md tex xls xlsx ods csv tsv ppt pptx odp key pages numbers hwp epub "
    "json xml yaml yml toml ini cfg log html htm ics vcf eml msg "
    "jpg jpeg png gif svg webp heic tif tiff bmp psd ai mp3 wav flac ogg m4a mp4 mov avi mkv webm "
    "zip rar 7z tar gz tgz bz2 py ipynb js ts java c cpp h cs go rs rb php sh sql".split())
"""The extensions of the file types people name (documents, sheets, images, sound, video,
archives, code); a web domain's ending (".com") is none."""
_WRITTEN = re.compile(r"(?P<stem>.*\S)\.(?P<extension>[A-Za-z0-9]{1,5})")


def files_written(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """For a string whose name or description speaks of a file (``file_name``, "Name of the
    document"), the file names the conversation writes: those quoted, where any is, else the
    stretches that end in a known extension (:data:`_EXTENSIONS`: "Q3-budget.xlsx",
    "季度报告.docx", "企画書.pdf"; not "3.50" nor "example.com"), each file's whole name without
    spaces where it has one ("jaarplan-2027.pdf", not "2027.pdf" nor "bestand jaarplan-2027.pdf"),
    else its stretches with spaces ("Annual Report.pdf" and the longer ones)."""
    if not (name_words(name or "") & _FILE_NAMES or _FILE_TEXT.search(str(part.get("description", "")))):
        return []
    quoted = [string for string in values.quoted if _file_name(string)]
    if quoted:
        return quoted
    found = list(filter(_file_name, values.strings))
    whole = [string for string in found if " " not in string]
    spaced = [string for string in found if " " in string and not any(string.endswith(one) for one in whole)]
    found = [string for string in whole if not any(other != string and other.endswith(string) for other in whole)]
    return found + spaced


def _file_name(string: str) -> bool:
    """Whether ``string`` ends in a known file extension after a name."""
    match = _WRITTEN.fullmatch(string)
    return match is not None and match["extension"].lower() in _EXTENSIONS


SOURCE = Source(
    "files", "string", "file names written with the extension of a known file type, for a string that names a file",
    Example("把季度报告.docx分享给王磊", "file_name", {"type": "string"}, ("季度报告.docx",)),
    files_written, asks=True)
