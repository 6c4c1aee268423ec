"""A request, read once: the one value every shaping rule reads.

:func:`read_request` turns the user's words into a :class:`Request`; each reading the rules need (its
stemmed words, whether it is English, its numbers) is made on first use and kept with it, and
the same text gives the same :class:`Request`, so a request's words are read once however many
rules and stages (``gbnf serve``, the planner) read them. :func:`terms` is the one reader of
words, for requests and for tools' texts alike.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import bm25s
from bm25s.stopwords import STOPWORDS_EN_PLUS

from gbnf._text import identifier_words, word_key
from gbnf.shape._dates import said_now, sentences, stated_today, without_dates, written_dates
from gbnf.shape._english import STEMMER
from gbnf.shape._language import is_english
from gbnf.shape._times import without_times
from gbnf.shape._units import units_written
from gbnf.shape._values import (
    MOST_RUNS,
    MOST_STRETCHES,
    WHOLE_CHARS,
    Labels,
    Names,
    Number,
    Row,
    Values,
    counted,
    labelled,
    named_strings,
    number_lists,
    number_rows,
    number_runs,
    numbers,
    numbers_alone,
    percents,
    quotations,
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


OPENING_MARKS = "¿¡\"'«„“‘ "
"""What may open a sentence before its first word: Spanish's inverted marks, quotation marks and
spaces between them ("¿ Dónde...", "« Mets France Inter »")."""


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
        """Whether it reads as English (:func:`~gbnf.shape.rules.is_english`): the word rules read
        English only, and offer what a schema declares for any other language."""
        return is_english(self.text)

    @cached_property
    def numbers(self) -> tuple[Number, ...]:
        """Its numbers, digits, scales and number words alike (:func:`~gbnf.shape.rules.numbers`)."""
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
        return without_parts(self._dateless)

    @cached_property
    def _dateless(self) -> str:
        """Its text with its dates and times blanked out (:func:`~gbnf.shape._dates.without_dates`)."""
        return without_dates(self.text, self.stretches)

    @cached_property
    def labels(self) -> Labels:
        """Each of its numbers with the words written right before it (:func:`~gbnf.shape.rules.labelled`)."""
        return labelled(self.text)

    @cached_property
    def asks_to_know(self) -> bool:
        """Whether its last sentence asks a question rather than for something to be done: it
        ends with a question mark and starts with no request ("Can you...", "Peux-tu...", "请")
        nor a turn back to what was said ("And tomorrow?", "What about Tuesday?"): "How often
        does a diesel need an oil change?", "Is 40 grams a day enough for a beagle?"."""
        last = sentences(self.text)[-1].strip().lstrip(OPENING_MARKS) if self.text.strip() else ""
        return last.endswith(("?", "？")) and not _REQUEST_START.match(last)

    @cached_property
    def counts(self) -> Labels:
        """Each of its numbers with the word written right after it, what it counts ("2 rooms":
        :func:`~gbnf.shape.rules.counted`)."""
        return counted(self.text)

    @cached_property
    def names(self) -> Names:
        """Each name it writes with the words around it (:func:`~gbnf.shape.rules.named_strings`)."""
        return named_strings(self.text)

    @cached_property
    def stretches(self) -> tuple[str, ...]:
        """Its stretches of words, each a value an argument may take (:func:`~gbnf.shape.rules.spans`)."""
        return tuple(spans(self.text))

    @cached_property
    def runs(self) -> tuple[tuple[Number, ...], ...]:
        """Its runs of numbers, each list whole (:func:`~gbnf.shape._values.number_runs`)."""
        return tuple(number_runs(self.text, lists=self.number_lists if self._counted == self.text else None))

    @cached_property
    def percents(self) -> tuple[Number, ...]:
        """Its percentages (:func:`~gbnf.shape._values.percents`)."""
        return tuple(percents(self.text))

    @cached_property
    def quotations(self) -> tuple[str, ...]:
        """Its quotations, each whole (:func:`~gbnf.shape._values.quotations`)."""
        return tuple(quotations(self.text))

    @cached_property
    def undated(self) -> frozenset[Number]:
        """The numbers it writes outside its dates and times (:func:`~gbnf.shape._dates.without_dates`,
        :func:`~gbnf.shape._times.without_times`)."""
        timeless = without_times(self._dateless)
        return frozenset(self.numbers if timeless == self.text else numbers(timeless))

    @cached_property
    def values(self) -> Values:
        """The values it offers on its own (:func:`offered_values`), read once however many
        tools ask."""
        return offered_values([self.text])

    @cached_property
    def stated_day(self) -> datetime.date | None:
        """The date it says today is ("Today is 2025-03-04": :func:`~gbnf.shape._dates.stated_today`;
        "It's Monday the 1st of February 2027.": :func:`~gbnf.shape._dates.said_now`)."""
        return stated_today(self.stretches) or said_now(self.text)

    @cached_property
    def only_date(self) -> datetime.date | None:
        """The one date with its year it writes (a system prompt's "Current date: 2027-05-20");
        None where it writes none or several."""
        found = written_dates(self.stretches, "%Y-%m-%d")
        return datetime.date.fromisoformat(found[0]) if len(found) == 1 and _YEAR.search(self.text) else None

    @cached_property
    def units(self) -> tuple[str, ...]:
        """The units it asks an answer in or writes its numbers in (:func:`~gbnf.shape._units.units_written`)."""
        return units_written(self.text)


@functools.lru_cache(maxsize=TEXTS_KEPT)
def read_request(text: str) -> Request:
    """``text`` as a :class:`Request`: the same one for the same text (the :data:`TEXTS_KEPT`
    most recent), so what one stage read another does not read again."""
    return Request(text)


def offered_values(texts: Sequence[str], most: int = MOST_STRETCHES, whole: Sequence[str] = ()) -> Values:
    """The stretches (:func:`~gbnf.shape._values.spans`), numbers, runs of numbers
    (:func:`~gbnf.shape._values.number_runs`), percentages, labels
    (:func:`~gbnf.shape._values.labelled`) and the numbers written only in dates and times
    (:func:`~gbnf.shape._dates.without_dates`) of ``texts`` and ``whole``, in order, each once,
    each text read once (:func:`read_request`); each of ``whole`` (a tool result's strings:
    :func:`~gbnf.shape._values.value_texts`) up to :data:`~gbnf.shape._values.WHOLE_CHARS`
    characters is offered whole too, as a quotation is ("Wo ist der Bahnhof?", which starts with
    function words); no stretch (no number) when there are more than ``most`` of them (strings,
    numbers stay free), and the first :data:`~gbnf.shape._values.MOST_RUNS` runs."""
    read = [read_request(text) for text in [*texts, *whole]]
    entire = [text.strip() for text in whole if text.strip() and len(text.strip()) <= WHOLE_CHARS]
    stretches = list(dict.fromkeys([*(stretch for one in read for stretch in one.stretches), *entire]))
    found = tuple(dict.fromkeys(number for one in read for number in one.numbers))
    runs = list(dict.fromkeys(run for one in read for run in one.runs))
    shares = tuple(dict.fromkeys(number for one in read for number in one.percents))
    labels = tuple(pair for one in read for pair in one.labels)
    names = tuple(pair for one in read for pair in one.names)
    undated = {number for one in read for number in one.undated}
    quoted = tuple(dict.fromkeys([*(quotation for one in read for quotation in one.quotations), *entire]))
    few = len(found) <= most
    return Values(tuple(stretches) if len(stretches) <= most else (), found if few else (),
                  tuple(runs[:MOST_RUNS]), shares if few else (), labels if few else (), names,
                  tuple(number for number in found if number not in undated), quoted,
                  texts=tuple(one.text for one in read))


_REQUEST_START = re.compile(
    r"(?:can|could|would|will you|may|please|kindly|and|also|what about|how about|what if|"
    r"peux|pouvez|pourrais|pourriez|voudrais|puis|et|"
    r"puedes|puede|puedo|podrías|podría|y|qué tal|"
    r"kann|kannst|können|könntest|könnten|würdest|würden|und|"
    r"puoi|può|posso|potresti|potrebbe|potrei|"
    r"podes|pode|poderia|"
    r"kan|kun|kunt|kunnen|zou|czy(?=\s+(?:mog|moż|mógł|mogł)))(?![A-Za-zÀ-ɏ])|(?:請|请|帮|幫|能不能|可以|麻烦|麻煩)|.*(?:ください|くれ|줄래|줘|주세요|주실)",
    re.IGNORECASE)
"""How a question that asks for something to be done, or turns back to what was said, starts (or,
in Japanese and Korean, ends)."""
_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")
"""A year, which a text that says what day today is writes."""


def without_the_day(text: str) -> str:
    """``text`` without its sentences that only say what day today is ("Hoy es lunes 12 de abril
    de 2027. Cómprame cuatro entradas..."): what a request asks for is read from the rest (all
    of it where every sentence says the day)."""
    parts = sentences(text)
    kept = [sentence for sentence in parts if read_request(sentence).stated_day is None]
    return " ".join(kept) if kept and len(kept) < len(parts) else text


def conversation_day(messages: Sequence[tuple[str, str]], clock: datetime.date | None = None
                     ) -> tuple[datetime.date, bool]:
    """The day a conversation's ``messages`` (role and text, first to last) count "tomorrow"
    from, and whether they say it: the one the latest of them that says what day today is says
    ("Today is 2025-03-04", "Hoy es lunes 12 de abril de 2027", "It's Monday the 1st of February
    2027."), or the one date a system prompt writes ("Current date: 2027-05-20"), else ``clock``
    (None: this machine's date)."""
    for role, text in reversed(messages):
        if not _YEAR.search(text):
            continue
        read = read_request(text)
        stated = read.stated_day or (read.only_date if role == "system" else None)
        if stated is not None:
            return stated, True
    return clock or datetime.date.today(), False


def part_values(values: Values, own: str, others: str) -> Values:
    """``values`` for one of several calls: the stretches ``own`` (the words that may ask for
    it) writes, not those that run on from them into other words ("Carlsen. Could you"), and
    the numbers, runs of numbers and percentages ``own`` writes too, or ``others`` (the words
    that ask for other calls) does not. When ``own`` writes no name, it speaks of one the
    others write ("the hours of the Louvre Museum and the waiting time"): their names are its
    stretches too (``Boston, USA`` as well as ``Boston``)."""
    mine, theirs = offered_values([own]), offered_values([others])
    names = {name for _, name in values.names} if not mine.names else set()

    def kept(field: str) -> tuple[Any, ...]:
        ours, others_ = set(getattr(mine, field)), set(getattr(theirs, field))
        return tuple(value for value in getattr(values, field) if value in ours or value not in others_)
    return replace(values, strings=tuple(text for text in values.strings
                                         if text in mine.strings or names.issuperset(text.split(", "))),
                   numbers=kept("numbers"), runs=kept("runs"), percents=kept("percents"))
