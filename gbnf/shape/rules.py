"""The shaping stage's rules one by one, for the tests and benches that check or time one rule.

A face (``gbnf serve``, the planner) calls :func:`gbnf.shape.shape` and reads its result; these are
the parts that function is made of."""

from gbnf.shape._calls import asked_calls, asked_order, asked_parts
from gbnf.shape._counts import counts_argument
from gbnf.shape._items import adds_nothing, asked_items, items_in_turn, repeated_value
from gbnf.shape._language import is_english
from gbnf.shape._meaning import Closeness, closeness, first_sentence
from gbnf.shape._optional import Asked, as_asked, asked_of, switched_on, unasked
from gbnf.shape._pool import filter_pool, has_marker, pool_decisions
from gbnf.shape._relevance import (
    ALONE,
    CALL_LEAD,
    MARGIN,
    RELATED,
    TEXT_LEAD,
    Decision,
    decide_reply,
    first_clause,
    follow_up,
    rank_tools,
    scored_tools,
    select_tools,
)
from gbnf.shape._request import Request, offered_values, part_values, read_request, without_the_day
from gbnf.shape._shaped import bounded, copied, kept_apart
from gbnf.shape._times import without_times
from gbnf.shape._tool_words import tool_document
from gbnf.shape._units import units_written
from gbnf.shape._values import (
    Values,
    copy_bias,
    counted,
    labelled,
    named_strings,
    number_runs,
    numbers,
    numbers_named,
    own_values,
    spans,
    strings_named,
    value_texts,
    without_count,
    without_parts,
)

__all__ = ["ALONE", "CALL_LEAD", "MARGIN", "RELATED", "TEXT_LEAD", "Asked", "Closeness", "Decision", "Request",
           "Values", "adds_nothing", "as_asked", "asked_calls", "asked_items", "asked_of", "asked_order", "asked_parts",
           "bounded", "closeness", "copied", "copy_bias", "counted", "counts_argument", "decide_reply", "filter_pool",
           "first_clause",
           "first_sentence", "follow_up", "has_marker", "is_english", "items_in_turn", "kept_apart", "labelled",
           "named_strings", "number_runs", "numbers", "numbers_named", "offered_values", "own_values", "part_values",
           "pool_decisions", "rank_tools", "read_request", "repeated_value", "scored_tools", "select_tools", "spans",
           "strings_named", "switched_on", "tool_document", "unasked", "units_written", "value_texts", "without_count",
           "without_parts", "without_the_day", "without_times"]
