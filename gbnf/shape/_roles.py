"""Which of two arguments of one kind a value plays, by the words around it: a request that
writes two countries for ``passport_country`` and ``destination_country`` ("I have a Canadian
passport. Do I need a visa for Vietnam?"), or two languages for ``spoken_language`` and
``caption_language`` ("Untertitel auf Deutsch, gesprochen wird Französisch"), says which is
which by the words next to each, in its own language. Each value's few words around it are
compared by meaning (:func:`~gbnf.shape._meaning.phrase_vectors`) with each argument's card (its
name's words and its description); the two values go one to each argument where one leans to the
first clearly more than the other does."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gbnf._text import identifier_words
from gbnf.shape._meaning import phrase_vectors
from gbnf.shape._segments import has_cjk

ROLE_MARGIN = 0.1
"""How much more one value's words must lean to the first argument's card than the other
value's (cosine similarity to the first card less that to the second, one value against the
other) for each to go to its own. Chosen on ``bench/chats/dev4``: passports and destinations in
six languages, and spoken and caption languages, decided right, and none wrong."""
AROUND = 3
"""The words on each side of a value that say its role, within its clause (a text in Chinese,
Japanese or Korean letters: its whole clause)."""
_CLAUSE_END = re.compile(r"[,;:.!?](?:\s+|$)|[。，、；：！？]\s*")
"""Where a clause ends (not the comma or point of a number: "1,10 Euro")."""


def role_card(key: str, schema: Any) -> str:
    """What argument ``key`` (taking ``schema``) is, for comparing by meaning: its name's words
    and its description."""
    described = schema.get("description", "") if isinstance(schema, dict) else ""
    return f"{identifier_words(key)}: {described}".strip(" :")


def around(texts: Sequence[str], stretch: str) -> list[str]:
    """The words around each place ``texts`` write ``stretch`` (case aside; as a word of its own,
    in letters that space their words: "Oman" is not in "woman"): up to :data:`AROUND` on each
    side within its clause."""
    found: list[str] = []
    pattern = re.compile(rf"(?<!\w){re.escape(stretch)}(?!\w)" if not has_cjk(stretch) else re.escape(stretch),
                         re.IGNORECASE)
    for text in texts if stretch else ():
        for match in pattern.finditer(text):
            start = max((end.end() for end in _CLAUSE_END.finditer(text, 0, match.start())), default=0)
            stop = next((end.start() for end in _CLAUSE_END.finditer(text, match.end())), len(text))
            before, after = text[start:match.start()], text[match.end():stop]
            if not has_cjk(text[start:stop]):
                before, after = " ".join(before.split()[-AROUND:]), " ".join(after.split()[:AROUND])
            found.append(f"{before} {match.group()} {after}".strip())
    return found


def leaning(cards: tuple[str, str], windows: Sequence[str]) -> float | None:
    """How much ``windows`` (the words around one value) lean to the first of ``cards`` over
    the second, on average (None without windows)."""
    if not windows:
        return None
    vectors = phrase_vectors([*cards, *windows])
    return float(((vectors[2:] @ vectors[0]) - (vectors[2:] @ vectors[1])).mean())


def split_roles(cards: tuple[str, str], windows: dict[Any, list[str]]) -> tuple[Any, Any] | None:
    """Of two values (``windows``: the words around each), the one for the first of ``cards``
    and the one for the second, where one leans to the first more than the other by
    :data:`ROLE_MARGIN`; None otherwise."""
    if len(windows) != 2:
        return None
    (one, mine), (other, theirs) = windows.items()
    lean, other_lean = leaning(cards, mine), leaning(cards, theirs)
    if lean is None or other_lean is None or abs(lean - other_lean) < ROLE_MARGIN:
        return None
    return (one, other) if lean > other_lean else (other, one)
