"""``gbnf serve --upstream-kind vllm`` in front of a real vLLM (its CPU build, the embedded model
converted to float32), driven by the official ``openai`` client; each grammar dialect against
the structured-outputs backend that reads it. The first run makes vLLM's venv and the model
copy (a few minutes, cached); each server takes two to four minutes to start on 2 cores.
``pytest -m vllm`` runs these alone, ``-m "not vllm"`` skips them."""

from __future__ import annotations

import json
from collections.abc import Iterator

import jsonschema
import openai
import pytest

from gbnf.testing import VllmServer
from tests.test_serve import ASK, EMAIL, PERSON, SCHEMAS, TOOLS, WEATHER, check_calls, client, serving

pytestmark = [pytest.mark.vllm, pytest.mark.model, pytest.mark.timeout(1800)]  # the first start makes the venv


@pytest.fixture(scope="module")
def xgrammar_vllm() -> Iterator[VllmServer]:
    with VllmServer(backend="xgrammar") as server:
        yield server


@pytest.fixture(scope="module")
def url(xgrammar_vllm) -> Iterator[str]:
    with serving("--server", xgrammar_vllm.url, "--upstream-kind", "vllm") as url:
        yield url


def test_the_model_is_the_vllm_servers(url):
    assert [m.id for m in client(url).models.list()] == ["smollm2-135m"]


def test_required_and_a_named_tool_give_valid_calls(url):
    api = client(url)
    required = api.chat.completions.create(model="m", messages=ASK, tools=TOOLS, tool_choice="required", max_tokens=80)
    assert check_calls(required.choices[0].message, {"get_weather", "send_email"})
    named = api.chat.completions.create(model="m", messages=ASK, tools=TOOLS, max_tokens=80,
                                        tool_choice={"type": "function", "function": {"name": "send_email"}})
    assert {name for name, _ in check_calls(named.choices[0].message, {"send_email"})} == {"send_email"}


def test_auto_calls_for_a_tools_request_and_answers_others_in_text(url):
    api = client(url)
    asked = api.chat.completions.create(model="m", messages=ASK, tools=TOOLS, max_tokens=80)
    assert [name for name, _ in check_calls(asked.choices[0].message, {"get_weather"})] == ["get_weather"]
    joke = api.chat.completions.create(model="m", tools=TOOLS, max_tokens=40,
                                       messages=[{"role": "user", "content": "Tell me a joke about cats."}])
    assert joke.choices[0].message.content and not joke.choices[0].message.tool_calls


def test_parallel_calls_are_each_valid(url):
    both = [{"role": "user", "content": "What's the weather in Paris and in Oslo?"}]
    reply = client(url).chat.completions.create(model="m", messages=both, tools=[WEATHER], tool_choice="required",
                                                max_tokens=120)
    calls = check_calls(reply.choices[0].message, {"get_weather"})
    assert calls and reply.choices[0].finish_reason == "tool_calls"


def test_response_format_json_schema_is_an_instance(url):
    reply = client(url).chat.completions.create(
        model="m", max_tokens=60, messages=[{"role": "user", "content": "Invent a person."}],
        response_format={"type": "json_schema", "json_schema": {"name": "person", "schema": PERSON}})
    jsonschema.validate(json.loads(reply.choices[0].message.content), PERSON)


def test_a_stream_carries_the_call_and_the_text_the_plain_reply_has(url):
    api = client(url)
    plain = api.chat.completions.create(model="m", messages=ASK, tools=[EMAIL], tool_choice="required", max_tokens=80)
    stream = api.chat.completions.create(model="m", messages=ASK, tools=[EMAIL], tool_choice="required", max_tokens=80,
                                         stream=True)
    arguments = "".join(c.choices[0].delta.tool_calls[0].function.arguments or "" for c in stream
                        if c.choices and c.choices[0].delta.tool_calls)
    jsonschema.validate(json.loads(arguments), SCHEMAS["send_email"])
    assert check_calls(plain.choices[0].message, {"send_email"})
    story = [{"role": "user", "content": "Write a short story about a dragon."}]
    text = api.chat.completions.create(model="m", messages=story, max_tokens=40)
    pieces = api.chat.completions.create(model="m", messages=story, max_tokens=40, stream=True)
    assert "".join(c.choices[0].delta.content or "" for c in pieces if c.choices) == text.choices[0].message.content


def test_a_dialect_the_backend_refuses_is_an_error_never_an_unconstrained_reply(xgrammar_vllm):
    with serving("--server", xgrammar_vllm.url, "--upstream-kind", "vllm", "--grammar-dialect", "llguidance") as url:
        with pytest.raises(openai.APIStatusError, match="does --grammar-dialect llguidance match") as refused:
            client(url).chat.completions.create(model="m", messages=ASK, tools=TOOLS, tool_choice="required",
                                                max_tokens=40)
    assert refused.value.status_code == 502


def test_the_llguidance_dialect_on_vllms_guidance_backend(xgrammar_vllm):
    xgrammar_vllm.stop()  # one vLLM at a time on 2 cores
    with VllmServer(backend="guidance") as guidance, \
            serving("--server", guidance.url, "--upstream-kind", "vllm", "--grammar-dialect", "llguidance") as url:
        api = client(url)
        reply = api.chat.completions.create(model="m", messages=ASK, tools=TOOLS, tool_choice="required", max_tokens=80)
        assert check_calls(reply.choices[0].message, {"get_weather", "send_email"})
        person = api.chat.completions.create(
            model="m", max_tokens=60, messages=[{"role": "user", "content": "Invent a person."}],
            response_format={"type": "json_schema", "json_schema": {"name": "person", "schema": PERSON}})
        jsonschema.validate(json.loads(person.choices[0].message.content), PERSON)
