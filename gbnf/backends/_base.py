"""What the planner needs from a model: one chat completion, optionally under a grammar."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from gbnf.errors import GbnfError

Message = dict[str, Any]
ToolSpec = dict[str, Any]  # an OpenAI-style {"type": "function", "function": {...}}
TextSink = Callable[[str], None]
"""Receives a reply's text piece by piece as it is decoded (``on_text`` of the backends)."""
REPEAT_LAST_N = 64
"""How many of the last generated tokens ``Sampling.repeat_penalty`` looks at."""
DRY_BASE, DRY_ALLOWED, DRY_BREAKERS = 1.75, 2, ("\n", ":", '"', "*")
"""llama-server's defaults for the DRY sampler (``Sampling.dry``)."""


@dataclass(frozen=True)
class Completion:
    """A model's reply with its cost; ``truncated`` means the token limit cut it, and
    ``tool_calls`` holds native calls (``{"name", "arguments"}``) when tools were sent."""

    text: str
    truncated: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    decode_seconds: float = 0.0
    tool_calls: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class Sampling:
    """Decoding settings shared by every backend; ``temperature`` 0 is greedy.

    ``repeat_penalty`` > 1 makes tokens already generated less likely (llama.cpp's rule: a
    positive logit is divided by it, a negative one multiplied) over the last ``REPEAT_LAST_N`` of them.
    ``top_p`` < 1 samples from the smallest set of tokens (after the grammar) whose probability
    reaches it; ``stop`` ends the reply before the first of these strings. ``bias`` adds a
    weight to the logit of every token of each text, as llama-server's string ``logit_bias``
    does (the planner's copy bias: the words of the query and of the tool results). ``dry`` > 0
    is the multiplier of llama.cpp's DRY ("don't repeat yourself") penalty on a reply that
    repeats its own token sequences (in-process it sees the reply only; llama-server's also
    sees the prompt, so there it discourages long copies from the prompt too).
    """

    max_tokens: int = 384
    temperature: float = 0.0
    seed: int = 0
    repeat_penalty: float = 1.0
    top_p: float = 1.0
    stop: tuple[str, ...] = ()
    bias: tuple[tuple[str, float], ...] = ()
    dry: float = 0.0

    def __post_init__(self) -> None:
        """Refuse settings no engine can honour (llama.cpp aborts the process on a NaN temperature)."""
        numbers = {"temperature": self.temperature, "repeat_penalty": self.repeat_penalty, "top_p": self.top_p,
                   "dry": self.dry, **{f"bias[{i}]": weight for i, (_, weight) in enumerate(self.bias)}}
        bad = [name for name, value in numbers.items() if not math.isfinite(value)]
        if bad:
            raise GbnfError(f"sampling: {bad[0]} must be a finite number")
        if self.max_tokens < 1 or not 0 <= self.seed < 2**32:
            raise GbnfError("sampling: max_tokens must be at least 1 and seed within 0..2**32-1")
        if self.temperature < 0 or self.dry < 0 or self.repeat_penalty <= 0 or not 0 <= self.top_p <= 1:
            raise GbnfError("sampling: temperature and dry must be >= 0, repeat_penalty > 0, top_p in [0, 1]")


class Backend(Protocol):
    """A synchronous model backend."""

    def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                 tools: list[ToolSpec] | None = None) -> Completion: ...


class AsyncBackend(Protocol):
    """An asynchronous model backend."""

    async def acomplete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                        tools: list[ToolSpec] | None = None) -> Completion: ...
