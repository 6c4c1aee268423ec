"""The loop logic, driven by a scripted backend (the real models are in test_backends.py)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from dataclasses import fields, replace

import pytest

from gbnf import GbnfError, Tool
from gbnf.backends import Completion
from gbnf.errors import BackendError
from gbnf.plan import Event, Planner, PlanOptions, TraceWriter
from gbnf.shape import Shaping
from gbnf.shape.rules import copy_bias
from gbnf.testing import ScriptedBackend, lark_oracle
from tests.conftest import MANIFESTS


def call(name, **arguments):
    return json.dumps({"name": name, "arguments": arguments})


FINAL = call("final_answer", answer="done")


def planner(tools, *replies, executors=None, **options):
    shaped = {key: options.pop(key) for key in [*options] if key in {f.name for f in fields(Shaping)}}
    options["shaping"] = replace(Shaping(), **shaped)
    backend = ScriptedBackend(*replies)
    events: list[Event] = []
    options.setdefault("salvage", False)
    options.setdefault("top_k", None)  # the loop logic over the whole pool; ranking has its own tests
    options.setdefault("single_use", False)
    options.setdefault("cite", False)  # citing and clauses have tests of their own
    options.setdefault("still_to_do", False)
    p = Planner(tools, backend, executors or {}, options=PlanOptions(**options))
    p.subscribe(events.append)
    return p, backend, events


def kinds(events):
    return [e.kind for e in events]


def test_final_on_first_step(tools):
    p, backend, events = planner(tools, FINAL)
    result = p.run("hello")
    assert (result.status, result.answer, result.steps) == ("final", "done", 1)
    assert kinds(events) == ["pool", "step", "call", "final"]
    messages, grammar, _ = backend.requests[0]
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "callFinalAnswer" in grammar and "get_now" in messages[0]["content"]


def test_tool_result_is_fed_back_then_final(tools):
    seen = []
    p, backend, events = planner(tools, call("get_now", timezone="UTC"), FINAL,
                                 executors={"get_now": lambda timezone: seen.append(timezone) or "12:00"}, cite=True)
    result = p.run("time?")
    assert result.converged and seen == ["UTC"]
    assert [(c.name, v) for c, v in result.results] == [("get_now", "12:00")]
    last = backend.requests[1][0]
    assert last[-2] == {"role": "assistant", "content": call("get_now", timezone="UTC")}
    assert last[-1] == {"role": "tool", "content": "get_now result: 12:00"}
    assert kinds(events) == ["pool", "step", "call", "result", "step", "call", "final", "cite"]
    assert result.answer == "done\n\nget_now: 12:00"  # the answer left out the result: it is cited
    assert result.finished_by == "model" and events[-1].data["added"] == "get_now: 12:00"
    assert (result.prompt_tokens, result.completion_tokens) == (20, 10)


def test_an_answer_that_carries_the_results_is_not_cited(tools):
    for answer, cite in (("It is 12:00.", True), ("done", False)):
        p, _, events = planner(tools, call("get_now", timezone="UTC"), call("final_answer", answer=answer),
                               executors={"get_now": lambda timezone: "12:00"}, cite=cite)
        assert p.run("time?").answer == answer and "cite" not in kinds(events)


def test_still_to_do_names_the_next_clause_and_offers_the_tool_again_for_it(tools):
    free = {"type": "object", "properties": {"timezone": {"type": "string"}}}  # any text: city names stand in
    tools = [replace(t, parameters=free) if t.name == "get_now" else t for t in tools]
    weather = {"get_now": lambda timezone: timezone}
    p, backend, events = planner(tools, call("get_now", timezone="Oslo"), call("get_now", timezone="Madrid"), FINAL,
                                 executors=weather, top_k=3, single_use=True, decide=False, model_rank=False,
                                 still_to_do=True)
    result = p.run("What time is it in Oslo and in Madrid?")
    assert [c.arguments["timezone"] for c, _ in result.results] == ["Oslo", "Madrid"]
    assert backend.requests[1][0][-1]["content"] == "get_now result: Oslo\nStill to do: in Madrid?"
    assert backend.requests[2][0][-1]["content"] == "get_now result: Madrid"  # nothing left to do
    steps = [e.data["tools"] for e in events if e.kind == "step"]
    assert "get_now" in steps[1] and "get_now" not in steps[2]  # offered again for the clause, then not
    p, backend, _ = planner(tools, call("get_now", timezone="Oslo"), FINAL, executors=weather, still_to_do=False)
    p.run("What time is it in Oslo and in Madrid?")
    assert backend.requests[1][0][-1]["content"] == "get_now result: Oslo"
    p, backend, _ = planner(tools, call("get_now", timezone="Oslo Madrid"), FINAL, executors=weather, still_to_do=True)
    p.run("What time is it in Oslo and in Madrid?")  # the call's arguments hold the second clause already
    assert backend.requests[1][0][-1]["content"] == "get_now result: Oslo Madrid"
    p, backend, _ = planner(tools, call("get_now", timezone="Oslo"), FINAL, executors=weather, still_to_do=True)
    p.run("The time in Oslo now and in Oslo time")  # the second clause adds no word to the first and the call
    assert backend.requests[1][0][-1]["content"] == "get_now result: Oslo"


def test_validation_error_goes_back_as_a_tool_message_and_the_model_recovers(tools):
    calls = []
    p, backend, events = planner(tools, call("get_inputs", display_template="x"), call("find_files", pattern="*"),
                                 FINAL, executors={"find_files": lambda **a: calls.append(a) or []}, asked_only=False)
    result = p.run("ask me")
    assert result.converged and calls == [{"pattern": "*"}]
    feedback = backend.requests[1][0][-1]
    assert feedback == {"role": "tool",
                        "content": "error: missing required args ['title', 'dialog'] for tool 'get_inputs'"}
    assert kinds(events)[2] == "validation_error"


def test_consecutive_blocked_counter_stops_the_loop(tools):
    p, backend, events = planner(tools, "prose", "more prose", "still prose", FINAL, max_blocked=3)
    result = p.run("q")
    assert result.status == "blocked" and result.steps == 3 and result.answer is None
    assert "3 failed calls in a row" in result.error
    assert kinds(events)[-1] == "abort" and events[-1].data["reason"] == "blocked"
    assert len(backend.replies) == 1


def test_a_success_resets_the_blocked_counter(tools):
    p, _, _ = planner(tools, "x", "y", call("get_now"), "z", "w", FINAL, executors={"get_now": lambda: "now"},
                      max_blocked=3)
    assert p.run("q").converged


def test_max_steps_stops_a_spiral(tools):
    replies = [call("find_files", pattern=str(i)) for i in range(5)]
    p, _, events = planner(tools, *replies, executors={"find_files": lambda **a: []}, max_steps=4)
    result = p.run("q")
    assert result.status == "max_steps" and result.steps == 4 and len(result.results) == 4
    assert events[-1].data["reason"] == "max_steps"


def test_executor_exception_becomes_a_tool_error_not_a_crash(tools):
    def broken(**_):
        raise OSError("disk on fire")

    p, backend, events = planner(tools, call("read_file", path="/x"), FINAL, executors={"read_file": broken})
    result = p.run("read /x")
    assert result.converged
    assert backend.requests[1][0][-1]["content"] == "error: tool 'read_file' failed: OSError: disk on fire"
    assert "tool_error" in kinds(events)


def test_a_tool_without_an_executor_stops_the_plan_naming_its_manifest(tools):
    p, backend, _ = planner(tools, call("get_weather", city="Rome"), FINAL)
    result = p.run("weather in Rome")
    assert (result.status, result.answer, len(backend.requests)) == ("no_executor", None, 1)
    assert [c.arguments for c in result.planned] == [{"city": "Rome"}]
    assert result.error == f"get_weather has no executor: add [executor] to {MANIFESTS / 'get_weather.toml'}"


def test_a_repeated_call_is_not_run_again(tools):
    p, backend, _ = planner(tools, call("get_now"), call("get_now"), FINAL,
                            executors={"get_now": lambda: "now"}, stop_on_repeat=False)
    result = p.run("what time is it")
    assert result.converged and len(result.results) == 1
    assert "already called with these arguments" in backend.requests[2][0][-1]["content"]


def test_parallel_calls_run_in_order_each_result_fed_back(tools):
    order = []
    step = json.dumps([{"name": "get_now", "arguments": {}}, {"name": "find_files", "arguments": {"pattern": "*"}}])
    p, backend, _ = planner(tools, step, FINAL, parallel=2,
                            executors={"get_now": lambda: order.append("now") or 1,
                                       "find_files": lambda **a: order.append("find") or 2})
    assert p.run("q").converged and order == ["now", "find"]
    assert [m["content"] for m in backend.requests[1][0][-2:]] == ["get_now result: 1", "find_files result: 2"]
    assert '"["' in backend.requests[0][1]


def test_pool_filter_shapes_the_grammar_and_the_prompt(tools):
    p, backend, events = planner(tools, FINAL)
    p.run("create folder /tmp/x")
    messages, grammar, _ = backend.requests[0]
    assert "callRequestLocationFromUser" not in grammar  # the tool's call rule: its name is spelled in parts
    assert "request_location_from_user" not in messages[0]["content"]
    assert "request_location_from_user" in events[0].data["dropped"]
    p2, backend2, _ = planner(tools, FINAL)
    p2.run("restaurants near me")
    assert "callRequestLocationFromUser" in backend2.requests[0][1]


def test_grammar_is_compiled_once_per_pool_and_values(tools):
    p, _, _ = planner(tools, FINAL, FINAL, FINAL, FINAL)
    p.run("a")
    p.run("a")
    assert len(p._grammars) == 1
    p.run("b")  # other words to copy
    assert len(p._grammars) == 2
    p.run("near me")  # another pool
    assert len(p._grammars) == 3


def test_grammar_cache_keeps_the_pools_used_last(tools, monkeypatch):
    monkeypatch.setattr("gbnf.plan._planner.GRAMMAR_CACHE", 2)
    p, _, _ = planner(tools)
    a, b, c = tools[:1], tools[1:2], tools[2:3]
    first = p.grammar(a)
    assert p.grammar(list(a)) is first  # an equal pool, not the same list
    p.grammar(b)
    assert p.grammar(a) is first  # a is now the most recent: c evicts b
    p.grammar(c)
    assert p.grammar(a) is first and p.grammar(tuple(a)) is first
    assert [seen for seen, _, _ in p._grammars] == [a, c]


def test_backend_error_ends_the_plan_keeping_results(tools):
    p, _, events = planner(tools, call("get_now"), BackendError("POST http://x/v1/chat/completions: HTTP 500"),
                           executors={"get_now": lambda: "now"})
    result = p.run("q")
    assert result.status == "error" and "HTTP 500" in result.error
    assert len(result.results) == 1 and events[-1].kind == "abort"


def test_truncated_reply_is_reported_as_truncated(tools):
    p, backend, _ = planner(tools, Completion('{"name": "get_now", "arguments": {"timezone": "Eur', truncated=True),
                            FINAL)
    p.run("q")
    assert backend.requests[1][0][-1]["content"].startswith("error: output truncated")


def test_each_step_gets_its_own_seed(tools):
    p, backend, _ = planner(tools, "x", FINAL)
    p.run("q")
    assert [r[2].seed for r in backend.requests] == [0, 1]


def test_async_run(tools):
    p, _, events = planner(tools, call("get_now"), FINAL, executors={"get_now": lambda: "now"})
    result = asyncio.run(p.arun("q"))
    assert result.converged and kinds(events)[-1] == "final"


def test_a_pool_without_a_final_tool_gets_final_answer_unless_it_names_another():
    assert [t.name for t in Planner([Tool("a", "d")], ScriptedBackend()).tools] == ["a", "final_answer"]
    with pytest.raises(GbnfError, match="no 'done' tool"):
        Planner([Tool("a", "d")], ScriptedBackend(), options=PlanOptions(final_tool="done"))


def test_trace_writes_json_lines(tools, tmp_path):
    p, _, _ = planner(tools, call("get_now"), FINAL, executors={"get_now": lambda: "now"})
    trace = TraceWriter(tmp_path / "t.jsonl")
    p.subscribe(trace)
    p.run("q")
    trace.close()
    lines = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert [line["kind"] for line in lines] == ["pool", "step", "call", "result", "step", "call", "final"]
    assert lines[2]["data"] == {"name": "get_now", "arguments": {}}


def test_cli_plan_with_a_bad_server_url_fails_cleanly(tmp_path):
    done = subprocess.run([sys.executable, "-m", "gbnf", "plan", "hi", "--manifests", str(MANIFESTS),
                           "--server", "http://127.0.0.1:9"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("gbnf: GET http://127.0.0.1:9/health: server unreachable")


def test_salvage_answers_from_gathered_results(tools):
    p, backend, events = planner(tools, call("get_now"), "prose", "more prose", "The time is 12:00.",
                                 executors={"get_now": lambda: "12:00"}, max_blocked=2, salvage=True)
    result = p.run("what time is it?")
    assert (result.status, result.converged, result.salvaged) == ("blocked", False, True)
    assert result.answer == "The time is 12:00." and result.finished_by == "salvage"
    messages, grammar, _ = backend.requests[-1]
    assert grammar is None and backend.tools[-1] is None
    assert "get_now({}) returned: 12:00" in messages[-1]["content"] and "what time is it?" in messages[-1]["content"]
    assert [e.kind for e in events][-2:] == ["abort", "salvage"]


def test_salvage_with_no_results_is_a_clear_failure(tools):
    p, backend, events = planner(tools, "x", "y", max_blocked=2, salvage=True)
    result = p.run("q")
    assert result.answer is None and not result.salvaged
    assert events[-1].kind == "salvage" and events[-1].data == {"answered": False,
                                                               "error": "no tool results to answer from"}
    assert len(backend.requests) == 2


def test_salvage_on_the_async_path(tools):
    p, _, _ = planner(tools, call("get_now"), call("get_now", timezone="UTC"), "It is 12:00.",
                      executors={"get_now": lambda **_: "12:00"}, max_steps=2, salvage=True)
    result = asyncio.run(p.arun("time?"))
    assert result.status == "max_steps" and result.salvaged and result.answer == "It is 12:00."


def test_soft_mode_parses_sloppy_calls_and_takes_prose_as_final(tools):
    p, backend, events = planner(tools, 'Sure: CALL get_now {"timezone": "UTC"}', "It is 12:00 UTC.",
                                 executors={"get_now": lambda timezone: "12:00"}, mode="soft")
    result = p.run("time in UTC?")
    assert result.converged and result.answer == "It is 12:00 UTC."
    assert backend.requests[0][1] is None and backend.tools[0] is None
    # the literal skeleton, with the zone the request names ("UTC": an optional argument asked by its value)
    assert '{"name":"get_now","arguments":{"timezone":"<timezone>"}}' in backend.requests[0][0][0]["content"]


def test_native_mode_sends_tools_never_a_grammar(tools):
    from gbnf.backends import Completion as C

    native = C("", tool_calls=({"name": "get_now", "arguments": {"timezone": "UTC"}},))
    p, backend, _ = planner(tools, native, "Noon.", executors={"get_now": lambda timezone: "12:00"}, mode="native")
    result = p.run("time?")
    assert result.converged and result.answer == "Noon."
    assert backend.requests[0][1] is None
    assert {t["function"]["name"] for t in backend.tools[0]} >= {"get_now", "final_answer"}


def test_a_salvage_reply_that_ignores_the_results_becomes_their_summary(tools):
    p, _, events = planner(tools, call("get_weather", city="Rome"), "x", "y", "I like turtles. I like turtles.",
                           executors={"get_weather": lambda **_: {"forecast": "rain", "temperature_c": 11}},
                           max_blocked=2, salvage=True)
    result = p.run("weather in Rome?")
    assert result.salvaged and result.answer == "get_weather: forecast: rain; temperature_c: 11"
    assert events[-1].data["by_model"] is False


def test_a_repeated_successful_call_ends_the_plan_finished_by_the_loop(tools):
    p, backend, events = planner(tools, call("get_now"), call("get_now"), "It is 12:00.",
                                 executors={"get_now": lambda: "12:00"})
    result = p.run("time?")
    assert (result.status, result.finished_by, result.answer) == ("repeat", "loop", "It is 12:00.")
    assert not result.converged and len(result.results) == 1
    assert backend.requests[-1][1] is None  # the answer is a plain-text call, no grammar
    assert [e.kind for e in events][-2:] == ["abort", "salvage"]


def test_the_final_tool_answer_is_its_one_string_argument_whatever_its_name():
    tools = [Tool("lookup", "d"), Tool("done", "End.", {"type": "object", "properties": {"text": {"type": "string"}},
                                                         "required": ["text"]})]
    p, backend, _ = planner(tools, call("done", text="All good."), final_tool="done")
    result = p.run("q")
    assert (result.answer, result.finished_by) == ("All good.", "model")
    grammar = backend.requests[0][1]
    assert '"done\\"" callDone' in grammar and 'callDone ::= ",\\n  " "\\"arguments\\": " argsDone' in grammar


def test_strings_and_arrays_are_bounded_in_the_grammar_and_the_validator(tools):
    p, backend, _ = planner(tools, call("final_answer", answer="x" * 201), call("final_answer", answer="ok"),
                            string_chars=200, array_items=10)
    result = p.run("q")
    assert result.answer == "ok"
    assert backend.requests[1][0][-1]["content"] == ("error: 'answer' must have at most 200 characters, got 201 "
                                                     "for tool 'final_answer'")
    assert "stringChar{0,200}" in backend.requests[0][1]
    send = next(t for t in p.tools if t.name == "send_messages").parameters
    assert send["properties"]["recipients"]["maxItems"] == 10 and send["properties"]["text"]["maxLength"] == 200
    assert "maxLength" not in next(t for t in p.tools if t.name == "schedule_reminder").parameters["properties"]["when"]
    unbounded = Planner(tools, ScriptedBackend(), options=PlanOptions(shaping=Shaping(string_chars=None, array_items=None, number_digits=None)))
    assert unbounded.tools == tools


def test_a_long_tool_result_is_cut_with_a_note(tools):
    p, backend, _ = planner(tools, call("read_file", path="/x"), FINAL, executors={"read_file": lambda **_: "a" * 50},
                            result_chars=10)
    p.run("read /x")
    assert backend.requests[1][0][-1]["content"] == "read_file result: aaaaaaaaaa ... (cut: 40 more characters)"


def test_after_a_failed_call_the_retry_samples(tools):
    p, backend, _ = planner(tools, "prose", FINAL)
    p.run("q")
    assert [r[2].temperature for r in backend.requests] == [0.0, 0.7]


def test_act_first_and_single_use_shape_each_step(tools):
    p, backend, events = planner(tools, call("get_weather", city="Paris"), FINAL, top_k=3, single_use=True,
                                 executors={"get_weather": lambda **_: {"forecast": "rain"}})
    assert p.run("What's the weather in Paris?").converged
    first, second = backend.requests[0][1], backend.requests[1][1]
    assert "callGetWeather" in first and "callFinalAnswer" not in first  # step 1 must act
    assert "callFinalAnswer" in second and "callGetWeather" not in second  # a tool that succeeded leaves
    rank = next(e for e in events if e.kind == "rank")
    assert rank.data["first"] == ["get_weather"] and rank.data["ranking"][0][0] == "get_weather"


def test_a_request_unrelated_by_meaning_is_answered_at_once_and_by_words_the_model_may_answer(tools):
    p, backend, events = planner(tools, FINAL, top_k=3)
    assert p.run("Who wrote Romeo and Juliet?").converged
    assert next(e for e in events if e.kind == "rank").data["first"] == ["final_answer"]
    p, backend, events = planner(tools, FINAL, top_k=3, meaning=False)
    assert p.run("Who wrote Romeo and Juliet?").converged
    assert "callFinalAnswer" in backend.requests[0][1]
    assert len(next(e for e in events if e.kind == "rank").data["first"]) == 4  # the top 3 and final_answer


@pytest.mark.parametrize("option", [{"max_steps": 0}, {"max_blocked": 0}, {"top_k": -1}, {"result_chars": 0},
                                    {"parallel": 0}])
def test_bad_settings_are_refused(option):
    with pytest.raises(GbnfError):
        PlanOptions(**option)


def test_copy_bias_favours_the_words_of_the_query_then_of_the_results(tools):
    p, backend, _ = planner(tools, call("get_weather", city="Paris"), FINAL, copy_bias=2.0, dry=0.5,
                            executors={"get_weather": lambda **_: {"forecast": "light rain"}})
    assert p.run("What's the weather in Paris?").converged
    first, second = backend.requests[0][2], backend.requests[1][2]
    assert {("Paris", 2.0), (" Paris", 2.0)} <= set(first.bias) and ("rain", 2.0) not in first.bias
    assert ("rain", 2.0) in second.bias and first.dry == second.dry == 0.5


def test_copy_bias_keeps_paths_whole():
    bias = dict(copy_bias(["Read /etc/hostname, please"], 1.5))
    assert bias["/etc/hostname"] == bias[" /etc/hostname"] == bias["Read"] == bias[" please"] == 1.5
    assert "/etc/hostname," not in bias


def test_every_event_carries_its_plans_run_id(tools):
    p, _, events = planner(tools, FINAL, FINAL)
    first, second = p.run("q1"), p.run("q2")
    assert first.run != second.run
    runs = [e.run for e in events]
    assert runs == [first.run] * runs.count(first.run) + [second.run] * runs.count(second.run)
    assert json.loads(events[0].to_json())["run"] == first.run


def test_call_values_are_copied_from_the_query_and_the_results():
    city = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"]}
    text = {"type": "object", "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
            "required": ["to", "body"]}
    tools = [Tool("forecast", "Weather forecast for a city.", city), Tool("send_sms", "Send a text message.", text)]
    replies = (call("forecast", city="Porto", days=2), call("send_sms", to="Ana", body="windy, 17 C"), FINAL)
    executors = {"forecast": lambda **_: {"today": "windy, 17 C"}, "send_sms": lambda **_: "sent"}
    query = "Check the weather in Porto for 2 days and text Ana what it will be like"
    p, backend, _ = planner(tools, *replies, executors=executors, layout="free")
    assert p.run(query).converged
    oracle = lark_oracle()
    first, second = (grammar for _, grammar, _ in backend.requests[:2])
    assert oracle.accepts(first, call("forecast", city="Porto", days=2))
    assert not oracle.accepts(first, call("forecast", city="Lisbon"))  # not in the query
    assert not oracle.accepts(first, call("forecast", city="Porto", days=3))
    assert not oracle.accepts(first, call("send_sms", to="Ana", body="windy, 17 C"))  # not yet a result
    assert oracle.accepts(second, call("send_sms", to="Ana", body="windy, 17 C"))  # a stretch of the result
    assert oracle.accepts(second, call("final_answer", answer="It will be windy, Ana knows"))  # the answer is free

    p, backend, _ = planner(tools, *replies, executors=executors, layout="free", copy_values=False)
    p.run(query)
    assert oracle.accepts(backend.requests[0][1], call("forecast", city="Lisbon", days=3))


def test_a_call_that_copies_a_value_into_two_arguments_is_asked_again_with_the_second_kept_from_it():
    metal = {"type": "object", "properties": {"metal": {"type": "string"}, "measure": {"type": "string"}},
             "required": ["metal", "measure"]}
    tools = [Tool("get_metal_price", "The price of a metal.", metal)]
    repeated, apart = call("get_metal_price", metal="Gold", measure="Gold"), call("get_metal_price", metal="Gold",
                                                                                   measure="ounce")
    got: list[dict] = []
    executors = {"get_metal_price": lambda **args: got.append(args) or "1900 USD"}
    p, backend, _ = planner(tools, repeated, apart, FINAL, executors=executors, layout="free")
    assert p.run("Get current Gold price per ounce.").converged
    assert got == [{"metal": "Gold", "measure": "ounce"}]
    oracle = lark_oracle()
    (asked, first, _), (again_asked, again, _) = backend.requests[:2]
    assert oracle.accepts(first, repeated) and not oracle.accepts(again, repeated) and oracle.accepts(again, apart)
    assert again_asked == asked  # the same question, not the refused reply
    assert backend.requests[2][0][-2] == {"role": "assistant", "content": apart}

    got.clear()
    p, backend, _ = planner(tools, repeated, FINAL, executors=executors, layout="free", values_apart=False)
    assert p.run("Get current Gold price per ounce.").converged and got == [{"metal": "Gold", "measure": "Gold"}]
