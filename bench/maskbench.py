"""MaskBench's test cases against our compiler, scored as MaskBench scores an engine:

    python -m bench.maskbench DIR [--max-depth N] [--limit N] [-o FILE]

DIR is ``maskbench/data`` from guidance-ai/jsonschemabench (11,306 files: a schema and its valid
and invalid instances, written by Llama 3.1 70B and checked with two JSON Schema validators; kept
out of this repo). A schema passes when it compiles, llama.cpp parses the grammar, and the grammar
accepts every valid instance and rejects every invalid one. An instance is written as MaskBench
writes it (``json.dumps``: ``", "`` and ``": "``, members in their order) and decided whole, end
of text included, by llguidance (llama.cpp's engine where llguidance refuses the grammar); a
valid instance rejected is tried again with its members in the schema's order, to tell that
cause apart (the grammar, like every engine MaskBench measures, fixes the order). An
invalid instance the grammar accepts is also given to the validator, as a reply would be, and
counted by the keyword it breaks. Compile seconds and grammar sizes are reported too (the cost
of the nesting cap).
"""

from __future__ import annotations

import argparse
import functools
import json
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from bench.realworld import cost, in_workers
from gbnf.compiler import SCHEMA_MAX_DEPTH

UNSATISFIABLE = "no value is valid: the compiler says so (Unsatisfiable), and no test has a valid instance"
"""The outcome of a schema no value satisfies: not a pass (there is no grammar), but no engine's
grammar could accept anything there either."""


def _worker(paths: Any, results: Any, max_depth: int) -> None:
    import jsonschema

    from gbnf.compiler import compile_schema_grammar, in_grammar_order
    from gbnf.errors import GbnfError, GrammarError, InvalidCall, Unsatisfiable
    from gbnf.read import checked_json
    from gbnf.testing import llamacpp_oracle, llguidance_oracle

    engine = llamacpp_oracle()

    def decide(path: str) -> dict[str, Any]:
        case = json.loads(Path(path).read_text(encoding="utf-8"))
        schema, tests = case["schema"], case.get("tests", [])
        row: dict[str, Any] = {"path": path, "tests": len(tests), "wrong": [], "broken": []}
        try:
            start = time.perf_counter()
            grammar = compile_schema_grammar(schema, max_depth=max_depth)
            row |= {"seconds": time.perf_counter() - start, "chars": len(grammar.text)}
            engine.check(grammar.text)
        except GrammarError as exc:
            return row | {"outcome": "refused by llama.cpp", "error": str(exc)[:200]}
        except Unsatisfiable as exc:
            if not any(test["valid"] for test in tests):  # said rightly; no instance can pass
                return row | {"outcome": UNSATISFIABLE, "error": str(exc)[:200]}
            return row | {"outcome": "a clear error (GbnfError)", "error": str(exc)[:200]}
        except GbnfError as exc:
            return row | {"outcome": "a clear error (GbnfError)", "error": str(exc)[:200]}
        try:
            decider: Any = llguidance_oracle()
            decider.check(grammar.text)
            row["llguidance"] = "loaded"
        except GrammarError as exc:
            decider, row["llguidance"] = engine, f"refused: {str(exc)[:200]}"
        for i, test in enumerate(tests):
            text = json.dumps(test["data"], ensure_ascii=False)
            if decider.accepts(grammar.text, text) == test["valid"]:
                continue
            if test["valid"]:
                reordered = json.dumps(in_grammar_order(test["data"], schema), ensure_ascii=False)
                ordered = reordered != text and decider.accepts(grammar.text, reordered)
                row["wrong"].append(f"test {i}: rejects valid" + (" (members in another order)" if ordered else ""))
                continue
            row["wrong"].append(f"test {i}: accepts invalid")
            keywords = sorted({e.validator for e in jsonschema.validators.validator_for(schema)(schema)
                               .iter_errors(test["data"])})
            try:
                caught = "validator repairs it" if checked_json(text, schema)[1] else "validator accepts"
            except (InvalidCall, GbnfError):
                caught = "validator rejects"
            row["broken"].append((",".join(map(str, keywords)) or "(none)", caught))
        return row | {"outcome": "pass" if not row["wrong"] else "fails a test"}

    for path in iter(paths.get, None):
        try:
            results.put(decide(path))
        except Exception:  # what this bench exists to find
            results.put({"path": path, "outcome": "traceback", "error": traceback.format_exc()[-400:]})


def markdown(rows: list[dict[str, Any]], root: Path, max_depth: int) -> str:
    """The pass rate, the outcomes, the tests decided wrongly, and the invalid instances
    accepted by the keyword they break."""
    outcomes = Counter(r["outcome"] for r in rows)
    wrong = Counter(w.split(": ", 1)[1] for r in rows for w in r.get("wrong", []))
    broken = Counter(b for r in rows for b in r.get("broken", []))
    tests = sum(r.get("tests", 0) for r in rows)
    passed = outcomes["pass"]
    ordered = sum(bool(r.get("wrong")) and all("another order" in w for w in r["wrong"]) for r in rows)
    lines = [f"{len(rows)} MaskBench schemas under {root.name}/ ({tests} instances, nesting cap {max_depth}): "
             f"**{passed} pass ({100 * passed / max(len(rows), 1):.1f}%)**;",
             f"{ordered} more pass when each valid instance has its members in the schema's order "
             f"(what decoding under the grammar writes): {passed + ordered} "
             f"({100 * (passed + ordered) / max(len(rows), 1):.1f}%)"
             + (f"; {outcomes[UNSATISFIABLE]} more are schemas no value satisfies, said so" if outcomes[UNSATISFIABLE]
                else ""), "",
             "| outcome | schemas |", "|---|---|"]
    lines += [f"| {outcome} | {n} |" for outcome, n in outcomes.most_common()]
    lines += ["", cost(rows)]
    lines += ["", "| instances decided wrongly by the grammar | count |", "|---|---|"]
    lines += [f"| {what} | {n} |" for what, n in wrong.most_common()]
    lines += ["", "| invalid instances accepted: keyword broken | then the validator | count |", "|---|---|---|"]
    lines += [f"| {keyword} | {caught} | {n} |" for (keyword, caught), n in broken.most_common()]
    refused = [r for r in rows if str(r.get("llguidance", "loaded")) != "loaded"]
    lines += ["", f"llguidance refused {len(refused)} grammars (llama.cpp decided their instances):", ""]
    lines += [f"- {Path(r['path']).name}: {str(r['llguidance']).splitlines()[0]}" for r in refused]
    odd = [r for r in rows if r["outcome"] != "pass"]
    lines += ["", "Schemas that do not pass:", ""]
    lines += [f"- {Path(r['path']).name}: {r['outcome']}: {r.get('error') or '; '.join(r.get('wrong', [])[:3])}"
              for r in odd]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.maskbench", description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="MaskBench's data folder")
    parser.add_argument("--limit", type=int, help="only the first N files (sorted by name)")
    parser.add_argument("--max-depth", type=int, default=SCHEMA_MAX_DEPTH,
                        help="the compiler's nesting cap (deeper containers are any JSON object or array)")
    parser.add_argument("-o", "--output", type=Path, help="write the table here too")
    args = parser.parse_args()
    rows = in_workers(sorted(args.data.glob("*.json"))[:args.limit], functools.partial(_worker, max_depth=args.max_depth))
    text = markdown(rows, args.data, args.max_depth)
    print(text)
    if args.output:
        args.output.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
