"""The tool loop: filter the pool, ask for one constrained call, validate, execute, repeat.

Modes: ``grammar`` (the compiled grammar constrains every reply; the request never carries
``tools``), ``native`` (the server's own tool calling, soft parsing when the reply is text)
and ``soft`` (no grammar, no tools: soft parsing and repair). Without a grammar, a reply that
holds no call is the final answer. A plan that ends without one is salvaged from the tool
results gathered, when there are any.

The loop is written once, as a generator that yields each model request and receives the
completion; :meth:`Planner.run` and :meth:`Planner.arun` drive it with a sync or async backend.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from gbnf.backends.base import AsyncBackend, Backend, Completion, Message, Sampling, ToolSpec
from gbnf.compiler import Grammar, compile_pool
from gbnf.errors import BackendError, GbnfError
from gbnf.events import Event, EventKind, Subscriber
from gbnf.literals import json_text
from gbnf.manifest import Tool
from gbnf.pool import Policy, load_policy, pool_decisions
from gbnf.prompt import openai_tools, system_prompt
from gbnf.salvage import salvage_messages
from gbnf.softparse import soft_parse
from gbnf.validate import InvalidCall, ToolCall, validate_calls

Executor = Callable[..., Any]
Status = Literal["final", "blocked", "max_steps", "error"]


@dataclass
class PlanResult:
    """How a plan ended, with everything gathered on the way (nothing is lost on failure).

    ``converged`` means a valid final answer within the step cap; when the plan did not
    converge, ``answer`` may still hold a salvaged answer (``salvaged``).
    """

    status: Status
    answer: str | None
    steps: int
    results: list[tuple[ToolCall, Any]] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    error: str | None = None
    salvaged: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0

    @property
    def converged(self) -> bool:
        return self.status == "final"


_Request = tuple[list[Message], str | None, Sampling, list[ToolSpec] | None]
Mode = Literal["grammar", "native", "soft"]


class Planner:
    """Drive a model through a pool of tools until ``final_answer`` (or a stop rule)."""

    def __init__(
        self,
        tools: list[Tool],
        backend: Backend | AsyncBackend,
        executors: Mapping[str, Executor] | None = None,
        *,
        policy: Policy | None = None,
        max_steps: int = 8,
        max_blocked: int = 3,  # failed calls in a row (invalid, or the tool failed) before giving up
        parallel: int = 1,
        compact: bool = False,
        sampling: Sampling | None = None,
        final_tool: str = "final_answer",
        mode: Mode = "grammar",
        salvage: bool = True,
        filter_pool: bool = True,
    ) -> None:
        if final_tool not in {t.name for t in tools}:
            raise GbnfError(f"the pool has no {final_tool!r} tool, so a plan could never end")
        self.tools = tools
        self.backend = backend
        self.executors = dict(executors or {})
        self.policy = policy or load_policy()
        self.max_steps = max_steps
        self.max_blocked = max_blocked
        self.parallel = parallel
        self.compact = compact
        self.sampling = sampling or Sampling()
        self.final_tool = final_tool
        self.mode = mode
        self.salvage = salvage
        self.filter_pool = filter_pool
        self._subscribers: list[Subscriber] = []
        self._grammars: dict[tuple[str, ...], Grammar] = {}

    def subscribe(self, subscriber: Subscriber) -> None:
        """Call ``subscriber(event)`` for every event of every later run."""
        self._subscribers.append(subscriber)

    def grammar(self, pool: list[Tool]) -> Grammar:
        """The pool's grammar, compiled once per distinct pool."""
        key = tuple(t.name for t in pool)
        if key not in self._grammars:
            self._grammars[key] = compile_pool(pool, parallel=self.parallel, compact=self.compact)
        return self._grammars[key]

    def run(self, query: str) -> PlanResult:
        """Plan with a synchronous backend."""
        loop = self._loop(query)
        request = next(loop)
        while True:
            try:
                completion = self.backend.complete(*request)  # type: ignore[union-attr]
            except BackendError as exc:
                completion = exc
            try:
                request = loop.send(completion)
            except StopIteration as stop:
                return stop.value

    async def arun(self, query: str) -> PlanResult:
        """Plan with an asynchronous backend."""
        loop = self._loop(query)
        request = next(loop)
        while True:
            try:
                completion = await self.backend.acomplete(*request)  # type: ignore[union-attr]
            except BackendError as exc:
                completion = exc
            try:
                request = loop.send(completion)
            except StopIteration as stop:
                return stop.value

    def _emit(self, kind: EventKind, step: int, **data: Any) -> None:
        event = Event(kind, step, data)
        for subscriber in self._subscribers:
            subscriber(event)

    def _loop(self, query: str) -> Generator[_Request, Completion | BackendError, PlanResult]:
        decisions = pool_decisions(self.tools, query, self.policy) if self.filter_pool else [(t, None) for t in self.tools]
        pool = [tool for tool, reason in decisions if reason is None]
        self._emit("pool", 0, tools=[t.name for t in pool],
                   dropped={t.name: reason for t, reason in decisions if reason is not None})
        grammar = self.grammar(pool).text if self.mode == "grammar" else None
        specs = openai_tools(pool) if self.mode == "native" else None
        style = "skeleton" if self.mode == "soft" else "signature"
        messages: list[Message] = [{"role": "system", "content": system_prompt(pool, self.parallel, style)},
                                   {"role": "user", "content": query}]
        result = PlanResult("max_steps", None, 0, messages=messages)
        yield from self._steps(pool, messages, grammar, specs, result)
        if result.status != "final" and self.salvage:
            yield from self._salvage(query, result)
        return result

    def _steps(self, pool: list[Tool], messages: list[Message], grammar: str | None, specs: list[ToolSpec] | None,
               result: PlanResult) -> Generator[_Request, Completion | BackendError, None]:
        blocked = 0
        for step in range(1, self.max_steps + 1):
            result.steps = step
            self._emit("step", step)
            reply = yield messages, grammar, replace(self.sampling, seed=self.sampling.seed + step - 1), specs
            if isinstance(reply, BackendError):
                self._stop(result, "error", step, str(reply))
                return
            result.prompt_tokens += reply.prompt_tokens
            result.completion_tokens += reply.completion_tokens
            result.seconds += reply.seconds
            messages.append({"role": "assistant", "content": reply.text or json_text(list(reply.tool_calls))})
            try:
                calls = self._read(reply, pool)
            except InvalidCall as exc:
                blocked += 1
                self._emit("validation_error", step, error=str(exc), text=reply.text)
                messages.append({"role": "tool", "content": f"error: {exc}"})
                if blocked >= self.max_blocked:
                    self._stop(result, "blocked", step, f"{blocked} failed calls in a row; last: {exc}")
                    return
                continue
            if isinstance(calls, str):
                self._finish(result, step, calls)
                return
            for call in calls:
                self._emit("call", step, name=call.name, arguments=call.arguments)
                if call.name == self.final_tool:
                    answer = call.arguments.get("answer")
                    self._finish(result, step, answer if isinstance(answer, str) else json_text(call.arguments))
                    return
                content, ok = self._execute(call, step, result)
                messages.append({"role": "tool", "content": content})
                blocked = 0 if ok else blocked + 1
            if blocked >= self.max_blocked:
                self._stop(result, "blocked", step, f"{blocked} failed calls in a row")
                return
        self._stop(result, "max_steps", self.max_steps, f"no final answer within {self.max_steps} steps")

    def _read(self, reply: Completion, pool: list[Tool]) -> list[ToolCall] | str:
        """The calls in a reply, or (without a grammar) the final answer it gives in prose."""
        if self.mode == "grammar":
            return validate_calls(reply.text, pool, truncated=reply.truncated)
        parsed = soft_parse(json_text(list(reply.tool_calls)) if reply.tool_calls else reply.text, pool)
        if parsed.kind == "invalid":
            raise InvalidCall(parsed.reason)
        if parsed.kind == "calls":
            return parsed.calls
        if reply.truncated or not parsed.text:
            raise InvalidCall("output truncated: give a shorter answer or one tool call" if reply.truncated
                              else "empty reply: call a tool or answer")
        return parsed.text

    def _finish(self, result: PlanResult, step: int, answer: str) -> None:
        result.answer = answer
        result.status = "final"
        self._emit("final", step, answer=answer)

    def _salvage(self, query: str, result: PlanResult) -> Generator[_Request, Completion | BackendError, None]:
        """One plain-text call that answers from the results gathered (seed 003's finalizer)."""
        if not result.results:
            self._emit("salvage", result.steps, answered=False, error="no tool results to answer from")
            return
        sampling = replace(self.sampling, seed=self.sampling.seed + result.steps)
        reply = yield salvage_messages(query, result.results), None, sampling, None
        if isinstance(reply, BackendError) or not reply.text.strip():
            error = str(reply) if isinstance(reply, BackendError) else "empty reply"
            self._emit("salvage", result.steps, answered=False, error=error)
            return
        result.answer = reply.text.strip()
        result.salvaged = True
        self._emit("salvage", result.steps, answered=True, answer=result.answer)

    def _execute(self, call: ToolCall, step: int, result: PlanResult) -> tuple[str, bool]:
        """Run one validated call: (message for the model, whether it succeeded).

        An executor's exception becomes an error message, not a crash; a call repeated with the
        same arguments is not run again (the model is pointed at the result it already has).
        """
        if any(done == call for done, _ in result.results):
            error = f"{call.name} was already called with these arguments; use its result or call {self.final_tool}"
            self._emit("tool_error", step, name=call.name, error=error)
            return f"error: {error}", False
        executor = self.executors.get(call.name)
        if executor is None:
            error = f"tool {call.name!r} is not available here; try another tool or give the final answer"
            self._emit("tool_error", step, name=call.name, error=error)
            return f"error: {error}", False
        try:
            value = executor(**call.arguments)
        except Exception as exc:  # an executor's failure is reported to the model
            error = f"{type(exc).__name__}: {exc}"
            self._emit("tool_error", step, name=call.name, error=error)
            return f"error: tool {call.name!r} failed: {error}", False
        result.results.append((call, value))
        self._emit("result", step, name=call.name, result=value)
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
        return f"{call.name} result: {text}", True

    def _stop(self, result: PlanResult, status: Status, step: int, why: str) -> None:
        result.status = status
        result.error = why
        self._emit("abort", step, reason=status, error=why)
