"""The post-decode validator: every kind of bad call gets a short message a model can act on."""

from __future__ import annotations

import json

import pytest

from gbnf import SchemaError, Tool
from gbnf.errors import InvalidCall
from gbnf.read import ToolCall, soft_parse, validate_call, validate_calls


def error(call, pool) -> str:
    with pytest.raises(InvalidCall) as caught:
        validate_call(call, pool)
    return str(caught.value)


def test_valid_call_text_and_dict(tools):
    text = '{"name": "find_files", "arguments": {"pattern": "*.pdf"}}'
    assert validate_call(text, tools) == ToolCall("find_files", {"pattern": "*.pdf"})
    assert validate_call({"name": "get_now"}, tools) == ToolCall("get_now", {})


def test_seed_message_for_missing_required(tools):
    call = {"name": "get_inputs", "arguments": {"display_template": "x"}}
    assert error(call, tools) == "missing required args ['title', 'dialog'] for tool 'get_inputs'"


@pytest.mark.parametrize("call, message", [
    ({"name": "get_weather_now", "arguments": {}}, "unknown tool 'get_weather_now'; available tools: "),
    ({"name": 3}, "unknown tool 3"),
    ({"arguments": {}}, 'a call is a JSON object {"name": <tool>, "arguments": {...}}'),
    ([1, 2], "a call is a JSON object"),
    ({"name": "get_now", "arguments": []}, "arguments of tool 'get_now' must be an object, not list"),
    ({"name": "get_now", "args": {}}, "unexpected key 'args' in the call"),
    ({"name": "get_now", "arguments": {"tz": "UTC"}}, "unexpected argument 'tz' (allowed: timezone) for tool 'get_now'"),
    ({"name": "get_weather", "arguments": {"city": 5}}, "'city' must be string, got integer 5 for tool 'get_weather'"),
    ({"name": "get_weather", "arguments": {"city": "Rome", "units": "kelvin"}},
     """'units' must be one of ["metric","imperial"], got "kelvin" for tool 'get_weather'"""),
    ({"name": "get_weather", "arguments": {"city": "Rome", "days": 9}}, "'days': 9 is greater than the maximum of 7"),
    ({"name": "get_inputs", "arguments": {"title": "t", "dialog": [{"var": "v", "prompt": 1, "schema": {"kind": "text"}}]}},
     "'dialog[0].prompt' must be string, got integer 1 for tool 'get_inputs'"),
    ({"name": "get_inputs", "arguments": {"title": "t", "dialog": [{"var": "v", "prompt": "p", "schema": {}}]}},
     "missing ['kind'] in 'dialog[0].schema' for tool 'get_inputs'"),
    ({"name": "create_event_google_workspace", "arguments": {"title": "t", "start": "tomorrow", "end": "2026-01-01T10:00:00Z"}},
     "'start': 'tomorrow' is not a 'date-time'"),
    ({"name": "read_file", "arguments": {"path": "<path>"}}, "'path' = '<path>' still holds the prompt's placeholder"),
])
def test_messages(tools, call, message):
    assert message in error(call, tools)


def test_text_that_is_not_a_call(tools):
    assert error('{"name": "get_now", "argu', tools).startswith("output truncated")
    assert error('{"name": "get_now", "arguments": {', tools).startswith("output truncated")
    assert error("I think the time is noon.", tools).startswith("not a JSON tool call (Expecting value at character 0)")
    assert error('{"name": "get_now"} and more', tools).startswith("not a JSON tool call (Extra data")
    with pytest.raises(InvalidCall, match="output truncated"):
        validate_call('{"name"', tools, truncated=True)


GRAMMARLESS = Tool("book", "d", {
    "type": "object",
    "properties": {
        "seats": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
        "card": {"type": "string"}, "cvv": {"type": "string"},
        "pay": {"oneOf": [{"type": "integer", "multipleOf": 2}, {"type": "integer", "multipleOf": 3}]},
    },
    "dependentRequired": {"card": ["cvv"]},
    "additionalProperties": False,
})


@pytest.mark.parametrize("arguments, fragment", [
    ({"seats": [1, 1], "pay": 5}, "has non-unique elements"),
    ({"card": "4111"}, "'cvv' is a dependency of 'card'"),
    ({"pay": 6}, "is valid under each of"),
    ({"pay": 5}, "is not valid under any of the given schemas"),
])
def test_what_a_grammar_cannot_express_is_checked(arguments, fragment):
    assert fragment in error({"name": "book", "arguments": arguments}, [GRAMMARLESS])
    assert validate_call({"name": "book", "arguments": {"seats": [1, 2], "pay": 4}}, [GRAMMARLESS])


def test_repeated_unique_items_are_the_one_repair():
    call = validate_call({"name": "book", "arguments": {"seats": [4, 2, 4, 2, 4], "pay": 4}}, [GRAMMARLESS])
    assert call.arguments["seats"] == [4, 2] and call.repairs == ("'seats': dropped 3 repeated items (uniqueItems)",)
    nested = Tool("grid", "d", {"type": "object", "properties": {"rows": {
        "type": "array", "uniqueItems": True, "items": {"type": "array", "uniqueItems": True}}}})
    call = validate_call({"name": "grid", "arguments": {"rows": [[1, 1], [1], [2]]}}, [nested])
    assert call.arguments == {"rows": [[1], [2]]} and len(call.repairs) == 2
    too_few = Tool("pair", "d", {"type": "object", "properties": {"two": {
        "type": "array", "uniqueItems": True, "minItems": 2}}})
    with pytest.raises(InvalidCall, match="non-unique"):
        validate_call({"name": "pair", "arguments": {"two": ["a", "a"]}}, [too_few])


def test_parallel_calls(tools):
    text = '[{"name": "get_now", "arguments": {}}, {"name": "find_files", "arguments": {"pattern": "*"}}]'
    assert [c.name for c in validate_calls(text, tools)] == ["get_now", "find_files"]
    assert [c.name for c in validate_calls('{"name": "get_now"}', tools)] == ["get_now"]
    with pytest.raises(InvalidCall, match="call 1: unknown tool 'nope'"):
        validate_calls('[{"name": "get_now"}, {"name": "nope"}]', tools)
    with pytest.raises(InvalidCall, match="empty list of calls"):
        validate_calls("[]", tools)


@pytest.mark.parametrize("arguments, echoed", [
    ({"pattern": "find_files"}, "'pattern' = 'find_files'"),
    ({"pattern": "*.pdf", "folder": "Folder"}, "'folder' = 'Folder'"),
])
def test_an_argument_that_only_repeats_a_name_is_refused(tools, arguments, echoed):
    with pytest.raises(InvalidCall, match=f"{echoed} only repeats a name from the prompt"):
        validate_call({"name": "find_files", "arguments": arguments}, tools)


def test_an_enum_value_that_matches_a_name_is_fine():
    tool = Tool("send", "d", {"type": "object", "properties": {"channel": {"type": "string", "enum": ["channel", "sms"]}}})
    assert validate_call({"name": "send", "arguments": {"channel": "channel"}}, [tool]).arguments == {"channel": "channel"}


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999", "9" * 5000, "[" * 3000 + "]" * 3000])
def test_hostile_numbers_and_nesting_are_invalid_calls_not_crashes(value):
    number = Tool("f", "F.", {"type": "object", "properties": {"x": {}}, "required": ["x"]})
    text = '{"name": "f", "arguments": {"x": ' + value + "}}"
    with pytest.raises(InvalidCall):
        validate_calls(text, [number])
    assert soft_parse(text, [number]).kind != "calls"


@pytest.mark.parametrize("prop, value", [({"type": "integer", "multipleOf": 0}, 3),
                                         ({"type": "string", "pattern": "(unclosed"}, "a")])
def test_a_schema_that_cannot_check_a_value_is_a_schema_error(prop, value):
    tool = Tool("f", "F.", {"type": "object", "properties": {"x": prop}})
    with pytest.raises(SchemaError, match="tool 'f': its schema cannot check a value"):
        validate_calls(json.dumps({"name": "f", "arguments": {"x": value}}), [tool])
