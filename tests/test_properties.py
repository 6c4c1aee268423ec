"""What the grammar accepts is what the schema accepts, decided by oracles that must agree:
llama.cpp's own engine, a pure-Python lark translation of the grammar, llguidance deciding the
grammar's llguidance dialect, and (when installed: ``pip install -e '.[xgrammar]'``) XGrammar
deciding its XGrammar dialect."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import assume, event, given, note, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from bench.schema_suite import run_file, suite_files
from gbnf import SCHEMA_MAX_DEPTH, GbnfError, Tool, compile_pool, compile_schema, compile_schema_grammar
from gbnf.backends import Sampling, ServerBackend
from gbnf.compiler import in_grammar_order, json_text
from gbnf.testing import lark_oracle, llguidance_oracle, xgrammar_oracle
from tests.derive import Deriver

LISTED = Path(__file__).with_name("validator_only.txt")
XGRAMMAR = importlib.util.find_spec("xgrammar") is not None  # opt-in: it needs torch
DIALECT_ORACLES = {"llguidance": llguidance_oracle, "xgrammar": xgrammar_oracle}

names = st.text(max_size=6)
scalars = st.one_of(st.text(max_size=5), st.integers(-50, 50), st.booleans(), st.none())
leaves = st.one_of(
    st.just({"type": "string"}),
    st.tuples(st.integers(0, 3), st.integers(0, 3)).map(
        lambda t: {"type": "string", "minLength": min(t), "maxLength": max(t)}),
    st.sampled_from([{"type": "integer"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]),
    st.lists(scalars, min_size=1, max_size=4, unique_by=json_text).map(lambda v: {"enum": v}),
    scalars.map(lambda v: {"const": v}),
    st.lists(st.sampled_from(["string", "integer", "boolean", "null"]), min_size=2, max_size=3,
             unique=True).map(lambda t: {"type": t}),
    st.tuples(st.integers(-300, 300), st.integers(0, 2000)).map(
        lambda t: {"type": "integer", "minimum": t[0], "maximum": t[0] + t[1]}),
    st.integers(-300, 300).map(lambda n: {"type": "integer", "exclusiveMinimum": n}),
    st.sampled_from(["^[a-z]{1,5}$", "^[0-9]{3}-[0-9]{2}$", "ab", "^(yes|no)$", '^[^"]*$', "x+y?",
                    "^$|^[0-9]{1,3}$", "(^x.+)|(^y)", "^a|b$"]).map(
        lambda p: {"type": "string", "pattern": p}),
    st.sampled_from(["date", "date-time", "ipv4", "time", "json-pointer", "relative-json-pointer", "uri-template"]).map(lambda f: {"type": "string", "format": f}),
    st.tuples(st.sampled_from(["^[a-z]{1,5}$", "ab", "x+y?", '^[^"]*$', "^[a-z]+(-[a-z0-9]+)*$"]),
              st.integers(0, 3), st.integers(0, 4)).map(
        lambda t: {"type": "string", "pattern": t[0], "minLength": t[1], "maxLength": max(t[1], 2) + t[2]}),
    st.tuples(st.integers(2, 24), st.sampled_from([None, 0, 1, -5])).map(
        lambda t: {"type": "integer", "multipleOf": t[0]} | ({} if t[1] is None else {"minimum": t[1]})),
)


def _objects(children: st.SearchStrategy, dependent: str) -> st.SearchStrategy:
    """Objects, some with a key that needs another (``dependent``: the keyword's name in the
    draft the test's validator reads) or a pair of keys that may not both be there."""
    def with_required(props: dict) -> st.SearchStrategy:
        keys = sorted(props)
        required = st.lists(st.sampled_from(keys), unique=True) if props else st.just([])
        extra = st.one_of(st.just(False), st.just(True), children)
        pairs = st.lists(st.sampled_from(keys), min_size=2, max_size=2, unique=True) if len(keys) > 1 else st.none()
        rules = st.one_of(st.just({}), pairs.map(lambda p: {dependent: {p[0]: [p[1]]}} if p else {}),
                          pairs.map(lambda p: {"not": {"required": p}} if p else {}))
        def build(t: tuple) -> dict:
            required, extra, rule = t
            if set(rule.get("not", {}).get("required", [None])) <= set(required):
                rule = {}  # both keys required and not both there: no object would be valid
            return {"type": "object", "properties": props, "required": required, "additionalProperties": extra, **rule}

        return st.tuples(required, extra, rules).map(build)

    return st.dictionaries(names, children, max_size=4).flatmap(with_required)


def _extend(children: st.SearchStrategy, tuples: bool) -> st.SearchStrategy:
    arrays = st.tuples(children, st.integers(0, 2), st.integers(0, 2)).map(
        lambda t: {"type": "array", "items": t[0], "minItems": t[1], "maxItems": t[1] + t[2]})
    unions = st.lists(children, min_size=2, max_size=3).map(lambda branches: {"anyOf": branches})
    if not tuples:
        return st.one_of(_objects(children, "dependencies"), arrays, unions)
    prefixed = st.tuples(st.lists(children, min_size=1, max_size=3), st.one_of(st.just(False), children)).map(
        lambda t: {"type": "array", "prefixItems": t[0], "items": t[1]})
    return st.one_of(_objects(children, "dependentRequired"), arrays, unions, prefixed)


# hypothesis-jsonschema draws instances with draft-7 semantics, so the schemas it gets have no
# prefixItems; the soundness and agreement tests, judged by a 2020-12 validator, get them too.
schemas = st.recursive(leaves, lambda c: _extend(c, tuples=False), max_leaves=10)
schemas_2020 = st.recursive(leaves, lambda c: _extend(c, tuples=True), max_leaves=10)


def accepted(engine, grammar: str, text: str) -> bool:
    """The oracles' common verdict; a disagreement fails the test."""
    verdicts = {"llama.cpp": engine.accepts(grammar, text), "lark": lark_oracle().accepts(grammar, text),
                "llguidance": llguidance_oracle().accepts(grammar, text)}
    if XGRAMMAR:
        verdicts["xgrammar"] = xgrammar_oracle().accepts(grammar, text)
    assert len(set(verdicts.values())) == 1, f"the oracles disagree on {text!r}: {verdicts}"
    return verdicts["llama.cpp"]


@given(st.data())
def test_completeness_every_valid_instance_is_accepted(engine, data):
    schema = data.draw(schemas, label="schema")
    grammar = compile_schema(schema)
    instance = data.draw(from_schema(schema), label="instance")
    text = json_text(in_grammar_order(instance, schema))
    assume(engine.representable(text))
    assert accepted(engine, grammar, text)


def _explained(error: jsonschema.ValidationError, looser: tuple[str, ...]) -> bool:
    """An invalid derivation is allowed only under a documented looser spot: the depth cap, or an
    undeclared key that spells a declared key needing escapes (JSON keeps the last duplicate)."""
    deep = len(error.absolute_path) > SCHEMA_MAX_DEPTH and any("nested deeper" in spot for spot in looser)
    duplicate = any("repeat a declared key" in spot for spot in looser)
    return deep or duplicate


@given(st.data())
def test_soundness_what_the_grammar_produces_is_valid(engine, data):
    schema = data.draw(schemas_2020, label="schema")
    grammar = compile_schema_grammar(schema)
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    text = Deriver(grammar.text).derive(rng)
    note(f"derived: {text!r}")
    value = json.loads(text)
    for spot in grammar.looser:
        event(f"looser spot: {spot.split(': ', 1)[1]}")
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(value))
    assert all(_explained(e, grammar.looser) for e in errors), [e.message for e in errors]
    if engine.representable(text):
        assert accepted(engine, grammar.text, text)


@settings(max_examples=12)
@given(st.data())
def test_what_llama_server_writes_through_llguidance_is_valid(llama_server, data):
    """The same soundness, end to end through gbnf's llama-server build: the grammar goes in
    llguidance's dialect to llama.cpp's llguidance sampler, and the model's reply is valid.
    Schemas that name a character from U+40000 to U+BFFFF are left out: their UTF-8 begins with
    the byte F1 or F2, which no token of SmolLM2's vocabulary holds, so the model cannot write
    a literal that forces one, whatever the engine (llguidance ends the reply; in-process it is
    a :class:`~gbnf.BackendError`)."""
    schema = data.draw(schemas_2020, label="schema")
    assume(not any(0x40000 <= ord(c) < 0xC0000 for c in json.dumps(schema, ensure_ascii=False)))
    grammar = compile_schema_grammar(schema)
    client = ServerBackend(llama_server.url)
    seed = data.draw(st.integers(0, 2**31), label="seed")
    reply = client.complete([{"role": "user", "content": "Write one JSON value."}], grammar.text,
                            Sampling(max_tokens=64, temperature=1.0, seed=seed))
    client.close()
    assert client.dialect == "llguidance"
    assume(not reply.truncated)
    note(f"written: {reply.text!r}")
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.loads(reply.text)))
    assert all(_explained(e, grammar.looser) for e in errors), [e.message for e in errors]


@given(st.data())
def test_oracles_agree_on_near_misses(engine, data):
    schema = data.draw(schemas_2020, label="schema")
    grammar = compile_schema(schema)
    text = Deriver(grammar).derive(data.draw(st.randoms(use_true_random=False)))
    i = data.draw(st.integers(0, len(text)), label="position")
    edit = data.draw(st.sampled_from(["insert", "delete", "replace"]))
    char = data.draw(st.sampled_from(list('{}[]",:0a \\')))
    mutated = {"insert": text[:i] + char + text[i:], "delete": text[:i] + text[i + 1:],
               "replace": text[:i] + char + text[i + 1:]}[edit]
    assume(engine.representable(mutated))
    accepted(engine, grammar, mutated)


@given(st.text(min_size=1, max_size=12), st.text(max_size=12))
def test_escaping_round_trips_any_text(engine, name, value):
    assume(engine.representable(name + value))
    changed = value[:-1] + chr(ord(value[-1]) % 0x10FFF + 1) if value else "x"
    assume(engine.representable(changed) and changed != value)
    schema = {"type": "object", "properties": {name: {"enum": [value]}}, "required": [name]}
    grammar = compile_schema(schema)
    assert accepted(engine, grammar, json_text({name: value}))
    assert not accepted(engine, grammar, json_text({name: changed}))
    pool = compile_pool([Tool(name, "d", {"type": "object", "properties": {}})]).text
    assert accepted(engine, pool, json_text({"name": name, "arguments": {}}))
    assert not accepted(engine, pool, json_text({"name": name + "x", "arguments": {}}))


@given(st.lists(st.text(alphabet='ab_"\\é', min_size=1, max_size=5), min_size=2, max_size=8, unique=True))
def test_a_pool_takes_each_tool_by_its_own_name_only(engine, names):
    """Names that share prefixes are written once in the pool's grammar; each name still fixes
    its own arguments, and no other text is a name."""
    tools = [Tool(name, "d", {"type": "object", "properties": {f"k{i}": {"type": "integer"}}, "required": [f"k{i}"]})
             for i, name in enumerate(names)]
    pool = compile_pool(tools).text
    for i, name in enumerate(names):
        assert accepted(engine, pool, json_text({"name": name, "arguments": {f"k{i}": 1}}))
        other = f"k{(i + 1) % len(names)}"
        assert not accepted(engine, pool, json_text({"name": name, "arguments": {other: 1}}))
        for wrong in {name[:-1], name + "a"} - set(names):
            assert not accepted(engine, pool, json_text({"name": wrong, "arguments": {f"k{i}": 1}}))


def listed() -> dict[str, set[str]]:
    """The suite tests the grammar does not decide as the suite says, by file (only shrinks)."""
    out: dict[str, set[str]] = {}
    for line in LISTED.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, _ = line.rpartition(" => ")
            out.setdefault(key.split(" :: ")[0], set()).add(line)
    return out


@pytest.mark.parametrize("dialect", [
    "llguidance", pytest.param("xgrammar", marks=pytest.mark.skipif(not XGRAMMAR, reason="opt-in: .[xgrammar]"))])
@pytest.mark.parametrize("path", suite_files(optional=True), ids=lambda p: p.name)
def test_json_schema_test_suite_decided_alike_by_other_engines(engine, path, dialect):
    differ = []
    for case in json.loads(path.read_text(encoding="utf-8")):
        try:
            grammar = compile_schema(case["schema"])
        except GbnfError:
            continue
        oracle = DIALECT_ORACLES[dialect]()
        for test in case["tests"]:
            text = json_text(in_grammar_order(test["data"], case["schema"]))
            if engine.representable(text) and oracle.accepts(grammar, text) != engine.accepts(grammar, text):
                differ.append(f"{case['description']} :: {test['description']}")
    assert differ == []


@pytest.mark.parametrize("path", suite_files(), ids=lambda p: p.name)
def test_json_schema_test_suite(engine, path):
    outcomes = list(run_file(path, compile_schema, in_grammar_order, engine))
    failing = {f"{o.key} => {o.result}" for o in outcomes if o.result != "ok"}
    expected = listed().get(path.name, set())
    assert not failing - expected, "newly failing (fix the compiler):\n" + "\n".join(sorted(failing - expected))
    assert not expected - failing, ("now handled by the grammar: remove from tests/validator_only.txt:\n"
                                    + "\n".join(sorted(expected - failing)))
