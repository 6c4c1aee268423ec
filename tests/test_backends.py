"""Both backends for real: the embedded model in-process, and a real llama-server."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import httpx
import jsonschema
import llama_cpp
import numpy as np
import pytest

from gbnf import compile_pool, compile_schema_grammar
from gbnf.backends import (
    ENGINE_PROBE,
    PLAIN_STOP,
    AsyncServerBackend,
    LlamaCppBackend,
    Sampling,
    ServerBackend,
    embedded_model,
    penalized,
    pick_constrained,
    resolve_model,
)
from gbnf.compiler import translate
from gbnf.errors import BackendError, GbnfError, GrammarError
from gbnf.plan import Planner, PlanOptions
from gbnf.read import validate_calls
from gbnf.shape.rules import bounded

QUERIES = ["What time is it in Tokyo?", "Find the PDF files in /tmp", "Create the folder /tmp/reports",
           "Send Anna a message saying I will be late", "What is the weather in Paris for 3 days?"]
STRUCTURAL = ("unknown tool", "not a JSON tool call", "unexpected argument", "missing required", "must be")


def checking_executors(tools, received):
    """Executors that record what they get and check it against the tool's schema."""

    def make(tool):
        def run(**arguments):
            jsonschema.validate(arguments, tool.parameters)
            received.append((tool.name, arguments))
            return {"ok": True}

        return run

    return {tool.name: make(tool) for tool in tools if tool.name != "final_answer"}


@pytest.mark.parametrize("query", QUERIES)
def test_plan_terminates_and_no_executor_gets_invalid_arguments(backend, tools, query):
    received = []
    events = []
    planner = Planner(tools, backend, checking_executors(tools, received),
                      options=PlanOptions(max_steps=4, sampling=Sampling(max_tokens=160, temperature=0.7)))
    planner.subscribe(events.append)
    result = planner.run(query)
    assert result.status in ("final", "blocked", "max_steps"), result.error
    assert result.steps <= 4
    assert all(e.kind != "tool_error" or "failed" not in e.data["error"] for e in events)  # no schema failure
    structural = [e.data["error"] for e in events if e.kind == "validation_error"
                  and not e.data["error"].startswith("output truncated")
                  and any(s in e.data["error"] for s in STRUCTURAL[:4])]
    assert structural == []  # the grammar made these impossible


def test_same_seed_same_reply(backend, tools):
    grammar = compile_pool(tools).text
    messages = [{"role": "user", "content": "Find my notes"}]
    sampling = Sampling(max_tokens=40, temperature=0.9, seed=7)
    assert backend.complete(messages, grammar, sampling).text == backend.complete(messages, grammar, sampling).text


def test_truncation_is_reported(backend, tools):
    reply = backend.complete([{"role": "user", "content": "Send a long message"}], compile_pool(tools).text,
                             Sampling(max_tokens=5))
    assert reply.truncated and reply.completion_tokens == 5 and reply.prompt_tokens > 0


def test_unconstrained_completion(backend):
    reply = backend.complete([{"role": "user", "content": "Say hi"}], None, Sampling(max_tokens=8))
    assert reply.text and reply.completion_tokens <= 8


def test_grammar_reply_always_parses(backend, tools):
    grammar = compile_pool(tools, layout="compact").text
    for seed in range(3):
        reply = backend.complete([{"role": "user", "content": "What time is it?"}], grammar,
                                 Sampling(max_tokens=200, temperature=1.0, seed=seed))
        if not reply.truncated:
            call = json.loads(reply.text)
            assert call["name"] in {t.name for t in tools}


@pytest.fixture
def sample_first(inprocess):
    """The in-process model deciding grammars with llama.cpp's engine (sample first)."""
    inprocess.grammar_engine = "llama.cpp"
    yield inprocess
    inprocess.grammar_engine = "llguidance"


def test_fast_and_full_masking_agree_when_greedy(sample_first, tools):
    grammar = compile_pool(tools).text
    messages = [{"role": "user", "content": "Create the folder /tmp/x"}]
    fast = sample_first.complete(messages, grammar, Sampling(max_tokens=60))
    sample_first.grammar_mode = "full"
    try:
        full = sample_first.complete(messages, grammar, Sampling(max_tokens=60))
    finally:
        sample_first.grammar_mode = "fast"
    assert fast.text == full.text


@pytest.fixture
def guided(inprocess):
    """The in-process model as it comes: deciding grammars with llguidance (masks and fast-forward)."""
    assert inprocess.grammar_engine == "llguidance"
    return inprocess


def test_a_grammar_llguidance_refuses_is_decided_by_llama_cpp(guided, tools, monkeypatch):
    three = [t for t in tools if t.name in ("create_event_google_workspace", "create_folder", "final_answer")]
    grammar = compile_pool(three).text
    monkeypatch.setattr("gbnf.backends._inprocess.translate", lambda text, dialect: "start: (")
    try:
        with pytest.warns(UserWarning, match="llguidance refused a grammar"):
            assert guided._matcher(grammar) is None
        reply = guided.complete([{"role": "user", "content": "Create the folder /tmp/x"}], grammar,
                                Sampling(max_tokens=120))
    finally:
        guided._matchers.pop(grammar)  # the refusal is cached: later tests get llguidance again
    validate_calls(reply.text, three)


def test_a_grammar_deeper_than_llguidance_survives_is_never_given_to_it(guided):
    chain = "\n".join(["root ::= r0", *(f'r{i} ::= "a" r{i + 1} | ""' for i in range(3000)), 'r3000 ::= "b"'])
    try:  # llguidance 1.9 dies with SIGSEGV loading a chain of 3,000 rules; llama.cpp decides it instead
        with pytest.warns(UserWarning, match="3002 rules nest in one chain"):
            assert guided._matcher(chain) is None
    finally:
        guided._matchers.pop(chain)
    shallow = "\n".join(["root ::= r0", *(f'r{i} ::= "a" r{i + 1} | ""' for i in range(1000)), 'r1000 ::= "b"'])
    try:
        assert guided._matcher(shallow) is not None
    finally:
        guided._matchers.pop(shallow)


@pytest.mark.parametrize("temperature", [0.0, 0.9])
def test_llguidance_engine_decodes_valid_calls_and_counts_every_token(guided, tools, temperature):
    tools = [replace(t, parameters=bounded(t.parameters, 40, 3)) for t in tools]  # as the planner bounds them:
    grammar = compile_pool(tools).text  # at 0.9 an unbounded string may run past any token budget
    messages = [{"role": "user", "content": "What's the weather in Oslo?"}]
    reply = guided.complete(messages, grammar, Sampling(max_tokens=200, temperature=temperature, seed=5))
    assert not reply.truncated
    [call] = validate_calls(reply.text, tools)
    assert call.name in {t.name for t in tools}
    assert reply.completion_tokens >= len(guided.llm.tokenize(reply.text.encode(), add_bos=False, special=False)) - 2
    again = guided.complete(messages, grammar, Sampling(max_tokens=200, temperature=temperature, seed=5))
    assert again.text == reply.text


def test_llguidance_masks_as_llama_cpp_wherever_it_samples(guided, tools):
    """Where llguidance does not fast-forward, its mask is llama.cpp's on every text token, so
    every sampled position has the distribution it has under llama.cpp's grammar (control tokens
    such as <|im_start|>, which llama.cpp lets into a string by their spelling, llguidance
    refuses); where it fast-forwards it allows only the canonical tokens. Never more."""
    control = np.array([bool(llama_cpp.llama_vocab_get_attr(guided._vocab, i) & llama_cpp.LLAMA_TOKEN_ATTR_CONTROL)
                        for i in range(guided._n_vocab)])
    grammar = compile_pool(tools).text
    reply = guided.complete([{"role": "user", "content": "Read the file /etc/hostname"}], grammar,
                            Sampling(max_tokens=80))
    tokens = guided.llm.tokenize(reply.text.encode(), add_bos=False, special=False)
    matcher, sampler = guided._matcher(grammar), guided._grammar(grammar)
    forced = sampled = 0
    for token in tokens:
        llguidance = np.unpackbits(np.frombuffer(matcher.compute_bitmask(), dtype=np.uint8),
                                   bitorder="little")[:guided._n_vocab].astype(bool)
        llama = np.isfinite(guided._applied(np.zeros(guided._n_vocab, dtype=np.float32), sampler))
        assert not (llguidance & ~llama).any()
        if matcher.compute_ff_tokens():
            forced += 1
        else:
            sampled += 1
            assert (llguidance == llama)[~control].all()
        assert matcher.consume_token(token)
        llama_cpp.llama_sampler_accept(sampler, token)
    assert forced and sampled


def test_sample_first_has_the_distribution_of_full_masking():
    """Fast path: P(a) = p(a) + (1 - p(A)) p(a)/p(A) = p(a)/p(A). Checked by a chi-square test."""
    logits = np.array([2.0, 1.0, 0.5, 0.0, -1.0, 1.5, 3.0, 0.2], dtype=np.float32)
    allowed = {1, 3, 5}
    p = np.exp(logits.astype(np.float64))
    expected = np.array([p[i] if i in allowed else 0 for i in range(8)])
    expected /= expected.sum()

    def mask(x):
        return np.array([v if i in allowed else -np.inf for i, v in enumerate(x)], dtype=np.float32)

    n = 20000
    for mode in ("fast", "full"):
        rng = np.random.default_rng(1234)
        counts = np.bincount([pick_constrained(logits, allowed.__contains__, mask, rng, 1.0, mode)
                              for _ in range(n)], minlength=8)
        assert set(np.nonzero(counts)[0]) == allowed
        chi2 = sum((counts[i] - n * expected[i]) ** 2 / (n * expected[i]) for i in allowed)
        assert chi2 < 13.8, (mode, counts, chi2)  # df = 2, p = 0.001


def test_missing_model_file_is_a_clear_error(tmp_path):
    with pytest.raises(BackendError, match="neither a file nor a packaged model"):
        LlamaCppBackend(tmp_path / "nope.gguf")
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a model")
    with pytest.raises(BackendError, match="could not load"):
        LlamaCppBackend(junk)


class Recording(httpx.HTTPTransport):
    def __init__(self):
        super().__init__()
        self.bodies = []

    def handle_request(self, request):
        if request.content:
            self.bodies.append((request.url.path, json.loads(request.content)))
        return super().handle_request(request)


def test_server_request_carries_grammar_and_never_tools(llama_server, tools):
    """gbnf's llama-server build decides grammars with llguidance: asked once, it gets them in
    llguidance's dialect; told ``gbnf``, it gets GBNF for llama.cpp's own engine."""
    grammar = compile_pool(tools).text
    for dialect, sent in ((None, translate(grammar, "llguidance")), ("gbnf", grammar)):
        transport = Recording()
        client = ServerBackend(llama_server.url, transport=transport, dialect=dialect)
        for _ in range(2):
            client.complete([{"role": "user", "content": "hi"}], grammar, Sampling(max_tokens=8, seed=3,
                                                                                  temperature=0.5))
        probes = [body for path, body in transport.bodies if path == "/completion"]
        assert probes == ([ENGINE_PROBE] if dialect is None else [])  # asked once, and only when not told
        (path, body), _ = [(path, body) for path, body in transport.bodies if path != "/completion"]
        assert path == "/v1/chat/completions" and client.dialect == (dialect or "llguidance")
        assert "tools" not in body and body["grammar"] == sent
        assert (body["max_tokens"], body["seed"], body["temperature"], body["cache_prompt"]) == (8, 3, 0.5, True)



def _openai_server(bodies: list) -> httpx.MockTransport:
    """vLLM and SGLang need a GPU and cannot run here: this transport answers a chat completion
    as their documented OpenAI-compatible servers do, and keeps each request body."""
    def handle(request: httpx.Request) -> httpx.Response:
        bodies.append((request.url.path, json.loads(request.content)))
        return httpx.Response(200, json={"id": "x", "object": "chat.completion", "choices": [
            {"index": 0, "message": {"role": "assistant", "content": '{"name": "f"}'}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}})
    return httpx.MockTransport(handle)


@pytest.mark.parametrize("upstream, dialect, field", [
    ("vllm", None, lambda body: body["structured_outputs"]["grammar"]),
    ("vllm", "llguidance", lambda body: body["structured_outputs"]["grammar"]),
    ("sglang", None, lambda body: body["ebnf"]),
    ("sglang", "llguidance", lambda body: body["ebnf"]),
])
def test_vllm_and_sglang_get_the_grammar_in_their_field_and_dialect(tools, upstream, dialect, field):
    bodies: list = []
    client = ServerBackend("http://upstream", upstream=upstream, dialect=dialect, transport=_openai_server(bodies))
    grammar = compile_pool(tools).text
    reply = client.complete([{"role": "user", "content": "hi"}], grammar,
                            Sampling(max_tokens=8, seed=3, bias=(("a", 1.0),), dry=0.8))
    [(path, body)] = bodies
    assert path == "/v1/chat/completions" and (reply.text, reply.prompt_tokens) == ('{"name": "f"}', 7)
    assert field(body) == translate(grammar, dialect or "xgrammar")
    assert field(body).startswith("%llguidance") == (dialect == "llguidance")
    assert body["repetition_penalty"] == 1.0 and body["max_tokens"] == 8
    assert not {"grammar", "cache_prompt", "repeat_last_n", "dry_multiplier", "logit_bias", "tools"} & set(body)


def test_upstream_kind_and_dialect_are_checked():
    with pytest.raises(GbnfError, match="upstream kind"):
        ServerBackend("http://x", upstream="tgi")
    with pytest.raises(GbnfError, match="dialect"):
        ServerBackend("http://x", dialect="outlines")
    with pytest.raises(GbnfError, match="chat endpoint"):
        ServerBackend("http://x", upstream="vllm", endpoint="completion")


def test_server_completion_endpoint_with_apply_template(llama_server, tools):
    client = ServerBackend(llama_server.url, endpoint="completion")
    reply = client.complete([{"role": "user", "content": "What time is it?"}], compile_pool(tools).text,
                            Sampling(max_tokens=200))
    assert reply.prompt_tokens > 0
    if not reply.truncated:
        assert json.loads(reply.text)["name"]


def test_server_health_and_props(llama_server):
    client = ServerBackend(llama_server.url)
    client.wait_healthy()
    assert "default_generation_settings" in client.props()


def test_a_grammar_llguidance_refuses_on_llama_server_is_decided_by_llama_cpp(llama_server, monkeypatch):
    """gbnf's build fails the request where llama.cpp would decode it free; the backend then
    sends the grammar as GBNF, as the in-process backend falls back to llama.cpp's engine."""
    refused = httpx.post(f"{llama_server.url}/completion", timeout=60,
                         json={"prompt": "a", "n_predict": 4, "grammar": "%llguidance {}\nstart: nope"})
    assert refused.status_code == 400  # not a free reply
    monkeypatch.setattr("gbnf.backends._http.translate",
                        lambda text, dialect: "%llguidance {}\nstart: nope" if dialect == "llguidance" else text)
    client = ServerBackend(llama_server.url)
    with pytest.warns(UserWarning, match="llguidance refused a grammar"):
        reply = client.complete([{"role": "user", "content": "hi"}], 'root ::= "{}"', Sampling(max_tokens=8))
    assert reply.text == "{}"


def test_llguidance_failing_mid_reply_on_llama_server_ends_the_reply(llama_server):
    """A key the model cannot spell (its UTF-8 begins with a byte no token of SmolLM2 holds):
    llguidance fails in mid-reply, and gbnf's build ends the reply there instead of letting
    the model write on with no grammar."""
    schema = {"type": "object", "properties": {"\U00050000x": {"type": "integer"}}, "required": ["\U00050000x"],
              "additionalProperties": False}
    client = ServerBackend(llama_server.url)
    for seed in range(3):
        reply = client.complete([{"role": "user", "content": "Write one JSON value."}],
                                compile_schema_grammar(schema).text, Sampling(max_tokens=48, temperature=1.0, seed=seed))
        head, _, key = reply.text.partition('"')  # JSON may put white space after the brace ("{\n")
        assert head.strip() == "{" and len(key) <= 2 and not reply.truncated, reply.text


def test_server_refuses_a_bad_grammar_as_a_bug_report(llama_server):
    client = ServerBackend(llama_server.url)
    with pytest.raises(GrammarError) as caught:
        client.complete([{"role": "user", "content": "hi"}], "root ::= foo_bar", Sampling(max_tokens=4))
    assert caught.value.grammar == "root ::= foo_bar"
    assert "HTTP 400" in str(caught.value) and "please report it" in str(caught.value)


def test_async_planner_on_the_server(llama_server, tools):
    async def plan():
        client = AsyncServerBackend(llama_server.url)
        try:
            await client.wait_healthy()
            options = PlanOptions(max_steps=3, sampling=Sampling(max_tokens=120))
            return await Planner(tools, client, options=options).arun("What time is it?")
        finally:
            await client.aclose()

    result = asyncio.run(plan())
    assert result.status in ("final", "blocked", "max_steps", "no_executor")


def test_soft_mode_on_both_backends(backend, tools):
    received = []
    result = Planner(tools, backend, checking_executors(tools, received),
                     options=PlanOptions(mode="soft", max_steps=3, sampling=Sampling(max_tokens=120))).run("Read the file /etc/hostname")
    assert result.status in ("final", "blocked", "max_steps")


def test_native_tool_calling_on_llama_server_without_grammar(llama_server, tools):
    transport = Recording()
    client = ServerBackend(llama_server.url, transport=transport)
    received = []
    result = Planner(tools, client, checking_executors(tools, received),
                     options=PlanOptions(mode="native", max_steps=3, sampling=Sampling(max_tokens=120))).run("What time is it in Tokyo?")
    assert result.status in ("final", "blocked", "max_steps")
    path, body = transport.bodies[0]
    assert "grammar" not in body and {t["function"]["name"] for t in body["tools"]} >= {"get_now"}


def test_loglik_ranks_a_likely_continuation_above_an_unlikely_one(inprocess):
    messages = [{"role": "user", "content": "What is the capital of France?"}]
    before = inprocess.complete(messages, None, Sampling(max_tokens=8))
    likely, unlikely, longer = inprocess.loglik([("The capital of France is", " Paris"),
                                                 ("The capital of France is", " Banana"),
                                                 ("The capital of France is", " Paris, a city")])
    assert unlikely < likely < 0 and longer < likely
    assert inprocess.loglik([("The capital of France is", " Paris")]) == [pytest.approx(likely, abs=1e-4)]
    after = inprocess.complete(messages, None, Sampling(max_tokens=8))  # the cache scoring left behind is not reused
    assert after.text == before.text


def test_bias_and_dry_change_what_is_decoded(inprocess):
    messages = [{"role": "user", "content": "Write the list: apple, pear, apple, pear, apple, pear, and continue the "
                                            "pattern for 30 items."}]
    plain = inprocess.complete(messages, None, Sampling(max_tokens=40))
    assert plain.text.count("pear, pear, pear") >= 1  # the small model loops
    dry = inprocess.complete(messages, None, Sampling(max_tokens=40, dry=0.8))
    assert "pear, pear, pear" not in dry.text
    biased = inprocess.complete(messages, None, Sampling(max_tokens=40, bias=(("banana", 8.0), (" banana", 8.0))))
    assert "banana" in biased.text.lower() and "banana" not in plain.text.lower()


def test_repeat_penalty_follows_llama_cpp():
    logits = np.array([2.0, -2.0, 1.0], dtype=np.float32)
    assert penalized(logits, [0, 1], 2.0).tolist() == [1.0, -4.0, 1.0]
    assert penalized(logits, [], 2.0) is logits and penalized(logits, [0], 1.0) is logits


def test_repeat_penalty_reaches_llama_server(llama_server):
    client = ServerBackend(llama_server.url)
    messages = [{"role": "user", "content": "Say hello three times."}]
    plain = client.complete(messages, None, Sampling(max_tokens=24))
    penalized_reply = client.complete(messages, None, Sampling(max_tokens=24, repeat_penalty=1.8))
    client.close()
    assert plain.text != penalized_reply.text


@pytest.mark.model
def test_cli_plan_prints_the_answer_first_and_the_trace_on_request(tmp_path):
    import subprocess
    import sys

    trace = tmp_path / "t.jsonl"
    done = subprocess.run([sys.executable, "-m", "gbnf", "plan", "What time is it in Tokyo?", "-v",
                           "--trace", str(trace)], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode in (0, 1), done.stderr
    kinds = [json.loads(line)["kind"] for line in trace.read_text().splitlines()]
    assert kinds[:3] == ["pool", "rank", "step"]
    if done.returncode == 0:
        assert done.stdout.strip() and "Traceback" not in done.stderr
        assert done.stderr.splitlines()[0].startswith("(")  # how the plan ended, then the steps
        assert any(line.startswith("ranked: get_now") for line in done.stderr.splitlines())


def test_on_text_gets_the_reply_while_it_is_decoded(inprocess):
    seen: list[tuple[str, int]] = []
    story = [{"role": "user", "content": "Write a long story about a dragon."}]
    done = inprocess.complete(story, None, Sampling(max_tokens=60),
                              on_text=lambda piece: seen.append((piece, inprocess.llm.n_tokens)))
    assert "".join(piece for piece, _ in seen) == done.text
    positions = [n for _, n in seen]
    assert len(seen) > 10 and positions == sorted(positions) and positions[0] < positions[-1]


def test_on_text_never_gets_what_a_stop_string_cuts(inprocess):
    seen: list[str] = []
    count = [{"role": "user", "content": "Count from 1 to 10, comma separated."}]
    done = inprocess.complete(count, None, Sampling(max_tokens=40, stop=("5",)), on_text=seen.append)
    assert "5" not in done.text and not done.truncated and "".join(seen) == done.text


@pytest.mark.parametrize("settings", [{"temperature": float("nan")}, {"temperature": -1}, {"seed": -1},
                                      {"seed": 2**32}, {"max_tokens": 0}, {"top_p": 1.5}, {"dry": float("inf")},
                                      {"repeat_penalty": 0}, {"bias": (("x", float("nan")),)}])
def test_sampling_refuses_what_no_engine_can_honour(settings):
    with pytest.raises(GbnfError, match="sampling"):
        Sampling(**settings)


def test_the_inprocess_backend_is_a_context_manager():
    with LlamaCppBackend() as backend:
        assert backend.complete([{"role": "user", "content": "Hi"}], None, Sampling(max_tokens=4)).completion_tokens


def test_packaged_models_resolve_by_name():
    assert resolve_model("smollm2-135m") == embedded_model()
    assert resolve_model("gemma3-270m").name == "gemma-3-270m-q4_k_m.gguf"
    with pytest.raises(BackendError, match="packaged model"):
        resolve_model("gpt-5")


@pytest.mark.model
def test_a_base_model_plans_through_the_plain_transcript(tools):
    """Gemma 3 270M (base) has no chat template: the backend writes a plain transcript, a free
    reply stops where the model would write the next turn, and the grammar still holds."""
    with LlamaCppBackend("gemma3-270m", n_ctx=4096) as backend:
        prompt = backend._formatter(messages=[{"role": "system", "content": "Be brief."},
                                              {"role": "user", "content": "Hi"}]).prompt
        assert prompt == "<bos>System: Be brief.\n\nUser: Hi\n\nAssistant: "
        free = backend.complete([{"role": "user", "content": "Write a short dialogue between two friends."}],
                                None, Sampling(max_tokens=96, temperature=0.8, seed=3))
        assert not any(stop.strip() in free.text for stop in PLAIN_STOP), free.text
        planner = Planner(tools, backend, options=PlanOptions(max_steps=3, sampling=Sampling(max_tokens=160)))
        result = planner.run("What's the weather in Paris?")
    assert result.status != "error", result.error
    replies = [m["content"] for m in result.messages if m["role"] == "assistant"]
    assert replies and all(json.loads(reply)["name"] in {t.name for t in tools} for reply in replies)
