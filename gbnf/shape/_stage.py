"""The shaping stage's one entry point: a conversation and a profile in, one frozen :class:`Shaped` out.

:func:`shape` reads the conversation's words once and decides, as its profile says, what the
next reply may be (a call, a call or prose, prose), the tools offered and their order, each
tool's shaped schema (optional arguments the words say nothing about left out, free values
limited to the words' own, unbounded values capped), how many calls the reply carries, and
why. The faces (``gbnf serve``, the planner) compile and ask; they read nothing of the words.
"""

from __future__ import annotations

from collections.abc import Sequence

from gbnf.shape._options import Shaping
from gbnf.shape._plan import step_shape
from gbnf.shape._reply import reply_shape
from gbnf.shape._result import Conversation, Plan, Shaped


def shape(conversation: Conversation, profile: str | Shaping = "small", *, plan: Plan | None = None,
          relevance: Sequence[float] | None = None, explain: bool = False) -> Shaped:
    """What the next reply of ``conversation`` may be, shaped as ``profile`` (a name of
    :data:`~gbnf.shape.PROFILES`, or a :class:`~gbnf.shape.Shaping`) says: a chat's reply
    (``gbnf serve``), or with ``plan``, a plan's step. ``relevance``: the model's relevance of
    the tools an earlier shaping of the same conversation named (:attr:`Shaped.scored`). With
    ``explain``, the decisions list each offered argument's candidate values too."""
    shaping = Shaping.named(profile) if isinstance(profile, str) else profile
    if plan is not None:
        return step_shape(conversation, shaping, plan)
    return reply_shape(conversation, shaping, relevance, explain)
