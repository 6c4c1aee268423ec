"""BFCL through ``gbnf serve`` against llama-server's own tool calling: the same model, the same
OpenAI requests, sent by the ``openai`` client to each.

Per request: whether any tool was called, whether every call's arguments are valid for its
tool's schema (among requests with calls), BFCL's AST match, an HTTP error, and seconds.
"""

from __future__ import annotations

import json
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import openai

from bench.bfcl import Case, bfcl_cases, matches_truth
from gbnf.endpoint import ServeProcess
from gbnf.errors import InvalidCall
from gbnf.plan import openai_tools
from gbnf.read import ToolCall, validate_call

SETS = ("simple", "multiple", "parallel")
CHOICES = ("auto", "required")
VARIANTS = {"gbnf serve": (), "gbnf serve --shaping decide=false": ("--shaping", "decide=false")}
"""The ``gbnf serve`` command lines measured, besides llama-server alone."""


def endpoint_bench(llama_url: str, per_set: int, variants: dict[str, tuple[str, ...]] = VARIANTS
                   ) -> list[dict[str, Any]]:
    """Each BFCL entry of the simple, multiple and parallel sets, under each tool_choice, sent to
    each ``gbnf serve`` variant (in front of ``llama_url``) and to the llama-server itself."""
    cases = [c for c in bfcl_cases(per_set) if c.set in SETS]
    rows = []
    for target, flags in [*variants.items(), ("llama-server", None)]:
        with ServeProcess("--server", llama_url, *flags) if flags is not None else nullcontext() as served:
            url = served.url if served else f"{llama_url}/v1"
            client = openai.OpenAI(base_url=url, api_key="unused", max_retries=0, timeout=300)
            for choice in CHOICES:
                rows += [{"target": target, "tool_choice": choice, **ask(client, case, choice)} for case in cases]
    return rows


def ask(client: openai.OpenAI, case: Case, choice: str) -> dict[str, Any]:
    """One request for one BFCL entry, scored."""
    tools = [t for t in case.tools if t.name != "final_answer"]
    start = time.perf_counter()
    try:
        reply = client.chat.completions.create(
            model="bench", messages=[{"role": "user", "content": case.query}], tools=openai_tools(tools),
            tool_choice=choice, parallel_tool_calls=case.set == "parallel", temperature=0, max_tokens=256)
    except openai.APIError as exc:
        return {"case": case.id, "set": case.set, "called": 0, "args_valid": None, "ast_match": 0,
                "error": 1, "why": str(exc)[:200], "seconds": round(time.perf_counter() - start, 3)}
    calls = [(c.function.name, c.function.arguments) for c in reply.choices[0].message.tool_calls or []]
    valid = [_valid(name, arguments, tools) for name, arguments in calls]
    parsed = [ToolCall(name, json.loads(arguments)) for (name, arguments), ok in zip(calls, valid) if ok]
    return {"case": case.id, "set": case.set, "called": int(bool(calls)),
            "args_valid": int(all(valid)) if calls else None,
            "ast_match": int(len(parsed) == len(calls) and matches_truth(parsed, case.truth or [])),
            "error": 0, "seconds": round(time.perf_counter() - start, 3)}


def _valid(name: str, arguments: str, tools: list) -> bool:
    try:
        validate_call({"name": name, "arguments": json.loads(arguments)}, tools, copies=False)
    except (InvalidCall, json.JSONDecodeError):
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.endpoint [--server URL] [--per-set N]``: this part of the bench alone,
    written to bench/results/endpoint.json and .md (a llama-server is started when none is given)."""
    import argparse

    from bench.report import ENDPOINT_METRICS, aggregate, table
    from gbnf.llama_server import LlamaServer

    parser = argparse.ArgumentParser(prog="python -m bench.endpoint", description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="a running llama-server (default: start one with the embedded model)")
    parser.add_argument("--per-set", type=int, default=12, help="BFCL entries per set (default 12)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    with nullcontext(args.server) if args.server else LlamaServer() as server:
        rows = endpoint_bench(server if isinstance(server, str) else server.url, args.per_set)
    by_target = aggregate(rows, ("target", "tool_choice", "set"), ENDPOINT_METRICS)
    report = (f"BFCL through `gbnf serve` and through llama-server's own tool calling: {args.per_set} entries per "
              f"set, temperature 0, max_tokens 256 ({time.perf_counter() - start:.0f} s in all).\n\n"
              + table(by_target, ("target", "tool_choice", "set"), ENDPOINT_METRICS) + "\n")
    out = Path(__file__).resolve().parent / "results"
    (out / "endpoint.json").write_text(json.dumps({"rows": rows, "by_target": by_target}, indent=1), encoding="utf-8")
    (out / "endpoint.md").write_text(report, encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
