"""How a plan runs: every choice of the :class:`~gbnf.plan.Planner`, in one frozen object."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from gbnf.backends import Sampling
from gbnf.compiler import Layout
from gbnf.errors import GbnfError
from gbnf.shape import Shaping

Mode = Literal["grammar", "native", "soft"]
RETRY_TEMPERATURE = 0.7
"""After a failed call, sample at least this hot: greedy decoding would write the same call again."""


@dataclass(frozen=True)
class PlanOptions:
    """How a :class:`~gbnf.plan.Planner` plans; the defaults are what measured best on small
    models (change one with ``dataclasses.replace(PlanOptions(), top_k=None)``).

    Steps:
        ``max_steps``: model requests before the plan stops. ``max_blocked``: failed calls in a
        row (invalid, or the tool failed) before it gives up. ``final_tool``: the tool whose
        call ends the plan. ``stop_on_repeat``: a repeated successful call ends the plan (the
        loop finishes it).
    Decoding:
        ``mode``: ``grammar`` (the compiled grammar constrains each reply), ``native`` (the
        server's own tool calling) or ``soft`` (no grammar: soft parsing and repair).
        ``sampling``: the backend's decoding settings. ``layout``: the calls' whitespace
        (``indented`` as small models write JSON; appended unsampled in-process).
        ``parallel``: calls one reply may hold. ``retry_temperature``: the least temperature
        after a failed call. ``dry``: DRY penalty on replies that repeat themselves (0: off).
    Shaping (``shaping``, read as ``gbnf serve`` reads it): whether the query decides the first
        step by its words and meaning (``decide``: a step must act while the query names what a
        tool does and it is not done; ``meaning``: when it names no tool in words, act with the
        tools it is close to, or answer at once when it is confidently unrelated to all), which
        optional arguments are offered (``asked_only``), copied values and copy bias (from the
        query's and the results' words; the final answer stays free), and the caps on free
        strings (the answer too), arrays and numbers.
    Offer (which tools a step sees):
        ``filter_pool``: drop escape hatches the query gives no reason for. ``top_k``: the k
        tools most relevant to the query (None: every tool). ``model_rank``: rank with the
        model's own relevance too, where the backend can score text. ``single_use``: a
        tool that succeeded is not offered again. ``still_to_do``: after a result, the query's
        next clause ("... and then X") is named and offered for.
    Bounds:
        ``result_chars``: a tool result longer than this is cut before it enters the prompt.
    Running:
        ``dry_run``: calls of tools that only read (an ``[executor]`` with ``read_only``) run; the
        plan stops at the first call of any other tool, with the calls it would make.
    Answer:
        ``salvage``: a plan that fails with results gathered is answered from them. ``cite``:
        an answer that leaves out values the tools returned is followed by them.
    """

    max_steps: int = 8
    max_blocked: int = 3
    final_tool: str = "final_answer"
    stop_on_repeat: bool = True

    mode: Mode = "grammar"
    sampling: Sampling = field(default_factory=Sampling)
    layout: Layout = "indented"
    parallel: int = 1
    retry_temperature: float = RETRY_TEMPERATURE
    dry: float = 0.8
    shaping: Shaping = Shaping()

    filter_pool: bool = True
    top_k: int | None = 3
    model_rank: bool = True
    single_use: bool = True
    still_to_do: bool = True

    result_chars: int = 2000

    dry_run: bool = False

    salvage: bool = True
    cite: bool = True

    def __post_init__(self) -> None:
        """Refuse options no plan could run with."""
        if min(self.max_steps, self.max_blocked, self.result_chars, self.parallel) < 1:
            raise GbnfError("max_steps, max_blocked, result_chars and parallel must be at least 1")
        if self.top_k is not None and self.top_k < 0:
            raise GbnfError("top_k must be at least 0 (None: every tool)")
