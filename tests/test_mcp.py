"""Live MCP servers as tools: real servers written with the MCP SDK (tests/servers/), over stdio
and Streamable HTTP, driven by the real planner on the embedded model; a server that crashes
mid-call and one that hangs."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import openai
import pytest

from gbnf.endpoint import ServeProcess
from gbnf.errors import ManifestError, McpError
from gbnf.llama_server import free_port
from gbnf.tools import McpServer, McpTools, http_server, read_config, stdio_server
from tests.conftest import REPO

NOTES = f"{sys.executable} {REPO / 'tests' / 'servers' / 'notes_server.py'}"


def test_a_stdio_server_lists_its_tools_and_runs_calls():
    with McpTools([stdio_server(NOTES)]) as mcp:
        assert [t.name for t in mcp.tools] == ["search_notes", "count_notes"]
        assert mcp.tools[0].description == "Find the user's note about a topic and return its text."
        assert "Dr Rossi" in mcp.executors["search_notes"](query="dentist")
        assert mcp.executors["count_notes"]() == 3
        assert mcp.warnings == ["skipped MCP server notes_server[2] (impossible): parameters.code.minLength: "
                                "minLength is larger than maxLength"]


def test_two_servers_with_the_same_tools_get_their_names_as_prefix():
    with McpTools([stdio_server(NOTES), stdio_server(NOTES, name="work")]) as mcp:
        assert sorted(t.name for t in mcp.tools) == ["notes_server_count_notes", "notes_server_search_notes",
                                                    "work_count_notes", "work_search_notes"]
        assert mcp.executors["work_count_notes"]() == 3


@pytest.fixture()
def http_url() -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen([*NOTES.split(), "--http", str(port)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)


def test_a_streamable_http_server_lists_its_tools_and_runs_calls(http_url):
    with McpTools([http_server(http_url)]) as mcp:
        assert {"search_notes", "count_notes"} <= {t.name for t in mcp.tools}
        assert "tulip42" in mcp.executors["search_notes"](query="wifi")


def test_a_server_that_crashes_mid_call_is_one_error_naming_it():
    with McpTools([stdio_server(f"{NOTES} --fault crash")], timeout=10) as mcp:
        start = time.monotonic()
        with pytest.raises(McpError, match="MCP server notes_server failed to call search_notes"):
            mcp.executors["search_notes"](query="x")
        assert time.monotonic() - start < 10
        with pytest.raises(McpError, match="notes_server"):
            mcp.executors["count_notes"]()
        assert mcp.failures and all("notes_server" in failure for failure in mcp.failures)


def test_a_server_that_hangs_times_out():
    with McpTools([stdio_server(f"{NOTES} --fault hang")], timeout=2) as mcp:
        start = time.monotonic()
        with pytest.raises(McpError, match="notes_server .*(timed out|within)"):
            mcp.executors["search_notes"](query="x")
        assert time.monotonic() - start < 10
    assert time.monotonic() - start < 20  # closing does not wait for the hung call


def test_a_server_that_cannot_start_is_a_warning_not_the_end():
    with McpTools([stdio_server("no-such-command-anywhere"), stdio_server(NOTES)], timeout=10) as mcp:
        assert [t.name for t in mcp.tools] == ["search_notes", "count_notes"]
        assert any("no_such_command_anywhere failed to start" in w for w in mcp.warnings)


def test_an_mcp_json_as_lm_studio_writes_it(tmp_path):
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "notes": {"command": sys.executable, "args": ["notes.py"], "env": {"A": "1"}},
        "remote docs": {"url": "http://127.0.0.1:9/mcp"}}}))
    assert read_config(config) == [McpServer("notes", (sys.executable, "notes.py"), {"A": "1"}),
                                   McpServer("remote_docs", url="http://127.0.0.1:9/mcp")]
    config.write_text(json.dumps({"mcpServers": {"bad": {"args": ["x"]}}}))
    with pytest.raises(ManifestError, match=r"mcp.json: mcpServers.bad: needs a command"):
        read_config(config)
    config.write_text("{not json")
    with pytest.raises(ManifestError, match="cannot read an MCP config"):
        read_config(config)


def _plan(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gbnf", "plan", *args], capture_output=True, text=True,
                          timeout=300, cwd=REPO)


@pytest.mark.model
def test_gbnf_plan_answers_from_an_mcp_servers_tool():
    done = _plan("--mcp", NOTES, "Search my notes for the dentist", "-v")
    assert done.returncode == 0, done.stderr
    assert '"name":"search_notes"' in done.stderr and "Dr Rossi" in done.stdout


@pytest.mark.model
def test_gbnf_plan_with_a_server_killed_mid_plan_ends_in_one_line_and_exit_1():
    start = time.monotonic()
    done = _plan("--mcp", f"{NOTES} --fault crash", "--mcp-timeout", "10", "Search my notes for the dentist")
    assert time.monotonic() - start < 120
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "gbnf: MCP server notes_server failed to call search_notes" in done.stderr


@pytest.mark.model
def test_gbnf_serve_runs_mcp_tools_only_when_told_to():
    done = subprocess.run([sys.executable, "-m", "gbnf", "serve", "--port", "0", "--mcp", NOTES], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "add --run-tools" in done.stderr


@pytest.mark.model
def test_gbnf_serve_plans_a_request_without_tools_with_the_mcp_servers_tools():
    process = ServeProcess("--mcp", NOTES, "--run-tools", "-v").start()
    try:
        client = openai.OpenAI(base_url=process.url, api_key="unused", max_retries=0, timeout=120)
        ask = [{"role": "user", "content": "Search my notes for the dentist"}]
        answer = client.chat.completions.create(model="m", messages=ask)
        assert "Dr Rossi" in answer.choices[0].message.content and not answer.choices[0].message.tool_calls
        assert answer.usage.completion_tokens > 0
        response = client.responses.create(model="m", input="Search my notes for the dentist")
        assert "Dr Rossi" in response.output_text
        own = {"type": "function", "function": {"name": "get_weather", "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
        called = client.chat.completions.create(model="m", tools=[own], tool_choice="required",
                                                messages=[{"role": "user", "content": "Weather in Oslo?"}])
        assert called.choices[0].message.tool_calls[0].function.name == "get_weather"
        with pytest.raises(openai.BadRequestError, match="last message"):
            client.chat.completions.create(model="m", messages=[*ask, {"role": "assistant", "content": "ok"}])
    finally:
        assert process.stop() == 0, process.stderr
    assert "ran search_notes" in process.stderr and "Traceback" not in process.stderr
