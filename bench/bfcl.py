"""BFCL through the planner: the same entries under each configuration, scored by BFCL's AST
rules (each expected call matched by a distinct call with allowed argument values).

Sets: simple, multiple (one right tool among several), parallel (several calls in one step)
and irrelevance (no tool fits: the plan should answer without calling one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from bench.coverage import bfcl_entries
from gbnf.backends import Backend, Sampling
from gbnf.plan import FINAL_ANSWER, Event, Planner, PlanOptions
from gbnf.read import ToolCall
from gbnf.tools import Tool, import_tools

SETS = {"simple": "BFCL_v4_simple_python.json", "multiple": "BFCL_v4_multiple.json",
        "parallel": "BFCL_v4_parallel.json", "irrelevance": "BFCL_v4_irrelevance.json"}


@dataclass
class Case:
    """One BFCL entry: its question, its pool (plus final_answer) and its ground truth."""

    id: str
    query: str
    set: str
    tools: list[Tool]
    expect: list[str] = field(default_factory=list)
    truth: list[dict[str, Any]] | None = None


def bfcl_cases(per_set: int) -> list[Case]:
    """The first ``per_set`` entries of each BFCL set, each with its own pool plus final_answer."""
    cases = []
    for label, name in SETS.items():
        for entry in bfcl_entries(name)[:per_set]:
            tools = [*import_tools(entry["function"], "bfcl", entry["id"]), FINAL_ANSWER]
            truth = entry["ground_truth"]
            expect = ["final_answer"] if label == "irrelevance" else sorted({next(iter(t)) for t in truth or []})
            cases.append(Case(entry["id"], entry["question"][0][-1]["content"], label, tools, expect, truth=truth))
    return cases


def run_case(case: Case, backend: Backend, sampling: Sampling, max_steps: int,
             options: PlanOptions) -> dict[str, Any]:
    """One plan for one BFCL entry, scored."""
    events: list[Event] = []
    executors = {t.name: (lambda **_: {"status": "ok"}) for t in case.tools if t.name != "final_answer"}
    parallel = 4 if case.set == "parallel" else 1
    options = replace(options, max_steps=max_steps, sampling=sampling, parallel=parallel)
    planner = Planner(case.tools, backend, executors, options=options)
    planner.subscribe(events.append)
    result = planner.run(case.query)
    calls = [ToolCall(e.data["name"], e.data["arguments"]) for e in events if e.kind == "call"]
    first = calls[0].name if calls else ("final_answer" if result.converged else None)  # prose answers
    invalid = sum(e.kind == "validation_error" for e in events)
    offered = [c for c in calls if c.name != "final_answer"]
    return {
        "case": case.id, "set": case.set, "seed": sampling.seed, "converged": result.converged,
        "first_tool_match": first in case.expect,
        "args_valid": len(calls) / (len(calls) + invalid) if calls or invalid else None,
        "args_match": matches_truth(offered[:len(case.truth)], case.truth) if case.truth else None,
        "abstention_correct": (not offered) if case.set == "irrelevance" else None,
        "finished_by": result.finished_by or "none", "steps": result.steps, "seconds": round(result.seconds, 3),
    }


def matches_truth(calls: list[ToolCall], truth: list[dict[str, Any]]) -> bool:
    """BFCL's rules: each expected call matched by a distinct call, in any order; a parameter
    whose allowed values include ``""`` may be left out; an int stands for a float; strings
    compare without case, spaces or punctuation."""
    if len(calls) != len(truth):
        return False
    remaining = list(calls)
    for expected in truth:
        [(name, params)] = expected.items()
        hit = next((c for c in remaining if c.name == name and _args_match(c.arguments, params)), None)
        if hit is None:
            return False
        remaining.remove(hit)
    return True


def _args_match(arguments: dict[str, Any], params: dict[str, list[Any]]) -> bool:
    if set(arguments) - set(params):
        return False
    for key, allowed in params.items():
        if key not in arguments:
            if "" not in allowed and None not in allowed:
                return False
        elif not any(_same(arguments[key], value) for value in allowed if value != ""):
            return False
    return True


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return float(got) == float(want)
    if isinstance(want, str) and isinstance(got, str):
        return _norm(got) == _norm(want)
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want))
    if isinstance(want, dict) and isinstance(got, dict):
        return _args_match(got, {k: v if isinstance(v, list) else [v] for k, v in want.items()})
    return got == want


def _norm(text: str) -> str:
    return re.sub(r"[\s\W_]+", "", text.lower())
