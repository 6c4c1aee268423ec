"""``python -m bench``: task success, BFCL, compile times, decoding overhead and each engine's
mask time, in one run.

    python -m bench                      # full run on the embedded model (long)
    python -m bench --quick              # a few minutes: a sample of the tasks and of BFCL
    python -m bench --model FILE         # any GGUF model in-process (or a packaged name)
    python -m bench --second-model gemma3-270m   # also the default planner and the baseline on a second model
    python -m bench --server URL         # also a running llama-server (native tool calling, gbnf serve)
    python -m bench --label v2 --compare bench/results/v1.json
    python -m bench --tasks-only --configs +indented   # task success only (both task sets)

Writes bench/results/LABEL.json, LABEL.md and LABEL.png; a full run also rewrites the measured
section of docs/bench.md.
"""

from __future__ import annotations

import argparse
import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bench.bfcl import bfcl_cases, run_case
from bench.configs import CALL_CONFIGS, CONFIGS, NEEDS_SERVER, PROFILE_CONFIGS, SECOND_CONFIGS
from bench.endpoint import endpoint_bench
from bench.masks import mask_bench
from bench.report import BFCL_METRICS, ENDPOINT_METRICS, TASK_METRICS, aggregate, chart, compare, markdown, update_docs
from bench.speed import Recorder, call_bench, compile_bench, decoding_bench
from bench.tasks import Task, load_tasks, run_task, task_planner
from gbnf.backends import LlamaCppBackend, Sampling, ServerBackend
from gbnf.llama_server import LlamaServer, find_llama_server
from gbnf.plan import Planner

RESULTS = Path(__file__).resolve().parent / "results"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a sample of the tasks and of BFCL, in a few minutes")
    parser.add_argument("--model", help="GGUF file or packaged model (default: the embedded SmolLM2-135M)")
    parser.add_argument("--second-model", help="GGUF file or packaged model (say gemma3-270m) to run the "
                        f"{' and '.join(SECOND_CONFIGS)} configurations on too, as rows of their own")
    parser.add_argument("--server", help="a running llama-server; without it a full run starts one")
    parser.add_argument("--trials", type=int, default=1, help="trials per case, each with its own seed")
    parser.add_argument("--temperature", type=float, default=0.0, help="0 (the default) is greedy")
    parser.add_argument("--configs", help="comma-separated configurations to run (default: every rung of the "
                        "ladder; also 'capable profile' and 'off profile')")
    parser.add_argument("--bfcl", type=int, help="BFCL entries per set (default: 12, quick: 1)")
    parser.add_argument("--tasks-only", action="store_true", help="only task success: no BFCL, endpoint, compile, "
                        "decoding or mask benches")
    parser.add_argument("--fail-first", action="store_true", help="each task's first tool call fails: what does "
                        "the loop do after a failure (how often is the failed call asked again unchanged)?")
    parser.add_argument("--label", default=None, help="name of this run (default: quick or full)")
    parser.add_argument("--compare", type=Path, help="an earlier run's JSON to compare with")
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder for the JSON, markdown and chart")
    args = parser.parse_args(argv)
    label = args.label or ("quick" if args.quick else "full")
    start = time.perf_counter()
    tasks = load_tasks(8 if args.quick else None) + load_tasks(4 if args.quick else None, "held-out")
    per_set = args.bfcl if args.bfcl is not None else 1 if args.quick else 12
    cases = [] if args.tasks_only else bfcl_cases(per_set)
    sampling = Sampling(max_tokens=256, temperature=args.temperature)
    max_steps = 4
    wanted = args.configs.split(",") if args.configs else list(CONFIGS)
    with ExitStack() as stack:
        inprocess = LlamaCppBackend(args.model)
        stack.callback(inprocess.close)
        server = None
        if args.server:
            server = ServerBackend(args.server)
        elif not args.quick and not args.tasks_only and find_llama_server():
            server = ServerBackend(stack.enter_context(LlamaServer(args.model)).url)
        backends: dict[str, Any] = {config: server if config in NEEDS_SERVER else inprocess
                                    for config in wanted if config not in NEEDS_SERVER or server is not None}
        recorders = {config: Recorder(inprocess, 6 if args.quick else 24)
                     for config in CALL_CONFIGS if config in backends}
        backends.update(recorders)
        if args.second_model:
            second = LlamaCppBackend(args.second_model)
            stack.callback(second.close)
            backends.update({f"{config} @ {second.model_path.stem}": second for config in SECOND_CONFIGS})
        configs = list(backends)
        work = [(item, config, trial) for trial in range(args.trials) for config in configs
                for item in [*tasks, *cases]]
        planners: dict[tuple[str, int, str], Planner] = {}
        task_rows: list[dict[str, Any]] = []
        bfcl_rows: list[dict[str, Any]] = []
        for item, config, trial in tqdm(work, desc="planner bench", unit="plan"):
            backend, options = backends[config], {**CONFIGS, **PROFILE_CONFIGS}[config.split(" @ ")[0]]
            seeded = Sampling(sampling.max_tokens, sampling.temperature, trial)
            if isinstance(item, Task):
                key = (config, trial, item.set)
                if key not in planners:
                    planners[key] = task_planner(backend, seeded, max_steps, options, item.set)
                task_rows.append({"config": config, **run_task(item, planners[key], args.fail_first)})
            else:
                bfcl_rows.append({"config": config, **run_case(item, backend, seeded, max_steps, options)})
        extra = not args.tasks_only
        endpoint_rows = endpoint_bench(server.url, per_set) if server is not None and extra else []
        compile_rows = compile_bench((8, 100) if args.quick else (8, 100, 1000), 3 if args.quick else 10,
                                     1 if args.quick else 5) if extra else []
        decoding_rows = decoding_bench(inprocess, server, 24 if args.quick else 64, 1 if args.quick else 3) \
            if extra else []
        call_rows = call_bench(inprocess, recorders) if extra else []
        mask_rows = mask_bench(inprocess) if extra else []
    result: dict[str, Any] = {
        "meta": {"label": label, "model": inprocess.model_path.name, "trials": args.trials,
                 "temperature": sampling.temperature, "max_steps": max_steps, "tasks": len(tasks),
                 "bfcl_cases": len(cases), "configs": configs, "seconds": round(time.perf_counter() - start, 1)},
        "tasks": {"rows": task_rows, "by_config": aggregate(task_rows, ("config", "set"), TASK_METRICS),
                  "by_config_and_kind": aggregate([r for r in task_rows if r["set"] == "bench"], ("config", "kind"),
                                                  TASK_METRICS)},
        "bfcl": {"rows": bfcl_rows, "by_config_and_set": aggregate(bfcl_rows, ("config", "set"), BFCL_METRICS)},
        "endpoint": {"rows": endpoint_rows,
                     "by_target": aggregate(endpoint_rows, ("target", "tool_choice", "set"), ENDPOINT_METRICS)},
        "compile": compile_rows,
        "decoding": decoding_rows,
        "calls": call_rows,
        "masks": mask_rows,
    }
    if args.compare:
        result["compare"] = compare(result, json.loads(args.compare.read_text(encoding="utf-8")))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{label}.json").write_text(json.dumps(result, indent=1, default=str), encoding="utf-8")
    report = markdown(result)
    (args.out / f"{label}.md").write_text(report, encoding="utf-8")
    chart(result, args.out / f"{label}.png")
    if not args.quick and not args.tasks_only and args.out == RESULTS:
        update_docs(report + f"\n(chart: `bench/results/{label}.png`)\n", "bench", "bench.md")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
