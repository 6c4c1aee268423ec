"""Hostile input: whatever a schema, a manifest, a model's reply or the CLI's arguments hold, only
a GbnfError (one line) ever escapes. Bounded in CI; ``pytest --slow`` runs thousands."""

from __future__ import annotations

import json
import math
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from gbnf import GbnfError, compile_pool, compile_schema_grammar, load_manifest, soft_parse, validate_calls
from gbnf.lint import lint
from tests.conftest import MANIFESTS, REPO

KEYWORDS = ["type", "properties", "required", "items", "prefixItems", "enum", "const", "anyOf", "oneOf", "allOf",
            "$ref", "$defs", "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties",
            "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "pattern", "format",
            "additionalProperties", "patternProperties", "propertyNames", "not", "if", "then", "else", "uniqueItems"]
NUMBERS = st.one_of(st.integers(-10**6, 10**6), st.sampled_from([0, 1, 2.0, 2.5, -1, 10**30, 1e300, math.inf,
                                                                 -math.inf, math.nan, 2001, 10**9]))
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, st.text(max_size=12),
                    st.sampled_from(["object", "array", "string", "integer", "number", "boolean", "null",
                                     "#/$defs/a", "#", "^a{3000}$", "(x", "date-time", "[", "\\"]))
SCHEMAS = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(KEYWORDS), st.text(max_size=6)), inner, max_size=5)), max_leaves=25)


@given(SCHEMAS)
def test_the_compiler_raises_only_gbnf_errors_and_llama_cpp_parses_what_it_emits(engine, schema):
    try:
        grammar = compile_schema_grammar(schema)
    except GbnfError:
        return
    engine.check(grammar.text)  # a GrammarError here: a grammar `gbnf check` accepts and llama.cpp refuses


@given(SCHEMAS, st.text(max_size=60))
def test_a_manifest_raises_only_manifest_errors(tmp_path_factory, parameters, toml):
    folder = tmp_path_factory.mktemp("m")
    (folder / "t.schema.json").write_text(json.dumps(parameters, allow_nan=True), encoding="utf-8")
    (folder / "t.toml").write_text('name = "t"\ndescription = "T."\nparameters = "t.schema.json"\n', encoding="utf-8")
    (folder / "u.toml").write_text(toml, encoding="utf-8")
    for path in (folder / "t.toml", folder / "u.toml"):
        try:
            compile_pool([load_manifest(path)])
        except GbnfError:
            pass


REPLIES = st.one_of(
    st.text(max_size=80),
    SCHEMAS.map(lambda v: json.dumps({"name": "get_weather", "arguments": v}, allow_nan=True)),
    st.builds(lambda a, b: a + b, st.sampled_from([
        '{"name": "get_weather", "arguments": {"city": ', "{'name': ", '[{"name": "get_now"},', "{" * 50,
        "get_weather(city=", "[get_now(", "print(read_file(", "<function=get_weather>", "<tool_call>read_file <arg_key>",
        '<invoke name="read_file"><parameter name="path">', "call:get_weather{city:<escape>", "(" * 80,
        "<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>", "Action: read_file\nAction Input: ",
        "<get_weather><city>"]), st.text(max_size=40)))


@given(REPLIES)
def test_replies_raise_only_invalid_calls(tools, reply):
    try:
        validate_calls(reply, tools)
    except GbnfError:
        pass
    soft_parse(reply, tools)


@given(st.text(max_size=120))
def test_lint_reports_instead_of_raising(text):
    lint(text)


ARGUMENTS = st.lists(st.sampled_from(["--temperature", "nan", "--seed", "-1", "--max-steps", "0", "--top-k", "-3",
                                      "--parallel", "0", "--policy", "/dev/null", "--trace", "/", "-o", "/proc/x",
                                      "--model", "/nonexistent.gguf", "--mode", "soft", "--all-tools", "inf"]),
                     max_size=5)


@settings(max_examples=20)  # each example is a process
@given(st.sampled_from(["plan", "compile", "check", "lint", "import"]), ARGUMENTS)
def test_the_cli_fails_in_one_line(command, arguments):
    target = {"plan": ["hi"], "compile": [str(MANIFESTS)], "check": [str(MANIFESTS)], "lint": ["/nonexistent"],
              "import": ["--from", "bfcl", "/nonexistent", "-o", "/tmp/gbnf-fuzz"]}[command]
    if command == "plan" and "--model" not in arguments:
        arguments = [*arguments, "--model", "/nonexistent.gguf"]  # fail fast: no model load
    done = subprocess.run([sys.executable, "-m", "gbnf", command, *target, *arguments], capture_output=True,
                          text=True, timeout=120, cwd=REPO)
    assert "Traceback" not in done.stderr, done.stderr[-600:]
    assert done.returncode in (0, 1, 2)

