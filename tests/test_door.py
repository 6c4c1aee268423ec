"""``gbnf serve`` exposed: API keys, request limits, clients that hang up, replicas that die
and come back, SIGTERM under load, and hostile bodies. Real llama-servers and the real model;
the scripted fake only for a connection dropped without a reply."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gbnf.backends import Sampling
from gbnf.endpoint import Limits, LocalModel, RemoteModels, ServeProcess, create_app
from gbnf.llama_server import LlamaServer, free_port
from tests.conftest import REPO
from tests.fakes import Fake
from tests.test_fuzz import SCHEMAS
from tests.test_serve import ASK, TOOLS, check_calls, client, serving

OK = json.dumps({"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]}).encode()
SUITE = sorted((REPO / "corpora" / "json-schema-test-suite").glob("tests/draft2020-12/*.json"))


def post_all(app: Any, bodies: list[Any], headers: list[dict[str, str]] | None = None) -> list[httpx.Response]:
    """POST each body to ``app``'s chat completions at once, in-process (ASGI)."""
    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gbnf", timeout=120) as http:
            return await asyncio.gather(*(
                http.post("/v1/chat/completions", content=body if isinstance(body, bytes) else json.dumps(body),
                          headers=(headers or [{}] * len(bodies))[i]) for i, body in enumerate(bodies)))

    return asyncio.run(run())


def unreachable() -> RemoteModels:
    """An upstream no request may reach: one that does is answered 503."""
    return RemoteModels([f"http://127.0.0.1:{free_port()}"], timeout=2)


def tool(name: str, parameters: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "parameters": parameters}}


def nested(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"x": schema}}
    return schema


LIMITED = Limits(body_bytes=20_000, messages=3, tools=2, schema_bytes=2_000, schema_depth=12, max_tokens=64)


@pytest.mark.parametrize("body, status, param, flag", [
    ({"messages": ASK * 4}, 400, "messages", "--limit-messages"),
    ({"messages": ASK, "tools": TOOLS * 2}, 400, "tools", "--limit-tools"),
    ({"messages": ASK, "tools": [tool("big", {"type": "object", "properties": {
        f"p{i}": {"type": "string", "description": "x" * 40} for i in range(60)}})]}, 400, "tools[0]",
     "--limit-schema-bytes"),
    ({"messages": ASK, "tools": [tool("deep", nested(8))]}, 400, "tools[0]", "--limit-schema-depth"),
    ({"messages": ASK, "max_tokens": 65}, 400, "max_tokens", "--limit-max-tokens"),
    ({"messages": ASK, "max_completion_tokens": 1000}, 400, "max_tokens", "--limit-max-tokens"),
    ({"messages": [{"role": "user", "content": "x" * 30_000}]}, 413, None, "--limit-body-bytes"),
])
def test_a_request_past_a_limit_is_refused_before_the_model_naming_its_flag(body, status, param, flag):
    [response] = post_all(create_app(unreachable(), limits=LIMITED), [body])
    error = response.json()["error"]
    assert response.status_code == status and error["param"] == param and flag in error["message"], error


def test_tools_that_take_too_long_to_compile_are_refused():
    body = {"messages": ASK, "tools": [tool("f", {"type": "object", "properties": {
        f"p{i}": {"type": "string", "pattern": "^[a-z]{3}-[0-9]{2,5}$"} for i in range(40)}})]}
    [response] = post_all(create_app(unreachable(), limits=Limits(compile_seconds=0.001)), [body])
    assert response.status_code == 400 and "--limit-compile-seconds" in response.json()["error"]["message"]


def test_responses_limits_name_the_responses_field():
    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=create_app(unreachable(), limits=LIMITED))
        async with httpx.AsyncClient(transport=transport, base_url="http://gbnf") as http:
            return await http.post("/v1/responses", json={"input": "hi", "max_output_tokens": 100})

    response = asyncio.run(run())
    assert response.status_code == 400 and response.json()["error"]["param"] == "max_output_tokens"


def test_a_client_past_its_requests_in_flight_gets_429_and_others_are_served(llama_server):
    def app() -> Any:  # one per event loop, as its upstream client is
        return create_app(RemoteModels([llama_server.url]), limits=Limits(per_client=1), keys=("k1", "k2"))

    body = {"messages": ASK, "max_tokens": 24}
    same = post_all(app(), [body, body], [{"Authorization": "Bearer k1"}] * 2)
    assert sorted(r.status_code for r in same) == [200, 429]
    busy = next(r for r in same if r.status_code == 429)
    assert busy.headers["Retry-After"] == "1" and busy.json()["error"]["code"] == "rate_limit_exceeded"
    apart = post_all(app(), [body, body], [{"Authorization": "Bearer k1"}, {"Authorization": "Bearer k2"}])
    assert [r.status_code for r in apart] == [200, 200]


def test_api_keys_from_flags_file_and_environment_guard_every_route_but_health(llama_server, tmp_path, monkeypatch):
    keys = tmp_path / "keys"
    keys.write_text("# team keys\nk2\n\nk3\n")
    monkeypatch.setenv("GBNF_API_KEY", "k4")
    with serving("--server", llama_server.url, "--api-key", "k1", "--api-key-file", str(keys)) as url:
        for key in ("k1", "k2", "k3", "k4"):
            api = openai.OpenAI(base_url=url, api_key=key, max_retries=0)
            assert api.models.list().data and api.chat.completions.create(model="m", messages=ASK, max_tokens=4)
        with pytest.raises(openai.AuthenticationError, match="not known"):
            openai.OpenAI(base_url=url, api_key="k5", max_retries=0).models.list()
        for path in ("/v1/models", "/v1/nothing"):
            refused = httpx.get(url.removesuffix("/v1") + path)
            assert refused.status_code == 401 and refused.json()["error"]["code"] == "invalid_api_key"
        assert httpx.get(url.removesuffix("/v1") + "/health").status_code == 200


@pytest.mark.parametrize("args, words", [
    (["--host", "0.0.0.0"], "without an API key"),
    (["--api-key-file", "/nonexistent/keys"], "--api-key-file /nonexistent/keys"),
    (["--api-key", "two words"], "one word"),
    (["--limit-tools", "-1"], "--limit-* and --drain-seconds must be >= 0"),
])
def test_unsafe_or_broken_access_options_refuse_to_start_in_one_line(args, words):
    done = subprocess.run([sys.executable, "-m", "gbnf", "serve", "--port", "0", *args], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr and words in done.stderr, done.stderr


def test_a_connection_dropped_before_the_reply_is_asked_again():
    events = (b'data: {"choices": [{"delta": {"content": "Hi"}, "finish_reason": "stop"}]}\n\ndata: [DONE]\n\n')
    fake = Fake((0, b"", 0), (200, OK, 0), (0, b"", 0), (200, events, 0), (0, b"", 0), (0, b"", 0))
    try:
        def app() -> Any:
            return create_app(RemoteModels([fake.url], timeout=5))

        [plain] = post_all(app(), [{"messages": ASK}])
        assert plain.status_code == 200 and plain.json()["choices"][0]["message"]["content"] == "hi"
        [stream] = post_all(app(), [{"messages": ASK, "stream": True}])
        assert stream.status_code == 200 and '"Hi"' in stream.text
        [failed] = post_all(app(), [{"messages": ASK}])
        assert failed.status_code == 503 and failed.headers["Retry-After"] == "2"
        assert failed.json()["error"]["code"] == "upstream_unavailable"
    finally:
        fake.close()


@pytest.mark.model
def test_a_cancelled_request_stops_its_decode_and_frees_the_model():
    async def run() -> tuple[int, str]:
        model = LocalModel()
        await model.start()
        pieces: list[str] = []
        first = asyncio.Event()

        def on_text(piece: str) -> None:
            pieces.append(piece)
            first.set()

        story = [{"role": "user", "content": "Write a very long story about a dragon."}]
        task = asyncio.create_task(model.complete(story, None, Sampling(max_tokens=400), on_text))
        await first.wait()
        task.cancel()
        await asyncio.wait({task})
        stopped_at = len(pieces)
        after = await model.complete(ASK, None, Sampling(max_tokens=8))
        await model.close()
        return stopped_at, after.text

    stopped_at, after = asyncio.run(run())
    assert stopped_at < 10 and after


@pytest.mark.model
def test_a_client_that_hangs_up_cancels_its_request():
    process = ServeProcess("-v").start()
    try:
        story = {"model": "m", "messages": [{"role": "user", "content": "Write a very long story about a dragon."}],
                 "max_tokens": 800}
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{process.url}/chat/completions", json=story, timeout=1.5)
        assert client(process.url).chat.completions.create(model="m", messages=ASK, max_tokens=8)
    finally:
        assert process.stop() == 0
    assert "the client disconnected; its work is cancelled" in process.stderr


@pytest.mark.model
def test_sigterm_under_load_answers_every_accepted_request_then_exits():
    process = ServeProcess().start()
    try:
        def ask(i: int) -> int:
            body = {"model": "m", "messages": [{"role": "user", "content": f"Count to {i + 3}."}], "max_tokens": 40}
            return httpx.post(f"{process.url}/chat/completions", json=body, timeout=120).status_code

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            answers = [pool.submit(ask, i) for i in range(4)]
            time.sleep(0.5)  # all four accepted: one decodes, three wait in the queue
            assert process.process is not None
            process.process.send_signal(signal.SIGTERM)
            statuses = [a.result() for a in answers]
        assert process.process.wait(60) == 0
    finally:
        process.stop()
    assert statuses == [200] * 4, statuses
    with pytest.raises(httpx.ConnectError):
        httpx.get(process.url.removesuffix("/v1") + "/health")


@pytest.mark.model
def test_a_replica_killed_mid_load_costs_no_request_and_is_used_again_once_restarted():
    def launched(server: LlamaServer) -> int:
        return server.log_path.read_text(errors="replace").count("launch_slot_")

    def ask(url: str, i: int) -> Any:
        try:
            reply = client(url).chat.completions.create(model="m", messages=ASK, tools=TOOLS, tool_choice="required",
                                                        max_tokens=60, seed=i)
        except openai.APIError as exc:
            return exc
        return check_calls(reply.choices[0].message, {"get_weather", "send_email"})

    # two fresh servers of one thread each: two llama-servers of one thread per core each stall on 2 cores
    # (OpenMP's spinning threads wait on each other's descheduled ones), past any request timeout
    with LlamaServer(threads=1) as first, LlamaServer(threads=1) as second, \
            serving("--server", first.url, "--server", second.url) as url:
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            answers = [pool.submit(ask, url, i) for i in range(16)]
            while launched(second) < 2:  # the replica has requests of its own in flight
                time.sleep(0.05)
            assert second.process is not None
            second.process.kill()
            replies = [a.result() for a in answers]
        assert all(isinstance(r, list) and r for r in replies), replies
        second.start()  # on the same port, with a fresh log
        time.sleep(2.5)  # the health check puts it back within a second or two
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            again = list(pool.map(lambda i: ask(url, i), range(8)))
        assert all(isinstance(r, list) and r for r in again), again
        assert launched(second) > 0


@pytest.mark.model
def test_a_kept_alive_connection_the_upstream_closed_is_not_an_error(llama_server):
    with serving("--server", llama_server.url) as url:
        api = client(url)
        assert api.chat.completions.create(model="m", messages=ASK, max_tokens=4)
        time.sleep(5.5)  # llama-server closes a connection idle for 5 s (Keep-Alive: timeout=5)
        assert api.chat.completions.create(model="m", messages=ASK, max_tokens=4)


MESSAGES = st.lists(st.fixed_dictionaries({"role": st.sampled_from(["user", "system", "assistant", "tool", "wizard"]),
                                           "content": st.one_of(st.text(max_size=40), st.none(), st.integers())}),
                    max_size=3)
HOSTILE = [  # patterns that backtrack, enums and unions that explode, references that loop
    {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}, "required": ["s"]},
    {"type": "object", "properties": {"s": {"type": "string", "pattern": "^((a|aa)*|b{0,999}){2,}c$"}}},
    {"type": "object", "properties": {"e": {"enum": [f"v{i}" for i in range(5000)]}}, "required": ["e"]},
    {"type": "object", "properties": {"x": {"anyOf": [{"type": "object", "properties": {f"k{i}": {"type": "integer"}},
                                                        "required": [f"k{i}"]} for i in range(300)]}}},
    {"$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}, "required": ["next"]}},
     "type": "object", "properties": {"head": {"$ref": "#/$defs/n"}}},
    {"type": "object", "properties": {"a": {"type": "array", "minItems": 100000, "items": {"type": "integer"}}}},
]
PARAMETERS = st.one_of(SCHEMAS, st.sampled_from(HOSTILE), st.sampled_from([test["schema"] for path in SUITE
                                                                           for test in json.loads(Path(path).read_text())]))
TOOL = st.fixed_dictionaries({"type": st.sampled_from(["function"] * 6 + ["code"]),
                              "function": st.fixed_dictionaries({"name": st.sampled_from(["f", "get_x", "look_up", "",
                                                                                          "a b"]),
                                                                 "parameters": PARAMETERS})})
SOUND = st.fixed_dictionaries({  # well formed: the tools' schemas are what is hostile
    "messages": st.just(ASK), "max_tokens": st.integers(1, 12),
    "tools": st.lists(st.builds(lambda name, parameters: tool(name, parameters), st.sampled_from(["f", "g", "h"]),
                                PARAMETERS), min_size=1, max_size=3, unique_by=lambda t: t["function"]["name"]),
    "tool_choice": st.sampled_from(["auto", "required", {"type": "function", "function": {"name": "f"}}])})
BODIES = st.one_of(
    SOUND,
    st.fixed_dictionaries({"messages": st.sampled_from([ASK, ASK, []]) | MESSAGES, "max_tokens": st.integers(-1, 12)},
                          optional={"tools": st.lists(TOOL, max_size=3),
                                    "tool_choice": st.sampled_from(["auto", "required", "none", {"type": "function"},
                                                                    {"type": "function", "function": {"name": "f"}}]),
                                    "stream": st.booleans(), "temperature": st.one_of(st.floats(), st.integers()),
                                    "response_format": st.sampled_from([{"type": "json_object"}, {"type": "x"},
                                                                        {"type": "json_schema"}]),
                                    "parallel_tool_calls": st.sampled_from([True, False, "yes"])}),
    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
                 lambda inner: st.one_of(st.lists(inner, max_size=3),
                                         st.dictionaries(st.sampled_from(["messages", "tools", "max_tokens", "x"]),
                                                         inner, max_size=3)), max_leaves=10),
    st.binary(max_size=40))


@given(body=BODIES)
def test_hostile_bodies_get_an_answer_or_a_4xx_never_a_5xx_or_a_hang(llama_server, body):
    app = create_app(RemoteModels([llama_server.url], timeout=60), limits=Limits(compile_seconds=20))
    [response] = post_all(app, [body])
    assert response.status_code < 500, (response.status_code, response.text[:500])
    if response.status_code != 200:
        assert set(response.json()["error"]) == {"message", "type", "param", "code"}


@pytest.mark.model
def test_the_load_bench_runs_a_small_kill_and_restart():
    """Every request gets a valid call, a text reply, or (the model failing its schema three
    times) the documented 422: none is lost to the kill."""
    done = subprocess.run([sys.executable, "-m", "bench.load", "--requests", "30", "--clients", "6", "--kill"],
                          capture_output=True, text=True, timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert set(report["outcomes"]) <= {"call", "text", "HTTP 422 invalid_model_output"}, report
    assert report["outcomes"].get("call", 0) >= 10 and report["exit_code"] == 0, report
    assert [e[1] for e in report["events"]] == ["kill", "restart"] and report["healthy_again"] >= 1, report
