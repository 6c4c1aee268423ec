"""The tool loop: filter the pool, ask for one constrained call, validate, execute, repeat.

Modes: ``grammar`` (the compiled grammar constrains every reply; the request never carries
``tools``), ``native`` (the server's own tool calling, soft parsing when the reply is text)
and ``soft`` (no grammar, no tools: soft parsing and repair). Without a grammar, a reply that
holds no call is the final answer.

How a plan ends, and who finished it (``PlanResult.finished_by``): the model calls the final
tool (``model``); the model repeats a call that already succeeded, so the loop ends the plan
and answers from the results gathered (``loop``); or the plan fails (blocked, step cap) and is
salvaged from the results gathered, when there are any (``salvage``). With ``cite``, an answer
that leaves out values the tools returned is followed by a plain summary of those results.

The loop is written once, as a generator that yields each model request and receives the
completion; :meth:`Planner.run` and :meth:`Planner.arun` drive it with a sync or async backend.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from gbnf.backends import AsyncBackend, Backend, Completion, Message, Sampling, ToolSpec
from gbnf.compiler import Grammar, compile_pool, json_text
from gbnf.errors import BackendError, ExecutorFailed, GbnfError, GrammarError, InvalidCall
from gbnf.plan import _salvage as salvaging
from gbnf.plan._events import Event, EventKind, Subscriber
from gbnf.plan._options import PlanOptions
from gbnf.read import ToolCall, soft_parse, validate_calls
from gbnf.shape import Called, Conversation, Plan, Shaped, shape
from gbnf.tools import ExecutorSpec, Policy, Tool

Executor = Callable[..., Any]
Status = Literal["final", "repeat", "blocked", "max_steps", "error", "no_executor", "dry_run"]
Finisher = Literal["model", "loop", "salvage"]


@dataclass
class PlanResult:
    """How a plan ended, with everything gathered on the way (nothing is lost on failure).

    ``converged`` means the model's own final answer within the step cap. ``finished_by`` says
    who wrote ``answer``: the model, the loop (after a repeated call), or salvage (after a
    failure); ``None`` when there is no answer. ``planned`` holds the validated calls the plan
    stopped at without running: a tool with no executor (status ``no_executor``), or one that
    would act in a dry run (``dry_run``). ``run`` is the id every event of this plan carries, so
    the traces of concurrent plans can be told apart.
    """

    status: Status
    answer: str | None
    steps: int
    results: list[tuple[ToolCall, Any]] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    error: str | None = None
    finished_by: Finisher | None = None
    planned: list[ToolCall] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    run: str = field(default_factory=lambda: uuid.uuid4().hex[:12])

    @property
    def converged(self) -> bool:
        return self.status == "final"

    @property
    def salvaged(self) -> bool:
        return self.finished_by == "salvage"


GRAMMAR_CACHE = 64
"""How many pools' grammars a planner keeps (the most recently used)."""

_Request = tuple[list[Message], str | None, Sampling, list[ToolSpec] | None]


FINAL_ANSWER = Tool("final_answer", "Give the user the final answer and end the plan.",
                    {"type": "object", "properties": {"answer": {"type": "string", "description":
                                                                 "The answer, in the user's language."}},
                     "required": ["answer"], "additionalProperties": False})
"""The final tool a pool gets when it has no ``final_answer`` of its own."""


class Planner:
    """Drive a model through a pool of tools until ``final_answer`` (or a stop rule); a pool
    without a ``final_answer`` tool gets :data:`FINAL_ANSWER`."""

    def __init__(self, tools: list[Tool], backend: Backend | AsyncBackend,
                 executors: Mapping[str, Executor] | None = None, *, options: PlanOptions = PlanOptions(),
                 policy: Policy | None = None) -> None:
        """Plan over ``tools`` with ``backend``, running each tool's own executor (its
        manifest's ``[executor]``) or the one ``executors`` gives (tool name -> function of the
        call's arguments), as ``options`` say; ``policy`` is the pool filter's (the packaged one
        when None)."""
        final = next((t for t in tools if t.name == options.final_tool), None)
        if final is None and options.final_tool == FINAL_ANSWER.name:
            final, tools = FINAL_ANSWER, [*tools, FINAL_ANSWER]
        if final is None:
            raise GbnfError(f"the pool has no {options.final_tool!r} tool, so a plan could never end")
        self.options = options
        self.final = final
        self.answer_key = answer_key(final)
        self.tools = options.shaping.capped(tools)
        self.backend = backend
        self.executors: dict[str, Executor] = {**{t.name: t.executor for t in tools if t.executor},
                                               **(executors or {})}
        self.policy = policy
        self._scorer = getattr(backend, "loglik", None) if options.model_rank else None
        self._subscribers: list[Subscriber] = []
        self._grammars: list[tuple[list[Tool], object, Grammar]] = []  # the most recently used first
        self._grammars_lock = threading.Lock()  # plans may run in several threads

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber(event)`` for every event of every later run; returns the function
        that unsubscribes it."""
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def grammar(self, pool: list[Tool], shaped: Shaped | None = None) -> Grammar:
        """The pool's grammar, with the free strings and numbers of every tool but the final one
        among the values of ``shaped`` where given (:meth:`~gbnf.shape.Shaped.with_values`),
        compiled once per distinct pool and values while they are among the
        :data:`GRAMMAR_CACHE` used last. Pools are compared as lists, which compare the same
        tools by identity: about a microsecond for 1000 tools, where hashing their names took 40."""
        pool = pool if isinstance(pool, list) else list(pool)
        values = shaped.values if shaped is not None else None
        with self._grammars_lock:
            for i, (seen, seen_values, grammar) in enumerate(self._grammars):
                if seen == pool and seen_values == values:
                    if i:
                        self._grammars.insert(0, self._grammars.pop(i))
                    return grammar
            shown = pool if shaped is None else shaped.with_values(pool)
            grammar = compile_pool(shown, parallel=self.options.parallel, layout=self.options.layout)
            self._grammars.insert(0, (list(pool), values, grammar))
            del self._grammars[GRAMMAR_CACHE:]
            return grammar

    def run(self, query: str) -> PlanResult:
        """Plan with a synchronous backend."""
        loop = self._loop(query, self._scorer)
        request = next(loop)
        while True:
            try:
                completion = self.backend.complete(*request)  # type: ignore[union-attr]
            except (BackendError, GrammarError) as exc:
                completion = exc
            try:
                request = loop.send(completion)
            except StopIteration as stop:
                return stop.value

    async def arun(self, query: str) -> PlanResult:
        """Plan with an asynchronous backend (ranked by BM25 alone: it scores no text)."""
        loop = self._loop(query, None)
        request = next(loop)
        while True:
            try:
                completion = await self.backend.acomplete(*request)  # type: ignore[union-attr]
            except (BackendError, GrammarError) as exc:
                completion = exc
            try:
                request = loop.send(completion)
            except StopIteration as stop:
                return stop.value

    def _emit(self, plan: PlanResult, kind: EventKind, step: int, **data: Any) -> None:
        event = Event(kind, step, data, plan.run)
        for subscriber in self._subscribers:
            subscriber(event)

    def _loop(self, query: str, scorer: Callable[[list[tuple[str, str]]], list[float]] | None
              ) -> Generator[_Request, Completion | GbnfError, PlanResult]:
        result = PlanResult("max_steps", None, 0)
        options = self.options
        plan = Plan(options.final_tool, options.top_k, options.filter_pool, self.policy, scorer,
                    options.mode == "grammar", options.single_use, options.still_to_do,
                    style="skeleton" if options.mode == "soft" else "signature")
        user = (("user", query),)
        first = shape(Conversation(user, tuple(self.tools), parallel=options.parallel), options.shaping, plan=plan)
        decisions = first.decisions
        pool = list(first.pool)
        self._emit(result, "pool", 0, tools=decisions["pool"], dropped=decisions["dropped"])
        if options.top_k is not None:
            self._emit(result, "rank", 0, ranking=decisions["ranking"], first=decisions["first"])
        specs = openai_tools(pool) if options.mode == "native" else None
        messages: list[Message] = [{"role": "system", "content": first.prompt}, {"role": "user", "content": query}]
        result.messages = messages
        if options.mode != "grammar":
            first = replace(first, offered=first.pool)
        yield from self._steps(first, plan, messages, specs, result)
        failed = result.status not in ("final", "dry_run")  # a dry run's planned calls are its answer
        if failed and result.results and (options.salvage or result.status == "repeat"):
            yield from self._salvage(query, result)
        elif failed and options.salvage:
            self._emit(result, "salvage", result.steps, answered=False, error="no tool results to answer from")
        if options.cite and result.answer is not None:
            cited = salvaging.cite(result.answer, result.results, query)
            if cited != result.answer:
                self._emit(result, "cite", result.steps, answer=cited, added=cited[len(result.answer):].strip(),
                           model_answer=result.answer)
                result.answer = cited
        return result

    def _steps(self, first: Shaped, plan: Plan, messages: list[Message], specs: list[ToolSpec] | None,
               result: PlanResult) -> Generator[_Request, Completion | GbnfError, None]:
        """Ask, validate, execute, until a stop rule. Step 1 offers what ``first`` offers; once a
        call succeeded, each step offers what the stage shapes for the plan's pool (the tools in
        the prompt) and the calls done."""
        blocked = 0
        failed: list[ToolCall] = []  # calls whose tool failed: never run again word for word
        conversation = Conversation((("user", messages[1]["content"]),), first.pool, parallel=self.options.parallel)
        shaped = first
        for step in range(1, self.options.max_steps + 1):
            result.steps = step
            if result.results:
                done = tuple((call.name, call.arguments, value) for call, value in result.results)
                shaped = shape(conversation, self.options.shaping, plan=replace(plan, done=done))
            pool = list(shaped.offered)
            self._emit(result, "step", step, tools=[t.name for t in pool])
            grammar = None
            if self.options.mode == "grammar":
                grammar = self.grammar(pool, shaped).text
            sampling = replace(self.options.sampling, seed=(self.options.sampling.seed + step - 1) % 2**32,
                               dry=self.options.dry or self.options.sampling.dry)
            if blocked:
                sampling = replace(sampling, temperature=max(sampling.temperature, self.options.retry_temperature))
            if shaped.bias:
                sampling = replace(sampling, bias=shaped.bias)
            reply = yield messages, grammar, sampling, specs
            if isinstance(reply, GbnfError):
                self._stop(result, "error", step, str(reply))
                return
            _count(result, reply)
            messages.append({"role": "assistant", "content": reply.text or json_text(list(reply.tool_calls))})
            try:
                calls = self._read(reply, pool)
            except InvalidCall as exc:
                blocked += 1
                self._emit(result, "validation_error", step, error=str(exc), text=reply.text)
                messages.append({"role": "tool", "content": f"error: {exc}"})
                if blocked >= self.options.max_blocked:
                    self._stop(result, "blocked", step, f"{blocked} failed calls in a row; last: {exc}")
                    return
                continue
            if isinstance(calls, str):
                self._finish(result, step, calls)
                return
            if grammar is not None and shaped.values is not None:
                calls = yield from self._apart(shaped, pool, calls, messages, sampling, specs, result)
            if grammar is not None and any(call in failed for call in calls):
                calls = yield from self._instead(shaped, pool, calls, failed, messages, sampling, specs, result)
                if isinstance(calls, str):
                    self._finish(result, step, calls)
                    return
            for call in calls:
                self._emit(result, "call", step, name=call.name, arguments=call.arguments)
                if call.name == self.options.final_tool:
                    answer = call.arguments.get(self.answer_key) if self.answer_key else None
                    self._finish(result, step, answer if isinstance(answer, str) else json_text(call.arguments))
                    return
                if self.options.stop_on_repeat and any(done == call for done, _ in result.results):
                    self._stop(result, "repeat", step, f"{call.name} was called again with the same arguments")
                    return
                if self._held(call):
                    result.planned.append(call)
                    continue
                content, ok = self._execute(call, step, result, failed)
                pending = shaped.pending([done.arguments for done, _ in result.results])
                if ok and pending is not None:
                    content += f"\nStill to do: {pending}"
                messages.append({"role": "tool", "content": content})
                blocked = 0 if ok else blocked + 1
            if result.planned:
                self._stop(result, "dry_run" if self.options.dry_run else "no_executor", step,
                           "; ".join(self._why_held(call) for call in result.planned))
                return
            if blocked >= self.options.max_blocked:
                self._stop(result, "blocked", step, f"{blocked} failed calls in a row")
                return
        steps = self.options.max_steps
        self._stop(result, "max_steps", steps, f"no final answer within {steps} steps")

    def _apart(self, shaped: Shaped, pool: list[Tool], calls: list[ToolCall], messages: list[Message],
               sampling: Sampling, specs: list[ToolSpec] | None,
               result: PlanResult) -> Generator[_Request, Completion | GbnfError, list[ToolCall]]:
        """``calls`` asked again while one repeats a value the user wrote once, that argument
        kept from it (:meth:`~gbnf.shape.Shaped.apart_steps`), up to
        :attr:`~gbnf.shape.Shaped.rounds` times: the calls of the last valid reply, whose text
        becomes the assistant's message."""
        called: Called = ()
        for _ in range(Shaped.rounds):
            apart = shaped.apart_steps([(call.name, call.arguments) for call in calls], pool, called)
            if apart is None:
                break
            called, steps = apart
            if self.options.parallel == 1:
                grammar = compile_pool(steps[-1:], layout=self.options.layout).text
            else:
                grammar = compile_pool(shaped.with_values(pool), parallel=self.options.parallel, least=len(steps),
                                       order=list(steps), layout=self.options.layout).text
            again = yield from self._again((messages[:-1], grammar, sampling, specs), pool, result, "asked apart")
            if again is None or isinstance(again[0], str) or not again[0]:
                break
            calls, messages[-1] = again[0], {"role": "assistant", "content": again[1]}
        return calls

    def _instead(self, shaped: Shaped, pool: list[Tool], calls: list[ToolCall], failed: list[ToolCall],
                 messages: list[Message], sampling: Sampling, specs: list[ToolSpec] | None,
                 result: PlanResult) -> Generator[_Request, Completion | GbnfError, list[ToolCall] | str]:
        """The reply asked again without the tools of ``calls`` that repeat a failed call word for
        word (the model wrote it again after its error: greedy or not, the grammar made it the
        likeliest), so the model must choose another tool or answer (the final tool is offered
        even where the step left it out); ``calls`` as they were when that reply is not valid."""
        repeated = {call.name for call in calls if call in failed}
        self._emit(result, "reasked", result.steps, tools=sorted(repeated),
                   calls=[{"name": c.name, "arguments": c.arguments} for c in calls if c in failed])
        rest = [tool for tool in pool if tool.name not in repeated]
        if self.final not in rest:
            rest.append(self.final)
        again = yield from self._again((messages[:-1], self.grammar(rest, shaped).text, sampling, specs), rest, result,
                                       "asked again")
        if again is None:
            return calls
        messages[-1] = {"role": "assistant", "content": again[1]}
        return again[0]

    def _again(self, request: _Request, pool: list[Tool], result: PlanResult,
               why: str) -> Generator[_Request, Completion | GbnfError, tuple[list[ToolCall] | str, str] | None]:
        """The step's reply asked once more (``request``): its calls (or prose) and its text;
        None when the backend failed or the reply is not valid (a validation error, its message
        led by ``why``)."""
        reply = yield request
        if isinstance(reply, GbnfError):
            return None
        _count(result, reply)
        try:
            return self._read(reply, pool), reply.text
        except InvalidCall as exc:
            self._emit(result, "validation_error", result.steps, error=f"{why}: {exc}", text=reply.text)
            return None

    def _held(self, call: ToolCall) -> bool:
        """Whether ``call`` is planned, not run: its tool has no executor, or it would act in a dry run."""
        executor = self.executors.get(call.name)
        if executor is None:
            return True
        return self.options.dry_run and not (isinstance(executor, ExecutorSpec) and executor.read_only)

    def _why_held(self, call: ToolCall) -> str:
        """One line on why ``call`` was not run."""
        if call.name in self.executors:
            return f"{call.name} would act, so a dry run stops before it"
        source = next((t.source for t in self.tools if t.name == call.name), "")
        where = f"add [executor] to {source}" if source.endswith(".toml") else "give Planner an executor for it"
        return f"{call.name} has no executor: {where}"

    def _read(self, reply: Completion, pool: list[Tool]) -> list[ToolCall] | str:
        """The calls in a reply, or (without a grammar) the final answer it gives in prose."""
        if self.options.mode == "grammar":
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
        result.finished_by = "model"
        self._emit(result, "final", step, answer=answer)

    def _salvage(self, query: str, result: PlanResult) -> Generator[_Request, Completion | GbnfError, None]:
        """One plain-text call that answers from the results gathered (seed 003's finalizer);
        the plain summary of the results when the model cannot write it."""
        sampling = replace(salvaging.SAMPLING, seed=(self.options.sampling.seed + result.steps) % 2**32)
        reply = yield salvaging.salvage_messages(query, result.results), None, sampling, None
        result.answer, written = salvaging.finish(reply, result.results)
        result.finished_by = "loop" if result.status == "repeat" else "salvage"
        self._emit(result, "salvage", result.steps, answered=True, answer=result.answer, by_model=written)

    def _execute(self, call: ToolCall, step: int, result: PlanResult, failed: list[ToolCall]) -> tuple[str, bool]:
        """Run one validated call: (message for the model, whether it succeeded).

        An executor's exception becomes an error message, not a crash, and the call joins
        ``failed``; a call repeated with the same arguments is not run again (the model is
        pointed at the result it already has, or told that it failed). A result longer than
        ``result_chars`` is cut, and the model is told so.
        """
        if any(done == call for done, _ in result.results):
            error = (f"{call.name} was already called with these arguments; use its result or call "
                     f"{self.options.final_tool}")
            self._emit(result, "tool_error", step, name=call.name, arguments=call.arguments, error=error)
            return f"error: {error}", False
        if call in failed:
            error = f"{call.name} already failed with these arguments; change them or call another tool"
            self._emit(result, "tool_error", step, name=call.name, arguments=call.arguments, error=error)
            return f"error: {error}", False
        try:
            value = self.executors[call.name](**call.arguments)
        except Exception as exc:  # an executor's failure is reported to the model
            error = str(exc) if isinstance(exc, ExecutorFailed) else f"{type(exc).__name__}: {exc}"
            self._emit(result, "tool_error", step, name=call.name, arguments=call.arguments, error=error)
            failed.append(call)
            return f"error: tool {call.name!r} failed: {error}", False
        result.results.append((call, value))
        self._emit(result, "result", step, name=call.name, result=value)
        text = salvaging.result_text(value)
        cap = self.options.result_chars
        if len(text) > cap:
            text = f"{text[:cap]} ... (cut: {len(text) - cap} more characters)"
        return f"{call.name} result: {text}", True

    def _stop(self, result: PlanResult, status: Status, step: int, why: str) -> None:
        result.status = status
        result.error = why
        self._emit(result, "abort", step, reason=status, error=why)


def _count(result: PlanResult, reply: Completion) -> None:
    """Add a reply's tokens and seconds to the plan's."""
    result.prompt_tokens += reply.prompt_tokens
    result.completion_tokens += reply.completion_tokens
    result.seconds += reply.seconds


def answer_key(final: Tool) -> str | None:
    """The final tool's answer argument: its one string property (the one required string
    property when there are several), whatever its name; None when there is no such property."""
    props = final.parameters.get("properties") or {}
    strings = [k for k, v in props.items() if isinstance(v, dict) and v.get("type") == "string"]
    required = [k for k in strings if k in final.parameters.get("required", [])]
    if len(strings) == 1:
        return strings[0]
    return required[0] if len(required) == 1 else None


def openai_tools(tools: list[Tool]) -> list[dict[str, Any]]:
    """The pool in the OpenAI ``tools`` format, for servers with native tool calling."""
    return [{"type": "function", "function": {"name": t.name, "description": t.description,
                                              "parameters": t.parameters}} for t in tools]
