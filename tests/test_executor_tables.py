"""A manifest's ``[executor]`` table: each kind runs, and each way it can fail is one plain
sentence the model reads (never a traceback), with the other calls of the step still run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gbnf import ExecutorFailed, ManifestError, load_manifests
from gbnf.plan import Planner, PlanOptions
from gbnf.shape import Shaping
from gbnf.testing import ScriptedBackend
from gbnf.tools import load_manifest
from tests.conftest import MANIFESTS, REPO
from tests.fakes import Fake

HEAD = 'name = "lookup"\ndescription = "Look up an order."\n' \
       '[parameters]\ntype = "object"\nproperties = { order = { type = "string" } }\n'


def manifest(folder: Path, executor: str, head: str = HEAD) -> Path:
    path = folder / "lookup.toml"
    path.write_text(f"{head}\n[executor]\n{executor}\n")
    return path


def command(*argv: str) -> str:
    return f"command = {json.dumps(list(argv))}"


def script(code: str) -> str:
    """A command that runs ``code`` with this Python."""
    return command(sys.executable, "-c", code)


BROKEN = {
    "not a table": ('executor = "run.sh"\n', "executor"),
    "no kind": ("[executor]\ntimeout = 3\n", "executor"),
    "two kinds": ('[executor]\ncommand = ["a"]\npython = "m:f"\n', "executor"),
    "unknown key": ('[executor]\ncommand = ["a"]\nshell = true\n', "executor.shell"),
    "a shell line": ('[executor]\ncommand = "wc -w notes.txt"\n', "executor.command"),
    "an empty list": ("[executor]\ncommand = []\n", "executor.command"),
    "no function": ('[executor]\npython = "package.module"\n', "executor.python"),
    "no scheme": ('[executor]\nurl = "localhost:8000/run"\n', "executor.url"),
    "a timeout of 0": ('[executor]\ncommand = ["a"]\ntimeout = 0\n', "executor.timeout"),
    "an unknown output": ('[executor]\ncommand = ["a"]\noutput = "yaml"\n', "executor.output"),
    "output for a function": ('[executor]\npython = "m:f"\noutput = "json"\n', "executor.output"),
    "read_only not a flag": ('[executor]\ncommand = ["a"]\nread_only = "yes"\n', "executor.read_only"),
}


@pytest.mark.parametrize("case", BROKEN, ids=list(BROKEN))
def test_a_broken_executor_table_names_its_key(tmp_path, case):
    text, key = BROKEN[case]
    path = tmp_path / "lookup.toml"
    path.write_text(HEAD.replace("[parameters]", text + "[parameters]") if not text.startswith("[") else HEAD + text)
    with pytest.raises(ManifestError) as error:
        load_manifest(path)
    assert error.value.key == key and str(path) in str(error.value)


def test_a_shell_line_is_refused_with_the_list_it_means(tmp_path):
    with pytest.raises(ManifestError, match=r'\["wc", "-w", "notes.txt"\]'):
        load_manifest(manifest(tmp_path, 'command = "wc -w notes.txt"'))


def test_a_command_gets_the_arguments_on_stdin_and_its_json_is_the_result(tmp_path):
    echo = "import json, sys; print(json.dumps({'got': json.load(sys.stdin)}))"
    tool = load_manifest(manifest(tmp_path, script(echo) + '\noutput = "json"'))
    assert tool.executor is not None and tool.executor.kind == "command"
    assert tool.executor(order="A-17") == {"got": {"order": "A-17"}}


def test_a_command_beside_its_manifest_runs_from_any_folder(tmp_path, monkeypatch):
    (tmp_path / "bin").mkdir()
    program = tmp_path / "bin" / "status.py"
    program.write_text("#!/usr/bin/env python3\nimport json, sys\nprint('order', json.load(sys.stdin)['order'], 'shipped')\n")
    program.chmod(0o755)
    tool = load_manifest(manifest(tmp_path, command("./bin/status.py")))
    monkeypatch.chdir(REPO)
    assert tool.executor is not None and tool.executor(order="A-17") == "order A-17 shipped"


FAILURES = {
    "a missing program": (command("no-such-program-anywhere"), "program not found: no-such-program-anywhere"),
    "exit 1": (script("import sys; sys.exit('the order book is closed')"),
               "exited with status 1: the order book is closed"),
    "a timeout": (script("import time; time.sleep(30)") + "\ntimeout = 0.5", "did not finish within 0.5 s"),
    "10 MB of output": (script("import sys; sys.stdout.write('x' * 10_000_000)"), "wrote more than 1,000,000 bytes"),
    "bad JSON": (script("print('shipped, I think')") + '\noutput = "json"', "the output is not JSON"),
}


@pytest.mark.parametrize("case", FAILURES, ids=list(FAILURES))
def test_each_way_a_command_fails_is_one_sentence(tmp_path, case):
    executor, expected = FAILURES[case]
    tool = load_manifest(manifest(tmp_path, executor))
    assert tool.executor is not None
    with pytest.raises(ExecutorFailed, match=expected) as error:
        tool.executor(order="A-17")
    assert "\n" not in str(error.value)


def test_a_python_module_beside_the_manifest_is_called_with_the_arguments(tmp_path):
    (tmp_path / "orders.py").write_text("def status(order):\n    return {'order': order, 'status': 'shipped'}\n")
    tool = load_manifest(manifest(tmp_path, 'python = "orders:status"'))
    assert tool.executor is not None and tool.executor(order="A-17") == {"order": "A-17", "status": "shipped"}


def test_a_python_package_function_is_called(tmp_path):
    tool = load_manifest(manifest(tmp_path, 'python = "gbnf.tools:convert_units"'))
    assert tool.executor is not None
    assert tool.executor(value=1, from_unit="km", to_unit="m") == {"value": 1000.0, "unit": "m"}


@pytest.mark.parametrize(("module", "target", "expected"), [
    ("def other():\n    pass\n", "orders:status", "orders has no function 'status'"),
    ("import no_such_module_here\n", "orders:status", "cannot import orders .*ModuleNotFoundError"),
    ("", "no_such_package.orders:status", "cannot import no_such_package.orders"),
])
def test_a_python_target_that_does_not_resolve_is_one_sentence(tmp_path, module, target, expected):
    (tmp_path / "orders.py").write_text(module)
    tool = load_manifest(manifest(tmp_path, f'python = "{target}"'))
    assert tool.executor is not None
    with pytest.raises(ExecutorFailed, match=expected):
        tool.executor(order="A-17")


def test_a_url_gets_the_arguments_as_a_json_post():
    fake = Fake((200, b'{"status": "shipped"}', 0))
    try:
        tool = load_manifest_text(f'url = "{fake.url}/orders"\noutput = "json"')
        assert tool.executor is not None and tool.executor(order="A-17") == {"status": "shipped"}
        assert fake.paths == ["/orders"] and json.loads(fake.bodies[0]) == {"order": "A-17"}
    finally:
        fake.close()


@pytest.mark.parametrize(("reply", "timeout", "expected"), [
    ((500, b"database down", 0), 5, "answered HTTP 500: database down"),
    ((200, b"x", 3), 0.5, "did not answer within 0.5 s"),
])
def test_each_way_a_url_fails_is_one_sentence(reply, timeout, expected):
    fake = Fake(reply)
    try:
        tool = load_manifest_text(f'url = "{fake.url}"\ntimeout = {timeout}')
        assert tool.executor is not None
        with pytest.raises(ExecutorFailed, match=expected):
            tool.executor(order="A-17")
    finally:
        fake.close()


def test_a_url_nobody_answers_is_one_sentence():
    tool = load_manifest_text('url = "http://127.0.0.1:9"')
    assert tool.executor is not None
    with pytest.raises(ExecutorFailed, match="cannot reach http://127.0.0.1:9"):
        tool.executor(order="A-17")


def load_manifest_text(executor: str):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return load_manifest(manifest(Path(folder), executor))


def call(name, **arguments):
    return {"name": name, "arguments": arguments}


def plan(tools, *replies, **options):
    options.setdefault("top_k", None)
    options.setdefault("cite", False)
    options.setdefault("still_to_do", False)
    options.setdefault("single_use", False)
    backend = ScriptedBackend(*(json.dumps(r) for r in replies))
    planner = Planner(tools, backend, options=PlanOptions(shaping=Shaping.named("off"), **options))
    events = []
    planner.subscribe(events.append)
    return planner, backend, events


def folder_of(tmp_path, **executors: str) -> list:
    for name, executor in executors.items():
        (tmp_path / f"{name}.toml").write_text(HEAD.replace('"lookup"', f'"{name}"') + f"\n[executor]\n{executor}\n")
    return load_manifests(tmp_path)


def test_a_failed_call_is_a_tool_message_and_the_other_calls_of_the_step_still_run(tmp_path):
    tools = folder_of(tmp_path, broken=script("import sys; sys.exit('no such order')"),
                      fine=script("print('shipped')"))
    step = [call("broken", order="A"), call("fine", order="A")]
    planner, backend, events = plan(tools, step, call("final_answer", answer="shipped"), parallel=2)
    result = planner.run("where is order A")
    assert result.converged and [c.name for c, _ in result.results] == ["fine"]
    tool_messages = [m["content"] for m in backend.requests[1][0] if m["role"] == "tool"]
    assert tool_messages[0].startswith("error: tool 'broken' failed: ") and "no such order" in tool_messages[0]
    assert tool_messages[1] == "fine result: shipped"
    assert [e.data["error"] for e in events if e.kind == "tool_error"] == [
        f"{sys.executable} exited with status 1: no such order"]


def test_a_failed_call_written_again_is_not_run_but_asked_again_without_its_tool(tmp_path):
    runs = tmp_path / "runs"
    tools = folder_of(tmp_path, broken=script(f"open({str(runs)!r}, 'a').write('x'); raise SystemExit(1)"))
    planner, backend, events = plan(tools, call("broken", order="A"), call("broken", order="A"),
                                    call("final_answer", answer="order A was not found"))
    result = planner.run("where is order A")
    assert result.answer == "order A was not found" and runs.read_text() == "x"  # run once
    assert [e.data["tools"] for e in events if e.kind == "reasked"] == [["broken"]]
    asked_again = backend.requests[2][1]
    assert "broken" not in asked_again and "final_answer" in asked_again
    assert backend.requests[2][0] == backend.requests[1][0]  # the same conversation, the repeat left out


def test_a_dry_run_runs_the_tools_that_read_and_stops_at_one_that_acts(tmp_path):
    tools = folder_of(tmp_path, reader=script("print('A is packed')") + "\nread_only = true",
                      sender=script("print('sent')"))
    planner, backend, events = plan(tools, call("reader", order="A"), call("sender", order="A"), dry_run=True)
    result = planner.run("check order A and send it")
    assert (result.status, [c.name for c, _ in result.results], [c.name for c in result.planned]) == \
        ("dry_run", ["reader"], ["sender"])
    assert result.answer is None and len(backend.requests) == 2


def test_a_tool_without_an_executor_after_results_is_answered_from_them(tmp_path):
    (tmp_path / "notify.toml").write_text(HEAD.replace('"lookup"', '"notify"'))
    tools = folder_of(tmp_path, reader=script("print('A is packed')"))
    planner, _, _ = plan(tools, call("reader", order="A"), call("notify", order="A"), "A is packed.", salvage=True)
    result = planner.run("check order A and tell me")
    assert (result.status, result.finished_by) == ("no_executor", "salvage") and "packed" in result.answer
    assert result.error == f"notify has no executor: add [executor] to {tmp_path / 'notify.toml'}"


def test_a_folder_missing_under_the_current_one_is_looked_for_under_home(tmp_path, monkeypatch):
    from gbnf.tools import find_files, read_file

    home, elsewhere = tmp_path / "home", tmp_path / "work"
    (home / "Documents").mkdir(parents=True)
    (home / "Documents" / "tax.pdf").write_bytes(b"%PDF")
    elsewhere.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(elsewhere)
    assert find_files("*.pdf", folder="Documents") == [str(home / "Documents" / "tax.pdf")]
    assert read_file("Documents/tax.pdf") == "%PDF"
    (elsewhere / "Documents").mkdir()
    assert find_files("*.pdf", folder="Documents") == []  # the current folder's comes first


def test_gbnf_check_names_each_tool_without_an_executor_and_each_broken_one(tmp_path):
    folder_of(tmp_path, gone=command("no-such-program-anywhere"), fine=script("print(1)"))
    (tmp_path / "idle.toml").write_text(HEAD.replace('"lookup"', '"idle"'))
    done = subprocess.run([sys.executable, "-m", "gbnf", "check", str(tmp_path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert f"{tmp_path / 'gone.toml'}: executor: program not found: no-such-program-anywhere" in lines
    assert any(line.strip().startswith("no executor") and line.endswith(": idle") for line in lines)
    shipped = subprocess.run([sys.executable, "-m", "gbnf", "lint", str(MANIFESTS)], capture_output=True, text=True,
                             timeout=120)
    assert shipped.returncode == 0 and "count_words (command)" in shipped.stdout
    assert "convert_units (python)" in shipped.stdout


def gbnf_plan(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gbnf", "plan", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


@pytest.mark.model
def test_a_dry_run_prints_the_call_of_a_tool_without_an_executor_and_exits_0():
    done = gbnf_plan("--dry-run", "What's the weather in Paris for 3 days?")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    [planned] = json.loads(done.stdout)
    assert planned["name"] == "get_weather" and planned["arguments"]["city"] == "Paris"
    without = gbnf_plan("What's the weather in Paris for 3 days?")
    assert without.returncode == 1 and without.stdout == ""
    assert without.stderr.strip() == ("gbnf: get_weather has no executor: add [executor] to "
                                      "manifests/get_weather.toml, or --dry-run")


ORDER = 'name = "order_status"\ndescription = "The delivery status of an order, by its number."\n' \
        '[parameters]\ntype = "object"\nrequired = ["order"]\n' \
        'properties = { order = { type = "string", description = "The order number." } }\n'


@pytest.mark.model
@pytest.mark.parametrize("kind", ["command", "python"])
def test_gbnf_plan_runs_a_users_own_executor_and_its_result_reaches_the_answer(tmp_path, kind):
    (tmp_path / "tools").mkdir()
    code = "def status(order):\n    return {'order': order, 'status': 'shipped', 'tracking': 'ZX4471'}\n"
    if kind == "python":
        (tmp_path / "tools" / "orders.py").write_text(code)
        executor = 'python = "orders:status"'
    else:
        (tmp_path / "tools" / "orders.py").write_text(
            f"#!{sys.executable}\nimport json, sys\n{code}print(json.dumps(status(**json.load(sys.stdin))))\n")
        (tmp_path / "tools" / "orders.py").chmod(0o755)
        executor = 'command = ["./orders.py"]\noutput = "json"'
    (tmp_path / "tools" / "order_status.toml").write_text(f"{ORDER}\n[executor]\n{executor}\n")
    done = gbnf_plan("--manifests", "tools", "-v", "Where is my order 5521?", cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    step = next(line for line in done.stderr.splitlines() if line.startswith("step 1: "))
    assert json.loads(step.removeprefix("step 1: "))["name"] == "order_status" and "5521" in step
    assert "ZX4471" in done.stdout  # the tool's result, in the answer
