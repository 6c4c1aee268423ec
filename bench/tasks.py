"""Task success: did the plan do what the user asked, and does its answer say what it found?
``success`` scores the answer the user reads; ``own_success`` the answer the model wrote itself
(none when the loop or salvage answered, and before citing added the tool results).

Each task in ``bench/tasks.json`` names the calls a correct plan makes (a tool, or one of
several, with every value the query gives: the right tool with a value left out fails), the tools it may also call (``allow``), the canned result each
tool returns, and the facts the final answer must carry (each fact a list of accepted
spellings). A task succeeds when every expected call was made and succeeded, no other tool was
called, and the answer, whoever wrote it, carries every fact. The ``bench`` set's pool is every
manifest in ``manifests/`` and ``bench/tools/``. The ``held-out`` set (``bench/heldout/``) has its
own tools and queries, written before its first run and never used to choose or tune a lever:
it measures what the levers do on queries and tools they have not seen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gbnf.backends import Backend, Sampling
from gbnf.plan import Event, Planner, PlanOptions
from gbnf.read import ToolCall
from gbnf.tools import Tool, load_manifests

HERE = Path(__file__).resolve().parent
KINDS = ("single", "multi", "none", "ambiguous")
SETS = {"bench": (HERE / "tasks.json", (HERE.parent / "manifests", HERE / "tools")),
        "held-out": (HERE / "heldout" / "tasks.json", (HERE / "heldout" / "tools",))}
"""Each task set: its tasks and the folders of its pool."""


@dataclass(frozen=True)
class Task:
    """One query and what a correct plan does."""

    id: str
    kind: str
    query: str
    calls: list[dict[str, Any]]
    allow: list[str] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)
    facts: list[list[str]] = field(default_factory=list)
    set: str = "bench"

    @property
    def first_tools(self) -> list[str]:
        """Tools a correct plan may call first: its first expected call's, or "final_answer" when
        it needs none, and the tools it may also call."""
        return [*(_names(self.calls[0]) if self.calls else ["final_answer"]), *self.allow]


def task_pool(name: str = "bench") -> list[Tool]:
    """A task set's pool (the bench's: the shipped manifests and the bench's own tools)."""
    return [tool for folder in SETS[name][1] for tool in load_manifests(folder)]


def load_tasks(limit: int | None = None, name: str = "bench") -> list[Task]:
    """A set's tasks, or ``limit`` of them spread across kinds."""
    rows = json.loads(SETS[name][0].read_text(encoding="utf-8"))
    tasks = [Task(**row, set=name) for row in rows]
    if limit is None:
        return tasks
    by_kind = {kind: [t for t in tasks if t.kind == kind] for kind in KINDS}
    picked: list[Task] = []
    while len(picked) < limit and any(by_kind.values()):
        for group in by_kind.values():
            if group and len(picked) < limit:
                picked.append(group.pop(0))
    return picked


FIRST_FAILURE = "no data for these arguments"
"""What the first call of a plan, and every call like it, answers with ``fail_first``."""


def executors(task: Task, pool: list[Tool], fail_first: bool = False) -> dict[str, Callable[..., Any]]:
    """Executors that return the task's canned results (``{"status": "ok"}`` for other tools);
    a result listed as cases answers the first case whose arguments match. ``fail_first``: the
    plan's first call fails (raises :data:`FIRST_FAILURE`), and so does every call with the
    same tool and arguments (a failure that asking again cannot mend), to see what the loop
    does next."""
    failing: list[tuple[str, dict[str, Any]]] = []

    def make(name: str) -> Callable[..., Any]:
        canned = task.results.get(name, {"status": "ok"})

        def run(**arguments: Any) -> Any:
            if fail_first and (not failing or (name, arguments) in failing):
                failing.append((name, arguments))
                raise LookupError(FIRST_FAILURE)
            if isinstance(canned, list) and canned and isinstance(canned[0], dict) and "when" in canned[0]:
                case = next((c for c in canned if args_match(arguments, c["when"])), None)
                if case is None:
                    raise LookupError(f"no data for {json.dumps(arguments)}")
                return case["result"]
            return canned

        return run

    return {tool.name: make(tool.name) for tool in pool if tool.name != "final_answer"}


def task_planner(backend: Backend, sampling: Sampling, max_steps: int, options: PlanOptions,
                 name: str = "bench") -> Planner:
    """One planner over a set's pool for a configuration (its caches serve every task)."""
    return Planner(task_pool(name), backend, options=replace(options, max_steps=max_steps, sampling=sampling))


def run_task(task: Task, planner: Planner, fail_first: bool = False) -> dict[str, Any]:
    """One plan for one task, with the task's canned executors (the first call failing with
    ``fail_first``), scored."""
    events: list[Event] = []
    planner.executors = executors(task, planner.tools, fail_first)
    unsubscribe = planner.subscribe(events.append)
    try:
        result = planner.run(task.query)
    finally:
        unsubscribe()
    calls = [ToolCall(e.data["name"], e.data["arguments"]) for e in events if e.kind == "call"]
    cited = next((e.data["model_answer"] for e in events if e.kind == "cite"), result.answer)
    own = cited if result.finished_by == "model" else None  # what the model wrote, before the loop added to it
    invalid = sum(e.kind == "validation_error" for e in events)
    done = [call for call, _ in result.results]
    failed_again, written_again = _failed_again(events)
    first = calls[0].name if calls else ("final_answer" if result.converged else None)  # prose answers
    return {
        "task": task.id, "set": task.set, "kind": task.kind, "seed": planner.options.sampling.seed,
        "success": succeeded(task, done, result.answer),
        "own_success": succeeded(task, done, own),
        "first_tool_match": first in task.first_tools,
        "args_valid": len(calls) / (len(calls) + invalid) if calls or invalid else None,
        "finished_by": result.finished_by or "none",
        "converged": result.converged,
        "steps": result.steps, "seconds": round(result.seconds, 3),
        "tokens": result.prompt_tokens + result.completion_tokens,
        "first_tool": first, "calls": [[c.name, c.arguments] for c in done], "answer": result.answer,
        "failed_calls": sum(e.kind == "tool_error" for e in events), "failed_again": failed_again,
        "written_again": written_again, "repeats_failure": failed_again > 0, "writes_failure_again": written_again > 0,
    }


def _failed_again(events: list[Event]) -> tuple[int, int]:
    """How many calls the loop took again unchanged after that same call had failed, and how
    many the model wrote again (those and the ones the loop asked again without their tool)."""
    failed: list[tuple[str, Any]] = []
    again = asked_again = 0
    for event in events:
        if event.kind == "call":
            call = (event.data["name"], event.data["arguments"])
            again += call in failed
        elif event.kind == "tool_error":
            failed.append((event.data["name"], event.data.get("arguments")))
        elif event.kind == "reasked":
            asked_again += len(event.data["calls"])
    return again, again + asked_again


def succeeded(task: Task, done: list[ToolCall], answer: str | None) -> bool:
    """Every expected call made (distinct calls), nothing else called, every fact in the answer."""
    remaining = list(done)
    for expected in task.calls:
        hit = next((c for c in remaining if c.name in _names(expected)
                    and args_match(c.arguments, expected.get("args", {}))), None)
        if hit is None:
            return False
        remaining.remove(hit)
    allowed = {*task.allow, *(name for call in task.calls for name in _names(call))}
    if any(c.name not in allowed for c in remaining):
        return False
    return answer is not None and all(has_fact(answer, fact) for fact in task.facts)


def args_match(arguments: dict[str, Any], expected: dict[str, Any]) -> bool:
    """Each expected argument present: a string within the given text (any case, spacing or
    punctuation; within any item of a list; a list of strings: any of them; ``{"all": [...]}``:
    each of them), a number equal, a boolean the same."""
    for key, want in expected.items():
        got = arguments.get(key)
        if isinstance(want, dict):
            if not all(args_match(arguments, {key: one}) for one in want["all"]):
                return False
        elif isinstance(want, list):
            if not any(args_match(arguments, {key: one}) for one in want):
                return False
        elif isinstance(want, bool) or isinstance(got, bool):
            if got is not want:
                return False
        elif isinstance(want, (int, float)):
            if not isinstance(got, (int, float)) or float(got) != float(want):
                return False
        elif not any(_fold(str(want)) in _fold(str(item)) for item in (got if isinstance(got, list) else [got])
                     if item is not None):
            return False
    return True


def has_fact(answer: str, spellings: list[str]) -> bool:
    """Whether ``answer`` carries one of the fact's spellings (case and spacing ignored)."""
    text = " ".join(answer.lower().split())
    return any(" ".join(s.lower().split()) in text for s in spellings)


def _names(call: dict[str, Any]) -> list[str]:
    tool = call["tool"]
    return tool if isinstance(tool, list) else [tool]


def _fold(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())
