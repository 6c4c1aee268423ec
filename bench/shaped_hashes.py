"""What the shaping stage makes of every BFCL request, as one hash per request and face, without
a model: a change that should keep behaviour keeps every hash.

For each entry of BFCL's single-turn categories (its first turn, its functions as OpenAI tools),
the endpoint face's hash covers the grammar and the messages :func:`gbnf.endpoint.parse_request`
makes of the chat body under ``tool_choice`` auto; the planner face's, the grammar and messages
of the planner's first step (a scripted backend records it and fails). Dates counted from today make the
hashes depend on the day they are taken: compare two runs of one day::

    python -m bench.shaped_hashes --data DIR > before.json   # DIR: bfcl_eval/data of bfcl-eval
    python -m bench.shaped_hashes --data DIR --compare before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.coverage import BFCL, bfcl_entries
from gbnf.endpoint import parse_request
from gbnf.errors import BackendError, GbnfError
from gbnf.plan import FINAL_ANSWER, Planner, PlanOptions
from gbnf.testing import ScriptedBackend
from gbnf.tools import Tool, import_tools

CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance", "live_simple",
              "live_multiple", "live_irrelevance")


def openai_tool(tool: Tool) -> dict[str, Any]:
    """``tool`` as an OpenAI chat-completions tool."""
    return {"type": "function", "function": {"name": tool.name, "description": tool.description,
                                             "parameters": tool.parameters}}


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def endpoint_hash(tools: list[Tool], messages: list[dict[str, Any]]) -> str:
    """The hash of what ``gbnf serve`` asks the model for these messages and tools."""
    body = {"model": "bench", "messages": messages, "tools": [openai_tool(t) for t in tools]}
    try:
        asked = parse_request(body)
    except GbnfError as exc:
        return f"error: {exc}"
    return _digest([asked.grammar, asked.messages, asked.least, asked.required, [t.name for t in asked.offered]])


def planner_hash(tools: list[Tool], query: str, parallel: int) -> str:
    """The hash of the planner's first request for ``query`` over ``tools``."""
    backend = ScriptedBackend(BackendError("the first request is all this needs"))
    planner = Planner([*tools, FINAL_ANSWER], backend, {}, options=replace(PlanOptions(), parallel=parallel,
                                                                                 model_rank=False))
    try:
        planner.run(query)
    except GbnfError as exc:
        return f"error: {exc}"
    messages, grammar, _ = backend.requests[0]
    return _digest([grammar, messages])


def hashes(data: Path) -> dict[str, dict[str, str]]:
    """Every entry's hashes, by face and id."""
    out: dict[str, dict[str, str]] = {"endpoint": {}, "planner": {}}
    for category in CATEGORIES:
        name = f"BFCL_v4_{category}.json"
        if not (data / name).exists():
            print(f"no {name} in {data}: left out", file=sys.stderr)
            continue
        for entry in bfcl_entries(name, data):
            tools = import_tools(entry["function"], "bfcl", entry["id"])
            turn = entry["question"][0]
            out["endpoint"][entry["id"]] = endpoint_hash(tools, turn)
            parallel = 4 if "parallel" in category else 1
            out["planner"][entry["id"]] = planner_hash(tools, turn[-1]["content"], parallel)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=BFCL, help="a folder of BFCL's data files")
    parser.add_argument("--compare", type=Path, help="hashes of an earlier run: print what differs")
    args = parser.parse_args(argv)
    now = hashes(args.data)
    if args.compare is None:
        json.dump(now, sys.stdout, indent=0, sort_keys=True)
        return 0
    before = json.loads(args.compare.read_text())
    changed = 0
    for face, table in now.items():
        diff = sorted(k for k in table if before.get(face, {}).get(k) != table[k])
        changed += len(diff)
        print(f"{face}: {len(table)} requests, {len(diff)} differ" + (f": {', '.join(diff[:40])}" if diff else ""))
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
