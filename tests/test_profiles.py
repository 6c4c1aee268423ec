"""Shaping profiles: which one a model gets, one chosen by a request or the command line, and the
decisions a reply carries when asked."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from gbnf.backends import listed_parameters, parameters_named
from gbnf.cli import shaping_changes
from gbnf.endpoint import RemoteModels, parse_request
from gbnf.errors import ApiError, BackendError, GbnfError
from gbnf.plan import Planner, PlanOptions
from gbnf.shape import PROFILES, Conversation, Plan, Shaping, shape
from gbnf.testing import ScriptedBackend
from gbnf.tools import Tool

WEATHER = {"type": "function", "function": {"name": "get_weather", "description": "Weather forecast for a city",
                                            "parameters": {"type": "object", "properties": {
                                                "city": {"type": "string"}, "days": {"type": "integer"},
                                                "units": {"type": "string", "enum": ["metric", "imperial"]}},
                                                "required": ["city"]}}}
ASK = [{"role": "user", "content": "What's the weather forecast in Oslo?"}]


@pytest.mark.parametrize(("parameters", "profile"), [(None, "small"), (1.35e8, "small"), (1.24e9, "small"),
                                                     (1.5e9, "capable"), (7.6e9, "capable")])
def test_the_default_profile_follows_the_models_size(parameters, profile):
    assert Shaping.for_model(parameters).profile == profile


@pytest.mark.parametrize(("name", "parameters"), [
    ("Qwen2.5-7B-Instruct", 7e9), ("SmolLM2-135M-Instruct.Q4_1", 1.35e8), ("meta-llama/Llama-3.2-1B-Instruct", 1e9),
    ("gemma-3-270m-it", 2.7e8), ("Qwen2.5-1.5B", 1.5e9), ("mistral-nemo", None), ("Qwen2.5", None)])
def test_a_models_size_is_read_from_its_name(name, parameters):
    assert parameters_named(name) == parameters


def test_an_upstreams_size_is_read_from_its_model_list():
    assert listed_parameters({"data": [{"id": "x.gguf", "meta": {"n_params": 134515008}}]}) == 134515008
    assert listed_parameters({"data": [{"id": "Qwen/Qwen2.5-7B-Instruct"}]}) == 7e9  # vLLM lists no size
    assert listed_parameters({"data": []}) is None and listed_parameters("garbage") is None


def test_shaping_changes_name_the_field_or_value_that_is_wrong():
    assert shaping_changes(["copy_values=false", "string-chars=500", "prose_tokens=none", "copy_bias=2", "array_items=0"]) == {
        "copy_values": False, "string_chars": 500, "prose_tokens": None, "copy_bias": 2.0, "array_items": None}
    with pytest.raises(GbnfError, match="FIELD one of string_chars"):
        shaping_changes(["copy_value=false"])
    with pytest.raises(GbnfError, match="decide is bool"):
        shaping_changes(["decide=maybe"])
    with pytest.raises(GbnfError, match="there is no profile 'tiny'"):
        Shaping.named("tiny")


def test_each_profile_is_named_by_its_settings():
    assert [Shaping.named(name).profile for name in PROFILES] == list(PROFILES)
    assert replace(Shaping(), copy_values=False).profile == "custom"


def test_a_request_chooses_its_profile_and_asks_for_the_decisions():
    small = parse_request({"messages": ASK, "tools": [WEATHER], "explain": True})
    capable = parse_request({"messages": ASK, "tools": [WEATHER], "profile": "capable", "explain": True})
    off = parse_request({"messages": ASK, "tools": [WEATHER], "profile": "off"})
    assert small.shaped.decisions["profile"] == "small" and small.required  # the request asks for the tool
    assert small.shaped.decisions["reply"] == "call" and small.shaped.decisions["left_out"] == {
        "get_weather": ["days", "units"]}
    assert "Oslo" in small.shaped.decisions["values"]["get_weather"]["city"]  # the stretches of the request
    assert capable.shaped.decisions["reply"] == "either" and not capable.required  # the model decides
    offered = capable.shaped.decisions["values"]["get_weather"]  # shown, never imposed: the grammar's city is free
    assert capable.shaped.decisions["left_out"] == {} and capable.shaped.decisions["values_imposed"] is False
    assert "Oslo" in offered["city"] and offered["units"] == ["metric", "imperial"] and '"Oslo"' not in capable.grammar
    assert "{0,1000}" in capable.grammar and "{0,1000}" not in off.grammar  # run-on strings capped, or not
    assert not off.explain and "values" not in off.shaped.decisions


def test_a_profile_that_does_not_exist_is_a_400_naming_it():
    with pytest.raises(ApiError, match="there is no profile 'huge'") as caught:
        parse_request({"messages": ASK, "tools": [WEATHER], "profile": "huge"})
    assert caught.value.status == 400 and caught.value.param == "profile"
    with pytest.raises(ApiError, match="profile must be a profile's name, not 7") as caught:
        parse_request({"messages": ASK, "tools": [WEATHER], "profile": 7})
    assert caught.value.status == 400 and caught.value.param == "profile"


@pytest.mark.parametrize("profile", list(PROFILES))
def test_the_planner_plans_under_each_profile(profile):
    weather = Tool("get_weather", "Weather forecast for a city", WEATHER["function"]["parameters"])
    backend = ScriptedBackend(json.dumps({"name": "get_weather", "arguments": {"city": "Oslo"}}),
                              json.dumps({"name": "final_answer", "arguments": {"answer": "Sunny in Oslo."}}))
    options = replace(PlanOptions(), shaping=Shaping.named(profile), model_rank=False)
    result = Planner([weather], backend, {"get_weather": lambda **_: {"sky": "sunny"}}, options=options).run(
        ASK[0]["content"])
    assert result.answer == "Sunny in Oslo." and result.status == "final"
    first_grammar = backend.requests[0][1]
    assert ("Oslo" in first_grammar) is (profile == "small")  # values copied from the request, or free


def test_a_plan_that_fails_at_once_is_no_crash_under_any_profile():
    for profile in PROFILES:
        backend = ScriptedBackend(BackendError("down"))
        result = Planner([], backend, {}, options=replace(PlanOptions(), shaping=Shaping.named(profile))).run("hi")
        assert result.status == "error"


def test_a_real_upstream_reports_its_size_and_gets_the_small_profile(llama_server):
    async def size(url: str) -> float | None:
        models = RemoteModels([url])
        try:
            return await models.parameters()
        finally:
            await models.close()

    parameters = asyncio.run(size(llama_server.url))
    assert parameters is not None and 1e8 < parameters < 2e8  # SmolLM2-135M, as llama-server counts it
    assert Shaping.for_model(parameters).profile == "small"
    assert asyncio.run(size("http://127.0.0.1:9")) is None  # nobody there: not known


@pytest.mark.parametrize("profile", list(PROFILES))
def test_the_stage_writes_the_prompt_that_offers_the_tools(profile):
    """The system text a reply adds is the stage's: a chat's offers the tools as shown (under
    ``small``, without the optional arguments the request does not name), a plan's gives its
    instructions over its pool, and a reply that may only be prose adds none."""
    tool = Tool("get_weather", "Weather forecast for a city", WEATHER["function"]["parameters"])
    asked = Conversation((("user", ASK[0]["content"]),), (tool,), "required")
    chat = shape(asked, profile)
    assert chat.prompt.startswith("Reply with only a JSON object") and "- get_weather:" in chat.prompt
    assert ('"units"' in chat.prompt) == (profile != "small")
    assert shape(replace(asked, choice="none"), profile).prompt == ""
    step = shape(asked, profile, plan=Plan(top_k=None, filter=False, final_tool="get_weather"))
    assert step.prompt.startswith("You are a planner.") and "call get_weather." in step.prompt
    served = parse_request({"messages": ASK, "tools": [WEATHER], "tool_choice": "required", "profile": profile,
                            "parallel_tool_calls": False})
    assert served.messages[0] == {"role": "system", "content": chat.prompt}
