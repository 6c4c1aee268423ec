"""The planner bench: the same queries under each configuration, in one run.

Configurations: ``baseline`` (no grammar, soft parsing: how a small model does unaided),
``grammar`` (the compiled grammar, every tool offered), ``grammar+filter`` (and the pool
filter), ``native`` (llama-server's own tool calling; needs a server) and ``plaintext``
(pick the first tool as "one of N" in plain text; no arguments, so only tool choice counts).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.coverage import bfcl_entries
from gbnf.backends.base import Backend, Sampling
from gbnf.events import Event
from gbnf.importers import import_tools
from gbnf.manifest import Tool, load_manifests
from gbnf.plaintext import pick_one
from gbnf.planner import Planner
from gbnf.validate import ToolCall

HERE = Path(__file__).resolve().parent
MANIFESTS = HERE.parent / "manifests"
FINAL = Tool("final_answer", "Give the user the final answer and end the plan.",
             {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"],
              "additionalProperties": False})
CONFIGS = {
    "baseline": {"mode": "soft", "filter_pool": False},
    "grammar": {"mode": "grammar", "filter_pool": False},
    "grammar+filter": {"mode": "grammar", "filter_pool": True},
    "native": {"mode": "native", "filter_pool": True},
    "plaintext": {},
}
BFCL_SETS = {"simple": "BFCL_v4_simple_python.json", "multiple": "BFCL_v4_multiple.json",
             "parallel": "BFCL_v4_parallel.json", "irrelevance": "BFCL_v4_irrelevance.json"}


@dataclass
class Case:
    """One query with its pool and what counts as right."""

    id: str
    query: str
    complexity: str
    tools: list[Tool]
    expect: list[str] = field(default_factory=list)
    must_not: list[str] = field(default_factory=list)
    truth: list[dict[str, Any]] | None = None


def manifest_cases(limit: int | None = None) -> list[Case]:
    """The labelled queries over ``manifests/`` (bench/queries.json)."""
    tools = load_manifests(MANIFESTS)
    rows = json.loads((HERE / "queries.json").read_text(encoding="utf-8"))
    picked = _spread(rows, limit, key=lambda r: r["complexity"])
    return [Case(f"manifests/{i}", r["query"], r["complexity"], tools, r["expect"], r.get("must_not", []))
            for i, r in enumerate(picked)]


def bfcl_cases(per_set: int) -> list[Case]:
    """The first ``per_set`` entries of each BFCL set, each with its own pool plus final_answer."""
    cases = []
    for label, name in BFCL_SETS.items():
        for entry in bfcl_entries(name)[:per_set]:
            tools = [*import_tools(entry["function"], "bfcl", entry["id"]), FINAL]
            truth = entry["ground_truth"]
            expect = ["final_answer"] if label == "irrelevance" else sorted({next(iter(t)) for t in truth or []})
            cases.append(Case(entry["id"], entry["question"][0][-1]["content"], label, tools, expect, truth=truth))
    return cases


def _spread(rows: list[dict[str, Any]], limit: int | None, key: Callable[[dict[str, Any]], str]) -> list[dict[str, Any]]:
    """``limit`` rows taken round-robin across labels (all rows when limit is None)."""
    if limit is None:
        return rows
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    out: list[dict[str, Any]] = []
    while len(out) < limit and any(groups.values()):
        for group in groups.values():
            if group and len(out) < limit:
                out.append(group.pop(0))
    return out


def canned_executors(tools: list[Tool]) -> dict[str, Callable[..., Any]]:
    """Executors that answer like the real tools would, without side effects."""
    canned: dict[str, Any] = {
        "get_now": "2026-11-21T10:00:00+01:00", "find_files": ["/tmp/a.pdf", "/tmp/b.pdf"],
        "read_file": "host-01", "create_folder": {"created": True}, "get_weather": {"forecast": "rain, 12C"},
        "send_messages": {"sent": True}, "schedule_reminder": {"scheduled": True},
        "get_inputs": {"answers": {"choice": "Tuesday 9:00"}}, "create_event_google_workspace": {"created": True},
        "search_notes_notion": [{"title": "Taxes 2025"}], "request_location_from_user": {"city": "Rome"},
        "undo_last_turn": {"undone": True}, "request_new_executor": {"requested": True},
    }
    return {t.name: (lambda value: lambda **_: value)(canned.get(t.name, {"status": "ok"}))
            for t in tools if t.name != "final_answer"}


def run_case(case: Case, config: str, backend: Backend, sampling: Sampling, max_steps: int) -> dict[str, Any]:
    """One plan (or one plain-text pick) and its metrics."""
    row: dict[str, Any] = {"case": case.id, "complexity": case.complexity, "config": config, "seed": sampling.seed}
    if config == "plaintext":
        return {**row, **_plaintext(case, backend, sampling)}
    events: list[Event] = []
    planner = Planner(case.tools, backend, canned_executors(case.tools), max_steps=max_steps, sampling=sampling,
                      parallel=4 if case.complexity == "parallel" else 1, **CONFIGS[config])
    planner.subscribe(events.append)
    result = planner.run(case.query)
    calls = [ToolCall(e.data["name"], e.data["arguments"]) for e in events if e.kind == "call"]
    first = calls[0].name if calls else ("final_answer" if result.converged else None)
    invalid = sum(e.kind == "validation_error" for e in events)
    offered = [c for c in calls if c.name != "final_answer"]
    row.update(
        converged=result.converged, status=result.status, salvaged=result.salvaged, first_tool=first,
        first_tool_match=first in case.expect if case.expect else None,
        hatch_avoided=first not in case.must_not if case.must_not else None,
        args_valid=len(calls) / (len(calls) + invalid) if calls or invalid else None,
        args_match=matches_truth(offered[:len(case.truth)], case.truth) if case.truth else None,
        abstention_correct=(not offered) if case.complexity == "irrelevance" else None,
        steps=result.steps, seconds=round(result.seconds, 3),
        tokens=result.prompt_tokens + result.completion_tokens,
    )
    return row


def _plaintext(case: Case, backend: Backend, sampling: Sampling) -> dict[str, Any]:
    options = [f"{t.name}: {t.description}" for t in case.tools if t.name != "final_answer"]
    pick = pick_one(backend, f"Which tool should be used first for this request?\n\nRequest: {case.query}",
                    [*options, "None of these tools fits: answer directly"], sampling=sampling)
    names = [t.name for t in case.tools if t.name != "final_answer"] + ["final_answer"]
    first = None if pick.abstained else names[pick.index]
    return {"converged": not pick.abstained, "status": "abstained" if pick.abstained else "picked",
            "first_tool": first, "first_tool_match": first in case.expect if case.expect else None,
            "hatch_avoided": first not in case.must_not if case.must_not else None,
            "abstention_correct": first == "final_answer" if case.complexity == "irrelevance" else None}


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
