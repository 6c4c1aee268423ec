"""Fallbacks for backends without grammars: soft parsing and repair, plain text, salvage."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from gbnf import GbnfError
from gbnf.backends import Completion, Sampling
from gbnf.errors import BackendError
from gbnf.plan import cite, cut_repetition, grounded, omitted, salvage, salvage_messages
from gbnf.read import ToolCall, exact_lines, parse_lines, parse_pick, pick_one, soft_parse
from gbnf.testing import ScriptedBackend

CORPUS = json.loads(Path(__file__).with_name("data").joinpath("sloppy.json").read_text(encoding="utf-8"))


def test_the_corpus_is_large_and_holds_real_replies():
    assert len(CORPUS) >= 60
    assert sum(case["source"].startswith("SmolLM2-135M") for case in CORPUS) >= 20


@pytest.mark.parametrize("case", CORPUS, ids=[c["source"][:60] for c in CORPUS])
def test_sloppy_output(tools, case):
    parsed = soft_parse(case["text"], tools)
    expect = case["expect"]
    if expect == "final":
        assert parsed.kind == "final" and parsed.text == case.get("answer", case["text"].strip())
    elif "refuse" in expect:
        assert parsed.kind == "invalid" and expect["refuse"] in parsed.reason
    else:
        wanted = expect if isinstance(expect, list) else [expect]
        assert parsed.kind == "calls", parsed.reason
        assert [{"name": c.name, "arguments": c.arguments} for c in parsed.calls] == wanted


@pytest.mark.timeout(10)  # each takes milliseconds; a quadratic scan took seconds to minutes
@pytest.mark.parametrize("text", [" " * 20000, "\n" * 20000, "\t \n" * 7000, "{" * 5000, "[{" * 2500, '{"' * 5000,
                                  "<think>a</think>" * 2000, "[get_now(" * 3000, "tool: x\n" * 3000])
def test_long_odd_replies_are_decided_quickly(tools, text):
    assert soft_parse(text, tools).kind in ("final", "invalid")


def test_repairs_are_reported(tools):
    parsed = soft_parse('{"name": "Get Weather", "args": {"citty": "Rome", "days": "2"}}', tools)
    assert parsed.calls == [ToolCall("get_weather", {"city": "Rome", "days": 2})]
    assert parsed.repairs == ["tool name 'Get Weather' -> 'get_weather'", "argument 'citty' -> 'city'",
                              'days: "2" -> 2']


@pytest.mark.parametrize("text, index, reason", [
    ("1", 0, ""), ("1.", 0, ""), ("2)", 1, ""), ("3 - the cheapest", 2, "the cheapest"),
    ("  2\nBecause it is closer.", 1, "Because it is closer."), ("1. Rome\nwarmer", 0, "Rome warmer"),
])
def test_pick_is_lenient(text, index, reason):
    pick = parse_pick(text, 3)
    assert (pick.index, pick.reason, pick.abstained) == (index, reason, False)


@pytest.mark.parametrize("text", ["0", "4", "12 is best", "none of them", "", "I pick 2"])
def test_pick_out_of_range_or_missing_is_an_abstention(text):
    pick = parse_pick(text, 3)
    assert pick.abstained and pick.error


def test_exact_lines():
    assert parse_lines("- one\n2. two\n\n* three\n", 3).lines == ["one", "two", "three"]
    assert parse_lines("one\ntwo", 3).abstained
    assert parse_lines("a\nb\nc\nd", 3).error == "expected 3 lines, got 4"


class Slow:
    def complete(self, messages, grammar, sampling, tools=None):
        time.sleep(5)
        return Completion("1")


@pytest.mark.timeout(30)
def test_plaintext_calls_abstain_on_error_and_timeout():
    assert pick_one(ScriptedBackend("2\nshorter"), "Which?", ["a", "b"]).index == 1
    failed = pick_one(ScriptedBackend(BackendError("POST x: HTTP 500")), "Which?", ["a", "b"])
    assert failed.abstained and "HTTP 500" in failed.error
    slow = pick_one(Slow(), "Which?", ["a", "b"], timeout=0.5)
    assert slow.abstained and slow.error == "no answer within 0.5s"
    assert exact_lines(ScriptedBackend("x\ny"), "Two words", 2).lines == ["x", "y"]
    assert exact_lines(Slow(), "Two words", 2, timeout=0.5).abstained


def test_salvage_unit():
    results = [(ToolCall("get_now", {"timezone": "UTC"}), "12:00"), (ToolCall("find_files", {"pattern": "*"}), [])]
    backend = ScriptedBackend("  It is 12:00 in UTC. It is 12:00 in UTC.\nIt is 12:00 in UTC.  ")
    assert salvage(backend, "time?", results) == "It is 12:00 in UTC."  # cut at the first repeat
    messages, grammar, sampling = backend.requests[0]
    assert grammar is None and "Do not call tools" in messages[0]["content"]
    assert sampling.repeat_penalty > 1 and sampling.max_tokens <= 160
    assert 'get_now({"timezone": "UTC"}) returned: 12:00' in messages[1]["content"]
    assert 'find_files({"pattern": "*"}) returned: []' in messages[1]["content"]
    with pytest.raises(GbnfError, match="nothing to salvage"):
        salvage_messages("q", [])
    summary = "get_now: 12:00\nfind_files: "
    assert salvage(ScriptedBackend("  "), "q", results) == summary  # no reply: the plain summary
    assert salvage(ScriptedBackend("Turtles are green."), "q", results) == summary  # carries no result


@pytest.mark.parametrize("text, cut", [
    ("One. Two. One. Three.", "One. Two."),
    ("line a\nline b\nline a", "line a line b"),
    ("Same same same", "Same same same"),
    ("", ""),
])
def test_cut_repetition(text, cut):
    assert cut_repetition(text) == cut


def test_cite_adds_the_results_an_answer_leaves_out():
    weather = (ToolCall("get_weather", {"city": "Paris"}), {"city": "Paris", "forecast": "light rain", "temperature_c": 14})
    sent = (ToolCall("send", {"to": "Ana"}), {"sent": True})
    assert omitted("Light rain, 14 C.", [weather]) == []  # any case and spacing
    assert omitted("light rain", [weather, sent]) == [weather]  # 14 left out; a flag is no value to carry
    assert cite("light rain", [weather]) == "light rain\n\nget_weather: city: Paris; forecast: light rain; temperature_c: 14"
    assert cite("Light rain, 14 degrees.", [weather]) == "Light rain, 14 degrees."  # "Paris" echoes the call
    assert cite("", [weather]) == "get_weather: city: Paris; forecast: light rain; temperature_c: 14"
    many = (ToolCall("find_files", {}), [f"/var/log/file{i}.log" for i in range(100)])
    assert len(cite("Found them.", [many], limit=100)) == len("Found them.\n\n") + 100 + 3


def test_grounded_needs_a_word_of_the_results():
    results = [(ToolCall("get_weather", {"city": "Rome"}), {"forecast": "light rain", "ok": True})]
    assert grounded("Expect light rain.", results) and grounded("RAIN today", results)
    assert not grounded("Sunny and warm.", results)
    assert grounded("anything", [(ToolCall("x", {}), {"done": True})])  # nothing to carry


def test_salvage_with_the_real_model(inprocess):
    answer = salvage(inprocess, "What time is it in Rome?",
                     [(ToolCall("get_now", {"timezone": "Europe/Rome"}), "2026-11-21T15:04:00+01:00")],
                     Sampling(max_tokens=60))
    assert answer and not answer.lstrip().startswith("{")
