"""A request, read once: the one value every shaping rule reads.

:func:`read_request` turns the user's words into a :class:`Request`; each reading the rules need (its
stemmed words, whether it is English, its numbers) is made on first use and kept with it, and
the same text gives the same :class:`Request`, so a request's words are read once however many
rules and stages (``gbnf serve``, the planner) read them. :func:`terms` is the one reader of
words, for requests and for tools' texts alike.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from functools import cached_property

import bm25s
from bm25s.stopwords import STOPWORDS_EN_PLUS

from gbnf._text import identifier_words, word_key
from gbnf.shape._dates import without_dates
from gbnf.shape._english import STEMMER
from gbnf.shape._language import is_english
from gbnf.shape._units import units_written
from gbnf.shape._values import (
    Labels,
    Names,
    Number,
    Row,
    labelled,
    named_strings,
    number_lists,
    number_rows,
    numbers,
    numbers_alone,
    spans,
    without_parts,
)

TEXTS_KEPT = 16384
"""How many texts' words :func:`terms` keeps, and how many requests :func:`read_request` keeps."""


@functools.lru_cache(maxsize=TEXTS_KEPT)
def terms(text: str) -> tuple[str, ...]:
    """The stemmed words of ``text`` that BM25 matches (stop words left out); each text (a
    request, a tool's description) is read once and kept (the :data:`TEXTS_KEPT` most recent)."""
    words = bm25s.tokenize(identifier_words(text), stopwords=STOPWORDS_EN_PLUS, stemmer=STEMMER, return_ids=False,
                           show_progress=False)[0]
    return tuple(words)


@dataclass(frozen=True, eq=False)
class Request:
    """The user's words (``text``) and what the rules read in them, each read on first use."""

    text: str

    @cached_property
    def words(self) -> frozenset[str]:
        """Its stemmed words, stop words left out (:func:`terms`)."""
        return frozenset(terms(self.text))

    @cached_property
    def key(self) -> str:
        """Its words lowercased, one space apart, punctuation left out (:func:`~gbnf._text.word_key`)."""
        return word_key(self.text)

    @cached_property
    def english(self) -> bool:
        """Whether it reads as English (:func:`~gbnf.shape.is_english`): the word rules read
        English only, and offer what a schema declares for any other language."""
        return is_english(self.text)

    @cached_property
    def numbers(self) -> tuple[Number, ...]:
        """Its numbers, digits, scales and number words alike (:func:`~gbnf.shape.numbers`)."""
        return tuple(numbers(self.text))

    @cached_property
    def numbers_alone(self) -> tuple[Number, ...]:
        """The numbers it writes on their own, as values to count: no ``5km``, no words, none
        of a date, a time, a formula or a name (:func:`~gbnf.shape._dates.without_dates`,
        :func:`~gbnf.shape._values.without_parts`)."""
        return tuple(numbers_alone(self._counted))

    @cached_property
    def number_lists(self) -> tuple[tuple[Number, ...], ...]:
        """Its lists of numbers (``5, 10 and 15``), a number alone a list of one; none of a
        date, a time, a formula or a name ("April 25, 2023" is no list of two)."""
        return tuple(map(tuple, number_lists(self._counted)))

    def numbers_by_call(self, width: int, calls: int) -> list[Row]:
        """Each of ``calls`` calls' numbers, ``width`` each, and where they are written, where it
        writes them call by call (:func:`~gbnf.shape._values.number_rows`)."""
        return number_rows(self._counted, width, calls)

    @cached_property
    def _counted(self) -> str:
        """Its text with the digits that are no values to count blanked out."""
        return without_parts(without_dates(self.text, self.stretches))

    @cached_property
    def labels(self) -> Labels:
        """Each of its numbers with the words written right before it (:func:`~gbnf.shape.labelled`)."""
        return labelled(self.text)

    @cached_property
    def names(self) -> Names:
        """Each name it writes with the words around it (:func:`~gbnf.shape.named_strings`)."""
        return named_strings(self.text)

    @cached_property
    def stretches(self) -> tuple[str, ...]:
        """Its stretches of words, each a value an argument may take (:func:`~gbnf.shape.spans`)."""
        return tuple(spans(self.text))

    @cached_property
    def units(self) -> tuple[str, ...]:
        """The units it asks an answer in or writes its numbers in (:func:`~gbnf.shape._units.units_written`)."""
        return units_written(self.text)


@functools.lru_cache(maxsize=TEXTS_KEPT)
def read_request(text: str) -> Request:
    """``text`` as a :class:`Request`: the same one for the same text (the :data:`TEXTS_KEPT`
    most recent), so what one stage read another does not read again."""
    return Request(text)
