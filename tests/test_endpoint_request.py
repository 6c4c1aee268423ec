"""How an OpenAI chat body becomes what the model is asked (pure: no model, no server)."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from dataclasses import replace

import pytest

from gbnf.backends import Completion
from gbnf.endpoint import MAX_PARALLEL, parse_request, read, reply
from gbnf.errors import ApiError, InvalidCall
from gbnf.read import ToolCall
from gbnf.shape import Shaping
from gbnf.testing import lark_oracle

WEATHER = {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
                                            "parameters": {"type": "object", "properties": {
                                                "city": {"type": "string"}, "days": {"type": "integer"}},
                                                "required": ["city"]}}}
NOTE = {"type": "function", "function": {"name": "add_note", "parameters": {
    "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}}
ASK = [{"role": "user", "content": "Weather in Oslo?"}]
MODEL_DECIDES = Shaping(decide=False, asked_only=False)


def test_tools_are_offered_in_the_system_prompt_with_their_argument_order():
    request = parse_request({"messages": [{"role": "system", "content": "Be brief."}, *ASK], "tools": [WEATHER]},
                            MODEL_DECIDES)
    system = request.messages[0]["content"]
    assert system.startswith("Be brief.\n\n") and '{"city": string, "days"?: integer}' in system
    assert request.messages[1:] == ASK
    assert not request.required
    assert "plainText" in request.grammar and f"{{0,{MAX_PARALLEL - 1}}}" in request.grammar


def test_the_arguments_a_schema_describes_are_described_in_the_system_prompt():
    system = parse_request({"messages": GOLD, "tools": [METAL_DESCRIBED]}).messages[0]["content"]
    assert "\n  measure: The unit of the price, like 'ounce' or 'kg'." in system
    assert "metal:" not in system.replace('"metal":', "")  # an argument without a description has no line


def test_tool_choice_shapes_the_grammar():
    required = parse_request({"messages": ASK, "tools": [WEATHER, NOTE], "tool_choice": "required",
                              "parallel_tool_calls": False})
    assert required.required and "plainText" not in required.grammar and "toolCalls" not in required.grammar
    named = parse_request({"messages": ASK, "tools": [WEATHER, NOTE],
                           "tool_choice": {"type": "function", "function": {"name": "add_note"}}})
    assert [t.name for t in named.offered] == ["add_note"] and '"add_note' in named.grammar
    assert "get_weather" not in named.grammar
    none = parse_request({"messages": ASK, "tools": [WEATHER], "tool_choice": "none"})
    assert none.offered == () and none.grammar is None and none.messages == ASK


def test_unbounded_strings_are_capped_in_the_grammar_only():
    free = Shaping(copy_values=False)  # strings not copied from the request
    request = parse_request({"messages": ASK, "tools": [WEATHER], "tool_choice": "required"},
                            replace(free, string_chars=50))
    assert "{0,50}" in request.grammar
    assert "maxLength" not in json.dumps(request.offered[0].parameters)
    short = parse_request({"messages": ASK, "tools": [WEATHER], "tool_choice": "required", "max_tokens": 30}, free)
    assert "{0,30}" in short.grammar and "{0,1000}" not in short.grammar  # a string fits the reply's tokens


def test_the_conversation_carries_calls_and_named_results():
    messages = [*ASK, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "-3 C"}]},
        {"role": "developer", "content": "Answer in French."}]
    request = parse_request({"messages": messages})
    assert request.messages[1] == {"role": "assistant", "content": '{"name":"get_weather","arguments":{"city":"Oslo"}}'}
    assert request.messages[2] == {"role": "tool", "content": "get_weather result: -3 C"}
    assert request.messages[3] == {"role": "system", "content": "Answer in French."}


def test_sampling_fields():
    request = parse_request({"messages": ASK, "temperature": 0.5, "top_p": 0.9, "seed": 7, "max_completion_tokens": 64,
                             "stop": "END"})
    assert (request.sampling.temperature, request.sampling.top_p, request.sampling.seed) == (0.5, 0.9, 7)
    assert request.sampling.max_tokens == 64 and request.sampling.stop == ("END",)


@pytest.mark.parametrize("body, param", [
    ({"messages": ASK, "tools": [WEATHER], "tool_choice": "sometimes"}, "tool_choice"),
    ({"messages": ASK, "tool_choice": "required"}, "tool_choice"),
    ({"messages": ASK, "tools": [{"type": "retrieval"}]}, "tools[0]"),
    ({"messages": ASK, "tools": [WEATHER], "response_format": {"type": "json_object"}}, "response_format"),
    ({"messages": ASK, "response_format": {"type": "json_schema", "json_schema": {"schema": {"type": 5}}}},
     "response_format"),
    ({"messages": ASK, "response_format": {"type": "xml"}}, "response_format"),
    ({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]},
     "messages[0].content[0]"),
    ({"messages": [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{oops"}}]}]},
     "messages[0].tool_calls[0].function.arguments"),
    ({"messages": ASK, "max_tokens": 0}, "max_tokens"),
    ({"messages": ASK, "top_p": 1.5}, "top_p"),
    ({"messages": ASK, "stop": ["a", "b", "c", "d", "e"]}, "stop"),
    ({"messages": ASK, "stream": "yes"}, "stream"),
    ({"messages": ASK, "logprobs": True}, "logprobs"),
])
def test_bad_requests_name_the_parameter(body, param):
    with pytest.raises(ApiError) as caught:
        parse_request(body)
    assert caught.value.status == 400 and caught.value.param == param


def test_a_response_schema_the_compiler_cannot_use_names_its_key_path():
    schema = {"type": "object", "properties": {"s": {"type": "string", "minLength": 5, "maxLength": 2}}, "required": ["s"]}
    with pytest.raises(ApiError, match=r"response_format.json_schema.schema.s.minLength: minLength is larger"):
        parse_request({"messages": ASK, "response_format": {"type": "json_schema", "json_schema": {"schema": schema}}})


def test_reading_a_reply():
    auto = parse_request({"messages": ASK, "tools": [WEATHER]}, MODEL_DECIDES)
    assert read(auto, Completion("It is cold.")) == ("It is cold.", ())
    content, calls = read(auto, Completion('{"name": "get_weather", "arguments": {"city": "Oslo"}}'))
    assert content is None and [(c.name, c.arguments) for c in calls] == [("get_weather", {"city": "Oslo"})]
    with pytest.raises(InvalidCall, match="missing required args"):
        read(auto, Completion('{"name": "get_weather", "arguments": {}}'))
    structured = parse_request({"messages": ASK, "response_format": {"type": "json_schema", "json_schema": {
        "schema": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}}}}})
    assert read(structured, Completion('{"n": 2}')) == ('{"n": 2}', ())
    with pytest.raises(InvalidCall, match="'n': 9 is greater than the maximum of 3 for the reply"):
        read(structured, Completion('{"n": 9}'))


def test_repeated_unique_items_are_dropped_not_asked_again():
    tags = {"type": "function", "function": {"name": "tag", "parameters": {"type": "object", "properties": {
        "tags": {"type": "array", "items": {"enum": ["daily", "work"]}, "uniqueItems": True}}}}}
    request = parse_request({"messages": ASK, "tools": [tags], "tool_choice": "required"}, MODEL_DECIDES)
    _, [call] = read(request, Completion('{"name": "tag", "arguments": {"tags": ["daily", "work", "daily"]}}'))
    assert call.arguments == {"tags": ["daily", "work"]} and call.repairs == (
        "'tags': dropped 1 repeated item (uniqueItems)",)
    structured = parse_request({"messages": ASK, "response_format": {"type": "json_schema", "json_schema": {
        "schema": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}}}})
    assert read(structured, Completion("[3, 1, 3, 3]")) == ("[3,1]", ())


def test_the_users_words_decide_whether_a_reply_calls_a_tool():
    focused = parse_request({"messages": ASK, "tools": [WEATHER, NOTE]})
    assert focused.required and [t.name for t in focused.offered] == ["get_weather"]
    assert "plainText" not in focused.grammar and "add_note" not in focused.messages[0]["content"]
    unrelated = parse_request({"messages": [{"role": "user", "content": "Hello there"}], "tools": [WEATHER, NOTE]})
    assert not unrelated.required and unrelated.offered == () and unrelated.grammar is None
    assert unrelated.sampling.max_tokens == 256 and "\n\n" in unrelated.sampling.stop
    forced = parse_request({"messages": [{"role": "user", "content": "Hello there"}], "tools": [WEATHER, NOTE],
                            "tool_choice": "required"})
    assert forced.required and len(forced.offered) == 2
    after_a_result = parse_request({"messages": [*ASK, {"role": "tool", "content": "-3 C"}], "tools": [WEATHER]})
    assert not after_a_result.required and after_a_result.offered and "\n\n" in after_a_result.sampling.stop
    left_to_the_model = parse_request({"messages": ASK, "tools": [WEATHER, NOTE]}, Shaping(decide=False))
    assert not left_to_the_model.required and len(left_to_the_model.offered) == 2
    unbounded = parse_request({"messages": [{"role": "user", "content": "Hello"}], "tools": [WEATHER]},
                              Shaping(prose_tokens=None))
    assert unbounded.sampling.max_tokens == 1024 and unbounded.sampling.stop == ()


def test_key_order_is_the_requests_own():
    schema = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
              "required": ["name", "age"]}
    structured = parse_request({"messages": ASK, "response_format": {"type": "json_schema",
                                                                     "json_schema": {"schema": schema}}})
    assert structured.grammar.index('name') < structured.grammar.index('age')
    request = parse_request({"messages": ASK, "tools": [{"type": "function", "function": {
        "name": "f", "parameters": {**schema, "properties": dict(reversed(schema["properties"].items()))}}}],
        "tool_choice": "required"})
    arguments = next(line for line in request.grammar.splitlines() if line.startswith("argsF ::="))
    assert arguments.index("age") < arguments.index("name")


def test_numbers_the_schema_leaves_open_are_capped_in_the_grammar():
    count = {"type": "function", "function": {"name": "count", "parameters": {
        "type": "object", "properties": {"n": {"type": "integer"}, "x": {"type": "number"}}, "required": ["n", "x"]}}}
    request = parse_request({"messages": ASK, "tools": [count], "tool_choice": "required"})
    capped = [line for line in request.grammar.splitlines() if "[1-9] [0-9]{1,14}" in line]
    assert [line.split(" ::=")[0] for line in capped] == ["argsCountN", "argsCountX"]
    open_ended = parse_request({"messages": ASK, "tools": [count], "tool_choice": "required"},
                               Shaping(number_digits=None))
    assert "integer ::=" in open_ended.grammar and "number ::=" in open_ended.grammar


def test_optional_arguments_the_user_says_nothing_about_are_left_out_of_grammar_and_prompt():
    ask = [{"role": "user", "content": "Weather in Oslo?"}]
    asked = parse_request({"messages": ask, "tools": [WEATHER]})
    assert '"days"' not in asked.grammar and '"days"' not in asked.messages[0]["content"]
    assert list(asked.offered[0].parameters["properties"]) == ["city", "days"]  # validated in full
    for_days = [{"role": "user", "content": "Weather in Oslo for 3 days?"}]
    assert '\\"days\\"' in parse_request({"messages": for_days, "tools": [WEATHER]}).grammar
    assert '\\"days\\"' in parse_request({"messages": ask, "tools": [WEATHER]}, Shaping(asked_only=False)).grammar


def test_optional_arguments_the_user_asks_for_are_required_and_booleans_asked_for_are_true():
    detail = {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
                                               "parameters": {"type": "object", "properties": {
                                                   "city": {"type": "string"}, "days": {"type": "integer"},
                                                   "hourly": {"type": "boolean"}}, "required": ["city"]}}}
    ask = [{"role": "user", "content": "Hourly weather in Oslo for 3 days?"}]
    grammar = parse_request({"messages": ask, "tools": [detail], "tool_choice": "required"}).grammar
    rules = dict(line.split(" ::= ", 1) for line in grammar.splitlines())
    assert '"\\"days\\": " argsGetWeatherDays ",' in rules["argsGetWeather"]  # required: no "(...)?" around it
    assert rules["argsGetWeatherHourly"] == '"true"'
    unsaid = [{"role": "user", "content": "Weather in Oslo for 3 days, not hourly"}]
    grammar = parse_request({"messages": unsaid, "tools": [detail], "tool_choice": "required"}).grammar
    assert "boolean" in next(line for line in grammar.splitlines() if line.startswith("argsGetWeather ::="))


def test_an_optional_argument_asked_for_that_no_value_satisfies_stays_optional():
    # An enum of strings on the array itself, not its items: no array satisfies it, and the
    # grammar leaves the optional argument out; asking for it must not make the request fail.
    metrics = {"type": "array", "items": {"type": "string"}, "enum": ["temperature", "humidity"]}
    sensors = {"type": "function", "function": {"name": "sensor_readings", "parameters": {
        "type": "object", "properties": {"per_page": {"type": "integer"}, "metrics": metrics},
        "required": ["per_page"]}}}
    ask = [{"role": "user", "content": "The latest temperature and humidity metrics, 10 per page"}]
    asked = parse_request({"messages": ask, "tools": [sensors], "tool_choice": "required"})
    assert "metrics" not in asked.grammar and "per_page" in asked.grammar
    assert '"per_page"' in asked.messages[0]["content"]


def test_when_the_retries_run_out_a_call_valid_for_its_schema_is_returned_else_422():
    request = parse_request({"messages": ASK, "tools": [WEATHER], "tool_choice": "required"}, MODEL_DECIDES)
    asked: list[int] = []

    def model(text: str):
        async def complete(messages, grammar, sampling, sink):
            asked.append(len(messages))
            return Completion(text)
        return complete

    echo = asyncio.run(reply(request, model('{"name": "get_weather", "arguments": {"city": "city"}}'), 2))
    assert [(c.name, c.arguments) for c in echo.calls] == [("get_weather", {"city": "city"})]
    assert echo.finish_reason == "tool_calls" and len(asked) == 3  # asked again first: a copied name is likely wrong
    with pytest.raises(ApiError, match="missing required args") as refused:
        asyncio.run(reply(request, model('{"name": "get_weather", "arguments": {}}'), 1))
    assert refused.value.status == 422 and refused.value.code == "invalid_model_output"


def test_when_the_retries_run_out_under_auto_the_model_is_asked_once_more_for_text(caplog):
    request = parse_request({"messages": ASK, "tools": [WEATHER]}, MODEL_DECIDES)
    asked: list[tuple[int, str]] = []

    async def complete(messages, grammar, sampling, sink):
        asked.append((len(messages), grammar))
        return Completion("Sunny." if "toolCall" not in grammar else '{"name": "get_weather", "arguments": {}}')

    with caplog.at_level(logging.WARNING, "gbnf.serve"):
        answer = asyncio.run(reply(request, complete, 1, ident="chatcmpl-1"))
    assert (answer.content, answer.calls, answer.finish_reason) == ("Sunny.", (), "stop")
    assert [n for n, _ in asked] == [2, 4, 2] and asked[-1][1].startswith("root ::= [^{[")  # the conversation as sent
    [line] = caplog.messages
    assert line.startswith("chatcmpl-1 answered in text") and "missing required args" in line


def test_a_call_that_ran_past_its_token_limit_is_asked_again_with_shorter_strings_and_lists_and_fewer_calls():
    request = parse_request({"messages": ASK, "tools": [WEATHER], "tool_choice": "required"},
                            replace(MODEL_DECIDES, copy_values=False))
    assert "stringChar{0,64}" in request.short_grammar and "stringChar{0,64}" not in request.grammar
    assert "toolCalls" in request.grammar and "toolCalls" not in request.short_grammar  # one call, as asked
    grammars: list[str] = []

    async def complete(messages, grammar, sampling, sink):
        grammars.append(grammar)
        if len(grammars) == 1:
            return Completion('{"name": "get_weather", "arguments": {"city": "Oslo Oslo Oslo', truncated=True)
        return Completion('{"name": "get_weather", "arguments": {"city": "Oslo"}}')

    answer = asyncio.run(reply(request, complete, 2))
    assert [c.arguments for c in answer.calls] == [{"city": "Oslo"}]
    assert grammars == [request.grammar, request.short_grammar]


def test_a_reply_carries_as_many_calls_as_the_users_numbers_ask_for():
    factorial = {"type": "function", "function": {"name": "math_factorial", "description": "The factorial of a number",
                                                  "parameters": {"type": "object", "properties": {
                                                      "number": {"type": "integer"}}, "required": ["number"]}}}
    three = [{"role": "user", "content": "What is the factorial of 5, the factorial of 7 and the factorial of 9?"}]
    counted = parse_request({"messages": three, "tools": [factorial]})
    root = counted.grammar.splitlines()[0]
    assert counted.least == 3 and root.startswith("root ::= \"[\"")
    assert root.count("toolCall") == 3 and "?" not in root  # 3 calls, no more, each its own number
    one = parse_request({"messages": [{"role": "user", "content": "The factorial of 5?"}], "tools": [factorial]})
    assert one.grammar.startswith("root ::= toolCall | toolCalls")
    uncounted = parse_request({"messages": three, "tools": [factorial]}, Shaping(count_calls=False))
    assert uncounted.grammar.startswith("root ::= toolCall | toolCalls")
    alone = parse_request({"messages": three, "tools": [factorial], "parallel_tool_calls": False})
    assert "toolCalls" not in alone.grammar


def test_an_array_asked_to_hold_each_value_a_request_enumerates_holds_no_more_than_its_call_may():
    amenities = {"type": "array", "items": {"type": "string", "enum": ["Free WiFi", "Breakfast Included", "Gym",
                                                                       "Free Parking"]}}
    hotels = {"type": "function", "function": {"name": "find_hotel", "description": "Hotels in a city with amenities",
                                               "parameters": {"type": "object", "properties": {
                                                   "city": {"type": "string"}, "amenities": amenities},
                                                   "required": ["city"]}}}
    one = [{"role": "user", "content": "A hotel in Lisbon with breakfast included and a gym"}]
    rule = next(line for line in parse_request({"messages": one, "tools": [hotels]}).grammar.splitlines()
                if line.startswith("argsFindHotelAmenities ::="))
    assert '"\\"Breakfast Included\\""' in rule and "?" not in rule  # both, each once: neither may be left out
    two = [{"role": "user", "content": "Find hotels in Lisbon and Porto. I prefer amenities like free WiFi, breakfast "
                                       "included, and gym"}]
    shaped = parse_request({"messages": two, "tools": [hotels]})  # each call's own words may list fewer: no 400
    assert shaped.least == 2 and shaped.grammar is not None


def test_a_reply_repeating_a_call_exactly_has_it_once_counted_or_not():
    factorial = {"type": "function", "function": {"name": "math_factorial", "parameters": {
        "type": "object", "properties": {"number": {"type": "integer"}}, "required": ["number"]}}}
    asked = [{"role": "user", "content": "The factorial of 5 and the factorial of 7, within 5 seconds"}]
    request = parse_request({"messages": asked, "tools": [factorial], "tool_choice": "required"})
    assert request.least == 3
    text = json.dumps([{"name": "math_factorial", "arguments": {"number": n}} for n in (5, 7, 5)])

    async def complete(messages, grammar, sampling, sink):
        return Completion(text)

    assert [c.arguments["number"] for c in read(request, Completion(text))[1]] == [5, 7, 5]  # as written
    calls = asyncio.run(reply(request, complete, 0)).calls
    assert [c.arguments["number"] for c in calls] == [5, 7]
    uncounted = parse_request({"messages": asked, "tools": [factorial], "tool_choice": "required"},
                              Shaping(count_calls=False))
    calls = asyncio.run(reply(uncounted, complete, 0)).calls
    assert [c.arguments["number"] for c in calls] == [5, 7]  # not counted: a small model's loop, dropped too


def test_a_call_past_those_the_users_words_ask_for_is_kept_only_when_it_adds_something_of_theirs():
    paint = {"type": "function", "function": {"name": "mix_paint", "parameters": {"type": "object", "properties": {
        "color1": {"type": "string"}, "color2": {"type": "string"}, "lightness": {"type": "integer"}},
        "required": ["color1", "color2"]}}}
    asked = [{"role": "user", "content": "Mix yellow and blue at 60 percent lightness"}]
    request = parse_request({"messages": asked, "tools": [paint], "tool_choice": "required"})
    assert request.least == 1 and request.shaped.counted

    def calls(*colors):
        return tuple(ToolCall("mix_paint", {"color1": a, "color2": b, "lightness": 60}) for a, b in colors)

    swapped = calls(("yellow", "blue"), ("blue", "yellow"))
    assert request.asked(swapped) == swapped[:1]  # the same values again, swapped: nothing asked
    assert request.asked(calls(("yellow", "blue"), ("yellow", "green"))) == calls(("yellow", "blue"))
    uncounted = parse_request({"messages": asked, "tools": [paint], "tool_choice": "required"},
                              Shaping(count_calls=False))
    assert uncounted.asked(swapped) == swapped
    cities = [{"role": "user", "content": "巴黎和伦敦的天气怎么样？"}]
    weather = parse_request({"messages": cities, "tools": [WEATHER], "tool_choice": "required"})
    both = (ToolCall("get_weather", {"city": "巴黎"}), ToolCall("get_weather", {"city": "伦敦"}))
    assert weather.least == 1 and weather.asked(both) == both  # a city the user wrote, in any script


def test_copied_values_come_from_the_users_words(engine):
    ask = [{"role": "user", "content": "Weather in San Francisco, CA for 3 days?"}]
    request = parse_request({"messages": ask, "tools": [WEATHER], "tool_choice": "required"})

    def call(city, days):
        return json.dumps({"name": "get_weather", "arguments": {"city": city, "days": days}}, indent=2)

    assert engine.accepts(request.grammar, call("San Francisco, CA", 3))
    assert engine.accepts(request.grammar, call("San Francisco", 3))
    assert not engine.accepts(request.grammar, call("san_francisco", 3))  # made up
    assert not engine.accepts(request.grammar, call("San Francisco", 4))
    made_up = parse_request({"messages": ask, "tools": [WEATHER], "tool_choice": "required"},
                            Shaping(copy_values=False))
    assert engine.accepts(made_up.grammar, call("san_francisco", 4))
    pasted = [{"role": "user", "content": "Weather for 3 days in " + " ".join(f"w{i}" for i in range(600))}]
    long = parse_request({"messages": pasted, "tools": [WEATHER], "tool_choice": "required"})
    assert engine.accepts(long.grammar, call("san_francisco", 3))  # too long to copy strings from


READERS = {"terms": "_request", "is_english": "_language", "spans": "_values", "numbers": "_values",
           "numbers_alone": "_values", "number_lists": "_values", "number_runs": "_values", "labelled": "_values",
           "named_strings": "_values", "percents": "_values", "quotations": "_values", "without_dates": "_dates"}
"""What reads a request's words, and the module that defines each."""


def test_a_request_is_read_once_however_many_rules_read_it(monkeypatch):
    """Every rule of the shaping stage (the decision, the optional arguments, how many calls,
    the values offered) reads one value: each reader of words reads the user's words once per
    request, wherever a module bound it (a cached reader counts when it reads, not when its
    cache answers)."""
    import importlib

    text = "The weather forecast in Oslo for 3 days and in Rome for 5 days"
    modules = [module for name, module in list(sys.modules.items()) if name.startswith("gbnf.shape")]
    counts = dict.fromkeys(READERS, 0)
    for reader, home in READERS.items():
        read = getattr(importlib.import_module(f"gbnf.shape.{home}"), reader)

        def counted(words, *args, _reader=reader, _read=read, **kwargs):
            misses = _read.cache_info().misses if hasattr(_read, "cache_info") else 0
            value = _read(words, *args, **kwargs)
            if words == text:
                counts[_reader] += _read.cache_info().misses - misses if hasattr(_read, "cache_info") else 1
            return value
        for module in modules:
            if getattr(module, reader, None) is read:
                monkeypatch.setattr(module, reader, counted)
        if hasattr(read, "cache_clear"):
            read.cache_clear()
    for module in modules:  # what caches a request's readings
        for cache in ("read_request", "_spans"):
            if hasattr(getattr(module, cache, None), "cache_clear"):
                getattr(module, cache).cache_clear()
    forecast = {"type": "function", "function": {**WEATHER["function"], "description": "Weather forecast for days"}}
    shaped = parse_request({"messages": [{"role": "user", "content": text}], "tools": [forecast, NOTE]},
                           Shaping(meaning=False))
    assert shaped.required and shaped.least == 2  # the rules did read it: a call, two of them
    assert counts == dict.fromkeys(READERS, 1)


def test_calls_of_an_enumeration_each_copy_their_own_item(engine):
    """"The weather in Paris, London and Rome": three calls, the first Paris, then London, then
    Rome; a small model otherwise writes Paris into every call."""
    asked = [{"role": "user", "content": "What is the weather forecast in Paris, London and Rome?"}]
    shaped = parse_request({"messages": asked, "tools": [WEATHER]})
    assert shaped.least == 3

    def reply(*cities: str) -> str:
        return json.dumps([{"name": "get_weather", "arguments": {"city": city}} for city in cities], indent=2)

    assert engine.accepts(shaped.grammar, reply("Paris", "London", "Rome"))
    assert not engine.accepts(shaped.grammar, reply("Paris", "Paris", "Rome"))
    assert not engine.accepts(shaped.grammar, reply("London", "Paris", "Rome"))
    alone = parse_request({"messages": asked, "tools": [WEATHER]}, Shaping(copy_values=False))
    assert engine.accepts(alone.grammar, reply("Paris", "Paris", "Rome"))  # values free: the order is the model's


METAL = {"type": "function", "function": {"name": "get_metal_price", "description": "The price of a metal", "parameters": {
    "type": "object", "properties": {"metal": {"type": "string"}, "measure": {"type": "string"}},
    "required": ["metal", "measure"]}}}
GOLD = [{"role": "user", "content": "Get current Gold price per ounce."}]
METAL_DESCRIBED = {"type": "function", "function": {**METAL["function"], "parameters": {
    **METAL["function"]["parameters"], "properties": {
        "metal": {"type": "string"},
        "measure": {"type": "string", "description": " The unit of the price, like 'ounce' or 'kg'. "}}}}}


def test_a_call_that_copies_a_value_into_two_arguments_is_asked_again_with_the_second_kept_from_it():
    def call(metal: str, measure: str) -> str:
        return json.dumps({"name": "get_metal_price", "arguments": {"metal": metal, "measure": measure}}, indent=2)

    repeated, apart = call("Gold", "Gold"), call("Gold", "ounce")
    request = parse_request({"messages": GOLD, "tools": [METAL], "tool_choice": "required"})
    grammars: list[str] = []

    def model(*texts: str):
        async def complete(messages, grammar, sampling, sink):
            grammars.append(grammar)
            return Completion(texts[min(len(grammars), len(texts)) - 1])
        return complete

    answer = asyncio.run(reply(request, model(repeated, apart), 2))
    assert [c.arguments for c in answer.calls] == [{"metal": "Gold", "measure": "ounce"}]
    oracle = lark_oracle()
    first, again = grammars
    assert first == request.grammar and oracle.accepts(first, repeated) and oracle.accepts(first, apart)
    assert not oracle.accepts(again, repeated) and oracle.accepts(again, apart)
    assert not oracle.accepts(again, call("Gold", "Gold price")) and oracle.accepts(again, call("Gold", "price"))

    grammars.clear()
    # no enumeration gives each call its own metal here ("Silver price ..., Gold price" would)
    both = [{"role": "user", "content": "Get the Silver price per kg, then Gold per ounce."}]
    calls = [{"name": "get_metal_price", "arguments": {"metal": metal, "measure": measure}}
             for metal, measure in [("Silver", "kg"), ("Silver", "kg"), ("Gold", "Gold")]]
    written, fixed = json.dumps(calls, indent=2), json.dumps([*calls[:2], {**calls[2], "arguments": {
        "metal": "Gold", "measure": "ounce"}}], indent=2)
    request = parse_request({"messages": both, "tools": [METAL], "tool_choice": "required"})
    answer = asyncio.run(reply(request, model(written, fixed), 2))
    assert [c.arguments["measure"] for c in answer.calls] == ["kg", "ounce"]  # the repeat dropped last
    again = grammars[1]  # kept apart: the third call as written, not the second left once repeats go
    assert not oracle.accepts(again, written) and oracle.accepts(again, fixed)

    grammars.clear()
    request = parse_request({"messages": GOLD, "tools": [METAL], "tool_choice": "required"})
    kept = asyncio.run(reply(request, model(repeated, '{"name": "get_metal_price", "arguments": {}}'), 2))
    assert [c.arguments for c in kept.calls] == [{"metal": "Gold", "measure": "Gold"}] and len(grammars) == 2
    grammars.clear()
    off = parse_request({"messages": GOLD, "tools": [METAL], "tool_choice": "required"},
                        Shaping(values_apart=False))
    assert [c.arguments for c in asyncio.run(reply(off, model(repeated, apart), 2)).calls] == [
        {"metal": "Gold", "measure": "Gold"}] and len(grammars) == 1


def _physics(name: str, **numbers: str) -> dict:
    return {"type": "function", "function": {"name": name, "description": numbers.pop("about"), "parameters": {
        "type": "object", "properties": {key: {"type": "number", "description": text} for key, text in numbers.items()},
        "required": list(numbers)}}}


ELECTRIC = _physics("physics_electric_field", about="The electric field of a point charge",
                    charge="The charge in coulombs", distance="The distance from the charge in meters")
MAGNETIC = _physics("physics_magnetic_field", about="The magnetic field inside a solenoid",
                    current="The current in amperes", turns="Turns per meter", length="The solenoid's length")


def test_calls_of_several_tools_each_copy_from_the_words_that_ask_for_them(engine):
    """Each call of a reply that calls several tools takes the values its own clauses write, and
    those no other call's clauses write: 25 turns is not the distance from the charge."""
    asked = [{"role": "user", "content": "What is the electric field at 3m from a point charge of 4C? Also, the "
              "magnetic field of a current of 0.5A through a solenoid with 25 turns per meter and a length of 2m."}]
    shaped = parse_request({"messages": asked, "tools": [ELECTRIC, MAGNETIC]}, Shaping(meaning=False))
    assert shaped.least == 2

    def reply(charge: float, distance: float, turns: float = 25) -> str:
        return json.dumps([{"name": "physics_electric_field", "arguments": {"charge": charge, "distance": distance}},
                           {"name": "physics_magnetic_field", "arguments": {"current": 0.5, "turns": turns,
                                                                           "length": 2}}], indent=2)

    assert engine.accepts(shaped.grammar, reply(4, 3))
    assert not engine.accepts(shaped.grammar, reply(4, 25))  # the solenoid's
    assert not engine.accepts(shaped.grammar, reply(4, 3, turns=3))  # the charge's distance
    free = parse_request({"messages": asked, "tools": [ELECTRIC, MAGNETIC]}, Shaping(meaning=False, copy_values=False))
    assert engine.accepts(free.grammar, reply(4, 25))
    same = [{"role": "user", "content": "What is the electric field at 3m from a point charge of 4C? Also, the "
             "magnetic field of a current of 0.5A through a solenoid of the same length with 25 turns per meter."}]
    back = parse_request({"messages": same, "tools": [ELECTRIC, MAGNETIC]}, Shaping(meaning=False))
    assert engine.accepts(back.grammar, reply(4, 3).replace('"length": 2', '"length": 3'))  # points back: the first clause's 3m is offered too


def test_calls_of_one_tool_do_not_copy_the_word_that_counts_them(engine):
    """"Two charges" asks for two calls; 2 is no charge nor distance of either."""
    asked = [{"role": "user", "content": "The electric field of two charges: 4 coulombs at 3 meters, and 6 coulombs at 5 meters."}]
    shaped = parse_request({"messages": asked, "tools": [ELECTRIC]}, Shaping(meaning=False))
    assert shaped.least == 2

    def reply(*calls: tuple[float, float]) -> str:
        return json.dumps([{"name": "physics_electric_field", "arguments": {"charge": charge, "distance": distance}}
                           for charge, distance in calls], indent=2)

    assert engine.accepts(shaped.grammar, reply((4, 3), (6, 5)))
    assert not engine.accepts(shaped.grammar, reply((4, 3), (6, 2)))
