"""Real-world input this repo does not hold, measured in one run:

    python -m bench.realworld --schemas DIR   # every *.json below DIR (say JSONSchemaBench's data/)
    python -m bench.realworld --bfcl DIR      # BFCL_v4_*.json in DIR, answers in DIR/possible_answer

Each schema is compiled in a worker process, and its grammar parsed by llama.cpp and loaded by
llguidance (the default in-process engine); a worker that takes longer than ``LIMIT`` seconds on
one schema is killed and counted. BFCL files get the
table of :mod:`bench.coverage`.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import queue
import statistics
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

LIMIT = 30.0
"""Seconds one schema may take (compile and parse) before its worker is killed."""


def _worker(paths: Any, results: Any) -> None:
    from gbnf.compiler import compile_schema_grammar
    from gbnf.errors import GbnfError, GrammarError
    from gbnf.testing import llamacpp_oracle, llguidance_oracle

    engine = llamacpp_oracle()
    for path in iter(paths.get, None):
        row: dict[str, Any] = {"path": path}
        try:
            schema = json.loads(Path(path).read_text(encoding="utf-8"))
            start = time.perf_counter()
            grammar = compile_schema_grammar(schema)
            row.update(seconds=time.perf_counter() - start, chars=len(grammar.text), looser=len(grammar.looser))
            engine.check(grammar.text)
            row["outcome"] = "compiled, parsed by llama.cpp"
            try:
                llguidance_oracle().check(grammar.text)
                row["llguidance"] = "loaded"
            except GrammarError as exc:
                row["llguidance"] = f"refused: {str(exc)[:200]}"
        except GrammarError as exc:
            row.update(outcome="refused by llama.cpp", error=str(exc)[:200])
        except GbnfError as exc:
            row.update(outcome="a clear error (GbnfError)", error=str(exc)[:200])
        except ValueError as exc:
            row.update(outcome="not JSON", error=str(exc)[:200])
        except Exception:  # what this bench exists to find
            row.update(outcome="traceback", error=traceback.format_exc()[-400:])
        results.put(row)


def schema_rows(paths: list[Path]) -> list[dict[str, Any]]:
    """One row per schema file: its outcome, compile seconds, grammar size."""
    return in_workers(paths, _worker)


def in_workers(paths: list[Path], work: Callable[[Any, Any], None]) -> list[dict[str, Any]]:
    """One row per file, as ``work`` (reading paths from its first queue until None, putting one
    row each on its second) makes it in a worker process; a worker past ``LIMIT`` seconds on one
    file is killed, its row says so, and a new worker goes on with the next file."""
    context = multiprocessing.get_context("spawn")
    rows: list[dict[str, Any]] = []

    def start() -> tuple[Any, Any, Any]:
        todo, done = context.Queue(), context.Queue()
        worker = context.Process(target=work, args=(todo, done), daemon=True)
        worker.start()
        return worker, todo, done

    worker, todo, done = start()
    for path in paths:
        todo.put(str(path))
        try:
            rows.append(done.get(timeout=LIMIT + 30 * (not rows)))  # the first also loads the vocabulary
        except queue.Empty:
            outcome = f"past {LIMIT:g} s" if worker.is_alive() else f"worker died ({worker.exitcode})"
            rows.append({"path": str(path), "outcome": outcome})
            worker.kill()
            worker.join()
            worker, todo, done = start()
    todo.put(None)
    return rows


def cost(rows: list[dict[str, Any]]) -> str:
    """Compile seconds and grammar sizes over the rows that compiled (``seconds``, ``chars``)."""
    seconds = sorted(r["seconds"] for r in rows if "seconds" in r)
    chars = sorted(r["chars"] for r in rows if "chars" in r)
    if len(seconds) < 2:
        return "Compile seconds: too few grammars to tell."
    cuts = statistics.quantiles(seconds, n=100, method="inclusive")
    sizes = statistics.quantiles(chars, n=100, method="inclusive")
    return (f"Compile seconds (one process, {len(seconds)} grammars): median {statistics.median(seconds):.4f}, "
            f"99th percentile {cuts[98]:.3f}, max {seconds[-1]:.2f}; {sum(s > 1 for s in seconds)} past 1 s. "
            f"Grammar characters: median {statistics.median(chars):,.0f}, 99th percentile {sizes[98]:,.0f}, "
            f"max {chars[-1]:,}.")


def schema_markdown(rows: list[dict[str, Any]], root: Path) -> str:
    outcomes = Counter(r["outcome"] for r in rows)
    lines = [f"{len(rows)} schemas under {root.name}/:", "", "| outcome | schemas |", "|---|---|"]
    lines += [f"| {outcome} | {n} |" for outcome, n in outcomes.most_common()]
    lines += ["", cost(rows)]
    loaded = sum(r.get("llguidance") == "loaded" for r in rows)
    lines += ["", f"llguidance loaded {loaded} of the {outcomes['compiled, parsed by llama.cpp']} grammars."]
    odd = [r for r in rows if r["outcome"] != "compiled, parsed by llama.cpp" or r["llguidance"] != "loaded"]
    lines += [""] + [f"- {Path(r['path']).relative_to(root)}: {r['outcome']}: "
                     f"{str(r.get('error', r.get('llguidance'))).splitlines()[0]}" for r in odd]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.realworld", description=__doc__.split("\n\n")[0])
    parser.add_argument("--schemas", type=Path, help="a folder of JSON Schema files (searched recursively)")
    parser.add_argument("--bfcl", type=Path, help="a folder of BFCL_v4_*.json files")
    args = parser.parse_args()
    if args.schemas:
        print(schema_markdown(schema_rows(sorted(args.schemas.rglob("*.json"))), args.schemas))
    if args.bfcl:
        from bench.coverage import bfcl_report
        from gbnf.testing import llamacpp_oracle

        for row in bfcl_report(llamacpp_oracle(), args.bfcl):
            print(json.dumps(row))


if __name__ == "__main__":
    main()
