"""The planner configurations the bench compares, each adding one lever to the one before.

``baseline`` is a small model unaided (no grammar: soft parsing and repair); ``grammar`` is the
compiled grammar with every tool offered (round one's planner); then the pool filter, BM25
ranking (the top 3 tools and the final tool in the prompt; once a call succeeded, only the tools
matching what the query still asks for), the model's own relevance (query likelihood) when no
tool shares a word with the query, act first (step 1 must call a tool when the query names what
one does), ending well (bounded strings and arrays, a repeated call ends the plan, a tool that
succeeded is not offered again, a failed call is retried by sampling), and copying (a logit
bias towards the words of the query and the tool results, and llama.cpp's DRY penalty against
a reply that repeats itself), citing (an answer that leaves out values the tools returned is
followed by them), the clause still to do (after a result, the query's next clause is named,
and the tool used is offered again when that clause names no other), and the indented layout
(calls written as ``json.dumps(indent=2)`` writes them, so the in-process engine appends the
whitespace unsampled): the planner's defaults.
A worked example in the system prompt was measured too, and
dropped: the embedded model copied the example's answers. ``native`` is llama-server's own tool
calling, when a server is there.
"""

from __future__ import annotations

from typing import Any

TOP_K = 3
_OFF = {"top_k": None, "model_rank": False, "act_first": False, "single_use": False, "string_chars": None,
        "array_items": None, "retry_temperature": 0.0, "stop_on_repeat": False, "copy_bias": 0.0, "dry": 0.0,
        "cite": False, "still_to_do": False, "layout": "free"}
_GRAMMAR = {"mode": "grammar", "filter_pool": False, **_OFF}
_FILTER = {**_GRAMMAR, "filter_pool": True}
_RANK = {**_FILTER, "top_k": TOP_K}
_MODEL_RANK = {**_RANK, "model_rank": True}
_ACT_FIRST = {**_MODEL_RANK, "act_first": True}
_ENDING = {**_ACT_FIRST, "string_chars": 200, "array_items": 10, "stop_on_repeat": True,
           "single_use": True, "retry_temperature": 0.7}
_COPY = {**_ENDING, "copy_bias": 2.0, "dry": 0.8}
_CITE = {**_COPY, "cite": True}
_TO_DO = {**_CITE, "still_to_do": True}
_INDENTED = {**_TO_DO, "layout": "indented"}
CONFIGS: dict[str, dict[str, Any]] = {
    "baseline": {"mode": "soft", "filter_pool": False, **_OFF},
    "grammar": _GRAMMAR,
    "+filter": _FILTER,
    "+rank": _RANK,
    "+model rank": _MODEL_RANK,
    "+act first": _ACT_FIRST,
    "+ending": _ENDING,
    "+copy": _COPY,
    "+cite": _CITE,
    "+still to do": _TO_DO,
    "+indented": _INDENTED,
    "native": {"mode": "native", "filter_pool": True, **_OFF},
}
NEEDS_SERVER = {"native"}
SECOND_CONFIGS = ("baseline", "+indented")
"""What ``python -m bench --second-model`` runs on its second model: the model unaided, and the defaults."""
CALL_CONFIGS = ("+still to do", "+indented")
"""The configurations whose own calls the bench replays, constrained and not, to time them."""
