"""The shaping stage: the one place that reads a conversation to shape what the model may write.

:func:`shape` takes a :class:`Conversation` (every message, the tools, the date it counts from),
a profile (:data:`PROFILES`: ``small``, ``capable``, ``off``; :class:`Shaping`) and, for a plan's
step, a :class:`Plan`, and returns one frozen :class:`Shaped`: what the reply may be (a call, a
call or prose, prose), the tools offered and their order, each tool's shaped schema, the calls
asked for, the system text the prompt adds, and why. The rules it is made of are in
:mod:`gbnf.shape.rules`; the candidate values of arguments in :mod:`gbnf.shape.sources`."""

from gbnf.shape._items import Called
from gbnf.shape._options import PROFILES, SMALL_PARAMETERS, Shaping
from gbnf.shape._relevance import ModelRelevance
from gbnf.shape._result import Choice, Conversation, Plan, Shaped
from gbnf.shape._stage import shape

__all__ = ["PROFILES", "SMALL_PARAMETERS", "Called", "Choice", "Conversation", "ModelRelevance", "Plan", "Shaped",
           "Shaping", "shape"]
