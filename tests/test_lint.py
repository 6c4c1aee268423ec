"""gbnf lint: each problem llama.cpp would refuse, or a small model would trip on, with its place."""

from __future__ import annotations

import pytest

from gbnf import compile_pool, load_manifests
from gbnf.lint import lint
from tests.conftest import MANIFESTS


def messages(text):
    return [str(p) for p in lint(text)]


def test_a_compiled_pool_is_clean():
    assert lint(compile_pool(load_manifests(MANIFESTS)).text) == []


@pytest.mark.parametrize("text, expected", [
    ('root ::= "a" (', "1:"),
    ('root ::= a\n', "1:10: undefined rule 'a'"),
    ('root ::= "a"\nb ::= "b"\n', "2:1: rule 'b' is unreachable from root"),
    ('root ::= root "a" | "b"\n', "1:1: rule 'root' is left-recursive"),
    ('root ::= [ \\t\\n]* "a"\n', "unbounded whitespace"),
    ('root ::= "a"{5,2}\n', "1:13: repetition {5,2}: the minimum is above the maximum"),
    ('root ::= "a"{1000000000}\n', "llama.cpp refuses more than 2000 required repetitions"),
    ('root ::= ' + "(" * 150 + '"a"' + ")" * 150 + "\n", "1:1: nested too deeply to read"),
    ('rootx ::= "a"\n', "no 'root' rule"),
])
def test_each_problem_is_reported_with_its_place(text, expected):
    assert any(expected in m for m in messages(text)), messages(text)


def test_bounds_within_limits_pass():
    assert lint('root ::= "a"{2000} "b"{0,50000}\n') == []
