"""The planner configurations the bench compares, each adding one lever to the one before.

``baseline`` is a small model unaided (no grammar: soft parsing and repair); ``grammar`` is the
compiled grammar with every tool offered and every other lever off; then the pool filter, BM25
ranking (the top 3 tools and the final tool in the prompt; once a call succeeded, only the tools
matching what the query still asks for), the model's own relevance (query likelihood) when no
tool shares a word with the query, act first (step 1 must call a tool when the query names what
one does), ending well (bounded strings and arrays, a repeated call ends the plan, a tool that
succeeded is not offered again, a failed call is retried by sampling), and copying (llama.cpp's
DRY penalty against a reply that repeats itself, and the copy bias as the defaults set it: off,
since copied values below do its work), citing (an answer that leaves out values the tools returned is
followed by them), the clause still to do (after a result, the query's next clause is named,
and the tool used is offered again when that clause names no other), the indented layout
(calls written as ``json.dumps(indent=2)`` writes them, so the in-process engine appends the
whitespace unsampled), copied values (a call's free strings are stretches of the query's
and the results' words, its free numbers their numbers), and meaning (when the query names no
tool in words, a multilingual sentence encoder decides: act with the tools it is close to, or
answer at once when it is confidently unrelated to all), and asked only (on an English query,
only the optional arguments it asks for, as ``gbnf serve`` offers them): the planner's defaults,
:class:`~gbnf.plan.PlanOptions`.
A worked example in the system prompt was measured too, and
dropped: the embedded model copied the example's answers. ``native`` is llama-server's own tool
calling, when a server is there.
"""

from __future__ import annotations

from dataclasses import replace

from gbnf.plan import PlanOptions
from gbnf.shape import Shaping

DEFAULTS = PlanOptions()
_UNSHAPED = Shaping(string_chars=None, array_items=None, number_digits=None, decide=False, meaning=False,
                    asked_only=False, copy_bias=None, count_calls=False, copy_values=False)
_OFF = replace(DEFAULTS, top_k=None, model_rank=False, single_use=False, retry_temperature=0.0, stop_on_repeat=False,
               dry=0.0, cite=False, still_to_do=False, layout="free", shaping=_UNSHAPED)
_GRAMMAR = replace(_OFF, mode="grammar", filter_pool=False)
_FILTER = replace(_GRAMMAR, filter_pool=True)
_RANK = replace(_FILTER, top_k=DEFAULTS.top_k)
_MODEL_RANK = replace(_RANK, model_rank=True)
_ACT_FIRST = replace(_MODEL_RANK, shaping=replace(_UNSHAPED, decide=True))
_ENDING = replace(_ACT_FIRST, shaping=replace(_ACT_FIRST.shaping, string_chars=DEFAULTS.shaping.string_chars,
                                              array_items=DEFAULTS.shaping.array_items,
                                              number_digits=DEFAULTS.shaping.number_digits),
                  stop_on_repeat=True, single_use=True, retry_temperature=DEFAULTS.retry_temperature)
_COPY = replace(_ENDING, shaping=replace(_ENDING.shaping, copy_bias=DEFAULTS.shaping.copy_bias), dry=DEFAULTS.dry)
_CITE = replace(_COPY, cite=True)
_TO_DO = replace(_CITE, still_to_do=True)
_INDENTED = replace(_TO_DO, layout="indented")
CONFIGS: dict[str, PlanOptions] = {
    "baseline": replace(_OFF, mode="soft", filter_pool=False),
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
    "+copied values": replace(_INDENTED, shaping=replace(_INDENTED.shaping, copy_values=True)),
    "+meaning": replace(_INDENTED, shaping=replace(_INDENTED.shaping, copy_values=True, meaning=True)),
    "+asked only": replace(_INDENTED, shaping=replace(_INDENTED.shaping, copy_values=True, meaning=True,
                                                      asked_only=True, count_calls=True)),
    "native": replace(_OFF, mode="native", filter_pool=True),
}
PROFILE_CONFIGS = {f"{name} profile": replace(CONFIGS["+asked only"], shaping=Shaping.named(name))
                   for name in ("capable", "off")}
"""The defaults with another shaping profile (:data:`gbnf.shape.PROFILES`), off the ladder (run
them by name, ``--configs "+asked only,capable profile"``): what the small profile's narrowing
does for a small model, against what a bigger model's default leaves it."""
NEEDS_SERVER = {"native"}
SECOND_CONFIGS = ("baseline", "+asked only")
"""What ``python -m bench --second-model`` runs on its second model: the model unaided, and the defaults."""
CALL_CONFIGS = ("+indented", "+asked only")
"""The configurations whose own calls the bench replays, constrained and not, to time them."""
