"""Which tools a query gets: the pool filter (escape hatches and provider tools only when the
query asks for them) and relevance ranking (BM25, and the model's own scores where it can
give them), whether a reply must call, may call, or should answer in text, and the values a
request's own words offer for arguments."""

from gbnf.select._pool import Policy, filter_pool, has_marker, load_policy, pool_decisions
from gbnf.select._rank import (
    MARGIN,
    Decision,
    ModelRelevance,
    Ranked,
    Selection,
    asked_calls,
    asked_order,
    decide_reply,
    first_clause,
    follow_up,
    rank_tools,
    select_tools,
    switched_on,
    terms,
    tool_document,
    unasked,
)
from gbnf.select._values import Values, number_runs, numbers, offered_values, spans, value_texts

__all__ = ["Decision", "MARGIN", "ModelRelevance", "Policy", "Ranked", "Selection", "Values", "asked_calls",
           "asked_order", "decide_reply", "filter_pool", "first_clause", "follow_up", "has_marker", "load_policy",
           "number_runs", "numbers", "offered_values", "pool_decisions", "rank_tools", "select_tools", "spans",
           "switched_on", "terms", "tool_document", "unasked", "value_texts"]
