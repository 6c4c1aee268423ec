"""The bench's quick mode runs end to end and writes a report of the right shape (no timings
are asserted: those are measurements, not tests)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bench import grammar_cost as cost
from bench.configs import CONFIGS, SECOND_CONFIGS
from bench.intent import cases, each_once, set_tools
from bench.server_cost import server_cost
from bench.tasks import KINDS, Task, args_match, load_tasks, succeeded, task_pool
from gbnf.compiler import translate
from gbnf.plan import PlanOptions
from gbnf.read import ToolCall
from tests.conftest import REPO


@pytest.mark.model
@pytest.mark.timeout(900)
def test_quick_bench_writes_its_report(tmp_path):
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--out", str(tmp_path), "--label", "t",
                           "--configs", "grammar,+asked only", "--second-model", "gemma3-270m"],
                          capture_output=True, text=True, cwd=REPO, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads((tmp_path / "t.json").read_text())
    assert set(result) == {"meta", "tasks", "bfcl", "endpoint", "compile", "decoding", "calls", "masks"}
    assert result["endpoint"]["rows"] == []  # the quick run starts no llama-server
    configs = ("grammar", "+asked only", "baseline @ gemma-3-270m-q4_k_m", "+asked only @ gemma-3-270m-q4_k_m")
    assert {(e["config"], e["set"]) for e in result["tasks"]["by_config"]} == {
        (c, s) for c in configs for s in ("bench", "held-out")}
    assert {e["kind"] for e in result["tasks"]["by_config_and_kind"]} == set(KINDS)
    assert {e["set"] for e in result["bfcl"]["by_config_and_set"]} == {"simple", "multiple", "parallel", "irrelevance"}
    row = result["tasks"]["rows"][0]
    assert {"task", "config", "success", "first_tool_match", "finished_by", "steps", "seconds", "answer"} <= set(row)
    entry = result["tasks"]["by_config"][0]
    assert sum(entry[f"by {who}"] for who in ("model", "loop", "salvage", "none")) == pytest.approx(1.0, abs=0.01)
    assert [r["tools"] for r in result["compile"]] == [8, 100]
    assert {r["constraint"] for r in result["decoding"]} >= {"unconstrained", "ours, sample first",
                                                             "ours, full masking"}
    assert all(r["tokens"] > 0 and r["ms_per_token"] > 0 for r in result["decoding"])
    [calls] = result["calls"]  # the planner's own calls, replayed: only for the configurations that time them
    assert calls["config"] == "+asked only" and calls["calls"] == 6 and calls["ratio"] > 0
    masks = {(r["pool"], r["engine"]): r for r in result["masks"]}
    assert {engine for _, engine in masks} == {"llama.cpp", "llguidance", "xgrammar"}
    assert all(r["note"] == "" for r in masks.values() if r["engine"] != "xgrammar")  # every token accepted
    assert (tmp_path / "t.md").read_text().startswith("Run `t`")
    assert (tmp_path / "t.png").stat().st_size > 1000


def test_grammar_cost_times_each_path_apart_from_the_model(inprocess):
    replies: dict[tuple[str, str], str] = {}
    pool_cases = cost.cases(inprocess, (8,), 1)
    rows = cost.grammar_cost(inprocess, pool_cases, replies)
    assert set(replies) == {(case.pool, case.request) for case in pool_cases} and all(replies.values())
    assert [r["path"] for r in rows] == ["llama-server's sampler", "in-process llama.cpp (fast)",
                                         "in-process llguidance, fast-forward"]
    server, fast, guided = rows
    assert server["tokens"] == fast["tokens"] > 0 and server["draws"] == fast["draws"]  # the same decode
    share = {key: int(server[key].rstrip("%")) for key in ("draws one check", "draws masked")}
    assert sum(share.values()) == pytest.approx(100, abs=1)  # each draw checked once or masked
    assert int(guided["forced"].rstrip("%")) > 0 and guided["draws masked"] == "100%"
    assert all(r["grammar ms per token"] > 0 and r["model ms per token"] > 0 for r in rows)
    assert [r["grammar"] for r in cost.mask_floor(inprocess, names=8, repeats=2)] == [
        "one character", "any string character", "8 names, one alternative each", "8 names, shared prefixes once",
        "an enum of the 8 names (compile_schema)"]


def test_server_cost_through_a_real_llama_server(llama_server):
    """Each engine of gbnf's llama-server build, each reply compared with the in-process one."""
    grammar = 'root ::= "{" [a-z]{1,8} "}"'
    case = {"pool": "p", "prompt": "Write a word:", "grammar": grammar, "llguidance": translate(grammar, "llguidance"),
            "in-process reply": "{x}"}
    rows = server_cost(llama_server.url, [case], rounds=1)
    assert [(row["pool"], row["engine"], row["replies"]) for row in rows] == [("p", "llama.cpp", 1), ("p", "llguidance", 1)]
    assert all(3 <= row["tokens per reply"] <= 10 and row["as in-process"] in ("0/1", "1/1") for row in rows)
    assert all(row["free ms per token"] > 0 and row["grammar ms per token"] > 0 for row in rows)


def test_task_scoring():
    task = Task("t", "multi", "q", [{"tool": "lookup", "args": {"name": "maria"}},
                                    {"tool": ["send", "text"], "args": {"to": ["maria", "rossi"]}}],
                allow=["get_now"], facts=[["noon", "12:00"]])
    calls = [ToolCall("lookup", {"name": "Maria Rossi"}), ToolCall("send", {"to": ["M. Rossi"]})]
    assert succeeded(task, calls, "See you at 12:00")
    assert succeeded(task, [*calls, ToolCall("get_now", {})], "at noon")
    assert not succeeded(task, calls, "See you later")  # a fact is missing
    assert not succeeded(task, calls[:1], "noon")  # a call is missing
    assert not succeeded(task, [*calls, ToolCall("delete", {})], "noon")  # a call nobody asked for
    assert not succeeded(task, [ToolCall("lookup", {"name": "Anna"}), calls[1]], "noon")  # wrong argument
    assert args_match({"n": 50.0, "on": False}, {"n": 50, "on": False}) and not args_match({"on": 0}, {"on": False})
    assert task.first_tools == ["lookup", "get_now"]


@pytest.mark.parametrize("name, least", [("bench", 40), ("held-out", 16)])
def test_every_task_names_tools_of_its_pool(name, least):
    pool = {t.name for t in task_pool(name)}
    tasks = load_tasks(name=name)
    assert len(tasks) >= least and len({t.kind for t in tasks}) == 4 and {t.set for t in tasks} == {name}
    named = {n for t in tasks for c in t.calls for n in ([c["tool"]] if isinstance(c["tool"], str) else c["tool"])}
    assert named | {n for t in tasks for n in t.allow} | {n for t in tasks for n in t.results} <= pool
    assert len(named) >= (12 if name == "bench" else 9)


def test_the_ladders_top_rung_is_the_planners_defaults():
    assert list(CONFIGS).index(SECOND_CONFIGS[-1]) == len(CONFIGS) - 2  # the rung before "native"
    assert CONFIGS[SECOND_CONFIGS[-1]] == PlanOptions()
    assert CONFIGS["grammar"] != PlanOptions()


def test_realworld_bench_reports_each_schema(tmp_path):
    from bench import realworld

    (tmp_path / "good.json").write_text(json.dumps({"type": "object", "properties": {"a": {"enum": []}}}))
    (tmp_path / "broken.json").write_text('{"type": ')
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "bad.json").write_text(json.dumps({"type": "object", "required": ["a"],
                                                            "properties": {"a": False}}))
    paths = sorted(tmp_path.rglob("*.json"))
    rows = {row["path"].removeprefix(str(tmp_path)): row for row in realworld.schema_rows(paths)}
    assert {k: (r["outcome"], r.get("llguidance")) for k, r in rows.items()} == {
        "/good.json": ("compiled, parsed by llama.cpp", "loaded"), "/broken.json": ("not JSON", None),
        "/deep/bad.json": ("a clear error (GbnfError)", None)}
    assert "a: the schema 'false' matches no value" in rows["/deep/bad.json"]["error"]
    report = realworld.schema_markdown(list(rows.values()), tmp_path)
    assert "| compiled, parsed by llama.cpp | 1 |" in report and "llguidance loaded 1 of the 1 grammars" in report


def test_several_calls_are_scored_as_a_whole_in_any_order():
    wanted = [{"city": ["Paris"]}, {"city": ["London"]}]
    assert each_once([{"city": "London"}, {"city": "Paris"}], wanted)
    assert not each_once([{"city": "Paris"}, {"city": "Paris"}], wanted)  # one of them twice
    assert not each_once([{"city": "Paris"}], wanted) and not each_once([{"city": "Paris"}] * 3, wanted)
    tools = {tool.name for tool in set_tools("several")}
    assert all(case["tool"] in tools and len(case["calls"]) > 1 for case in cases("several"))
