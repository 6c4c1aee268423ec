"""Faults: a real llama-server killed mid-request or not there; a small fake server only for
what a real one cannot be made to do (hang, 500, garbage, 503 then ready)."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest

from gbnf.backends import AsyncServerBackend, Sampling, ServerBackend
from gbnf.errors import BackendError, ConnectionFailed, ServerError
from gbnf.llama_server import LlamaServer, free_port
from tests.fakes import Fake

HI = [{"role": "user", "content": "hi"}]
OK_REPLY = {"choices": [{"message": {"content": "hello"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 1}}


@pytest.fixture
def fake():
    servers = []

    def make(*replies):
        servers.append(Fake(*replies))
        return servers[-1]

    yield make
    for server in servers:
        server.close()


@pytest.mark.timeout(60)
def test_closed_port_is_unreachable_after_bounded_retries():
    url = f"http://127.0.0.1:{free_port()}"
    client = ServerBackend(url, timeout=3, retries=3, backoff=0.1)
    with pytest.raises(ServerError, match=rf"^POST {url}/v1/chat/completions: server unreachable"):
        client.complete(HI, None, Sampling())


@pytest.mark.timeout(120)
def test_server_killed_mid_request():
    with LlamaServer() as server:
        client = ServerBackend(server.url, timeout=60, retries=1, backoff=0.1)
        threading.Timer(1.5, server.process.kill).start()
        with pytest.raises(ServerError, match="connection dropped|server unreachable"):
            client.complete([{"role": "user", "content": "Write a very long story."}], None,
                            Sampling(max_tokens=4000, temperature=1.0))
    assert server.process.poll() is not None


@pytest.mark.timeout(60)
def test_hang_gives_a_timeout_error(fake):
    server = fake((200, json.dumps(OK_REPLY).encode(), 5.0))
    client = ServerBackend(server.url, timeout=1)
    with pytest.raises(ServerError, match=r"no reply within 1s"):
        client.complete(HI, None, Sampling())


def test_http_500(fake):
    server = fake((500, b'{"error": {"message": "boom"}}', 0))
    with pytest.raises(ServerError, match=r"HTTP 500 \(server error\): boom"):
        ServerBackend(server.url).complete(HI, None, Sampling())


def test_garbage_body(fake):
    server = fake((200, b"<html>not json</html>", 0))
    with pytest.raises(ServerError, match="the reply is not JSON"):
        ServerBackend(server.url).complete(HI, None, Sampling())


def test_unexpected_reply_shape(fake):
    server = fake((200, b'{"choices": []}', 0))
    with pytest.raises(ServerError, match="unexpected reply shape"):
        ServerBackend(server.url).complete(HI, None, Sampling())


def test_503_while_loading_is_retried(fake):
    loading = (503, b'{"error": {"message": "Loading model"}}', 0)
    server = fake(loading, loading, (200, json.dumps(OK_REPLY).encode(), 0))
    client = ServerBackend(server.url, retries=4, backoff=0.05)
    reply = client.complete(HI, None, Sampling())
    assert reply.text == "hello" and len(server.paths) == 3


def test_503_forever_gives_up(fake):
    server = fake((503, b'{"error": {"message": "Loading model"}}', 0))
    with pytest.raises(ServerError, match="503, the server is still loading"):
        ServerBackend(server.url, retries=2, backoff=0.05).wait_healthy()


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_health_look_whose_connection_drops_is_made_once_more(fake, asynchronous):
    def look(url: str) -> str:
        return asyncio.run(AsyncServerBackend(url).health()) if asynchronous else ServerBackend(url).health()

    # a kept-alive connection the server closes as it is reused drops without a reply; a new one answers
    server = fake((0, b"", 0), (200, b'{"status": "ok"}', 0))
    assert look(server.url) == "ok" and len(server.paths) == 2
    # a server that drops every connection is no healthier for the second look
    server = fake((0, b"", 0))
    with pytest.raises(ServerError, match="RemoteProtocolError"):
        look(server.url)
    assert len(server.paths) == 2


@pytest.mark.parametrize("way", ["sync", "async", "streamed"])
def test_a_completion_whose_connection_drops_before_its_reply_is_asked_once_more(fake, way):
    def complete(url: str) -> str:
        if way == "sync":
            return ServerBackend(url, retries=0).complete(HI, None, Sampling()).text
        backend = AsyncServerBackend(url, retries=0)  # as gbnf serve asks each of several replicas
        pieces: list[str] = []
        on_text = pieces.append if way == "streamed" else None
        text = asyncio.run(backend.acomplete(HI, None, Sampling(), on_text=on_text)).text
        assert pieces == ([text] if way == "streamed" else [])
        return text

    chunk = {"choices": [{"delta": {"content": "hello"}, "finish_reason": "stop"}]}
    answer = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n" if way == "streamed" else json.dumps(OK_REPLY)
    # a kept-alive connection the server closes as it is reused drops without a reply; a new one answers
    server = fake((0, b"", 0), (200, answer.encode(), 0))
    assert complete(server.url) == "hello" and len(server.paths) == 2
    # a server that drops every connection fails the request, naming what happened, without more tries
    server = fake((0, b"", 0))
    with pytest.raises(ConnectionFailed, match="the connection dropped before the reply was complete"):
        complete(server.url)
    assert len(server.paths) == 2


def test_a_4xx_carries_the_servers_message(fake):
    server = fake((404, b'{"error": {"message": "File Not Found"}}', 0))
    with pytest.raises(ServerError, match="HTTP 404: File Not Found"):
        ServerBackend(server.url).props()


def test_truncated_finish_reason(fake):
    reply = dict(OK_REPLY, choices=[{"message": {"content": '{"na'}, "finish_reason": "length"}])
    server = fake((200, json.dumps(reply).encode(), 0))
    assert ServerBackend(server.url).complete(HI, None, Sampling()).truncated


@pytest.mark.timeout(120)
def test_a_server_that_cannot_start_reports_its_log(tmp_path):
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a model at all")
    server = LlamaServer(junk, startup_timeout=60)
    with pytest.raises(ServerError, match="llama-server exited with code"):
        server.start()
    assert server.process.poll() is not None
    with pytest.raises(BackendError, match="neither a file nor a packaged model"):
        LlamaServer(tmp_path / "missing.gguf")
    gone = LlamaServer(junk)
    junk.unlink()
    with pytest.raises(ServerError, match="does not exist"):
        gone.start()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGKILL"])
def test_cli_server_leaves_nothing_running(sig):
    port = free_port()
    cli = subprocess.Popen([sys.executable, "-m", "gbnf", "server", "start", "--port", str(port)],
                           stdout=subprocess.PIPE, text=True)
    assert "ready at" in cli.stdout.readline()
    assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200
    cli.send_signal(getattr(signal, sig))
    cli.wait(30)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
        except httpx.HTTPError:
            return
        time.sleep(0.2)
    raise AssertionError(f"llama-server still answers on port {port} after {sig} to its parent")


def test_server_backends_are_context_managers(fake):
    server = fake((200, json.dumps(OK_REPLY).encode(), 0), (200, json.dumps(OK_REPLY).encode(), 0))
    with ServerBackend(server.url) as client:
        assert client.complete(HI, None, Sampling()).text == "hello"
    assert client._client.is_closed

    async def run():
        async with AsyncServerBackend(server.url) as aclient:
            assert (await aclient.acomplete(HI, None, Sampling())).text == "hello"
        return aclient

    assert asyncio.run(run())._client.is_closed


@pytest.mark.model
def test_a_server_started_from_a_thread_outlives_the_thread():
    started: list[LlamaServer] = []
    thread = threading.Thread(target=lambda: started.append(LlamaServer(threads=1).start()))
    thread.start()
    thread.join()
    try:
        time.sleep(0.5)  # a child tied to the thread's death would be gone by now
        with ServerBackend(started[0].url, timeout=5) as backend:
            assert backend.health() == "ok"
    finally:
        started[0].stop()


def test_a_llama_server_without_llguidance_gets_gbnf(fake):
    """The probe refused (a llama-server built without llguidance): grammars go as GBNF, and
    the probe is not sent again."""
    server = fake((400, b'{"error": {"message": "Failed to parse grammar"}}', 0), (200, json.dumps(OK_REPLY).encode(), 0))
    client = ServerBackend(server.url)
    for _ in range(2):
        client.complete(HI, 'root ::= "a"', Sampling(max_tokens=8))
    assert client.dialect == "gbnf" and server.paths == ["/completion", "/v1/chat/completions", "/v1/chat/completions"]
    assert json.loads(server.bodies[1])["grammar"] == 'root ::= "a"'
