"""What the planner needs from a model: one chat completion, optionally under a grammar."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

Message = dict[str, str]


@dataclass(frozen=True)
class Completion:
    """A model's reply with its cost; ``truncated`` means the token limit cut it."""

    text: str
    truncated: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    decode_seconds: float = 0.0


@dataclass(frozen=True)
class Sampling:
    """Decoding settings shared by every backend; ``temperature`` 0 is greedy."""

    max_tokens: int = 384
    temperature: float = 0.0
    seed: int = 0


class Backend(Protocol):
    """A synchronous model backend."""

    def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling) -> Completion: ...


class AsyncBackend(Protocol):
    """An asynchronous model backend."""

    async def acomplete(self, messages: list[Message], grammar: str | None, sampling: Sampling) -> Completion: ...
