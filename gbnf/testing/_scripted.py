"""A test double for the loop logic: a backend that returns given texts and records requests."""

from __future__ import annotations

from gbnf.backends import Completion, Message, Sampling
from gbnf.errors import BackendError


class ScriptedBackend:
    """Replies with the scripted texts in order; a BackendError in the script is raised."""

    def __init__(self, *replies: str | Completion | BackendError) -> None:
        self.replies = list(replies)
        self.requests: list[tuple[list[Message], str | None, Sampling]] = []
        self.tools: list[list | None] = []

    def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                 tools: list | None = None) -> Completion:
        self.requests.append(([dict(m) for m in messages], grammar, sampling))
        self.tools.append(tools)
        reply = self.replies.pop(0)
        if isinstance(reply, BackendError):
            raise reply
        return reply if isinstance(reply, Completion) else Completion(reply, prompt_tokens=10, completion_tokens=5)

    async def acomplete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                        tools: list | None = None) -> Completion:
        return self.complete(messages, grammar, sampling, tools)
