"""Schema coverage, measured in one run: BFCL import/compile/ground truth, the JSON Schema Test
Suite for our compiler (decided by llama.cpp, and by llguidance and XGrammar on their dialects)
beside llama-cpp-python's converter, and compile time as a ratio.

    python -m bench.coverage            # prints the tables, writes bench/results/coverage.md
"""

from __future__ import annotations

import importlib.util
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from llama_cpp.llama_grammar import json_schema_to_gbnf

from bench.report import update_docs
from bench.schema_suite import run_file, suite_files
from gbnf.compiler import compile_pool, compile_schema, in_grammar_order, json_text
from gbnf.errors import GbnfError, GrammarError, InvalidCall, Unrepresentable
from gbnf.read import validate_calls
from gbnf.testing import Oracle, llamacpp_oracle, llguidance_oracle, xgrammar_oracle
from gbnf.tools import bfcl_schema, import_tools

REPO = Path(__file__).resolve().parent.parent
BFCL = REPO / "corpora" / "bfcl"
RESULTS = Path(__file__).resolve().parent / "results"
OTHERS = {"llguidance": ("llguidance", llguidance_oracle), "XGrammar": ("xgrammar", xgrammar_oracle)}


def other_engines() -> dict[str, Oracle]:
    """llguidance, and XGrammar when it is installed (it needs torch)."""
    return {name: oracle() for name, (module, oracle) in OTHERS.items() if importlib.util.find_spec(module)}


def bfcl_entries(name: str, folder: Path = BFCL) -> list[dict[str, Any]]:
    """One BFCL file's entries, with their ground truth when there is one."""
    answers = {}
    answer_file = folder / "possible_answer" / name
    if answer_file.exists():
        answers = {e["id"]: e["ground_truth"] for e in map(json.loads, answer_file.read_text().splitlines())}
    entries = [json.loads(line) for line in (folder / name).read_text().splitlines() if line.strip()]
    for entry in entries:
        entry["ground_truth"] = answers.get(entry["id"])
    return entries


def ground_truth_call(truth: dict[str, dict[str, list[Any]]]) -> dict[str, Any]:
    """One concrete call from BFCL's allowed values: the first allowed value of each parameter.
    ``""`` and ``None`` mean the parameter may be left out; nested objects list allowed values
    for each of their fields in turn."""
    [(name, params)] = truth.items()
    return {"name": name, "arguments": _pick_fields(params)}


def _pick_fields(params: dict[str, list[Any]]) -> dict[str, Any]:
    picked = {}
    for key, allowed in params.items():
        values = [v for v in allowed if v not in ("", None)] if isinstance(allowed, list) else [allowed]
        if values:
            picked[key] = _nested(values[0])
    return picked


def _nested(value: Any) -> Any:
    """Objects inside a ground truth list allowed values per field, at any depth."""
    if isinstance(value, dict) and all(isinstance(v, list) for v in value.values()):
        return _pick_fields(value)
    if isinstance(value, list):
        return [_nested(v) for v in value]
    return value


def bfcl_report(engine: Oracle, folder: Path = BFCL) -> list[dict[str, Any]]:
    """Per BFCL file in ``folder``: functions imported, compiled, parsed by llama.cpp (and loaded
    by the other engines); ground-truth calls accepted by each engine."""
    others = other_engines()
    rows = []
    for path in sorted(folder.glob("BFCL_v4_*.json")):
        counts: Counter[str] = Counter()
        for entry in bfcl_entries(path.name, folder):
            counts["entries"] += 1
            counts["functions"] += len(entry["function"])
            if not entry["function"]:
                continue  # BFCL's irrelevance files hold a few entries with no function at all
            try:
                tools = import_tools(entry["function"], "bfcl", entry["id"])
                counts["imported"] += len(tools)
                calls = [ground_truth_call(t) for t in entry["ground_truth"] or []]
                grammar = compile_pool(tools, parallel=max(1, len(calls))).text
                counts["compiled"] += len(tools)
                engine.check(grammar)
                counts["parsed"] += len(tools)
            except (GbnfError, GrammarError) as exc:
                counts["failed: " + type(exc).__name__] += 1
                continue
            loaded = []
            for name, other in others.items():
                try:
                    other.check(grammar)
                except GrammarError:
                    continue
                counts[f"{name} loaded"] += len(tools)
                loaded.append(name)
            if not calls:
                continue
            by_name = {t.name: t.parameters for t in tools}
            ordered = [{"name": c["name"], "arguments": in_grammar_order(c["arguments"], by_name.get(c["name"], {}))}
                       for c in calls]
            text = json_text(ordered if len(ordered) > 1 else ordered[0])
            try:
                validate_calls(ordered, tools)
                kind = "truths"
            except InvalidCall:
                kind = "bad truths"  # BFCL answers that break their own function's schema
            counts[kind] += 1
            for name in loaded:
                counts[f"{name} accepted" if kind == "truths" else f"{name} bad accepted"] += others[name].accepts(
                    grammar, text)
            try:
                accepted = engine.accepts(grammar, text)
            except Unrepresentable:
                counts["unspellable"] += 1
                continue
            counts["accepted" if kind == "truths" else "bad accepted"] += accepted
        rows.append({"file": path.name, **counts})
    return rows


def required_first(value: Any, schema: Any) -> Any:
    """Key order that llama-cpp-python's converter emits: required properties, then the rest."""
    if not isinstance(schema, dict):
        return value
    if isinstance(value, dict):
        props = schema.get("properties", {})
        required = [k for k in props if k in schema.get("required", [])]
        keys = [k for k in required if k in value] + [k for k in props if k in value and k not in required]
        keys += [k for k in value if k not in keys]
        return {k: required_first(value[k], props.get(k, {})) for k in keys}
    if isinstance(value, list):
        return [required_first(v, schema.get("items", {})) for v in value]
    return value


def theirs(schema: Any) -> str:
    return json_schema_to_gbnf(json.dumps(schema))


def suite_report(engine: Oracle) -> list[dict[str, Any]]:
    """Per keyword file: share of valid instances accepted and invalid ones rejected, both
    compilers on llama.cpp, and ours on the other engines."""
    runs: list[tuple[str, Any, Any, Any]] = [("ours", compile_schema, in_grammar_order, engine)]
    runs += [(name, compile_schema, in_grammar_order, other) for name, other in other_engines().items()]
    runs.append(("llama.cpp", theirs, required_first, engine))
    rows = []
    for path in suite_files():
        row: dict[str, Any] = {"file": path.name}
        for label, compile_, order, decider in runs:
            outcomes = list(run_file(path, compile_, order, decider))
            valid = [o for o in outcomes if o.valid]
            invalid = [o for o in outcomes if not o.valid]
            row[f"{label} valid"] = (sum(o.result == "ok" for o in valid), len(valid))
            row[f"{label} invalid"] = (sum(o.result == "ok" for o in invalid), len(invalid))
        rows.append(row)
    return rows


def compile_times() -> dict[str, float]:
    """Seconds to compile every BFCL function schema: ours as a bare schema (undeclared keys
    allowed, as the spec says), ours as tool arguments (closed objects, what the planner
    compiles), and llama-cpp-python's converter."""
    functions = [f for path in sorted(BFCL.glob("BFCL_v4_*.json")) for entry in bfcl_entries(path.name)
                 for f in entry["function"]]
    schemas = [bfcl_schema(f["parameters"]) for f in functions]
    tools = [import_tools([f], "bfcl")[0] for f in functions]
    out: dict[str, float] = {"schemas": len(schemas)}
    start = time.perf_counter()
    for tool in tools:
        compile_pool([tool])
    out["ours, tool arguments"] = time.perf_counter() - start
    for label, compile_ in (("ours", compile_schema), ("llama.cpp", theirs)):
        start = time.perf_counter()
        for schema in schemas:
            try:
                compile_(schema)
            except Exception:  # a converter's failure on one schema is counted in the tables, not here
                pass
        out[label] = time.perf_counter() - start
    return out


def _share(pair: tuple[int, int]) -> str:
    done, total = pair
    return f"{done}/{total}" if total else "-"


def markdown(bfcl: list[dict[str, Any]], suite: list[dict[str, Any]], times: dict[str, float]) -> str:
    others = [name for name in OTHERS if any(f"{name} valid" in r for r in suite)]
    lines = ["### BFCL: import, compile, llama.cpp parse, ground truth accepted", "",
             "| file | functions | imported | compiled | parsed by llama.cpp | ground-truth calls accepted "
             "| answers that break their own schema: rejected |"
             + "".join(f" {name}: loaded | {name}: ground truth accepted |" for name in others),
             "|---|---|---|---|---|---|---|" + "---|---|" * len(others)]
    for r in bfcl:
        truths = f"{r.get('accepted', 0)}/{r.get('truths', 0)}" if r.get("truths") else "(no answers)"
        bad = r.get("bad truths", 0)
        bad_text = f"{bad - r.get('bad accepted', 0)}/{bad}" if bad else "-"
        cells = "".join(f" {r.get(name + ' loaded', 0)} | {_share((r.get(name + ' accepted', 0), r.get('truths', 0)))} |"
                        for name in others)
        lines.append(f"| {r['file']} | {r.get('functions', 0)} | {r.get('imported', 0)} | {r.get('compiled', 0)} | "
                     f"{r.get('parsed', 0)} | {truths} | {bad_text} |{cells}")
    labels = ["ours", *others, "llama.cpp"]
    titles = {"ours": "ours", "llama.cpp": "llama.cpp converter", **{name: f"ours on {name}" for name in others}}
    lines += ["", "### JSON Schema Test Suite (draft 2020-12): valid instances accepted, invalid rejected", "",
              "Our grammars decided by llama.cpp, and (written in their dialects) by llguidance and XGrammar; "
              "llama-cpp-python's converter's grammars decided by llama.cpp.", "",
              "| keyword file |" + "".join(f" {titles[k]}: valid accepted | {titles[k]}: invalid rejected |"
                                          for k in labels),
              "|---|" + "---|---|" * len(labels)]
    keys = [f"{label} {kind}" for label in labels for kind in ("valid", "invalid")]
    sums: Counter[str] = Counter()
    for r in suite:
        for key in keys:
            sums[key + " ok"] += r[key][0]
            sums[key + " n"] += r[key][1]
        lines.append(f"| {r['file']} | " + " | ".join(_share(r[key]) for key in keys) + " |")
    lines.append("| **all** | " + " | ".join(f"**{sums[k + ' ok']}/{sums[k + ' n']}**" for k in keys) + " |")
    base = times["llama.cpp"]
    lines += ["", f"Compile time for all {times['schemas']:.0f} BFCL function schemas, in one run, as a ratio "
              f"to llama-cpp-python's converter ({base:.2f} s): ours as bare schemas "
              f"{times['ours'] / base:.1f}x, ours as tool arguments (closed objects, what the planner "
              f"compiles) {times['ours, tool arguments'] / base:.1f}x. Bare schemas cost more because "
              "undeclared keys are allowed but must not repeat a declared key (a trie rule per key "
              "character); the converter does not exclude them."]
    return "\n".join(lines) + "\n"


def main() -> None:
    engine = llamacpp_oracle()
    report = markdown(bfcl_report(engine), suite_report(engine), compile_times())
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "coverage.md").write_text(report, encoding="utf-8")
    update_docs(report, "coverage", "grammar.md")
    print(report)


if __name__ == "__main__":
    main()
