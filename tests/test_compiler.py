"""The compiler, with llama.cpp's own engine deciding what a grammar parses and accepts."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from dataclasses import replace

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

import gbnf.compiler as compiler
from gbnf import SchemaError, Tool, compile_pool, compile_schema, compile_schema_grammar
from gbnf.compiler import in_grammar_order, json_text, references, translate
from gbnf.errors import GbnfSyntaxError, InvalidCall, Unsatisfiable
from gbnf.read import validate_json
from gbnf.testing import llguidance_oracle
from tests.conftest import MANIFESTS, REPO

RULE = re.compile(r"^([^\s]+) ::= ", re.M)


def call(name: str, arguments: dict) -> str:
    return json_text({"name": name, "arguments": arguments})


def rule_names(text: str) -> list[str]:
    return RULE.findall(text)


def reachable(text: str) -> set[str]:
    bodies = dict(line.split(" ::= ", 1) for line in text.splitlines())
    seen, stack = {"root"}, ["root"]
    while stack:
        for name in references(bodies[stack.pop()]):
            if name not in seen:
                seen.add(name)
                stack.append(name)
    return seen


def test_pool_grammar_parses_and_accepts_a_valid_call_for_every_manifest(engine, tools):
    grammar = compile_pool(tools).text
    engine.check(grammar)
    for tool in tools:
        settings_ = settings(max_examples=15, deadline=None, database=None,
                             suppress_health_check=list(HealthCheck))

        @settings_
        @given(from_schema(tool.parameters))
        def accepted(arguments: dict) -> None:
            text = call(tool.name, in_grammar_order(arguments, tool.parameters))
            assume(engine.representable(text))
            assert engine.accepts(grammar, text), arguments

        accepted()


def test_no_underscore_in_rule_names(tools):
    odd = Tool("a_b__c", "d", {"type": "object", "properties": {"x_y": {"type": "object", "properties": {
        "_z_": {"enum": ["q_r"]}}}}})
    for text in (compile_pool([*tools, odd]).text, compile_schema(odd.parameters)):
        names = rule_names(text)
        assert names and all(re.fullmatch(r"[a-z][a-zA-Z0-9]*", n) for n in names), names
        assert len(names) == len(set(names))


def test_primitives_only_referenced_emitted(engine):
    text = compile_schema({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                           "additionalProperties": False})
    names = set(rule_names(text))
    assert names == {"root", "ws", "string", "stringChar", "stringEscape"}
    assert reachable(text) == names
    only_bool = compile_schema({"type": "boolean"}, layout="compact")
    assert set(rule_names(only_bool)) == {"root", "boolean"}
    engine.check(only_bool)


def test_every_rule_reachable_in_the_pool_grammar(tools):
    text = compile_pool(tools).text
    assert reachable(text) == set(rule_names(text))


def test_discriminated_union_rejects_mixed_calls(engine, tools):
    grammar = compile_pool(tools).text
    assert engine.accepts(grammar, call("find_files", {"pattern": "*.pdf"}))
    assert not engine.accepts(grammar, call("get_now", {"pattern": "*.pdf"}))
    dialog = {"title": "t", "dialog": [{"var": "v", "prompt": "p", "schema": {"kind": "choice"}}]}
    assert engine.accepts(grammar, call("get_inputs", dialog))
    assert not engine.accepts(grammar, call("send_messages", dialog))
    assert not engine.accepts(grammar, call("get_inputs", {"kind": "choice", "from_step": 1}))
    assert not engine.accepts(grammar, call("invented_tool", {}))


def test_schema_details_accepted_and_rejected(engine, tools):
    grammar = compile_pool(tools).text
    accept = [
        call("get_now", {}),
        call("get_now", {"timezone": "Europe/Rome"}),
        call("undo_last_turn", {}),
        call("send_messages", {"recipients": ["ann"], "text": "hi", "channel": "sms"}),
        '{\n  "name": "get_now",\n  "arguments": {\n    "timezone": "UTC"\n  }\n}',
        '{"name": "final_answer", "arguments": {"answer": "done"}}',
    ]
    reject = [
        call("send_messages", {"recipients": [], "text": "hi"}),  # minItems 1
        call("send_messages", {"text": "hi", "recipients": ["ann"]}),  # key order is the schema's
        call("send_messages", {"recipients": ["ann"], "text": "hi", "channel": "fax"}),  # enum
        call("send_messages", {"recipients": ["ann"]}),  # required text missing
        call("get_now", {"timezone": "UTC", "extra": 1}),  # undeclared property
        call("get_inputs", {"title": "t", "dialog": [{"var": "v", "prompt": "p", "schema": {"kind": "banana"}}]}),
        call("get_inputs", {"title": "t", "dialog": [{"prompt": "p", "schema": {"kind": "text"}}]}),  # no var
        '{"name": "get_now", "arguments": {}} trailing',
        '{"name": "get_now", "arguments": {}',
    ]
    assert [engine.accepts(grammar, t) for t in accept] == [True] * len(accept)
    assert [engine.accepts(grammar, t) for t in reject] == [False] * len(reject)


def test_whitespace_is_bounded(engine, tools):
    grammar = compile_pool(tools).text
    assert engine.accepts(grammar, '{"name": "get_now", "arguments":\n' + " " * 20 + "{}}")
    assert not engine.accepts(grammar, '{"name": "get_now", "arguments":\n' + " " * 21 + "{}}")
    assert not engine.accepts(grammar, '{"name": "get_now", "arguments":  {}}')
    assert not re.search(r"\]\*|\]\+", grammar.split("ws ::=")[1].splitlines()[0])


def test_compact_allows_no_whitespace(engine, tools):
    grammar = compile_pool(tools, layout="compact").text
    engine.check(grammar)
    assert "ws" not in rule_names(grammar)
    assert engine.accepts(grammar, call("get_now", {"timezone": "UTC"}))
    assert not engine.accepts(grammar, '{"name": "get_now","arguments":{}}')


def test_line_layout_is_json_dumps_and_nothing_else(engine, tools):
    """One line, a space after each comma and colon: the text of ``json.dumps``, and no other
    spacing, in the pool's calls, in parallel arrays and in generic values."""
    grammar = compile_pool(tools, layout="line", parallel=2, single=True).text
    engine.check(grammar)
    assert "ws" not in rule_names(grammar)
    one = {"name": "find_files", "arguments": {"pattern": "*.md", "max_results": 5}}
    two = {"name": "get_now", "arguments": {}}
    for value in (one, [one, two], [two]):
        assert engine.accepts(grammar, json.dumps(value))
        assert not engine.accepts(grammar, json.dumps(value, separators=(",", ":")))
        assert not engine.accepts(grammar, json.dumps(value, indent=2))
    bare = compile_schema({"type": "object", "properties": {"a": {"type": "array"}}, "additionalProperties": {}},
                          layout="line")
    nested = {"a": [1, {"b": [True, None]}], "c": {"d": "e", "f": []}}
    assert engine.accepts(bare, json.dumps(nested))
    assert not engine.accepts(bare, json.dumps(nested).replace(": ", ":", 1))
    assert not engine.accepts(bare, json.dumps(nested).replace("[1, ", "[1,"))


def test_indented_layout_is_json_dumps_indent_2_and_nothing_else(engine, tools):
    """One member or item per line, two spaces a level, at every depth of the calls, in
    parallel arrays too; a generic value (no schema) keeps free whitespace."""
    grammar = compile_pool(tools, layout="indented", parallel=2, single=True).text
    engine.check(grammar)
    one = {"name": "send_messages", "arguments": {"recipients": ["Anna", "Jonas"], "text": "hi"}}
    two = {"name": "get_now", "arguments": {}}
    for value in (one, [one, two], [two]):
        assert engine.accepts(grammar, json.dumps(value, indent=2))
        assert not engine.accepts(grammar, json.dumps(value))
        assert not engine.accepts(grammar, json.dumps(value, indent=4))
    bare = compile_schema({"type": "object", "properties": {"a": {"type": "object", "properties": {
        "b": {"type": "array", "items": {"type": "integer"}}}}, "c": {}}}, layout="indented")
    nested = {"a": {"b": [1, 2]}, "c": {"d": [True]}}
    assert engine.accepts(bare, json.dumps(nested, indent=2))
    assert engine.accepts(bare, json.dumps(nested, indent=2).replace('"d": [\n      true\n    ]', '"d": [true]'))
    assert not engine.accepts(bare, json.dumps(nested, indent=2).replace("[\n      1", "[1"))


def test_a_pool_of_known_schemas_compiles_to_what_a_fresh_compile_gives(tools, monkeypatch):
    """Schemas compiled before are replayed, not walked again, under any tool name; in any order
    and company (rule names that collide, bodies shared with other tools, the same schema under
    two names, rules reserved before their bodies because they refer to each other in a cycle)
    the grammar is the one a compile without replays writes."""
    rng = random.Random(7)
    cyclic = {"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 3},
                                               "slug": {"type": "string", "pattern": "^[a-z]+(-[a-z]+)*$", "maxLength": 9}}}
    tools = [*tools, replace(tools[0], name="stepped", parameters=cyclic)]
    twins = [replace(t, name=t.name.replace("_", "-")) for t in tools[:5]]  # the same rule words
    renamed = [replace(t, name=f"{t.name[::-1]}_{i}") for i, t in enumerate(tools)]  # the same schemas
    for i in range(30):
        pool = rng.sample([*tools, *twins, *renamed], rng.randint(1, len(tools) + len(twins)))
        options = {"layout": rng.choice(["free", "indented"]), "parallel": rng.choice([1, 2])}
        compile_pool(rng.sample([*tools, *twins, *renamed], len(pool)), **options)  # others, named otherwise
        warm = compile_pool(pool, **options)
        with monkeypatch.context() as patch:
            patch.setattr("gbnf.compiler.FRAGMENT_CACHE", 0)
            compiler._fragments.clear()
            assert compile_pool(pool, **options) == warm, i


def test_parallel_calls_array(engine, tools):
    grammar = compile_pool(tools, parallel=3).text
    engine.check(grammar)
    one = call("get_now", {})
    two = call("find_files", {"pattern": "*.md"})
    assert not engine.accepts(grammar, one)
    assert engine.accepts(grammar, f"[{one}]")
    assert engine.accepts(grammar, f"[{one}, {two}, {one}]")
    assert not engine.accepts(grammar, f"[{one},{two},{one},{two}]")
    assert not engine.accepts(grammar, "[]")
    assert not engine.accepts(grammar, "Paris.")
    assert not engine.accepts(grammar, f'[{one},{call("get_now", {"pattern": "*.md"})}]')


def test_parallel_calls_one_or_an_array(engine, tools):
    grammar = compile_pool(tools, parallel=3, single=True).text
    engine.check(grammar)
    one = call("get_now", {})
    assert engine.accepts(grammar, one) and engine.accepts(grammar, f"[{one}, {one}]")
    assert not engine.accepts(grammar, "[]")


def test_parallel_calls_at_least_some(engine, tools):
    grammar = compile_pool(tools, parallel=3, least=2, single=True, text=True).text
    engine.check(grammar)
    one = call("get_now", {})
    assert not engine.accepts(grammar, one) and not engine.accepts(grammar, f"[{one}]")
    assert engine.accepts(grammar, f"[{one}, {one}]") and engine.accepts(grammar, f"[{one}, {one}, {one}]")
    assert not engine.accepts(grammar, f"[{one}, {one}, {one}, {one}]") and not engine.accepts(grammar, "Paris.")
    with pytest.raises(SchemaError, match="least"):
        compile_pool(tools, parallel=2, least=3)


def test_parallel_calls_in_a_given_order_first(engine, tools):
    grammar = compile_pool(tools, parallel=4, least=2, single=True, order=["get_now", "final_answer"]).text
    engine.check(grammar)
    now, answer = call("get_now", {}), call("final_answer", {"answer": "done"})
    assert engine.accepts(grammar, f"[{now}, {answer}]") and engine.accepts(grammar, f"[{now}, {answer}, {now}]")
    assert not engine.accepts(grammar, f"[{answer}, {now}]") and not engine.accepts(grammar, f"[{now}, {now}]")
    with pytest.raises(SchemaError, match="order"):
        compile_pool(tools, parallel=4, least=1, order=["get_now", "get_now"])
    with pytest.raises(SchemaError, match="order"):
        compile_pool(tools, parallel=4, least=2, order=["no_such_tool"])


def test_text_or_a_call(engine, tools):
    grammar = compile_pool(tools, text=True).text
    engine.check(grammar)
    assert engine.accepts(grammar, call("get_now", {}))
    assert engine.accepts(grammar, "It is sunny in Paris {today}.")
    assert not engine.accepts(grammar, "")
    assert not engine.accepts(grammar, " leading space")
    assert not engine.accepts(grammar, '{"name": "nope"}')
    assert not engine.accepts(grammar, f"[{call('get_now', {})}]")


def test_colliding_camel_case_names_get_distinct_rules(engine):
    pool = [Tool("get_inputs", "a", {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}),
            Tool("getInputs", "b", {"type": "object", "properties": {"b": {"type": "boolean"}}, "required": ["b"]}),
            Tool("get-inputs", "c", {"type": "object", "properties": {}})]
    grammar = compile_pool(pool)
    engine.check(grammar.text)
    assert {"callGetInputs", "callGetInputs2", "callGetInputs3"} <= set(grammar.rules)
    assert engine.accepts(grammar.text, call("get_inputs", {"a": 1}))
    assert engine.accepts(grammar.text, call("getInputs", {"b": True}))
    assert engine.accepts(grammar.text, call("get-inputs", {}))
    assert not engine.accepts(grammar.text, call("getInputs", {"a": 1}))
    assert compile_pool(pool).text == grammar.text


def test_output_is_deterministic_across_processes(tools):
    code = "import gbnf,sys; sys.stdout.write(gbnf.compile_pool(gbnf.load_manifests(sys.argv[1])).text)"
    texts = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        texts.add(subprocess.run([sys.executable, "-c", code, str(MANIFESTS)], capture_output=True, text=True,
                                 env=env, check=True, cwd=REPO).stdout)
    assert texts == {compile_pool(tools).text}


def test_keys_matching_no_pattern_are_written_alike_in_every_process():
    schema = {"type": "object", "properties": {"kind": {"type": "string"}, "value": {"type": "integer"}},
              "patternProperties": {"^x-": {"type": "string"}, "^[0-9]+$": {"type": "integer"}}}
    code = "import gbnf,json,sys; sys.stdout.write(gbnf.compile_schema(json.loads(sys.argv[1])))"
    texts = {subprocess.run([sys.executable, "-c", code, json.dumps(schema)], capture_output=True, text=True,
                            env={**os.environ, "PYTHONHASHSEED": seed}, check=True, cwd=REPO).stdout
             for seed in ("1", "2", "3", "4")}
    assert texts == {compile_schema(schema)}
    assert "KeyText" in texts.pop()


def test_a_long_run_of_optional_members_chains_in_blocks_with_the_same_language(engine, monkeypatch):
    keys = [f"k{i:02d}" for i in range(30)]
    schema = {"type": "object", "properties": {key: {"type": "integer"} for key in keys},
              "additionalProperties": False}
    chained = compile_schema(schema)
    monkeypatch.setattr(compiler._objects, "LONGEST_CHAIN", 7)  # 30 members: 6 blocks of 5
    blocked = compile_schema(schema)
    assert blocked != chained
    assert len(compiler.translate(blocked, "llguidance")) < 2 * len(compiler.translate(chained, "llguidance"))
    rng = random.Random(7)
    for _ in range(40):
        chosen = sorted(rng.sample(keys, rng.randint(0, 30)))
        shuffled = rng.sample(chosen, len(chosen))
        for members, valid in ((chosen, True), (shuffled, shuffled == chosen), (chosen + chosen[:1], not chosen)):
            text = json_text({key: 1 for key in members}) if len(set(members)) == len(members) else (
                "{" + ",".join(f'"{key}":1' for key in members) + "}")
            for grammar in (chained, blocked):
                assert engine.accepts(grammar, text) == valid, (members, grammar is blocked)
            assert llguidance_oracle().accepts(blocked, text) == valid, members


def test_an_all_of_reached_through_a_ref_keeps_its_parts_in_an_old_draft(engine):
    schema = {"$schema": "http://json-schema.org/draft-04/schema#",
              "oneOf": [{"$ref": "#/definitions/success"}, {"$ref": "#/definitions/failure"}],
              "definitions": {
                  "common": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}},
                  "success": {"allOf": [{"$ref": "#/definitions/common"}, {"required": ["result"]}]},
                  "failure": {"allOf": [{"$ref": "#/definitions/common"}, {"required": ["error"]}]}}}
    grammar = compile_schema(schema)
    for instance, valid in (({"id": 1, "result": 2}, True), ({"id": 1, "error": "no"}, True), ({"id": 1}, False)):
        assert engine.accepts(grammar, json_text(instance)) == valid, instance


def test_members_go_in_the_grammars_order_where_an_all_of_part_declares_a_key_again(engine):
    base = {"type": "object", "properties": {"priority": {"type": "number"}, "options": {"type": "object"}}}
    schema = {"definitions": {"base": base}, "type": "object", "allOf": [{"$ref": "#/definitions/base"}],
              "properties": {"options": {"type": "object", "properties": {"merge": {"type": "boolean"}},
                                         "allOf": [{"properties": {"connections": {"type": "array"}}}]}}}
    value = {"priority": 1, "options": {"connections": [], "merge": True}}
    ordered = in_grammar_order(value, schema)
    assert list(ordered) == ["options", "priority"] and list(ordered["options"]) == ["merge", "connections"]
    assert engine.accepts(compile_schema(schema), json_text(ordered))


def test_members_go_in_the_grammars_order_through_conditionals_and_union_refs(engine):
    schema = {"type": "object", "properties": {"type": {"enum": ["shaped", "plain"]}},
              "definitions": {"common": {"type": "object", "properties": {"type": {}, "group": {"type": "string"}}},
                              "result": {"type": "object", "properties": {"count": {"type": "integer"},
                                                                          "item": {"type": "string"}}}},
              "allOf": [{"if": {"properties": {"type": {"const": "shaped"}}},
                         "then": {"anyOf": [{"$ref": "#/definitions/common"}],
                                  "properties": {"result": {"$ref": "#/definitions/result"}}}}]}
    value = {"group": "g", "result": {"item": "stone", "count": 4}, "type": "shaped"}
    ordered = in_grammar_order(value, schema)
    assert list(ordered) == ["type", "result", "group"] and list(ordered["result"]) == ["count", "item"]
    grammar = compile_schema(schema)
    assert engine.accepts(grammar, json_text(ordered))
    assert not engine.accepts(grammar, json_text({"type": "shaped", "result": {"count": "4"}}))


def test_members_go_in_the_grammars_order_through_a_union_in_an_all_of_part(engine):
    retry = {"type": "object", "properties": {"retries": {"type": "integer"}}}
    schema = {"type": "object", "required": ["type"], "definitions": {"retry": retry},
              "allOf": [{"$ref": "#/definitions/retry"}, {"oneOf": [
                  {"properties": {"query": {"type": "string"}, "type": {"const": "table"}}},
                  {"properties": {"path": {"type": "string"}, "type": {"const": "blob"}}}]}]}
    value = {"type": "table", "query": "q", "retries": 2}
    ordered = in_grammar_order(value, schema)
    assert list(ordered) == ["retries", "query", "type"]  # the parts' members, then the branch's
    grammar = compile_schema(schema)
    assert engine.accepts(grammar, json_text(ordered)) and not engine.accepts(grammar, json_text(value))


@pytest.mark.parametrize("minimum", [0, 1500])
def test_a_tuple_of_thousands_of_items_compiles_and_every_engine_loads_it(engine, minimum):
    schema = {"type": "array", "prefixItems": [{"type": "integer"} for _ in range(3000)], "items": False,
              "minItems": minimum}
    grammar = compile_schema(schema)
    oracles = {"llama.cpp": engine, "llguidance": llguidance_oracle()}
    for name, oracle in oracles.items():
        oracle.check(grammar)
        assert oracle.accepts(grammar, json_text(list(range(3000)))), name
        assert oracle.accepts(grammar, json_text(list(range(1500)))), name
        assert not oracle.accepts(grammar, json_text(list(range(3001)))), name
        assert oracle.accepts(grammar, json_text(list(range(1499)))) == (minimum == 0), name


def test_groups_nested_past_llguidances_reader_become_rules_of_their_own():
    optional = compile_schema({"type": "array", "prefixItems": [{"const": i} for i in range(40)], "items": False})
    written = translate(optional, "llguidance")
    assert "__1:" in written and "__2:" in written
    assert llguidance_oracle().accepts(optional, json_text(list(range(40))))
    assert llguidance_oracle().accepts(optional, json_text(list(range(17))))
    assert not llguidance_oracle().accepts(optional, json_text([*range(17), 18]))


def test_a_long_enum_beside_generic_json_loads_in_llguidance_and_decides_as_llama_cpp(engine):
    codes = [f"{a}{b}-{n:02d}" for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for b in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for n in range(25)]
    schema = {"type": "object", "properties": {"code": {"enum": [*codes, "AB", "AB-0"]}, "extra": {}},
              "required": ["code"], "additionalProperties": False}
    grammar = compile_schema(schema)
    written = translate(grammar, "llguidance")
    assert written.count('"Q"') == 1  # one rule per character: a symbol each, not one per use
    oracles = {"llama.cpp": engine, "llguidance": llguidance_oracle()}
    for name, oracle in oracles.items():
        oracle.check(grammar)
        for code, valid in (("QZ-07", True), ("AB", True), ("AB-0", True), ("AB-00", True), ("AB-", False),
                            ("QZ-7", False), ("QZ-25", False), ("ZZ-240", False)):
            assert oracle.accepts(grammar, json_text({"code": code, "extra": [1]})) == valid, (name, code)


def test_an_enum_of_thirty_thousand_strings_is_a_trie_within_the_compile_budget():
    """Whether one value begins another is read from neighbours in sorted order: the values of
    a long enum (a conversation's stretches offered to four calls) are not compared pairwise,
    which passed the compile's time budget and left the arguments as any JSON value."""
    words = [f"w{i:05d} of the request" for i in range(30_000)]
    grammar = compile_schema_grammar({"type": "object", "properties": {"text": {"enum": words}}, "required": ["text"]})
    assert grammar.looser == ()
    assert grammar.text.count("of the request") == 30_000
    numbers = compile_schema_grammar({"enum": [1, 10, 100]})  # "1" begins "10": listed, not a trie
    assert numbers.looser == () and '"1" | "10" | "100"' in numbers.text


def test_a_grammar_nested_past_python_is_a_syntax_error_not_a_traceback():
    with pytest.raises(GbnfSyntaxError, match="nested too deeply"):
        translate("root ::= " + "(" * 5000 + '"a"' + ")" * 5000 + "\n", "llguidance")


def nested(levels: int) -> dict:
    schema: dict = {"type": "object", "properties": {"leaf": {"type": "integer"}}, "required": ["leaf"],
                    "additionalProperties": False}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"n": schema}, "required": ["n"], "additionalProperties": False}
    return schema


def test_depth_cap_falls_back_to_a_generic_object(engine):
    grammar = compile_schema_grammar(nested(6), max_depth=4)
    engine.check(grammar.text)
    strict = {"n": {"n": {"n": {"n": {"leaf": 1}}}}}
    deep_ok = {"n": {"n": {"n": {"n": {"n": {"n": {"leaf": 1}}}}}}}
    deep_loose = {"n": {"n": {"n": {"n": {"n": {"anything": [1, "x"]}}}}}}
    assert engine.accepts(grammar.text, json_text(deep_ok))
    assert engine.accepts(grammar.text, json_text(deep_loose))  # the documented looser spot
    assert not engine.accepts(grammar.text, json_text(strict))  # above the cap the schema holds
    assert not engine.accepts(grammar.text, json_text({"n": {"n": {"n": {"n": {"n": 5}}}}}))  # still an object
    assert grammar.looser == ("n.n.n.n.n: nested deeper than 4: any JSON object",)
    shallow = compile_schema_grammar(nested(3), max_depth=4)
    assert shallow.looser == () and "jsonObject" not in shallow.text


def test_tool_arguments_are_capped_at_4_levels_and_a_bare_schema_at_8():
    tool = Tool(name="deep", description="Nested six levels", parameters=nested(6))
    assert compile_pool([tool]).looser == ("deep.n.n.n.n.n: nested deeper than 4: any JSON object",)
    assert compile_schema_grammar(nested(6)).looser == ()
    assert compile_schema_grammar(nested(9)).looser == ("n.n.n.n.n.n.n.n.n: nested deeper than 8: any JSON object",)


ODD = ['a"b', "back\\slash", "new\nline", "tab\there", "\x00\x01\x1f", "caffè", "日本語", "emoji 😀 𝄞",
       "\u2028", "", " ", "{}", "\\u0041", "[x]", "del\x7f", "^", "-", "]", "a-b^c", "^-]["]


@pytest.mark.parametrize("text", ODD, ids=[json.dumps(t) for t in ODD])
def test_escaping_round_trips(engine, text):
    schema = {"type": "object", "properties": {text: {"enum": [text, 1]}, "c": {"const": text}},
              "required": [text, "c"]}  # undeclared keys allowed: the trie of declared keys is built too
    grammar = compile_schema(schema)
    engine.check(grammar)
    assert engine.accepts(grammar, json_text({text: text, "c": text}))
    assert engine.accepts(grammar, json_text({text: 1, "c": text}))
    changed = text[:-1] + chr(ord(text[-1]) + 1) if text else "x"
    assert not engine.accepts(grammar, json_text({text: changed, "c": text}))
    assert not engine.accepts(grammar, json_text({changed: text, "c": text}))
    pool = compile_pool([Tool(text, "d", {"type": "object", "properties": {}})]).text
    engine.check(pool)
    assert engine.accepts(pool, call(text, {}))
    assert not engine.accepts(pool, call(changed, {}))


def test_type_lists_enums_consts_and_lengths(engine):
    grammar = compile_schema({"type": "object", "properties": {
        "t": {"type": ["integer", "null"]},
        "e": {"enum": [1, "one", None, True, {"k": [1]}]},
        "k": {"const": 3.5},
        "s": {"type": "string", "minLength": 2, "maxLength": 3},
        "a": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 3},
    }, "required": ["t", "e", "k", "s", "a"]})
    engine.check(grammar)

    def doc(**over):
        base = {"t": None, "e": "one", "k": 3.5, "s": "ab", "a": [1, 2.5]}
        return json_text({**base, **over})

    for good in (doc(), doc(t=7), doc(e={"k": [1]}), doc(e=None), doc(s="abc"), doc(s='"\\'),
                 doc(a=[1e5, -0.5, 3])):
        assert engine.accepts(grammar, good), good
    for bad in (doc(t="7"), doc(t=1.5), doc(e=2), doc(k=3), doc(s="a"), doc(s="abcd"), doc(a=[1]),
                doc(a=[1, 2, 3, 4]), doc(a=[1, "2"])):
        assert not engine.accepts(grammar, bad), bad


def test_parts_no_value_satisfies_are_left_out(engine):
    schema = {"type": "object", "additionalProperties": False, "required": ["id"], "properties": {
        "builtin": {"type": "object", "enum": ["A", "B"]},  # optional, so never present
        "id": {"type": "string", "anyOf": [{"type": "null"}, {"maxLength": 2}]},  # the null branch goes
        "list": {"prefixItems": [{"type": "integer"}, {"enum": []}], "items": {"type": "string"}}}}
    grammar = compile_schema(schema)
    for good in ({"id": "ab"}, {"id": "", "list": [1]}, {"id": "a", "list": []}):
        assert engine.accepts(grammar, json_text(good)), good
    for bad in ({"id": None}, {"id": "abc"}, {"id": "a", "builtin": "A"}, {"id": "a", "list": [1, "x"]}):
        assert not engine.accepts(grammar, json_text(bad)), bad
    with pytest.raises(Unsatisfiable, match=r"^builtin\.enum: no listed value satisfies the rest of the schema"):
        compile_schema({**schema, "required": ["id", "builtin"]})
    too_long = {**schema["properties"]["list"], "minItems": 2}
    untyped = compile_schema({"type": "object", "properties": {"list": too_long}, "required": ["list"]})
    assert engine.accepts(untyped, '{"list":"x"}') and not engine.accepts(untyped, '{"list":[1,"a"]}')  # not an array
    with pytest.raises(Unsatisfiable, match=r"^list\.minItems: minItems is larger than the items allowed"):
        compile_schema({**schema, "properties": {"list": {**too_long, "type": "array"}}, "required": ["list"]})


def test_a_recursive_union_is_emitted_once_per_depth(engine):
    # six objects, each with three members that may be any of the six: 18^8 paths to the depth cap
    # (to a cap of 4 once took 4 minutes and 12 million looser notes); each part is emitted once per depth
    branches = [{"$ref": f"#/$defs/n{i}"} for i in range(6)]
    defs = {f"n{i}": {"type": "object", "properties": {k: {"anyOf": branches} for k in "abc"}, "required": [f"k{i}"],
                      "additionalProperties": {"type": "string", "pattern": "^x(?=y)"}} for i in range(6)}
    grammar = compile_schema_grammar({"$defs": defs, "anyOf": branches})
    # each object's pattern at each depth, and the depth cap
    assert len(grammar.looser) == 6 * (compiler.SCHEMA_MAX_DEPTH + 1) + 6
    inner = {"a": {"k0": "x"}, "k1": "x"}  # required keys come after the declared properties
    assert engine.accepts(grammar.text, json_text({"b": inner, "k0": "x"}))
    assert not engine.accepts(grammar.text, json_text({"b": {"a": {"k0": "x"}}, "k0": "x"}))


@pytest.mark.parametrize("schema", [
    {"$schema": "http://json-schema.org/draft-04/schema#", "definitions": {"n": {"id": "#n", "type": "integer"}},
     "properties": {"x": {"$ref": "#n"}}},
    {"$defs": {"n": {"$anchor": "n", "type": "integer"}}, "properties": {"x": {"$ref": "#n"}}},
    {"$id": "https://example.com/s.json", "$defs": {"n": {"type": "integer"}},
     "properties": {"x": {"$ref": "https://example.com/s.json#/$defs/n"}}},
], ids=["draft4-id", "anchor", "own-id"])
def test_refs_by_name_and_by_the_schemas_own_id(engine, schema):
    grammar = compile_schema(schema)
    assert engine.accepts(grammar, '{"x": 1}') and not engine.accepts(grammar, '{"x": "1"}')
    assert validate_json('{"x": 1}', schema) == {"x": 1}
    with pytest.raises(InvalidCall):
        validate_json('{"x": "1"}', schema)


def test_a_remote_ref_is_left_to_the_validator(engine):
    schema = {"properties": {"x": {"$ref": "http://json-schema.org/draft-04/schema#/properties/type"},
                             "y": {"$ref": "https://nowhere.example/s.json"}}}
    grammar = compile_schema_grammar(schema)
    assert grammar.looser == ("x.$ref: 'http://json-schema.org/draft-04/schema#/properties/type' is not fetched: "
                              "any value, left to the validator",
                              "y.$ref: 'https://nowhere.example/s.json' is not fetched: any value, left to the validator")
    assert engine.accepts(grammar.text, '{"x": 5}')
    assert validate_json('{"x": "string"}', schema) == {"x": "string"}  # jsonschema has the metaschemas at hand
    with pytest.raises(InvalidCall):
        validate_json('{"x": 5}', schema)
    with pytest.raises(SchemaError, match=r"its schema cannot check a value \(.*Unresolvable"):
        validate_json('{"y": 5}', schema)


def test_past_the_compile_budget_the_rest_is_any_value(engine, monkeypatch):
    schema = {"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}, "b": {
        "type": "object", "properties": {"c": {"type": "integer"}}}}, "required": ["a", "b"],
              "additionalProperties": False}  # no key rule: a's rule is the first written
    monkeypatch.setattr("gbnf.compiler._rules.GRAMMAR_CHARS", 20)  # passed once a's rule is written
    grammar = compile_schema_grammar(schema)
    assert grammar.looser == ("b: the grammar passed 20 characters: this part and every part not yet emitted "
                              "are any JSON value",)
    assert engine.accepts(grammar.text, '{"a": "x", "b": [true]}')
    assert not engine.accepts(grammar.text, '{"a": "long", "b": {"c": 1}}')
    monkeypatch.setattr("gbnf.compiler._rules.COMPILE_SECONDS", 0)
    grammar = compile_schema_grammar(schema)
    assert grammar.looser == ("(root): the compile passed 0 s: this part and every part not yet emitted are any "
                              "JSON value",)
    assert engine.accepts(grammar.text, "[1]")


def test_past_the_key_budget_the_deepest_keys_go_loose_first(engine, monkeypatch):
    schema = {"type": "object", "properties": {"alpha": {"type": "integer"}, "inner": {
        "type": "object", "properties": {"beta": {"type": "integer"}, "gamma": {"type": "integer"}}}}}
    monkeypatch.setattr("gbnf.compiler._objects.KEY_NODES", 12)  # the root's keys take 9, inner's 8
    grammar = compile_schema_grammar(schema)
    assert grammar.looser == ("inner: undeclared keys may repeat a declared one (past 12 key rules in one schema)",)
    wrong = {"inner": {}, "alpha": "x"}  # "alpha" out of order: only an undeclared member could be it
    assert not engine.accepts(grammar.text, json_text(wrong))
    assert engine.accepts(grammar.text, json_text({"alpha": 1, "inner": {"beta": 1, "zeta": [2]}}))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(wrong, schema)


def test_bad_schemas_raise_schema_error_with_path():
    with pytest.raises(SchemaError, match=r"^a\.type: unknown type 'float'"):
        compile_schema({"type": "object", "properties": {"a": {"type": "float"}}})
    with pytest.raises(SchemaError, match=r"^a\.enum: must be a list"):
        compile_schema({"properties": {"a": {"enum": "x"}}})
    with pytest.raises(SchemaError, match="empty pool"):
        compile_pool([])


decimals = st.decimals(min_value=-300, max_value=300, places=3, allow_nan=False, allow_infinity=False)


@given(low=st.one_of(st.none(), decimals), high=st.one_of(st.none(), decimals), low_open=st.booleans(),
       high_open=st.booleans(), values=st.lists(st.decimals(-400, 400, places=4), min_size=1, max_size=12),
       places=st.one_of(st.none(), st.integers(0, 3)))
def test_number_bounds_and_decimal_steps_are_exact(low, high, low_open, high_open, values, places):
    schema: dict = {"type": "number"} if places is None else {"type": "number", "multipleOf": 10.0 ** -places}
    for bound, open_, keys in ((low, low_open, ("minimum", "exclusiveMinimum")),
                               (high, high_open, ("maximum", "exclusiveMaximum"))):
        if bound is not None:
            schema[keys[open_]] = int(bound) if bound == int(bound) else float(bound)
    try:
        grammar = compile_schema_grammar(schema)
    except Unsatisfiable:
        assert low is not None and high is not None and (low >= high or places is not None)
        return
    assert not grammar.looser
    oracle = llguidance_oracle()
    for value in [*values, low or 0, high or 0]:
        text = format(value, "f")
        inside = (low is None or (value > low if low_open else value >= low)) and (
            high is None or (value < high if high_open else value <= high)) and (
            places is None or value == round(value, places))
        assert oracle.accepts(grammar.text, text) == inside, (schema, text)


_BODY_TOKENS = st.one_of(
    st.from_regex(r'"([^"\\]|\\.)*"', fullmatch=True).map(lambda t: (t, False)),  # name-like text inside is no name
    st.from_regex(r"\[([^\]\\]|\\.)*\]", fullmatch=True).map(lambda t: (t, False)),
    st.from_regex(r"[a-zA-Z][a-zA-Z0-9-]*", fullmatch=True).map(lambda t: (t, True)),
    st.sampled_from(["(", ")", "|", "?", "*", "+", "{1,4}", "{2}"]).map(lambda t: (t, False)),
)


@given(st.lists(_BODY_TOKENS))
def test_references_are_the_names_outside_literals_and_classes(tokens):
    body = " ".join(text for text, _ in tokens)
    assert references(body) == [text for text, is_name in tokens if is_name]


UNDECLARED = {"type": "object", "properties": {"name": {"type": "string"}},
              "additionalProperties": {"type": "integer"}}


def test_keys_matching_no_pattern_take_additional_properties(engine):
    for pattern, matching, other in ((".*", "anything", None), ("^.*$", "a b", "a\nb"), ("^x-", "x-tag", "tag"),
                                     ("^[a-z]{1,3}$", "abc", "abcd"), ("\\d", "a1", "ab"), ("", "", None)):
        schema = {**UNDECLARED, "patternProperties": {pattern: {"type": "string"}}}
        grammar = compile_schema_grammar(schema)
        assert not [spot for spot in grammar.looser if "matching no pattern" in spot], pattern
        assert engine.accepts(grammar.text, json.dumps({matching: "s"}))
        assert not engine.accepts(grammar.text, json.dumps({matching: 1}))
        assert not engine.accepts(grammar.text, json.dumps({"name": 1}))  # a declared key keeps its schema
        if other is not None:
            assert engine.accepts(grammar.text, json.dumps({other: 1}))
            assert not engine.accepts(grammar.text, json.dumps({other: "s"}))


def test_keys_matching_no_pattern_are_left_to_the_validator_past_what_an_automaton_holds():
    for pattern in ("(?=a)b", "(a)\\1"):
        grammar = compile_schema_grammar({**UNDECLARED, "patternProperties": {pattern: {"type": "string"}}})
        assert [spot for spot in grammar.looser if "matching no pattern" in spot], pattern
    many = {f"property_{i:04d}": {"type": "string"} for i in range(300)}  # 3,900 characters of keys
    grammar = compile_schema_grammar({**UNDECLARED, "properties": many, "patternProperties": {"^x-": {}}})
    assert [spot for spot in grammar.looser if "matching no pattern" in spot]


@given(st.sampled_from(["^[a-c]+$", "^x-", "b", "^a.?$", "c$", "^(ab|ba)$", "a(b|c)", "x-?a", "^a|b$"]),
       st.text("abcx-\n", max_size=5))
@settings(deadline=None)
def test_a_key_takes_the_schema_of_the_patterns_it_matches_or_additional_properties(engine, pattern, key):
    assume(not key.endswith("\n"))  # Python's $ matches before a final newline too; ECMA-262's (the grammar's) does not
    schema = {**UNDECLARED, "patternProperties": {pattern: {"type": "string"}}}
    grammar = compile_schema_grammar(schema)
    exact = not [spot for spot in grammar.looser if "matching no pattern" in spot]
    assert exact, pattern  # an unanchored pattern's automaton loops through several states: rules in a cycle
    for value in ("s", 1):
        instance = {key: value}
        valid = jsonschema.Draft202012Validator(schema).is_valid(instance)
        if exact or valid:  # looser: it may accept what is invalid, never reject what is valid
            assert engine.accepts(grammar.text, json.dumps(instance)) == valid, (pattern, instance)


def test_the_first_calls_may_each_have_a_schema_of_their_own(engine):
    def weather(cities: list[str]) -> Tool:
        return Tool("get_weather", "", {"type": "object", "properties": {"city": {"enum": cities}},
                                        "required": ["city"]})

    pool, first, second = [weather(["Paris", "London"])], weather(["Paris"]), weather(["London"])
    grammar = compile_pool(pool, parallel=3, least=2, order=[first, second]).text
    engine.check(grammar)
    paris, london = call("get_weather", {"city": "Paris"}), call("get_weather", {"city": "London"})
    assert engine.accepts(grammar, f"[{paris}, {london}]") and engine.accepts(grammar, f"[{paris}, {london}, {paris}]")
    assert not engine.accepts(grammar, f"[{paris}, {paris}]") and not engine.accepts(grammar, f"[{london}, {paris}]")
    with pytest.raises(SchemaError, match="order"):
        compile_pool(pool, parallel=3, least=2, order=[first, Tool("get_time", "", {"type": "object"})])
