"""Text compared loosely: case, spaces and punctuation left out."""

from __future__ import annotations


def fold(text: str) -> str:
    """``text`` lowercased, with letters and digits only (``"Get-Now "`` -> ``"getnow"``)."""
    return "".join(c for c in text.lower() if c.isalnum())
