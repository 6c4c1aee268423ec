"""``gbnf serve`` under load and faults: many clients at once, chat completions with tools,
every reply checked.

    python -m bench.load [--upstream replicas|inprocess|vllm] [--serve-replicas N] [--requests N]
                         [--clients N] [--kill | --sigterm] [--out FILE]

``replicas`` puts ``gbnf serve`` in front of two llama-servers (the embedded model, one slot
each); with ``--kill`` one of them is killed (SIGKILL) a third of the way through and started
again on the same port two thirds of the way through. ``inprocess`` serves the embedded model
in the ``gbnf serve`` process (one request at a time, a queue of 16); ``vllm`` puts it in
front of one vLLM (:class:`gbnf.testing.VllmServer`). ``--serve-replicas N`` runs N ``gbnf
serve`` processes in front of the same upstream, the clients taking them in turn. With ``--sigterm``,
``gbnf serve`` gets SIGTERM halfway through: every request sent before it must still get a reply
(an answer, or a 4xx/503), and later ones find the port closed.

Each client is the official ``openai`` client (no retries of its own); a 429 or 503 with
Retry-After is waited out and sent again, up to five times, and counted. A reply is a valid
call (checked against its tool's schema), a text reply, or an error by HTTP status. Reported:
the outcomes, p50/p99 seconds of the replies, and ``gbnf serve``'s resident memory after the
first reply and at the end (Linux ``/proc``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import signal
import statistics
import sys
import threading
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import openai

from gbnf.endpoint import ServeProcess
from gbnf.llama_server import LlamaServer
from gbnf.testing import VllmServer

WEATHER = {"name": "get_weather", "description": "Current weather for a city", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}, "units": {"type": "string", "enum": ["metric",
                                                                                                    "imperial"]}},
    "required": ["city"]}}
EMAIL = {"name": "send_email", "description": "Send an email to someone", "parameters": {
    "type": "object", "properties": {"to": {"type": "string"}, "body": {"type": "string", "maxLength": 120}},
    "required": ["to", "body"]}}
TOOLS = [{"type": "function", "function": f} for f in (WEATHER, EMAIL)]
SCHEMAS = {f["name"]: f["parameters"] for f in (WEATHER, EMAIL)}
ASKS = ["What's the weather in {city}?", "Is it cold in {city} right now?", "Email {name} that I am running late.",
        "Tell {name} by email that the meeting moved to noon.", "Write a haiku about {city}.",
        "What is 17 times {n}?"]
CITIES = ["Paris", "Oslo", "Cairo", "Lima", "Osaka", "Quito", "Perth", "Accra"]
NAMES = ["Ana", "Ben", "Chen", "Dara", "Emil", "Fatou"]


@dataclass
class Tally:
    """Outcomes, reply seconds and waits, gathered from the client threads."""

    outcomes: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    waited: Counter[int] = field(default_factory=Counter)
    sent: list[tuple[float, bool]] = field(default_factory=list)  # when each last attempt was sent; any reply?
    done: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, outcome: str, sent: float, seconds: float | None) -> None:
        with self.lock:
            self.outcomes[outcome] += 1
            self.sent.append((sent, not outcome.startswith("not connected")))
            self.done += 1
            if seconds is not None:
                self.seconds.append(seconds)


def request(i: int, max_tokens: int) -> dict[str, Any]:
    ask = ASKS[i % len(ASKS)].format(city=CITIES[i % len(CITIES)], name=NAMES[i % len(NAMES)], n=i)
    return {"model": "m", "messages": [{"role": "user", "content": ask}], "tools": TOOLS, "max_tokens": max_tokens,
            "tool_choice": "required" if i % 3 == 0 else "auto", "seed": i}


def outcome(message: Any) -> str:
    """"call" when every call is to an offered tool with arguments valid for its schema, "text"
    for a text reply, else what is wrong."""
    if not message.tool_calls:
        return "text" if message.content else "empty reply"
    for call in message.tool_calls:
        schema = SCHEMAS.get(call.function.name)
        try:
            jsonschema.validate(json.loads(call.function.arguments), schema or {"not": {}})
        except (ValueError, jsonschema.ValidationError):
            return "invalid call"
    return "call"


def ask(api: openai.OpenAI, body: dict[str, Any], tally: Tally) -> None:
    """One request, with 429 and 503 waited out (Retry-After) up to five times."""
    start = time.perf_counter()
    for attempt in range(6):
        sent = time.perf_counter()
        try:
            reply = api.chat.completions.create(**body)
        except openai.APIStatusError as exc:
            wait = exc.response.headers.get("Retry-After")
            if exc.status_code in (429, 503) and wait is not None and attempt < 5:
                tally.waited[exc.status_code] += 1
                time.sleep(float(wait))
                continue
            code = (exc.body or {}).get("code") if isinstance(exc.body, dict) else None
            tally.add(f"HTTP {exc.status_code} {code or ''}".strip(), sent, None)
            return
        except openai.APIConnectionError as exc:
            tally.add(f"not connected ({type(exc.__cause__).__name__})", sent, None)
            return
        tally.add(outcome(reply.choices[0].message), sent, time.perf_counter() - start)
        return


def rss_mib(pid: int) -> float:
    """The resident memory of process ``pid`` and its children (``gbnf`` serves from a forked
    child), in MiB."""
    total = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            total += int(line.split()[1]) / 1024
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return total + sum(rss_mib(int(child)) for child in children)


def run(upstream: str, requests: int, clients: int, max_tokens: int, kill: bool, sigterm: bool,
        serve_replicas: int = 1) -> dict[str, Any]:
    tally = Tally()
    events: list[tuple[float, str]] = []
    signalled: list[float] = []
    with ExitStack() as stack:
        servers = [stack.enter_context(LlamaServer(threads=1)) for _ in range(2)] if upstream == "replicas" else []
        args = [arg for s in servers for arg in ("--server", s.url)]
        if upstream == "vllm":
            args = ["--server", stack.enter_context(VllmServer()).url, "--upstream-kind", "vllm"]
        replicas = [stack.enter_context(ServeProcess(*args, "--limit-per-client", "0")) for _ in range(serve_replicas)]
        served = replicas[0]
        assert served.process is not None
        pid = served.process.pid
        apis = [openai.OpenAI(base_url=r.url, api_key="unused", max_retries=0, timeout=300) for r in replicas]
        for api in apis:
            ask(api, request(0, max_tokens), Tally())  # warm: the grammar compiled once, the model loaded
        rss_start = rss_mib(pid)
        start = time.perf_counter()

        def watch() -> None:
            """The fault, at its point in the run."""
            steps = [(requests // 3, "kill"), (2 * requests // 3, "restart")] if kill else \
                [(requests // 2, "sigterm")] if sigterm else []
            for at, what in steps:
                while tally.done < at:
                    time.sleep(0.02)
                events.append((round(time.perf_counter() - start, 1), what))
                if what == "kill":
                    assert servers[1].process is not None
                    servers[1].process.kill()
                elif what == "restart":
                    servers[1].start()
                else:
                    signalled.append(time.perf_counter())
                    served.process.send_signal(signal.SIGTERM)  # type: ignore[union-attr]

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        with concurrent.futures.ThreadPoolExecutor(clients) as pool:
            list(pool.map(lambda i: ask(apis[i % len(apis)], request(i, max_tokens), tally), range(1, requests + 1)))
        wall = time.perf_counter() - start
        watcher.join()
        if kill:  # the last requests may end before gbnf serve looks again: give its health watch (every 1 s) time
            time.sleep(3)
        rss_end = rss_mib(pid) if served.process.poll() is None else None
        stack.close()
    seconds = sorted(tally.seconds)
    server_errors = sum(n for o, n in tally.outcomes.items() if o.startswith("HTTP 5") and not o.startswith("HTTP 503"))
    before = [answered for sent, answered in tally.sent if signalled and sent < signalled[0]]
    drained = {"sent_before_sigterm": len(before), "answered_of_those": sum(before)} if signalled else {}
    logs = "".join(r.stderr for r in replicas)
    return {"upstream": upstream, "serve_replicas": serve_replicas, "requests": requests, "clients": clients,
            "max_tokens": max_tokens, **drained,
            "events": events, "outcomes": dict(tally.outcomes.most_common()), "answered": len(seconds),
            "server_errors": server_errors, "waited": {str(k): v for k, v in tally.waited.items()},
            "p50_s": round(statistics.median(seconds), 3) if seconds else None,
            "p99_s": round(seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))], 3) if seconds else None,
            "asked_again": logs.count("asked once more"), "healthy_again": logs.count("is healthy again"),
            "exit_code": served.returncode,
            "wall_s": round(wall, 1), "rss_mib_start": round(rss_start, 1),
            "rss_mib_end": round(rss_end, 1) if rss_end is not None else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", choices=["replicas", "inprocess", "vllm"], default="replicas",
                        help="two llama-servers, the in-process model, or one vLLM (its CPU build)")
    parser.add_argument("--serve-replicas", type=int, default=1, metavar="N",
                        help="gbnf serve processes in front of the upstream; clients take them in turn")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--max-tokens", type=int, default=48)
    faults = parser.add_mutually_exclusive_group()
    faults.add_argument("--kill", action="store_true", help="replicas: kill one a third of the way, restart it later")
    faults.add_argument("--sigterm", action="store_true", help="SIGTERM to gbnf serve halfway through")
    parser.add_argument("--out", type=Path, help="write the report as JSON here (default: stdout)")
    args = parser.parse_args(argv)
    if args.kill and args.upstream != "replicas":
        parser.error("--kill needs --upstream replicas")
    report = run(args.upstream, args.requests, args.clients, args.max_tokens, args.kill, args.sigterm,
                 args.serve_replicas)
    text = json.dumps(report, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    print(text, file=sys.stdout if not args.out else sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

