"""The planner's system prompt for a pool, as the shaping stage writes it, for the benches that
time a grammar or a model on one fixed request."""

from __future__ import annotations

from collections.abc import Sequence

from gbnf.shape import Conversation, Plan, shape
from gbnf.tools import Tool


def plan_prompt(tools: Sequence[Tool]) -> str:
    """The system prompt of a plan over ``tools``, every tool shown as declared (profile
    ``off``, no pool filter, no ranking)."""
    return shape(Conversation((("user", ""),), tuple(tools)), "off", plan=Plan(top_k=None, filter=False)).prompt
