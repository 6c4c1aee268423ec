"""The shaping stage: the one place that reads a request to shape what the model may write.

Which tools a query gets (the pool filter: escape hatches and provider tools only when the
query asks for them; relevance by meaning and by shared words), whether a reply must call, may
call, or should answer in text, which optional arguments and how many calls it asks for, and the
values a request's own words offer for arguments (schemas capped and limited to them:
:func:`bounded`, :func:`copied`). A request is read once (:func:`read_request`) into the one value,
a :class:`Request`, that every rule reads."""

from gbnf.shape._calls import asked_calls, asked_order, asked_parts
from gbnf.shape._items import (
    APART_ROUNDS,
    Apart,
    Called,
    Repeated,
    adds_nothing,
    apart_tool,
    asked_items,
    calls_apart,
    items_in_turn,
    repeated_value,
)
from gbnf.shape._language import is_english
from gbnf.shape._meaning import Closeness, closeness, first_sentence, tool_card
from gbnf.shape._optional import Asked, as_asked, asked_of, switched_on, unasked
from gbnf.shape._options import PROFILES, SMALL_PARAMETERS, Shaping
from gbnf.shape._pool import filter_pool, has_marker, pool_decisions
from gbnf.shape._relevance import (
    ALONE,
    CALL_LEAD,
    MARGIN,
    RELATED,
    TEXT_LEAD,
    Decision,
    ModelRelevance,
    Ranked,
    Selection,
    decide_reply,
    first_clause,
    follow_up,
    rank_tools,
    scored_tools,
    select_tools,
    still_to_do,
)
from gbnf.shape._request import Request, offered_values, part_values, read_request, terms
from gbnf.shape._result import Choice, Conversation, Plan, Shaped
from gbnf.shape._shaped import bounded, copied, kept_apart
from gbnf.shape._stage import shape
from gbnf.shape._tool_words import tool_document
from gbnf.shape._units import units_written
from gbnf.shape._values import (
    Labels,
    Names,
    Values,
    copy_bias,
    labelled,
    named_strings,
    number_lists,
    number_runs,
    numbers,
    numbers_alone,
    numbers_named,
    own_values,
    spans,
    strings_named,
    value_texts,
    without_count,
)

__all__ = ["PROFILES", "SMALL_PARAMETERS", "Choice", "Conversation", "Plan", "Shaped", "shape",
           "ALONE", "APART_ROUNDS", "Apart", "Asked", "CALL_LEAD", "Called", "Closeness", "Decision", "Labels",
           "MARGIN", "ModelRelevance", "Names", "RELATED", "Ranked", "Repeated", "Request",
           "Selection", "Shaping", "TEXT_LEAD", "Values", "adds_nothing", "apart_tool", "as_asked", "asked_calls",
           "asked_items", "asked_of", "asked_order", "asked_parts", "bounded", "calls_apart", "closeness",
           "copied", "copy_bias", "decide_reply", "filter_pool", "first_clause", "first_sentence",
           "follow_up", "has_marker", "is_english", "items_in_turn", "kept_apart", "labelled",
           "named_strings", "number_lists", "number_runs", "numbers", "numbers_alone",
           "numbers_named", "offered_values", "own_values", "part_values", "pool_decisions", "rank_tools",
           "read_request", "repeated_value", "scored_tools", "select_tools", "spans", "still_to_do",
           "strings_named", "switched_on", "terms", "tool_card", "tool_document", "unasked",
           "units_written", "value_texts", "without_count"]
