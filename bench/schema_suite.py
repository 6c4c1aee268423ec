"""The JSON Schema Test Suite against a grammar compiler: does the grammar accept exactly the
valid instances? Used by the tests (our compiler) and the coverage table (ours beside
llama-cpp-python's converter, measured in the same run)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gbnf.compiler import json_text
from gbnf.errors import GrammarError, Unrepresentable
from gbnf.testing import Oracle, lark_oracle

SUITE = Path(__file__).resolve().parent.parent / "corpora" / "json-schema-test-suite" / "tests" / "draft2020-12"

Compile = Callable[[Any], str]
Order = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class Outcome:
    """One suite test: ``ok``, ``accepts invalid``, ``rejects valid`` or ``unsupported: why``."""

    file: str
    case: str
    test: str
    valid: bool
    result: str

    @property
    def key(self) -> str:
        return f"{self.file} :: {self.case} :: {self.test}"


def suite_files(optional: bool = False) -> list[Path]:
    """The suite's keyword files (``optional/`` too when asked), sorted."""
    files = sorted(SUITE.glob("*.json"))
    return files + sorted((SUITE / "optional").rglob("*.json")) if optional else files


def run_file(path: Path, compile_: Compile, order: Order, engine: Oracle) -> Iterator[Outcome]:
    """Every test of one suite file, decided by llama.cpp's engine (lark when the vocabulary
    cannot spell the instance)."""
    name = str(path.relative_to(SUITE))
    for case in json.loads(path.read_text(encoding="utf-8")):
        try:
            grammar = compile_(case["schema"])
            engine.check(grammar)
        except Exception as exc:  # any compiler, ours or another: its failure is an "unsupported" row
            why = "llama.cpp refused the grammar" if isinstance(exc, GrammarError) else type(exc).__name__
            for test in case["tests"]:
                yield Outcome(name, case["description"], test["description"], test["valid"], f"unsupported: {why}")
            continue
        for test in case["tests"]:
            text = json_text(order(test["data"], case["schema"]))
            try:
                accepted = engine.accepts(grammar, text)
            except Unrepresentable:
                accepted = lark_oracle().accepts(grammar, text)
            result = "ok" if accepted == test["valid"] else ("accepts invalid" if accepted else "rejects valid")
            yield Outcome(name, case["description"], test["description"], test["valid"], result)


def write_listed(path: Path, engine: Oracle) -> tuple[int, int]:
    """Rewrite the listed set from our compiler's current outcomes; returns (added, removed)."""
    from gbnf.compiler import compile_schema, in_grammar_order

    before = set(path.read_text(encoding="utf-8").splitlines()) if path.exists() else set()
    lines = [f"{o.key} => {o.result}" for f in suite_files()
             for o in run_file(f, compile_schema, in_grammar_order, engine) if o.result != "ok"]
    header = ["# JSON Schema Test Suite tests that the grammar does not decide as the suite says:",
              "# 'accepts invalid' is left to the validator, 'rejects valid' and 'unsupported' are gaps.",
              "# tests/test_properties.py keeps this list exact; it may only shrink",
              "# (regenerate: python -m bench.schema_suite --write-listed tests/validator_only.txt)."]
    path.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    return len(set(lines) - before), len(before - set(lines) - set(header))


if __name__ == "__main__":
    import sys

    from gbnf.testing import llamacpp_oracle

    if sys.argv[1:2] != ["--write-listed"] or len(sys.argv) != 3:
        raise SystemExit("usage: python -m bench.schema_suite --write-listed FILE")
    added, removed = write_listed(Path(sys.argv[2]), llamacpp_oracle())
    print(f"{removed} entries removed, {added} added" + (" (the list grew: look at why)" if added else ""))
