"""Values the last message writes after a label that means an argument's name, in any of the
sentence encoder's sixteen languages: after a colon, to the sentence's end ("Notiz: bitte
klingeln bei Schulz, 3. Stock.", "特殊要求：高楼层无烟房。"), or quoted right after the label ("avec
la note « code porte 1234 »", "メッセージは『お疲れさま』で")."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from gbnf._text import without_elision
from gbnf.shape._language import every_function_word
from gbnf.shape._meaning import phrase_vectors
from gbnf.shape._segments import cjk_words, has_cjk
from gbnf.shape._values import ABBREVIATION, Values, argument_words, free_string, quotation_spans
from gbnf.shape.sources._source import Example, Source

LABEL_MEANS = 0.5
"""How close (cosine) a label (or its last words) and an argument's name must be for the label to
name the argument. Chosen on the fifth development set (``bench/chats/dev5``): of 36 labels written
before an optional free string's value, 29 are 0.51 to 1.0 from its name ("Grund": ``reason``,
0.71; "特殊要求": ``special_requests``, 0.90), 7 are 0.24 to 0.46 ("Notiz" for
``access_instructions``, "Şoföre not" for ``message_for_driver``, "件名は" for ``subject``);
another argument of the same tool is at most 0.53 from a label ("Nota para a receção" from
``reason``), which the closest argument settles (:func:`label_owners`)."""
LABEL_NEAR, LABEL_LEADS = 0.4, 0.15
"""A label less close than :data:`LABEL_MEANS` still names the argument it is at least
``LABEL_NEAR`` from when it is ``LABEL_LEADS`` closer to it than to the tool's other free strings
(a part read alone, an array's items, has none to be compared with: it is not named so)
("fírmalo como": ``signed_as``, 0.41, ``gift_message``, 0.16; "메모": ``salon_note``, 0.45,
``stylist_preference``, 0.16). Chosen on the fifth development set: it names 3 more of its 36
labels and no label another argument's."""
LABEL_WORDS = 4
"""The most words of a label: the clause's last ones ("Comentario para el mecánico")."""
MOST_CHARS = 200
"""The longest value read after a label: a longer one is a pasted text, not a note."""
MOST_TEXT = 2000
"""The longest message whose labels are read: a longer one is a pasted document."""
SOURCE_NAME = "labelled"

_COLON = re.compile(r"(?<=[^\W\d_])[ \u00a0]?(?::\s|：)")
"""A colon after a word (not a time's, "8:30"), with a space after it unless full-width."""
_CLAUSE_END = re.compile(r"[.!?;,:\n。！？；，、：\"”»」』》]")
"""What ends the clause a label is written in (it is read back from the colon or the quote): a
stop, a comma, a colon, or a closing quote (an earlier value's)."""
_QUOTED_ALONE = re.compile(r"[.!?。！？\n]|\s*$")
"""What follows a quotation that is a colon's whole value: the sentence's end."""
_ABBREVIATED = re.compile(rf"\b(?:{ABBREVIATION.pattern})$")
"""A period that is its word's own ("Dr.", "e.g."), which ends no sentence."""
_SENTENCE_END = re.compile(r"[!?\n。！？]|(?<!\s)(?<!\b[A-Z\d])(?<!\b\d\d)\.(?=\s|$)")
"""Where a value after a colon ends: a sentence's end, not an ordinal's period ("3. Stock") nor an
initial's ("J. Smith")."""


def labelled_values(name: str | None, part: dict[str, Any], values: Values) -> list[str]:
    """For a free string, the values the last message writes after a label that means its name (at
    least :data:`LABEL_MEANS`), in order."""
    return label_owners((name or "",), values, leads=False)[name or ""] if free_string(part) else []


def label_owners(keys: Sequence[str], values: Values, leads: bool = True) -> dict[str, list[str]]:
    """For the free-string arguments ``keys`` of one tool, the values the last message (``values``)
    writes after a label that means each one's name (at least :data:`LABEL_MEANS`, or
    :data:`LABEL_NEAR` and closest by :data:`LABEL_LEADS`), in order: each
    value goes to the argument whose name its label is closest to ("Nota para a receção":
    ``note_for_reception``, 0.67, not ``reason``, 0.53); without ``leads``, only at
    :data:`LABEL_MEANS`."""
    owners: dict[str, list[str]] = {key: [] for key in keys}
    pairs = after_labels(values.texts[0]) if values.texts and SOURCE_NAME not in values.off else ()
    named = {key: " ".join(argument_words(key)) for key in keys
             if len("".join(argument_words(key))) >= 3 and _worded(argument_words(key))}
    if not pairs or not named:
        return owners
    phrases = list(dict.fromkeys(phrase for label, _ in pairs for phrase in _phrasings(label)))
    if not phrases:  # every label is function words ("not: çocuk koltuğu")
        return owners
    close = phrase_vectors(phrases) @ phrase_vectors(list(named.values())).T
    row = {phrase: i for i, phrase in enumerate(phrases)}
    keys_named = list(named)
    for label, value in pairs:
        if not _phrasings(label):
            continue
        nearest = close[[row[phrase] for phrase in _phrasings(label)]].max(axis=0)
        best = int(np.argmax(nearest))
        owner = owners[keys_named[best]]
        runner_up = max((float(x) for i, x in enumerate(nearest) if i != best), default=0.0)
        means = nearest[best] >= LABEL_MEANS or leads and LABEL_NEAR <= nearest[best] >= runner_up + LABEL_LEADS
        if means and value not in owner:
            owner.append(value)
    return owners


def command_payload(values: Values) -> list[str]:
    """For the one required free string of a tool, what the last message writes after a colon
    that ends its first clause, a command of two words or more: its payload ("Log lunch: chicken
    caesar salad, about 450 calories", "Anota aí no diário: feijoada com arroz"), to its first
    comma and whole."""
    text = values.texts[0] if values.texts and SOURCE_NAME not in values.off else ""
    colon, quotes = _COLON.search(text), quotation_spans(text)
    if colon is None or _CLAUSE_END.search(text, 0, colon.start()) or any(
            start < colon.start() < end for (start, end), _ in quotes):
        return []
    label = _label_before(text, colon.start())
    value = _after_colon(text, len(text) - len(text[colon.end():].lstrip()), quotes)
    words = [start for start, _, _ in cjk_words(label)] if has_cjk(label) and " " not in label else label.split()
    if len(words) < 2 or not any(c.isalpha() for c in value) or len(value) > MOST_CHARS:
        return []  # "Date: March 3" is a label, not a command
    first = value.split(",")[0].strip()
    return list(dict.fromkeys([first, value] if any(c.isalpha() for c in first) else [value]))


@functools.lru_cache(maxsize=256)
def after_labels(text: str) -> tuple[tuple[str, str], ...]:
    """Each value ``text`` writes after a label, with the label: a colon's value runs to the
    sentence's end (a quotation alone is read without its quotes), a quotation's is the quotation;
    the label is the clause's words before the colon or the quote, up to :data:`LABEL_WORDS`.
    None in a text longer than :data:`MOST_TEXT`."""
    if len(text) > MOST_TEXT:
        return ()
    found: list[tuple[str, str]] = []
    quotes = quotation_spans(text)
    for colon in _COLON.finditer(text):
        if any(outer_start < colon.start() < outer_end for (outer_start, outer_end), _ in quotes):
            continue  # a title's colon ("'Call of Duty: Modern Warfare'")
        label = _label_before(text, colon.start())
        value = _after_colon(text, len(text) - len(text[colon.end():].lstrip()), quotes)
        if label and any(c.isalnum() for c in value) and len(value) <= MOST_CHARS:
            found.append((label, value))
    for (start, _), inner in quotes:
        label = _label_before(text, start)
        if label and not text[:start].rstrip().endswith((":", "：")):
            found.append((label, inner))
    return tuple(found)


def _after_colon(text: str, start: int, quotes: Sequence[tuple[tuple[int, int], str]]) -> str:
    """The value written from ``start``, right after a colon, in ``text``: a quotation that is all
    of it, without its quotes, else the words up to the sentence's end (its question or
    exclamation mark kept)."""
    for (outer_start, outer_end), inner in quotes:
        if outer_start == start and _QUOTED_ALONE.match(text, outer_end):
            return inner
    end = next((end for end in _SENTENCE_END.finditer(text, start)
                if not _ABBREVIATED.search(text, max(start, end.start() - 8), end.end())), None)
    stop = len(text) if end is None else end.end() if end.group() in "!?！？" else end.start()
    return text[start:stop].strip()


def _label_before(text: str, at: int) -> str:
    """The words of the clause that ends at ``at``, its last :data:`LABEL_WORDS` (a clause
    without spaces, Chinese or Japanese, is split into words); empty where it has no letter."""
    ends = list(_CLAUSE_END.finditer(text, 0, at))
    clause = text[ends[-1].end() if ends else 0:at].strip()
    if not any(c.isalpha() for c in clause):
        return ""
    if has_cjk(clause) and " " not in clause:
        words = [clause[start:end] for start, end, _ in cjk_words(clause)]
        return "".join(words[-LABEL_WORDS:])
    return " ".join(clause.split()[-LABEL_WORDS:])


@functools.lru_cache(maxsize=1024)
def _phrasings(label: str) -> tuple[str, ...]:
    """The label and its shorter endings ("avec la note", "la note", "note"), each also without the
    function words it ends with ("件名は": "件名"; "mesajı da": "mesajı"), lowercase, without an
    elided article; none of function words alone ("at", "は"), which label nothing."""
    if has_cjk(label) and " " not in label:
        words = [(label[start:end], function) for start, end, function in cjk_words(label)]
        joined = ""
    else:
        words = [(word, word in every_function_word()) for word in without_elision(label).lower().split()]
        joined = " "
    last = max((i for i, (_, function) in enumerate(words) if not function), default=-1)
    return tuple(dict.fromkeys(joined.join(word for word, _ in ending) for i in range(last + 1)
                               for ending in (words[i:], words[i:last + 1])))


def _worded(words: Sequence[str]) -> bool:
    """Whether ``words`` hold one that is no function word, in any language the word lists hold."""
    return any(word not in every_function_word() for word in words)


SOURCE = Source(
    SOURCE_NAME, "string", "a value written after a label that means the argument's name: after a colon, "
    "to the sentence's end, or quoted; in sixteen languages",
    Example("Book the Hotel du Lac for two nights. Demande particulière : un lit bébé.", "special_requests",
            {"type": "string"}, ("un lit bébé",)),
    labelled_values)
