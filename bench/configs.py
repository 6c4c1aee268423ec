"""The planner configurations the bench compares, each adding one lever to the one before.

``baseline`` is a small model unaided (no grammar: soft parsing and repair); ``grammar`` is the
compiled grammar with every tool offered (round one's planner); then the pool filter, BM25
ranking (top 3 tools plus the final tool), the model's own relevance breaking BM25's ties, act
first (step 1 must call a tool when one shares words with the query), ending well (bounded
strings and arrays, a repeated call ends the plan, a tool that succeeded is not offered again,
a failed call is retried by sampling). A worked example in the system prompt was measured too,
and dropped: the embedded model copied the example's answers. ``native`` is llama-server's own
tool calling, when a server is there.
"""

from __future__ import annotations

from typing import Any

TOP_K = 3
_OFF = {"top_k": None, "model_rank": False, "act_first": False, "single_use": False, "string_chars": None,
        "array_items": None, "retry_temperature": 0.0, "stop_on_repeat": False}
_GRAMMAR = {"mode": "grammar", "filter_pool": False, **_OFF}
_FILTER = {**_GRAMMAR, "filter_pool": True}
_RANK = {**_FILTER, "top_k": TOP_K}
_MODEL_RANK = {**_RANK, "model_rank": True}
_ACT_FIRST = {**_MODEL_RANK, "act_first": True}
_ENDING = {**_ACT_FIRST, "string_chars": 200, "array_items": 10, "stop_on_repeat": True,
           "single_use": True, "retry_temperature": 0.7}
CONFIGS: dict[str, dict[str, Any]] = {
    "baseline": {"mode": "soft", "filter_pool": False, **_OFF},
    "grammar": _GRAMMAR,
    "+filter": _FILTER,
    "+rank": _RANK,
    "+model rank": _MODEL_RANK,
    "+act first": _ACT_FIRST,
    "+ending": _ENDING,
    "native": {"mode": "native", "filter_pool": True, **_OFF},
}
NEEDS_SERVER = {"native"}
