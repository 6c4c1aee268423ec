"""How the shaping stage shapes what the model may write for a request: one frozen object, one
set of defaults, read alike by ``gbnf serve`` (:func:`gbnf.endpoint.parse_request`) and by the
planner (:attr:`gbnf.plan.PlanOptions.shaping`), and the named profiles a user chooses from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from gbnf.errors import GbnfError

if TYPE_CHECKING:
    from gbnf.tools import Tool

SMALL_PARAMETERS = 1.3e9
"""The most parameters a model has for its default profile to be ``small``: Llama 3.2 1B
(1.24 billion) is small, Qwen2.5 1.5B is not."""


@dataclass(frozen=True)
class Shaping:
    """How a request is shaped for the model.

    ``string_chars``, ``array_items`` and ``number_digits`` cap, in the grammar only, every tool
    string, array and number argument the schema leaves unbounded (characters, items, digits
    before the point; None: no cap): a small model's run-on ("1000000000...") then ends as a
    complete call, which the validator still checks against the schema as written. ``gbnf
    serve`` also caps strings at the reply's token limit, in characters.

    With ``decide``, when the user has the last word, the request decides what the reply is
    (:func:`gbnf.shape.rules.decide_reply`), by its meaning (with ``meaning``: :func:`gbnf.shape.rules.closeness`,
    in sixteen languages) and its words: when the user asks for what some tools do, the reply
    must call one of those tools; when the request is confidently unrelated to every tool (or,
    without ``meaning``, shares no word with any), the reply is text and no tool is offered (the
    planner answers at once); otherwise the model chooses. Small models otherwise answer a
    request for a tool in prose, or call a tool for a request none fits. In ``gbnf serve``,
    under ``auto``, prose ends at its first blank line, and a reply that can only be text at
    ``prose_tokens`` tokens (None: neither bound). With ``model_relevance`` too (off by default:
    it costs more than the first token of the reply), where the model would choose and the
    request is in English, the model's own relevance of the tools closest to it by meaning is
    read first, when the model can score text (in-process): a request no more likely after any
    of their descriptions than after a description of any request is answered in text
    (:func:`gbnf.shape.rules.scored_tools`, :class:`gbnf.shape.ModelRelevance`).

    With ``asked_only``, when the user has the last word in English (:func:`gbnf.shape.rules.asked_of`;
    in another language every tool is offered as declared), a tool's optional arguments that the
    request says nothing about (:func:`gbnf.shape.rules.unasked`) are left out of the grammar and the
    prompt: the tool's defaults apply, instead of values the model makes up. Those it asks for are
    required (small models otherwise leave out what was asked), and a boolean it asks for without
    a negation ("assuming equal variance") is true (:func:`gbnf.shape.rules.switched_on`).

    ``copy_bias`` (None: off) is added to the logits of the tokens of the user's words (and, in
    the planner, of the tools' results) when a reply may call a tool, so argument values are
    copied rather than made up.

    With ``count_calls``, when a reply must call the tools the user's words name (or the one
    tool named) and may carry several calls, it carries at least as many as those words ask for
    (:func:`gbnf.shape.rules.asked_calls`: "the factorial of 5, 7 and 9" is three calls; "the GCD of
    4 and 6 and the LCM of 3 and 5", two), and no more where they ask for several; where they ask
    for one, a call past it is kept only when it writes something of the user's that no earlier
    call wrote (:func:`gbnf.shape.rules.adds_nothing`: "London" after "Paris", in any language; not
    "blue" and "yellow" swapped, nor another value of a list). Small models otherwise stop after
    the first, or go on with calls nobody asked for. With
    ``copy_values`` too, when one tool's calls were counted from one enumeration ("the weather in
    Paris, London and Rome"), the k-th call copies the k-th item and no other call's
    (:func:`gbnf.shape.rules.asked_items`, :func:`gbnf.shape.rules.own_values`).

    With ``copy_values``, every free string argument is a stretch of the user's words (and, in
    the planner, of the tools' results, each result's string whole too) and every free number
    one of their numbers (:func:`gbnf.shape.rules.spans`, :func:`gbnf.shape.rules.numbers`), where any
    fits; small models otherwise make values up (``"goldsboro_warriors"`` for the Golden State
    Warriors).

    With ``values_apart`` too, a reply whose call repeats in a second argument
    a value the user wrote once (``{"metal": "Gold", "measure": "Gold"}`` for "the Gold price
    per ounce") is asked again, its calls up to that one calling the same tools and that
    argument kept from that value (:func:`gbnf.shape.rules.repeated_value`, :func:`gbnf.shape.rules.kept_apart`;
    greedy decoding writes what comes before it as it did), up to three times; an invalid reply
    asked again leaves the first.

    ``sources_off`` names the candidate sources (:data:`gbnf.shape.sources.SOURCES`) that offer
    no values: the next source of the same kind is asked instead (``docs/sources.md``).
    """

    string_chars: int | None = 1000
    array_items: int | None = 100
    number_digits: int | None = 15
    decide: bool = True
    meaning: bool = True
    model_relevance: bool = False
    prose_tokens: int | None = 256
    asked_only: bool = True
    copy_bias: float | None = None
    count_calls: bool = True
    copy_values: bool = True
    values_apart: bool = True
    sources_off: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        from gbnf.shape.sources import NAMES

        if unknown := sorted(set(self.sources_off) - NAMES):
            raise GbnfError(f"there is no candidate source {', '.join(map(repr, unknown))}: "
                            f"choose among {', '.join(sorted(NAMES))}")

    @classmethod
    def named(cls, name: str) -> Shaping:
        """The settings of profile ``name`` (:data:`PROFILES`); a :class:`~gbnf.errors.GbnfError`
        names the profiles there are."""
        if name not in PROFILES:
            raise GbnfError(f"there is no profile {name!r}: choose one of {', '.join(PROFILES)}")
        return PROFILES[name]

    @classmethod
    def for_model(cls, parameters: float | None) -> Shaping:
        """The profile for a model of ``parameters``: ``small`` up to :data:`SMALL_PARAMETERS`
        and when not known (shaped as a small model), ``capable`` above."""
        return PROFILES["capable" if parameters is not None and parameters > SMALL_PARAMETERS else "small"]

    @property
    def profile(self) -> str:
        """The name of the profile these settings are, or ``custom``."""
        return next((name for name, shaping in PROFILES.items() if shaping == self), "custom")

    def capped(self, tools: Sequence[Tool]) -> list[Tool]:
        """``tools`` with every string, array and number the schema leaves unbounded capped at
        ``string_chars``, ``array_items`` and ``number_digits`` (:func:`gbnf.shape._shaped.bounded`)."""
        from gbnf.shape._shaped import bounded

        return [replace(t, parameters=bounded(t.parameters, self.string_chars, self.array_items, self.number_digits))
                for t in tools]

    def warm(self) -> None:
        """Load now what reading requests under these settings loads on first use, so that the
        first reply takes no longer than the next: the sentence encoder (``decide`` by
        ``meaning``, seconds), Pint's unit registry (``asked_only``), the CLDR's month and day
        names, its words for days from today (dates) and for the parts of the day, the cities
        (``copy_values``: "City, State", a city's country) and the dictionaries of Chinese and
        Japanese words."""
        from gbnf.shape._dates import _names, _patterns, _relative_pattern
        from gbnf.shape._meaning import _encoder
        from gbnf.shape._places import _cities
        from gbnf.shape._segments import warm as words_of_cjk
        from gbnf.shape._units import _registry
        from gbnf.shape.sources.day_parts import _pattern as parts_of_the_day

        if self.decide and self.meaning:
            _encoder()
        if self.asked_only:
            _registry()
        _patterns()
        _names("months", ("wide",))
        _relative_pattern()
        parts_of_the_day()
        if self.copy_values:
            _cities()
            words_of_cjk()


PROFILES: dict[str, Shaping] = {
    "small": Shaping(),
    "capable": Shaping(decide=False, meaning=False, prose_tokens=None, asked_only=False, count_calls=False,
                       copy_values=False, values_apart=False),
    "off": Shaping(string_chars=None, array_items=None, number_digits=None, decide=False, meaning=False,
                   prose_tokens=None, asked_only=False, count_calls=False, copy_values=False, values_apart=False),
}
"""What each profile shapes. ``small`` (models up to about a billion parameters) narrows: the
request decides call or prose, optional arguments it does not name are left out, calls are
counted from its words, free values are its own words and numbers. ``capable`` keeps the
grammar, the caps on run-on values, schema validation and retries, and leaves the rest to the
model (a request that asks for them gets the candidate values in the decisions, never imposed).
``off`` is the tools' grammar as declared."""
