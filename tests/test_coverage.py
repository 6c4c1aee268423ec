"""Schema coverage beyond the core: each feature decided by llama.cpp's engine, plus importers."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from gbnf import ManifestError, SchemaError, compile_pool, compile_schema, compile_schema_grammar, load_manifests
from gbnf.compiler import in_grammar_order, json_text
from gbnf.errors import Unsatisfiable
from gbnf.tools import bfcl_schema, import_each, import_tools, read_import_file, write_manifests
from tests.conftest import REPO


class Raw(str):
    """Text given to the grammar as it is (other values are serialized as JSON)."""


def verdicts(engine, schema, *values):
    grammar = compile_schema(schema)
    engine.check(grammar)
    return [engine.accepts(grammar, v if isinstance(v, Raw) else json_text(v)) for v in values]


def test_refs_defs_and_recursion_bounded_by_depth(engine):
    schema = {"$defs": {"node": {"type": "object", "properties": {"v": {"type": "integer"},
                                                                    "next": {"$ref": "#/$defs/node"}},
                                 "required": ["v"], "additionalProperties": False}},
              "$ref": "#/$defs/node"}
    grammar = compile_schema_grammar(schema)
    assert any("nested deeper" in spot for spot in grammar.looser)
    assert verdicts(engine, schema, {"v": 1, "next": {"v": 2}}, {"v": "x"}, {"next": {"v": 1}}) == [True, False, False]
    with pytest.raises(Exception, match="refers to itself"):
        compile_schema({"$ref": "#"})


def test_unions_allof_boolean_and_nullable(engine):
    assert verdicts(engine, {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 2}]},
                    5, "ab", "abc", True) == [True, True, False, False]
    assert verdicts(engine, {"allOf": [{"type": "integer", "minimum": 3}, {"maximum": 5}]},
                    3, 5, 6, 2) == [True, True, False, False]
    assert verdicts(engine, True, [1, {"a": None}]) == [True]
    assert verdicts(engine, {"type": "string", "nullable": True}, None, "x", 1) == [True, True, False]


def test_arrays_prefix_items_and_bounds(engine):
    schema = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False}
    assert verdicts(engine, schema, [], [1], [1, "a"], [1, "a", 2], ["a"]) == [True, True, True, False, False]
    bounded = {"type": "array", "items": {"type": "boolean"}, "minItems": 2, "maxItems": 3}
    assert verdicts(engine, bounded, [True], [True, False], [True] * 3, [True] * 4) == [False, True, True, False]
    grammar = compile_schema({"type": "array", "items": {"type": "integer"}, "maxItems": 500})
    assert "{0,499}" in grammar and grammar.count("(") < 10  # a bound, not nested optionals


def test_strings_lengths_patterns_formats(engine):
    assert verdicts(engine, {"type": "string", "pattern": "^[A-Z]{2}-[0-9]+$"}, "AB-12", "ab-12", "AB-") == [
        True, False, False]
    assert verdicts(engine, {"type": "string", "pattern": "oo"}, "foo", "xooy", "fo") == [True, True, False]
    assert verdicts(engine, {"type": "string", "pattern": "^$|^[0-9]+$"}, "", "42", "4x") == [True, True, False]
    assert verdicts(engine, {"type": "string", "pattern": "(^gs://.+)|(^https://.+)"}, "gs://b", "ftp://b",
                    "x https://b") == [True, False, False]
    assert verdicts(engine, {"type": "string", "pattern": "^a|b$"}, "ax", "xb", "xa") == [True, True, False]
    assert verdicts(engine, {"type": "string", "pattern": '^a"b\\\\c$'}, 'a"b\\c', "abc") == [True, False]
    assert verdicts(engine, {"type": "string", "format": "date"}, "2026-11-21", "2026-13-01", "21/11/2026",
                    "2026-02-29", "2028-02-29", "2026-04-31", "2000-02-29", "2100-02-29") == [
        True, False, False, False, True, False, True, False]  # each month's days; leap years
    assert verdicts(engine, {"type": "string", "format": "hostname"}, "example.com", "a-b.c.", "example.com:80",
                    "-a.com", "my host") == [True, True, False, False, False]
    assert verdicts(engine, {"type": "string", "format": "date-time"}, "2026-11-21T10:00:00Z",
                    "2026-11-21 10:00", "2026-11-21 10:00:00Z") == [True, False, False]  # as the validator: no space
    assert verdicts(engine, {"type": "string", "format": "uuid"}, "123e4567-e89b-12d3-a456-426614174000",
                    "123") == [True, False]
    assert verdicts(engine, {"type": "string", "format": "ipv4"}, "192.168.0.1", "256.1.1.1") == [True, False]
    assert verdicts(engine, {"type": "string", "format": "email"}, "ann@example.org", "ann") == [True, False]
    assert verdicts(engine, {"type": "string", "format": "duration"}, "P1Y2M3DT4H5M6S", "PT30S", "P2W", "P", "PT",
                    "P1Y2W", "P1.5D", "P1M1Y", "PT1H1S") == [True, True, True, False, False, False, False, False, False]
    assert verdicts(engine, {"type": "string", "format": "json-pointer"}, "", "/a~0b/c~1d", "//", "/\u0001",
                    "a/b", "/a~2", "/a~") == [True, True, True, True, False, False, False]
    assert verdicts(engine, {"type": "string", "format": "relative-json-pointer"}, "0", "1#", "2/a", "01",
                    "#") == [True, True, True, False, False]
    assert verdicts(engine, {"type": "string", "format": "uri-reference"}, "", "http://a.b/c", "//host/p",
                    "rel/file.txt", "?q=1", "#frag", "://", ":x", "a b") == [
        True, True, True, True, True, True, False, False, False]  # a relative first segment has no colon
    assert verdicts(engine, {"type": "string", "format": "uri-template"}, "/api/{id}", "{+path}/x{?q,n:3}", "{list*}",
                    "/{a", "{}", "{x:0}", "{a..b}", "%zz") == [True, True, True, False, False, False, False, False]
    loose = compile_schema_grammar({"type": "string", "pattern": "(a)\\1"})
    assert loose.looser and "not translated" in loose.looser[0]


def test_lengths_beside_a_pattern_are_exact(engine):
    slug = {"type": "string", "pattern": "^[a-z]+(?:-[a-z0-9]+)*$", "minLength": 3, "maxLength": 8}
    assert not compile_schema_grammar(slug).looser  # the automaton loops through "-": rules in a cycle
    assert verdicts(engine, slug, "abc", "ab-c1", "ab", "ab-", "abcd-efgh", "a-b-c-d") == [
        True, True, False, False, False, True]
    object_id = {"type": "string", "pattern": "[0-9a-f]+", "minLength": 4, "maxLength": 4}  # unanchored: holds one
    assert verdicts(engine, object_id, "zz0z", "zzzz", "0f0f0", '"\\a"') == [True, False, False, True]
    assert verdicts(engine, {"type": "string", "pattern": ".*", "maxLength": 2}, "ab", "abc") == [True, False]
    with pytest.raises(Unsatisfiable, match="pattern"):
        compile_schema_grammar({"type": "string", "pattern": "^a+b$", "maxLength": 1})
    long = {"type": "string", "pattern": "^[a-z]+-[0-9]+$", "maxLength": 255}  # past 128: the validator checks
    assert compile_schema_grammar(long).looser == ("maxLength: beside a pattern: left to the validator",)


def test_integer_ranges_are_exact(engine):
    schema = {"type": "integer", "minimum": -15, "exclusiveMaximum": 120}
    values = [-16, -15, 0, 7, 119, 120, 1000]
    assert verdicts(engine, schema, *values) == [False, True, True, True, True, False, False]
    number = {"type": "number", "minimum": 0, "exclusiveMaximum": 1.5}
    assert not compile_schema_grammar(number).looser
    assert verdicts(engine, number, 0, 0.5, 1.49, 1.5, 2, -0.5) == [True, True, True, False, False, False]
    assert verdicts(engine, {"type": "number", "minimum": 0}, 0.5, -0.5, 1e-7) == [True, False, True]


def test_member_counts_beside_declared_members(engine):
    some = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
            "additionalProperties": False, "minProperties": 1, "maxProperties": 2}
    assert not compile_schema_grammar(some).looser  # at least one member, at most all of them: exact
    assert verdicts(engine, some, {}, {"a": 1}, {"b": "x"}, {"a": 1, "b": "x"}) == [False, True, True, True]
    two = {**some, "minProperties": 2, "maxProperties": 1}
    with pytest.raises(Unsatisfiable):
        compile_schema_grammar(two)
    assert compile_schema_grammar({**some, "minProperties": 2}).looser == ("minProperties: left to the validator",)
    assert verdicts(engine, {**some, "minProperties": 0, "maxProperties": 0}, {}, {"a": 1}) == [True, False]
    open_all_required = {**some, "additionalProperties": True, "required": ["a", "b"], "minProperties": 3,
                         "maxProperties": 4}  # the undeclared members after the required ones, counted
    assert not compile_schema_grammar(open_all_required).looser
    assert verdicts(engine, open_all_required, {"a": 1, "b": "x"}, {"a": 1, "b": "x", "c": 0},
                    {"a": 1, "b": "x", "c": 0, "d": 0}, {"a": 1, "b": "x", "c": 0, "d": 0, "e": 0}) == [
        False, True, True, False]
    only_required = {**some, "additionalProperties": True, "required": ["a"], "maxProperties": 1}
    assert not compile_schema_grammar(only_required).looser
    assert verdicts(engine, only_required, {"a": 1}, {"a": 1, "b": "x"}, {"a": 1, "c": 0}) == [True, False, False]
    with pytest.raises(Unsatisfiable, match="maxProperties"):
        compile_schema_grammar({**some, "required": ["a", "b"], "minProperties": 0, "maxProperties": 1})


def test_one_of_required_keys_is_exclusive(engine):
    either = {"properties": {"id": {"type": "integer"}}, "oneOf": [{"required": ["id"]}, {"required": ["name"]}]}
    assert not compile_schema_grammar(either).looser
    assert verdicts(engine, either, {"id": 1}, {"name": "x"}, {"id": 1, "name": "x"}, {}, "x") == [
        True, True, False, False, False]  # a string would match both branches
    narrower = {"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["a", "b"]}]}
    assert verdicts(engine, narrower, {"a": 1}, {"a": 1, "b": 2}) == [True, False]  # the second never alone
    two_keys = {"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b", "c"]}]}
    assert not compile_schema_grammar(two_keys).looser
    assert verdicts(engine, two_keys, {"a": 1}, {"a": 1, "b": 2}, {"b": 2, "c": 3}, {"a": 1, "b": 2, "c": 3},
                    {"b": 2}) == [True, True, True, False, False]
    many = {"type": "object", "oneOf": [{"required": list("abcd")}, {"required": list("efgh")}, {"required": ["i"]}]}
    assert compile_schema_grammar(many).looser == ("oneOf: exclusivity left to the validator",)  # 16 ways
    login = {"type": "object", "oneOf": [{"properties": {"login": {"type": "string"}}, "required": ["login"]},
                                         {"properties": {"password": {"type": "string"}}, "required": ["password"]}]}
    assert not compile_schema_grammar(login).looser
    assert verdicts(engine, login, {"login": "a"}, {"password": "b"}, {"login": "a", "password": "b"},
                    {"login": "a", "password": 5}, {"password": "b", "login": 5}, {"login": 5, "password": 5}) == [
        True, True, False, True, True, False]  # a member the other branch refuses leaves this one alone (after
    # the members of its own branch: the grammar declares the refused member last)
    nested = {"type": "object", "oneOf": [{"properties": {"a": {"type": "object", "required": ["x"],
                                                               "properties": {"x": {"type": "string"}}}},
                                           "required": ["a"]}, {"required": ["b"]}]}
    assert not compile_schema_grammar(nested).looser
    assert verdicts(engine, nested, {"a": {"x": "1"}}, {"b": 1}, {"a": {"x": "1"}, "b": 1}, {"a": {"x": 1}, "b": 1},
                    {"a": {}, "b": 1}, {"a": [], "b": 1}) == [True, True, False, True, True, True]  # a refused: b alone
    listed = {"type": "object", "oneOf": [{"properties": {"tags": {"type": "array", "items": {"type": "string"}}},
                                           "required": ["tags"]}, {"required": ["id"]}]}
    assert not compile_schema_grammar(listed).looser
    assert verdicts(engine, listed, {"tags": ["a"]}, {"tags": ["a"], "id": 1}, {"tags": ["a", 2], "id": 1},
                    {"tags": [2]}) == [True, False, True, False]  # an item the first refuses: the second alone


def test_one_of_branches_told_apart_or_referenced_are_exact(engine):
    tagged = {"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "file"}, "size": {"type": "integer", "minimum": 0}},
         "required": ["kind", "size"], "additionalProperties": False},
        {"type": "object", "properties": {"kind": {"enum": ["dir", "link"]}, "files": {"type": "integer"}},
         "required": ["kind"]}]}
    assert not compile_schema_grammar(tagged).looser  # a tag's values tell the branches apart: nothing to add
    assert verdicts(engine, tagged, {"kind": "file", "size": 1}, {"kind": "dir", "files": 2}, {"kind": "link"},
                    {"kind": "file"}, {"kind": "pipe"}) == [True, True, True, False, False]
    referenced = {"$defs": {"byName": {"properties": {"name": {"type": "string"}}, "required": ["name"]},
                            "byId": {"allOf": [{"required": ["id"]}, {"properties": {"id": {"type": "string"}}}]}},
                  "type": "object", "oneOf": [{"$ref": "#/$defs/byName"}, {"$ref": "#/$defs/byId"}]}
    assert not compile_schema_grammar(referenced).looser
    assert verdicts(engine, referenced, {"name": "a"}, {"id": "1"}, {"name": "a", "id": "1"}, {"name": "a", "id": 1},
                    {}) == [True, True, False, True, False]


def test_one_of_members_refused_by_their_listed_values_are_exact(engine):
    modes = {"type": "object", "oneOf": [
        {"properties": {"mode": {"const": "fast"}, "x": {"type": "string"}}, "required": ["x"]},
        {"properties": {"mode": {"enum": ["slow", "safe"]}, "y": {"type": "boolean"}}, "required": ["y"]}]}
    assert not compile_schema_grammar(modes).looser
    values = [{"x": "a", "y": True}, {"mode": "fast", "x": "a", "y": True}, {"mode": "slow", "x": "a", "y": True},
              {"mode": "other", "x": "a", "y": True}, {"mode": "slow", "x": "a"}]
    assert verdicts(engine, modes, *(in_grammar_order(v, modes) for v in values)) == [
        False, True, True, False, False]  # a mode one branch refuses leaves the other alone
    events = {"type": "object", "oneOf": [
        {"properties": {"events": {"type": "array", "items": {"enum": ["all", "added"]}}}},
        {"properties": {"events": {"enum": ["all", "added"]}}}]}
    assert not compile_schema_grammar(events).looser
    assert verdicts(engine, events, {}, {"events": ["all"]}, "all", {"events": "all"}, {"events": ["x"]}) == [
        False, True, False, True, False]  # without events, both match; an item not listed: neither


def test_contains_is_exact_from_draft_6(engine):
    schema = {"type": "array", "items": {"type": ["string", "integer"]}, "contains": {"type": "integer"}}
    assert not compile_schema_grammar(schema).looser
    assert verdicts(engine, schema, [], ["a"], ["a", 1], [1, "b", 2], [1.5]) == [False, False, True, True, False]
    untyped = {"contains": {"const": "x"}}
    assert verdicts(engine, untyped, ["x"], ["y", "x"], ["y"], "y", 3) == [True, True, False, True, True]
    bounded = {"type": "array", "contains": {"type": "integer"}, "maxItems": 3}
    assert compile_schema_grammar(bounded).looser[0].startswith("contains: left to the validator")
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "array", "contains": {"type": "integer"}}
    assert verdicts(engine, draft4, ["a"]) == [True]  # not a keyword of draft 4: its validators ignore it
    with pytest.raises(Unsatisfiable, match="contains"):
        compile_schema_grammar({"type": "array", "items": {"type": "string"}, "contains": {"type": "integer"}})


def test_dependencies_and_not_of_keys_or_types_are_exact(engine):
    props = {"card": {"type": "string"}, "billing": {"type": "string"}, "cash": {"type": "boolean"}}
    pay = {"type": "object", "properties": props, "dependentRequired": {"card": ["billing"]},
           "not": {"allOf": [{"required": ["card"]}, {"required": ["cash"]}]}}
    assert not compile_schema_grammar(pay).looser
    assert verdicts(engine, pay, {}, {"card": "v", "billing": "b"}, {"card": "v"}, {"billing": "b", "cash": True},
                    {"card": "v", "billing": "b", "cash": True}) == [True, True, False, True, False]
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": props,
              "dependencies": {"cash": {"properties": {"billing": {"const": "none"}}, "required": ["billing"]}}}
    assert not compile_schema_grammar(draft4).looser
    assert verdicts(engine, draft4, {"billing": "none", "cash": True}, {"billing": "b", "cash": True},
                    {"cash": True}, {"billing": "b"}) == [True, False, False, True]
    undeclared = {"type": "object", "additionalProperties": False, "properties": {"a": {}},
                  "dependentRequired": {"a": ["b"]}}  # b can never be there, so neither can a
    assert verdicts(engine, undeclared, {}, {"a": 1}) == [True, False]
    not_number = {"not": {"type": "number"}}
    assert verdicts(engine, not_number, 1, 1.5, "x", None) == [False, False, True, True]
    many = {"type": "object", "dependentRequired": {k: ["z"] for k in "abcd"}}  # 16 branches: past the limit
    assert compile_schema_grammar(many).looser == ("dependentRequired: left to the validator",)
    assert verdicts(engine, many, {"a": 1}, {"a": 1, "z": 2}) == [True, True]
    with pytest.raises(Unsatisfiable):
        compile_schema_grammar({"not": {"description": "anything"}})
    nothing = {"type": "integer", "not": {"allOf": [{"type": "string"}, {"type": "integer"}]}}  # not of no value
    assert verdicts(engine, nothing, 1) == [True]
    with pytest.raises(SchemaError, match="dependentRequired.a"):
        compile_schema_grammar({"dependentRequired": {"a": "b"}})


def test_objects_additional_pattern_and_property_names(engine):
    open_schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    assert verdicts(engine, open_schema, {"a": 1, "b": "x"}, {"b": [1]}, Raw('{"a":1,"a":2}'), Raw('{"a":1,"ab":2}')) == [
        True, True, False, True]
    typed = {"type": "object", "additionalProperties": {"type": "integer"}, "maxProperties": 2}
    assert verdicts(engine, typed, {"x": 1, "y": 2}, {"x": "s"}, {"x": 1, "y": 2, "z": 3}) == [True, False, False]
    patterned = {"type": "object", "patternProperties": {"^s_": {"type": "string"}, "^n_": {"type": "number"}},
                 "additionalProperties": False}
    assert verdicts(engine, patterned, {"s_a": "x", "n_b": 1}, {"s_a": 1}, {"q": 1}) == [True, False, False]
    named = {"type": "object", "propertyNames": {"maxLength": 3}}
    assert verdicts(engine, named, {"abc": 1}, {"abcd": 1}) == [True, False]


def test_a_declared_key_matching_a_pattern_keeps_its_own_schema(engine):
    schema = {"type": "object", "properties": {"id": {"type": "string", "pattern": "^[0-9a-f]{4}$"}},
              "patternProperties": {"^[a-z]+$": {"type": ["string", "integer"]}}, "additionalProperties": False}
    assert not compile_schema_grammar(schema).looser
    assert verdicts(engine, schema, {"id": "00af", "name": "x"}, {"id": "00a"}, {"ids": "y", "n": 2},
                    {"name": 1, "id": "00af"}) == [True, False, True, False]
    words = {"type": "object", "required": ["en"], "patternProperties": {"en|de|ru|pt|nl|fr|it|es|pl|uk|zh-cn": {}},
             "properties": {"en": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
    assert verdicts(engine, words, {"en": "a", "ende": [1], "x": 1}, {"en": 1}, {"en": "a", "x": "b"}) == [
        True, False, False]


def test_conditionals_on_one_keys_value_are_exact(engine):
    kinds = {"type": "object", "properties": {"kind": {"enum": ["file", "dir", "link"]}, "size": {},
                                               "target": {}},
             "allOf": [{"if": {"properties": {"kind": {"const": "file"}}}, "then": {"required": ["size"]}},
                       {"if": {"properties": {"kind": {"const": "link"}}, "required": ["kind"]},
                        "then": {"required": ["target"], "properties": {"target": {"type": "string"}}},
                        "else": {"properties": {"target": False}}}]}
    assert not compile_schema_grammar(kinds).looser
    assert verdicts(engine, kinds, {"kind": "file", "size": 1}, {"kind": "file"}, {"kind": "link", "target": "a"},
                    {"kind": "link", "target": 1}, {"kind": "dir"}, {"kind": "dir", "target": "a"},
                    {"size": 2}, {}) == [True, False, True, False, True, False, True, False]
    single = {"type": "object", "properties": {"c": {"type": "string"}, "b": {}},
              "if": {"properties": {"c": {"enum": ["ghi"]}}}, "then": {"required": ["b", "c"]}, "else": {"required": ["c"]}}
    assert not compile_schema_grammar(single).looser
    assert verdicts(engine, single, {"c": "ghi", "b": 1}, {"c": "ghi"}, {"c": "x"}, {"b": 1}) == [True, False, True, False]
    unread = {"type": "object", "if": {"minProperties": 2}, "then": {"required": ["a"]}}  # not a test of one key
    assert compile_schema_grammar(unread).looser == ("if: left to the validator", "then: left to the validator")
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#", **single}  # no conditionals in draft 4
    assert not compile_schema_grammar(draft4).looser
    assert verdicts(engine, draft4, {"c": "ghi"}, {"b": 1}) == [True, True]
    free = {"type": "object", "properties": {"kind": {"type": "string"}, "n": {"type": "integer"}},
            "if": {"properties": {"kind": {"const": "count"}}, "required": ["kind"]},
            "then": {"required": ["n"]}, "else": {"properties": {"n": False}}}
    assert not compile_schema_grammar(free).looser  # any other kind: a string that is not "count"
    assert verdicts(engine, free, {"kind": "count", "n": 1}, {"kind": "count"}, {"kind": "counts"}, {"kind": "coun"},
                    {"kind": "other", "n": 1}, {}) == [True, False, True, True, False, True]


def test_whole_multiples_are_exact(engine):
    thirds = {"type": "integer", "multipleOf": 3}
    assert not compile_schema_grammar(thirds).looser
    assert verdicts(engine, thirds, 0, 9, -12, 123456, 10, -7, 1000000000001) == [
        True, True, True, True, False, False, False]
    dozens = {"type": "integer", "multipleOf": 12, "minimum": -24}  # the automaton and -24, -12 listed
    assert verdicts(engine, dozens, -24, -12, 0, 1200, -36, 13) == [True, True, True, True, False, False]
    grid = {"type": "integer", "multipleOf": 16, "minimum": -2032, "maximum": 2031}
    assert verdicts(engine, grid, -2032, 2016, 2032, 8) == [True, True, False, False]
    tens = {"type": "number", "multipleOf": 10}
    assert verdicts(engine, tens, 20, 20.0, 25, 2.5) == [True, True, False, False]
    far = {"type": "integer", "multipleOf": 3, "minimum": 40}  # multiples from 42 on: not a few rules
    assert compile_schema_grammar(far).looser == ("multipleOf: left to the validator",)
    huge = {"type": "integer", "multipleOf": 0.123456789}  # whole multiples of 123456789: not read digit by digit
    assert compile_schema_grammar(huge).looser == ("multipleOf: left to the validator",)
    with pytest.raises(Unsatisfiable, match="multipleOf"):
        compile_schema_grammar({"type": "integer", "multipleOf": 7, "minimum": 1, "maximum": 6})


def test_left_to_the_validator_is_reported():
    grammar = compile_schema_grammar({"type": "array", "uniqueItems": True, "items": {
        "type": "number", "multipleOf": 0.25, "not": {"const": 6}}})
    keywords = " ".join(grammar.looser)
    assert "uniqueItems" in keywords and "multipleOf" in keywords and "not" in keywords


OPENAI = {"tools": [{"type": "function", "function": {
    "name": "get_weather", "description": "Weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": ["string", "null"]}},
        "required": ["city"]}}}]}
MCP = {"result": {"tools": [{"name": "read_file", "description": "Read", "inputSchema": {
    "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "ping", "inputSchema": {"type": "object"}}]}}
BFCL = [{"id": "x", "function": [{"name": "math.factorial", "description": "n!", "parameters": {
    "type": "dict", "properties": {"number": {"type": "integer"}, "scale": {"type": "float", "optional": True},
                                   "pair": {"type": "tuple", "items": {"type": "integer"}},
                                   "Content-Type": {"type": "String", "default": "json"},
                                   "año_vehiculo": {"type": "any"}},
    "required": ["number"]}}]}]


@pytest.mark.parametrize("source, data, names", [("openai", OPENAI, ["get_weather"]),
                                                 ("mcp", MCP, ["read_file", "ping"]),
                                                 ("bfcl", BFCL, ["math.factorial"])])
def test_importers_round_trip_through_manifests(engine, tmp_path, source, data, names):
    tools = import_tools(data, source)
    assert [t.name for t in tools] == names
    written, refused = write_manifests(tools, tmp_path)
    reloaded = load_manifests(tmp_path)
    assert sorted(t.name for t in reloaded) == sorted(names) and len(written) == len(names) and not refused
    engine.check(compile_pool(reloaded).text)
    again, refused = write_manifests(tools, tmp_path)
    assert not again and len(refused) == len(names) and "exists already" in str(refused[0])
    assert len(write_manifests(tools, tmp_path, force=True)[0]) == len(names)
    assert not list(tmp_path.glob(".*.tmp"))


def test_bfcl_quirks(engine):
    [tool] = import_tools(BFCL, "bfcl")
    props = tool.parameters["properties"]
    assert props["scale"] == {"type": "number"} and props["pair"]["type"] == "array"
    assert props["Content-Type"]["type"] == "string" and "type" not in props["año_vehiculo"]
    grammar = compile_pool([tool]).text
    call = {"name": "math.factorial", "arguments": {"number": 5, "scale": 2, "Content-Type": "xml",
                                                    "año_vehiculo": [1, "x"]}}
    assert engine.accepts(grammar, json_text(call))
    assert bfcl_schema({"type": "array", "enum": ["a", "b"], "items": {"type": "string"}})["items"]["enum"] == ["a", "b"]


def test_import_errors_name_the_file_and_entry(tmp_path):
    bad = tmp_path / "tools.json"
    bad.write_text(json.dumps({"tools": [{"type": "function", "function": {"description": "no name"}},
                                         {"type": "function", "function": {"name": "ok"}}]}))
    [imported] = read_import_file(bad, "openai").values()
    assert [t.name for t in imported.tools] == ["ok"]  # one bad entry never costs the others
    assert re.match(r".*tools\.json: \[0\]: not an OpenAI tool", str(imported.skipped[0]))
    bad.write_text(json.dumps([{"name": "a", "parameters": {"type": "object"}},
                               {"name": "a", "parameters": {"type": "object", "properties": {}}}]))
    assert "two different tools are both named 'a'" in str(read_import_file(bad, "bfcl")[""].skipped[0])
    for text, message in [("{nope", "neither JSON nor JSON lines"), ("[]", "holds no tools")]:
        bad.write_text(text)
        with pytest.raises(ManifestError, match=message):
            read_import_file(bad, "mcp")


def test_imported_data_never_names_a_local_file(tmp_path):
    (tmp_path / "secret.json").write_text(json.dumps({"type": "object", "properties": {"x": {}}}))
    imported = import_each([{"name": "f", "parameters": "secret.json"}], "openai", "t.json")
    assert not imported.tools and "t.json: [0].parameters: f: must be a JSON Schema object" in str(imported.skipped[0])


def test_mcp_tools_need_an_input_schema():
    imported = import_each({"tools": [{"name": "a"}, {"name": "b", "inputSchema": {"type": "object"}}]}, "mcp")
    assert [t.name for t in imported.tools] == ["b"] and "[0].inputSchema: a: missing" in str(imported.skipped[0])


def test_bfcl_scalar_with_a_string_enum_is_repaired():
    entry = {"name": "f", "parameters": {"type": "dict", "properties": {
        "veg": {"type": "boolean", "enum": ["True", "False", "dontcare"]},
        "adults": {"type": "integer", "enum": ["1", "2", "dontcare"]},
        "group": {"type": "integer", "enum": ["Group A", "Group B"]},
        "kinds": {"type": ["integer", "null"], "enum": [1, None]},
        "issuer": {"type": "", "description": "blank, as in simple_javascript_23"}}}}
    imported = import_each([entry], "bfcl", "live.json")
    properties = imported.tools[0].parameters["properties"]
    assert properties["veg"] == {"type": "boolean", "enum": [True, False]}
    assert properties["adults"] == {"type": "integer", "enum": [1, 2]}
    assert properties["group"] == {"type": "integer"}
    assert properties["kinds"] == {"type": ["integer", "null"], "enum": [1, None]}
    assert imported.notes == [
        'live.json[0] (f): parameters.properties.veg: boolean with the enum ["True", "False", "dontcare"]: '
        'the enum becomes [true, false]',
        'live.json[0] (f): parameters.properties.adults: integer with the enum ["1", "2", "dontcare"]: '
        'the enum becomes [1, 2]',
        'live.json[0] (f): parameters.properties.group: integer with the enum ["Group A", "Group B"]: '
        'the enum is dropped',
        'live.json[0] (f): parameters.properties.issuer.type: the empty type is dropped (any value)']
    assert properties["issuer"] == {"description": "blank, as in simple_javascript_23"}


def test_cli_import_keeps_every_bfcl_entry_inside_the_output(tmp_path):
    data = [{"id": "../../escape", "function": [{"name": "f", "parameters": {"type": "dict", "properties": {}}}]},
            {"id": "same", "function": [{"name": "g", "parameters": {"type": "dict", "properties": {}}}]},
            {"id": "same", "function": [{"name": "h", "parameters": {"type": "dict", "properties": {}}}]},
            {"id": "bad", "function": [{"name": "k", "parameters": "x.json"}]}]
    source = tmp_path / "in.json"
    source.write_text(json.dumps(data))
    out = tmp_path / "out"

    def run(*extra):
        return subprocess.run([sys.executable, "-m", "gbnf", "import", "--from", "bfcl", str(source), "-o", str(out),
                               *extra], capture_output=True, text=True, timeout=120, cwd=REPO)

    done = run()
    assert done.returncode == 1 and "skipped" in done.stderr and "3 manifests written" in done.stdout
    folders = sorted(p.name for p in out.iterdir())
    assert folders == ["bad", "escape", "same", "same_1"] and not (tmp_path / "escape").exists()
    again = run()
    assert again.returncode == 2 and "exists already" in again.stderr  # nothing overwritten without --force
    assert run("--force").returncode == 1


def test_cli_import_every_bfcl_file(tmp_path):
    corpus = REPO / "corpora" / "bfcl" / "BFCL_v4_simple_python.json"
    done = subprocess.run([sys.executable, "-m", "gbnf", "import", "--from", "bfcl", str(corpus), "-o",
                           str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    folders = sorted(p for p in tmp_path.iterdir() if p.is_dir())
    assert len(folders) == 400  # one pool per BFCL entry
    assert sum(len(load_manifests(f)) for f in folders) == int(done.stdout.split()[0]) == 400
    assert load_manifests(tmp_path / "simple_python_1")[0].name == "math.factorial"


def test_counts_past_llama_cpps_repetition_limit_stay_exact(engine):
    assert verdicts(engine, {"type": "string", "minLength": 2500}, "a" * 2500, "a" * 2499) == [True, False]
    assert verdicts(engine, {"type": "string", "pattern": "^a{2001}$"}, "a" * 2001, "a" * 2002) == [True, False]
    assert verdicts(engine, {"type": "array", "minItems": 2001, "items": {"const": 1}}, [1] * 2001, [1] * 2000) == [
        True, False]


@pytest.mark.parametrize("schema, looser", [
    ({"type": "string", "minLength": 10**30}, "minLength: past 10000: left to the validator"),
    ({"type": "string", "pattern": "^a{1000000000}$"}, "pattern: not translated (a repetition {1000000000} past"),
    ({"type": "object", "minProperties": 2.0, "maxProperties": 10**6, "additionalProperties": {"type": "integer"}},
     "maxProperties: past 10000"),
])
def test_huge_counts_are_left_to_the_validator(engine, schema, looser):
    grammar = compile_schema_grammar(schema)
    engine.check(grammar.text)
    assert any(note.startswith(looser) for note in grammar.looser)


@pytest.mark.parametrize("schema, message", [
    ({"type": "object", "minProperties": 4, "maxProperties": 1, "additionalProperties": True},
     "minProperties: minProperties is larger than maxProperties"),
    ({"type": "array", "minItems": 3, "maxItems": 2}, "minItems: minItems is larger than maxItems"),
    ({"const": float("nan")}, "const: NaN and Infinity are not JSON"),
    ({"type": 5}, "type: not valid JSON Schema"),
    ({"properties": {"a": {"allOf": "x"}}}, "properties.a.allOf: not valid JSON Schema"),
    ({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}, ""),
])
def test_contradictory_or_invalid_schemas_are_schema_errors(schema, message):
    with pytest.raises(SchemaError) as caught:
        compile_schema(schema)
    assert str(caught.value).startswith(message)


def test_many_optional_properties_grow_the_grammar_linearly(engine):
    def grammar(n):
        return compile_schema({"type": "object", "additionalProperties": False,
                               "properties": {f"p{i}": {"type": "integer"} for i in range(n)}})

    assert len(grammar(200)) < 12 * len(grammar(20))  # tails chained one by one; quadratic growth would be 100x
    small, large = grammar(1000), grammar(4000)
    assert len(large) < 5 * len(small)  # in blocks (past LONGEST_CHAIN members); quadratic would be 16x
    engine.check(large)
    for value, ok in [({}, True), ({"p1": 1}, True), ({"p0": 1, "p1999": 2}, True), ({"p1999": 2, "p0": 1}, False)]:
        assert engine.accepts(large, json_text(value)) is ok


def test_unique_items_over_a_few_listed_values_are_exact(engine):
    days = {"type": "array", "items": {"enum": ["mon", "tue", "wed"]}, "uniqueItems": True, "minItems": 1}
    assert verdicts(engine, days, ["mon"], ["wed", "mon", "tue"], ["tue", "wed"], [], ["mon", "mon"],
                    ["tue", "wed", "tue"], ["mon", "tue", "wed", "mon"]) == [True, True, True, False, False, False,
                                                                             False]
    two = {**days, "minItems": 2, "maxItems": 2}
    assert verdicts(engine, two, ["mon", "tue"], ["mon"], ["mon", "tue", "wed"], ["wed", "wed"]) == [
        True, False, False, False]
    free = compile_schema_grammar({"type": "array", "items": {"type": "string"}, "uniqueItems": True})
    assert free.looser == ("uniqueItems: left to the validator (which drops repeated items)",)
    with pytest.raises(Unsatisfiable, match="minItems"):
        compile_schema({**days, "minItems": 4})
