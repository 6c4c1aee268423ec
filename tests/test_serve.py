"""``gbnf serve`` driven by the official ``openai`` client, in front of the in-process model and
of a real llama-server; a scripted fake upstream only for a 500, garbage, a hang and 503s."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import jsonschema
import openai
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gbnf.endpoint import RemoteModels, ServeProcess, create_app
from gbnf.llama_server import LlamaServer, free_port
from tests.fakes import Fake

WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Current weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                                                    "units": {"type": "string", "enum": ["metric", "imperial"]}},
                   "required": ["city"]}}}
EMAIL = {"type": "function", "function": {
    "name": "send_email", "description": "Send an email",
    "parameters": {"type": "object", "properties": {"to": {"type": "string"}, "body": {"type": "string", "maxLength": 80}},
                   "required": ["to", "body"]}}}
TOOLS = [WEATHER, EMAIL]
SCHEMAS = {t["function"]["name"]: t["function"]["parameters"] for t in TOOLS}
ASK = [{"role": "user", "content": "What's the weather in Paris?"}]
PERSON = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 40}, "age": {"type": "integer"}},
          "required": ["name", "age"], "additionalProperties": False}


@contextmanager
def served(*args: str) -> Iterator[ServeProcess]:
    """``gbnf serve --port 0 ARGS`` once ready; SIGTERM must then end it cleanly."""
    process = ServeProcess(*args).start()
    try:
        yield process
    finally:
        assert process.stop() == 0, process.stderr
    assert "Traceback" not in process.stderr


@contextmanager
def serving(*args: str) -> Iterator[str]:
    """``gbnf serve --port 0 ARGS``: its base URL once ready (:func:`served`)."""
    with served(*args) as process:
        yield process.url


@pytest.fixture(scope="module")
def local() -> Iterator[ServeProcess]:
    with served() as process:
        yield process


@pytest.fixture(scope="module")
def local_url(local) -> str:
    return local.url


@pytest.fixture(scope="module")
def upstream_url(llama_server) -> Iterator[str]:
    with serving("--server", llama_server.url) as url:
        yield url


@pytest.fixture(params=["inprocess", "llama-server"])
def url(request, local_url, upstream_url) -> str:
    return local_url if request.param == "inprocess" else upstream_url


def client(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url, api_key="unused", max_retries=0, timeout=120)


def check_calls(message, allowed: set[str]) -> list[tuple[str, dict]]:
    """Every call is to an allowed tool with arguments valid for its schema."""
    calls = []
    for call in message.tool_calls:
        assert call.id.startswith("call_") and call.type == "function"
        assert call.function.name in allowed
        arguments = json.loads(call.function.arguments)
        jsonschema.validate(arguments, {**SCHEMAS[call.function.name], "additionalProperties": False})
        calls.append((call.function.name, arguments))
    return calls


def test_required_gives_a_valid_call(url):
    reply = client(url).chat.completions.create(model="m", messages=ASK, tools=TOOLS, tool_choice="required",
                                                parallel_tool_calls=False)
    choice = reply.choices[0]
    assert choice.finish_reason == "tool_calls" and choice.message.content is None
    assert len(check_calls(choice.message, set(SCHEMAS))) == 1
    assert reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0


def test_server_timing_parts_the_model_time_from_gbnf_time(url):
    for create in (lambda c: c.chat.completions.with_raw_response.create(model="m", messages=ASK, tools=TOOLS,
                                                                         tool_choice="required"),
                   lambda c: c.responses.with_raw_response.create(model="m", input="What's the weather in Paris?",
                                                                  tools=[{"type": "function", **WEATHER["function"]}],
                                                                  tool_choice="required")):
        start = time.perf_counter()
        raw = create(client(url))
        wall = (time.perf_counter() - start) * 1000
        parts = dict(part.strip().split(";dur=") for part in raw.headers["server-timing"].split(","))
        model, own = float(parts["model"]), float(parts["gbnf"])
        assert 0 < model and 0 <= own and model + own <= wall, (parts, wall)


def test_a_named_tool_is_the_one_called(url):
    reply = client(url).chat.completions.create(
        model="m", messages=ASK, tools=TOOLS, tool_choice={"type": "function", "function": {"name": "send_email"}})
    assert [name for name, _ in check_calls(reply.choices[0].message, {"send_email"})] == ["send_email"]


def test_auto_answers_in_text_or_with_valid_calls(url):
    reply = client(url).chat.completions.create(model="m", messages=[{"role": "user", "content": "Say hello."}],
                                                tools=TOOLS, max_tokens=40)
    message = reply.choices[0].message
    if message.tool_calls:
        assert reply.choices[0].finish_reason == "tool_calls" and message.content is None
        check_calls(message, set(SCHEMAS))
    else:
        assert message.content and message.content[0] not in "{[ \n\t"
        assert reply.choices[0].finish_reason in ("stop", "length")


def test_none_answers_in_text(url):
    reply = client(url).chat.completions.create(model="m", messages=ASK, tools=TOOLS, tool_choice="none",
                                                max_tokens=30)
    assert reply.choices[0].message.tool_calls is None and isinstance(reply.choices[0].message.content, str)


def test_parallel_calls_are_each_valid(url):
    reply = client(url).chat.completions.create(
        model="m", messages=[{"role": "user", "content": "Weather in Paris and in Rome?"}], tools=TOOLS,
        tool_choice="required", parallel_tool_calls=True)
    calls = reply.choices[0].message.tool_calls or []
    assert 1 <= len(check_calls(reply.choices[0].message, set(SCHEMAS))) <= 4
    assert len({(call.function.name, call.function.arguments) for call in calls}) == len(calls)  # no repeats


def test_stream_carries_the_same_call_as_the_plain_reply(url):
    api = client(url)
    plain = api.chat.completions.create(model="m", messages=ASK, tools=TOOLS, tool_choice="required", seed=3)
    stream = api.chat.completions.create(model="m", messages=ASK, tools=TOOLS, tool_choice="required", seed=3,
                                         stream=True, stream_options={"include_usage": True})
    calls: dict[int, dict[str, str]] = {}
    finish, usage, roles = None, None, []
    for chunk in stream:
        if not chunk.choices:
            usage = chunk.usage
            continue
        delta = chunk.choices[0].delta
        roles += [delta.role] if delta.role else []
        for part in delta.tool_calls or []:
            entry = calls.setdefault(part.index, {"id": "", "name": "", "arguments": ""})
            entry["id"] += part.id or ""
            entry["name"] += (part.function.name or "") if part.function else ""
            entry["arguments"] += (part.function.arguments or "") if part.function else ""
        finish = chunk.choices[0].finish_reason or finish
    assert roles == ["assistant"] and finish == "tool_calls"
    expected = [(c.function.name, json.loads(c.function.arguments)) for c in plain.choices[0].message.tool_calls]
    assert [(c["name"], json.loads(c["arguments"])) for c in calls.values()] == expected
    assert all(c["id"].startswith("call_") for c in calls.values())
    assert usage.completion_tokens == plain.usage.completion_tokens


def test_streamed_text_joins_to_the_plain_text(url):
    api = client(url)
    question = [{"role": "user", "content": "Name three colours."}]
    plain = api.chat.completions.create(model="m", messages=question, max_tokens=30)
    pieces = [c.choices[0].delta.content or "" for c in
              api.chat.completions.create(model="m", messages=question, max_tokens=30, stream=True) if c.choices]
    assert "".join(pieces) == plain.choices[0].message.content


def test_response_format_json_schema_and_json_object(url):
    api = client(url)
    person = api.chat.completions.create(
        model="m", messages=[{"role": "user", "content": "Ann is 30. Give her as JSON."}],
        response_format={"type": "json_schema", "json_schema": {"name": "person", "schema": PERSON}})
    jsonschema.validate(json.loads(person.choices[0].message.content), PERSON)
    anything = api.chat.completions.create(
        model="m", messages=[{"role": "user", "content": 'Reply with the JSON {"ok": true} and nothing else.'}],
        response_format={"type": "json_object"}, max_tokens=100)
    assert isinstance(json.loads(anything.choices[0].message.content), dict)


def test_a_tool_result_turn_is_read(url):
    turn = [*ASK, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "21 C and sunny"}]
    reply = client(url).chat.completions.create(model="m", messages=turn, tools=TOOLS, tool_choice="none",
                                                max_tokens=40)
    assert reply.choices[0].message.content
    assert reply.usage.prompt_tokens > 40


def test_eight_concurrent_clients(url, request):
    """Eight clients at once all get their answer; in-process (one request at a time, greedy)
    each is the answer it gets alone, so no request saw another's tokens."""
    def ask(i: int) -> str:
        reply = client(url).chat.completions.create(
            model="m", messages=[{"role": "user", "content": f"Spell the number {i}."}], max_tokens=12)
        return reply.choices[0].message.content

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        together = list(pool.map(ask, range(8)))
    assert all(together)
    if request.node.callspec.params["url"] == "inprocess":
        assert together == [ask(i) for i in range(8)]


def test_a_client_gone_mid_stream_leaves_the_server_healthy(url):
    body = {"model": "m", "messages": ASK, "max_tokens": 60, "stream": True}
    with httpx.stream("POST", f"{url}/chat/completions", json=body, timeout=120) as response:
        assert response.status_code == 200
        next(response.iter_lines())
    assert httpx.get(url.removesuffix("/v1") + "/health").json() == {"status": "ok"}
    assert client(url).chat.completions.create(model="m", messages=ASK, max_tokens=5).choices[0].message.content


def test_models_and_health(local_url):
    assert [m.id for m in client(local_url).models.list()] == ["SmolLM2-135M-Instruct.Q4_1"]
    assert httpx.get(local_url.removesuffix("/v1") + "/health").status_code == 200


@pytest.mark.parametrize("body, param, words", [
    ("{not json", None, "not JSON"),
    ("[" * 100_000, None, "not JSON"),
    ("[1, 2]", None, "JSON object"),
    (json.dumps({"model": "m"}), "messages", "non-empty list"),
    (json.dumps({"messages": ASK, "n": 2}), "n", "not supported"),
    (json.dumps({"messages": ASK, "tools": TOOLS, "tool_choice": {"type": "function", "function": {"name": "nope"}}}),
     "tool_choice", "names no tool"),
    (json.dumps({"messages": [{"role": "wizard", "content": "x"}]}), "messages[0].role", "role must be"),
    (json.dumps({"messages": ASK, "temperature": -1}), "temperature", "from 0 to 2"),
    (json.dumps({"messages": ASK, "tools": [{"type": "function", "function": {
        "name": "bad", "parameters": {"type": "object", "properties": {"x": {"type": "strin"}}}}}]}),
     "tools", "tools[0] (bad): parameters.properties.x.type"),
])
def test_bad_bodies_get_400_in_openai_shape(local_url, body, param, words):
    response = httpx.post(f"{local_url}/chat/completions", content=body, timeout=30)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["param"] == param and words in error["message"] and error["type"] == "invalid_request_error"


def test_a_body_past_32_mib_is_refused(local_url):
    response = httpx.post(f"{local_url}/chat/completions", content=b" " * (33 * 2**20), timeout=60)
    assert response.status_code == 413 and response.json()["error"]["code"] == "body_too_large"


def test_a_broken_schema_through_the_client_names_the_tool_and_key(local_url):
    broken = {"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"n": {"type": "integer", "minimum": "zero"}}}}}
    with pytest.raises(openai.BadRequestError, match=r"tools\[0\] \(f\): parameters.properties.n.minimum"):
        client(local_url).chat.completions.create(model="m", messages=ASK, tools=[broken])


def test_the_profile_follows_the_model_and_a_request_may_choose_another_and_read_its_decisions(local):
    assert "profile small for SmolLM2-135M-Instruct" in local.stderr  # said at start: 135 M parameters
    ask = client(local.url).chat.completions.create
    small = ask(model="m", messages=ASK, tools=TOOLS, max_tokens=60, extra_body={"explain": True})
    decisions = small.model_extra["shaping"]
    assert decisions["profile"] == "small" and decisions["reply"] == "call" and decisions["tools"] == ["get_weather"]
    assert "Paris" in decisions["values"]["get_weather"]["city"] and small.choices[0].message.tool_calls
    capable = ask(model="m", messages=ASK, tools=TOOLS, max_tokens=60,
                  extra_body={"profile": "capable", "explain": True})
    decisions = capable.model_extra["shaping"]
    assert decisions["profile"] == "capable" and decisions["reply"] == "either"
    assert decisions["tools"] == ["get_weather", "send_email"] and decisions["values_imposed"] is False
    assert "Paris" in decisions["values"]["get_weather"]["city"]  # shown, not imposed
    quiet = ask(model="m", messages=ASK, tools=TOOLS, max_tokens=60, extra_body={"profile": "off"})
    assert "shaping" not in (quiet.model_extra or {})
    with pytest.raises(openai.BadRequestError, match="there is no profile 'huge'"):
        ask(model="m", messages=ASK, tools=TOOLS, extra_body={"profile": "huge"})


def test_unknown_route_is_404_in_openai_shape(local_url):
    response = httpx.get(f"{local_url}/nothing")
    assert response.status_code == 404 and "error" in response.json()


def test_retries_that_run_out_answer_an_error_not_a_bad_call(upstream_url):
    never = {"type": "function", "function": {"name": "pick", "parameters": {
        "type": "object", "properties": {"n": {"type": "integer", "not": {"type": "integer"}}}, "required": ["n"]}}}
    with pytest.raises(openai.UnprocessableEntityError, match=r"no valid reply in 3 attempts; last error: .*'n'"):
        client(upstream_url).chat.completions.create(model="m", messages=ASK, tools=[never], tool_choice="required",
                                                     max_tokens=60)


def test_upstream_faults_map_to_502_504_503():
    ok = json.dumps({"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]}).encode()
    fake = Fake((500, b'{"error": {"message": "boom"}}', 0), (200, b"not json", 0), (200, ok, 3.0), (503, b"{}", 0))
    try:
        with serving("--server", fake.url, "--timeout", "1", "--profile", "small") as url:
            errors = [httpx.post(f"{url}/chat/completions", json={"messages": ASK}, timeout=30) for _ in range(4)]
        assert [(r.status_code, r.json()["error"]["code"]) for r in errors] == [
            (502, "upstream_error"), (502, "upstream_error"), (504, "upstream_timeout"), (503, "model_loading")]
        assert "boom" in errors[0].json()["error"]["message"]
    finally:
        fake.close()


def test_a_full_queue_answers_503_with_retry_after():
    with serving("--queue", "0") as url:
        body = {"messages": ASK, "max_tokens": 60}

        def post(_: int) -> httpx.Response:
            return httpx.post(f"{url}/chat/completions", json=body, timeout=120)

        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            responses = list(pool.map(post, range(3)))
        busy = [r for r in responses if r.status_code == 503]
        assert busy and all(r.headers["Retry-After"] == "1" for r in busy)
        assert any(r.status_code == 200 for r in responses)


def test_a_taken_port_is_one_clear_line():
    with serving() as url:
        port = url.split(":")[-1].split("/")[0]
        done = subprocess.run([sys.executable, "-m", "gbnf", "serve", "--port", port], capture_output=True,
                              text=True, timeout=120, env={**os.environ, "GBNF_SERVER": ""})
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"could not serve on 127.0.0.1:{port}: Address already in use" in done.stderr


@pytest.mark.model
def test_requests_spread_over_llama_server_replicas():
    def launched(server: LlamaServer) -> int:
        return server.log_path.read_text(errors="replace").count("launch_slot_")

    def ask(url: str, i: int) -> str | openai.APIError:
        try:
            reply = client(url).chat.completions.create(
                model="m", messages=[{"role": "user", "content": f"Count to {i}."}], max_tokens=20)
        except openai.APIError as exc:
            return exc
        return reply.choices[0].message.content or ""

    # one thread each: two llama-servers of one thread per core each stall on 2 cores (OpenMP's
    # spinning threads wait on each other's descheduled ones)
    with LlamaServer(threads=1) as first, LlamaServer(threads=1) as second, \
            served("--server", first.url, "--server", second.url) as gbnf_serve:
        url = gbnf_serve.url
        before = [launched(s) for s in (first, second)]
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            replies = list(pool.map(lambda i: ask(url, i), range(4)))
        after = [launched(s) for s in (first, second)]
        # one at a time, each after the last has finished: both replicas idle at each pick
        replies += [ask(url, 5), ask(url, 6)]
        last = [launched(s) for s in (first, second)]
        logs = "\n\n".join(f"{s.url}:\n{s.log_tail(40)}" for s in (first, second))
    logs += f"\n\ngbnf serve:\n{gbnf_serve.stderr[-3000:]}"
    assert all(isinstance(r, str) and r for r in replies), f"{replies!r}\n{logs}"
    assert after[0] > before[0] and after[1] > before[1], f"{before} {after}\n{logs}"
    assert last[0] > after[0] and last[1] > after[1], f"{after} {last}\n{logs}"


def test_text_under_auto_streams_as_the_plain_reply_reads(url, request):
    api = client(url)
    question = [{"role": "user", "content": "Write a long story about a dragon."}]
    plain = api.chat.completions.create(model="m", messages=question, tools=TOOLS, max_tokens=60)
    stream = api.chat.completions.create(model="m", messages=question, tools=TOOLS, max_tokens=60, stream=True)
    pieces = [c.choices[0].delta.content for c in stream if c.choices and c.choices[0].delta.content]
    # llama-server holds back text that may begin a stop string ("\n" of the "\n\n" prose ends
    # at) and drops it when the token limit ends its stream; its plain reply keeps it
    upstream = request.node.callspec.params["url"] == "llama-server"
    held = "\n" if upstream and plain.choices[0].finish_reason == "length" else ""
    assert plain.choices[0].message.content
    assert "".join(pieces) in (plain.choices[0].message.content, plain.choices[0].message.content.removesuffix(held))


def test_streamed_upstream_text_and_its_faults():
    events = (b'data: {"choices": [{"delta": {"content": "Hel"}}]}\n\n'
              b'data: {"choices": [{"delta": {"content": "lo"}, "finish_reason": "stop"}]}\n\ndata: [DONE]\n\n')
    broken = b'data: {"choices": [{"delta": {"content": "Hi"}}]}\n\ndata: {oops\n\n'
    fake = Fake((500, b'{"error": {"message": "boom"}}', 0), (200, events, 0), (200, broken, 0))
    try:
        with serving("--server", fake.url, "--profile", "small") as url:
            failed = httpx.post(f"{url}/chat/completions", json={"messages": ASK, "stream": True}, timeout=30)
            assert failed.status_code == 502 and "boom" in failed.json()["error"]["message"]
            stream = client(url).chat.completions.create(model="m", messages=ASK, stream=True)
            assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == "Hello"
            with pytest.raises(openai.APIError, match="unexpected stream event"):
                list(client(url).chat.completions.create(model="m", messages=ASK, stream=True))
    finally:
        fake.close()


RESPONSE_TOOLS = [{"type": "function", **t["function"]} for t in TOOLS]


def check_items(items, allowed: set[str]) -> list[tuple[str, dict]]:
    """Every function_call item is to an allowed tool with arguments valid for its schema."""
    calls = []
    for item in items:
        assert item.type == "function_call" and item.call_id.startswith("call_") and item.status == "completed"
        assert item.name in allowed
        arguments = json.loads(item.arguments)
        jsonschema.validate(arguments, {**SCHEMAS[item.name], "additionalProperties": False})
        calls.append((item.name, arguments))
    return calls


def test_auto_calls_the_tool_the_user_asks_for(url):
    reply = client(url).chat.completions.create(model="m", messages=ASK, tools=TOOLS)
    assert reply.choices[0].finish_reason == "tool_calls"
    assert [name for name, _ in check_calls(reply.choices[0].message, set(SCHEMAS))] == ["get_weather"]


def test_auto_answers_a_request_no_tool_fits_in_one_bounded_paragraph(url):
    reply = client(url).chat.completions.create(
        model="m", messages=[{"role": "user", "content": "Write a long story about a dragon."}], tools=TOOLS)
    message = reply.choices[0].message
    assert message.tool_calls is None and message.content and "\n\n" not in message.content
    assert reply.usage.completion_tokens <= 256


def test_responses_required_gives_a_valid_call(url):
    response = client(url).responses.create(model="m", input="What's the weather in Paris?", tools=RESPONSE_TOOLS,
                                            tool_choice="required", parallel_tool_calls=False)
    assert response.object == "response" and response.status == "completed"
    assert len(check_items(response.output, set(SCHEMAS))) == 1
    assert response.usage.input_tokens > 0 and response.usage.output_tokens > 0


def test_responses_named_tool_and_a_function_call_output_turn(url):
    api = client(url)
    first = api.responses.create(model="m", input="Tell Bob it is sunny.", tools=RESPONSE_TOOLS,
                                 tool_choice={"type": "function", "name": "send_email"})
    [call] = first.output
    assert check_items([call], {"send_email"})
    second = api.responses.create(
        model="m", instructions="Answer in one sentence.", tools=RESPONSE_TOOLS, tool_choice="none",
        max_output_tokens=40,
        input=[{"role": "user", "content": "Tell Bob it is sunny."},
               {"type": "function_call", "call_id": call.call_id, "name": call.name, "arguments": call.arguments},
               {"type": "function_call_output", "call_id": call.call_id, "output": "sent"}])
    alone = api.responses.create(model="m", instructions="Answer in one sentence.", input="Tell Bob it is sunny.",
                                 tools=RESPONSE_TOOLS, tool_choice="none", max_output_tokens=1)
    assert second.output_text and second.output[0].type == "message"
    assert second.usage.input_tokens > alone.usage.input_tokens  # the call and its result were read


def test_responses_text_format_json_schema(url):
    response = client(url).responses.create(
        model="m", input="Ann is 30. Give her as JSON.",
        text={"format": {"type": "json_schema", "name": "person", "schema": PERSON}})
    jsonschema.validate(json.loads(response.output_text), PERSON)


def test_responses_stream_events_build_the_response(url):
    api = client(url)
    with api.responses.stream(model="m", input="Name three colours.", max_output_tokens=200) as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_response()
    assert kinds[:2] == ["response.created", "response.in_progress"] and kinds[-1] == "response.completed"
    assert "response.output_text.delta" in kinds and final.output_text
    with api.responses.stream(model="m", input="What's the weather in Paris?", tools=RESPONSE_TOOLS,
                              tool_choice="required") as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_response()
    assert "response.function_call_arguments.done" in kinds
    assert check_items(final.output, set(SCHEMAS))


@pytest.mark.parametrize("body, param, words", [
    ({"model": "m"}, "input", "string or a non-empty list"),
    ({"input": [{"role": "user", "content": "x"}, {"type": "image_generation_call"}]}, "input[1].type",
     "not supported"),
    ({"input": "x", "previous_response_id": "resp_1"}, "previous_response_id", "keeps no state"),
    ({"input": "x", "tools": [{"type": "web_search"}]}, "tools[0]", "only function tools"),
    ({"input": [{"role": "wizard", "content": "x"}]}, "input[0].role", "role must be"),
    ({"input": "x", "max_output_tokens": 0}, "max_output_tokens", "whole number"),
    ({"input": "x", "text": {"format": {"type": "json_schema", "schema": 3}}}, "text.format", "JSON Schema"),
])
def test_responses_bad_bodies_get_400_in_openai_shape(local_url, body, param, words):
    response = httpx.post(f"{local_url}/responses", json=body, timeout=30)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["param"] == param and words in error["message"] and error["type"] == "invalid_request_error"


def test_gbnf_serve_is_stateless_two_processes_give_the_same_replies(llama_server):
    """Replicas of ``gbnf serve`` in front of one upstream answer alike, whichever a client reaches."""
    asks = [ASK, [{"role": "user", "content": "Email Ana that I am late."}],
            [{"role": "user", "content": "Tell me a joke about owls."}]]

    def replies(url: str) -> list[tuple[str | None, list[tuple[str, str]]]]:
        out = []
        for messages in asks:
            message = client(url).chat.completions.create(model="m", messages=messages, tools=TOOLS, max_tokens=60,
                                                          seed=7).choices[0].message
            out.append((message.content, [(c.function.name, c.function.arguments) for c in message.tool_calls or []]))
        return out

    with serving("--server", llama_server.url) as first, serving("--server", llama_server.url) as second:
        assert replies(first) == replies(second)


def test_auto_answers_in_text_when_every_call_runs_past_the_token_limit(local):
    """The shaping sends a request for the weather to a call, but no call fits in 3 tokens: under
    auto the reply is text (the model asked once more, for prose) and the last error is logged
    with the reply's id; required and a named tool keep their 422."""
    api = client(local.url)
    reply = api.chat.completions.create(model="m", messages=ASK, tools=TOOLS, max_tokens=3)
    message = reply.choices[0].message
    assert message.tool_calls is None and message.content and message.content[0] not in "{["
    assert reply.choices[0].finish_reason in ("stop", "length")
    stream = api.chat.completions.create(model="m", messages=ASK, tools=TOOLS, max_tokens=3, stream=True)
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == message.content
    response = api.responses.create(model="m", input=ASK[0]["content"], tools=RESPONSE_TOOLS, max_output_tokens=3)
    assert [item.type for item in response.output] == ["message"] and response.output_text == message.content
    for choice in ("required", {"type": "function", "function": {"name": "get_weather"}}):
        with pytest.raises(openai.UnprocessableEntityError, match="no valid reply in 3 attempts; last error: output "
                                                                  "truncated"):
            api.chat.completions.create(model="m", messages=ASK, tools=TOOLS, tool_choice=choice, max_tokens=3)
    deadline = time.monotonic() + 10
    while not all(ident in local.stderr for ident in (reply.id, response.id)) and time.monotonic() < deadline:
        time.sleep(0.05)
    logged = [line for line in local.stderr.splitlines() if reply.id in line]
    assert len(logged) == 1 and "answered in text" in logged[0] and "output truncated" in logged[0], logged
    assert response.id in local.stderr


CHAT_TEXT = {  # a chat body with text in every field a client may write
    "model": "m", "user": "ann", "stop": ["END", "\n\n"], "max_tokens": 1, "metadata": {"team": "red"},
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "name": "ann", "content": [{"type": "text", "text": "Weather in Paris?"}]},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": "21 C and sunny"},
        {"role": "user", "content": "And in Rome?"}],
    "tools": [{"type": "function", "function": {
        "name": "get_weather", "description": "Weather for a city", "parameters": {
            "type": "object", "required": ["city"], "properties": {
                "city": {"type": "string", "description": "The city"},
                "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"}}}}}],
    "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
    "response_format": {"type": "json_schema", "json_schema": {"name": "w", "description": "A reply",
                                                               "schema": {"type": "object"}}},
}
RESPONSES_TEXT = {  # a Responses body with text in every field a client may write
    "model": "m", "instructions": "Be brief.", "max_output_tokens": 1, "metadata": {"team": "red"},
    "input": [
        {"role": "user", "content": [{"type": "input_text", "text": "Weather in Paris?"}]},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city": "Paris"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": "21 C and sunny"},
        {"role": "user", "content": "And in Rome?"}],
    "tools": [{"type": "function", **CHAT_TEXT["tools"][0]["function"]}],
    "tool_choice": {"type": "function", "name": "get_weather"},
    "text": {"format": {"type": "json_schema", "name": "w", "schema": {"type": "object"}}},
}
TEXT_BODIES = [("/chat/completions", CHAT_TEXT), ("/chat/completions", {**CHAT_TEXT, "stop": "END", "messages": ASK}),
               ("/responses", RESPONSES_TEXT), ("/responses", {**RESPONSES_TEXT, "input": "Weather in Paris?"})]
Spot = tuple[tuple[str | int, ...], bool]
"""A string of a body: its path, and whether it is the last key of the path (else its value)."""


def text_spots(value: Any, path: tuple[str | int, ...] = ()) -> list[Spot]:
    """Every string of ``value`` and every key of its objects, in the order they are written."""
    if isinstance(value, str):
        return [(path, False)]
    if isinstance(value, dict):
        return [spot for key, item in value.items() for spot in [((*path, key), True), *text_spots(item, (*path, key))]]
    if isinstance(value, list):
        return [spot for i, item in enumerate(value) for spot in text_spots(item, (*path, i))]
    return []


def poisoned(body: Any, spot: Spot, text: str) -> Any:
    """A copy of ``body`` with ``text`` in place of the string at ``spot``."""
    (*path, last), key = spot
    copy = json.loads(json.dumps(body))
    parent = copy
    for step in path:
        parent = parent[step]
    if key:
        items = list(parent.items())
        parent.clear()
        parent.update((text if k == last else k, v) for k, v in items)
    else:
        parent[last] = text
    return copy


def param(path: tuple[str | int, ...]) -> str:
    """``path`` as an error's ``param`` names it (``messages[1].content[0].text``)."""
    out = ""
    for step in path:
        name = step if isinstance(step, int) else step.encode("utf-8", "backslashreplace").decode()
        out += f"[{name}]" if isinstance(step, int) else f".{name}" if out else name
    return out


LONE = st.builds(lambda before, lone, after: before + lone + after, st.text(max_size=3),
                 st.integers(0xD800, 0xDFFF).map(chr), st.text(max_size=3))
"""Text holding a lone surrogate, which JSON's ``\\ud800`` escape allows but which is no character."""


@given(data=st.data())
def test_a_lone_surrogate_anywhere_is_a_400_naming_where_and_the_connection_goes_on(local_url, data):
    route, body = data.draw(st.sampled_from(TEXT_BODIES))
    spots = text_spots(body)
    chosen = sorted(data.draw(st.lists(st.integers(0, len(spots) - 1), min_size=1, max_size=3, unique=True)))
    texts = [data.draw(LONE) for _ in chosen]
    for i, text in sorted(zip(chosen, texts), key=lambda pair: (-len(spots[pair[0]][0]), spots[pair[0]][1])):
        body = poisoned(body, spots[i], text)
    (*path, last), key = spots[chosen[0]]
    where = param((*path, texts[0] if key else last))
    raw = json.dumps(body, ensure_ascii=False)
    content = data.draw(st.sampled_from([raw.encode("utf-8", "surrogatepass"), raw.encode("utf-16", "surrogatepass"),
                                         json.dumps(body).encode()]))
    with httpx.Client(base_url=local_url, timeout=60, limits=httpx.Limits(max_connections=1)) as http:
        refused = http.post(route, content=content)
        assert refused.status_code == 400, refused.text[:300]
        assert refused.json()["error"]["param"] == where and "lone surrogate" in refused.json()["error"]["message"]
        again = http.post("/chat/completions", json={"messages": ASK, "max_tokens": 1})
        assert again.status_code == 200, again.text[:300]
        streams = [r.extensions["network_stream"].get_extra_info("client_addr") for r in (refused, again)]
        assert streams[0] == streams[1]  # the same connection



def test_a_lone_surrogate_in_each_string_and_key_of_both_apis_is_a_400_naming_it():
    """Each string and key of :data:`TEXT_BODIES` in turn (the fuzz above draws a few at a time),
    in-process: refused as the body is read, before any model."""
    app = create_app(RemoteModels([f"http://127.0.0.1:{free_port()}"], timeout=2))
    cases = [(route, poisoned(body, spot, "\ud800"), param((*spot[0][:-1], "\ud800" if spot[1] else spot[0][-1])))
             for route, body in TEXT_BODIES for spot in text_spots(body)]

    async def run() -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gbnf/v1") as http:
            return [await http.post(route, content=json.dumps(body)) for route, body, _ in cases]

    for (_, _, where), refused in zip(cases, asyncio.run(run())):
        assert (refused.status_code, refused.json()["error"]["param"]) == (400, where), refused.text[:300]
