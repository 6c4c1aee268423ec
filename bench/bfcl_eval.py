"""BFCL's own harness (``bfcl-eval``) against ``gbnf serve``, llama-server and vLLM.

BFCL sends every entry through the official ``openai`` client (its Responses API handler for
OpenAI's FC models) to ``$OPENAI_BASE_URL``, and scores the replies with its own AST checker:
the right functions with the right argument values, and no call at all on the irrelevance sets.
Nothing here scores; this module only points the harness at each target and collects BFCL's
scores and its per-entry latencies.

bfcl-eval is no dependency of gbnf (it brings many packages of its own); install it in a
virtual environment of its own and name its ``bfcl`` command::

    python -m venv /tmp/bfcl && /tmp/bfcl/bin/pip install bfcl-eval==2026.3.23 soundfile
    python -m bench.bfcl_eval --bfcl /tmp/bfcl/bin/bfcl --per-category 25

Entries: a fixed sample of each category (evenly spaced through the category's entries), the
same for every target; ``--per-category 0`` runs whole categories.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from gbnf.endpoint import ServeProcess
from gbnf.llama_server import LlamaServer
from gbnf.testing import VllmServer

CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance", "live_simple",
              "live_multiple", "live_irrelevance")
NON_LIVE = ("simple_python", "multiple", "parallel", "parallel_multiple")
HANDLER = "gpt-4.1-nano-2025-04-14-FC"
"""A BFCL model whose handler speaks the Responses API and sends a temperature: only its
requests matter, since ``$OPENAI_BASE_URL`` sends them to the target."""
CHAT_HANDLER = "openbmb/MiniCPM-SALA-FC"
"""A BFCL model whose handler speaks chat completions (OpenAI's client, tools as functions):
the handler of the targets in front of vLLM, whose Responses API differs, so both send the
same requests; vLLM answers to its model name."""
_SMOL = ("--model", "smollm2-135m")
_FREE_VALUES = (*_SMOL, "--shaping", "copy_values=false")
"""SmolLM2-135M writing argument values freely, not copied from the request."""
_GEMMA = ("--model", "gemma3-270m")
TARGETS = {
    "gbnf serve, SmolLM2-135M": ("serve", _SMOL),
    "gbnf serve --profile capable, SmolLM2-135M": ("serve", (*_SMOL, "--profile", "capable")),
    "gbnf serve --profile off, SmolLM2-135M": ("serve", (*_SMOL, "--profile", "off")),
    "gbnf serve --shaping values_apart=false, SmolLM2-135M": ("serve", (*_SMOL, "--shaping", "values_apart=false")),
    "gbnf serve --shaping meaning=false, SmolLM2-135M": ("serve", (*_SMOL, "--shaping", "meaning=false")),
    "gbnf serve --shaping copy_values=false, SmolLM2-135M": ("serve", _FREE_VALUES),
    "gbnf serve --shaping copy_values=false --shaping copy_bias=2, SmolLM2-135M": (
        "serve", (*_FREE_VALUES, "--shaping", "copy_bias=2")),
    "gbnf serve --shaping copy_values=false --shaping count_calls=false, SmolLM2-135M": (
        "serve", (*_FREE_VALUES, "--shaping", "count_calls=false")),
    "gbnf serve --shaping copy_values=false --shaping asked_only=false --shaping count_calls=false, SmolLM2-135M": (
        "serve", (*_FREE_VALUES, "--shaping", "asked_only=false", "--shaping", "count_calls=false")),
    "gbnf serve --shaping copy_values=false --shaping decide=false --shaping asked_only=false, SmolLM2-135M": (
        "serve", (*_FREE_VALUES, "--shaping", "decide=false", "--shaping", "asked_only=false")),
    "gbnf serve --shaping prose_tokens=none, SmolLM2-135M": ("serve", (*_SMOL, "--shaping", "prose_tokens=none")),
    "gbnf serve, Gemma 3 270M": ("serve", _GEMMA),
    "gbnf serve --profile capable, Gemma 3 270M": ("serve", (*_GEMMA, "--profile", "capable")),
    "gbnf serve --profile off, Gemma 3 270M": ("serve", (*_GEMMA, "--profile", "off")),
    "gbnf serve --shaping copy_values=false --shaping copy_bias=2, Gemma 3 270M": (
        "serve", (*_GEMMA, "--shaping", "copy_values=false", "--shaping", "copy_bias=2")),
    "gbnf serve --shaping copy_values=false --shaping asked_only=false --shaping count_calls=false, Gemma 3 270M": (
        "serve", (*_GEMMA, "--shaping", "copy_values=false", "--shaping", "asked_only=false", "--shaping",
                  "count_calls=false")),
    "llama-server alone, SmolLM2-135M": ("llama-server", ("smollm2-135m",)),
    "vLLM alone (CPU build, hermes tool parser), SmolLM2-135M": ("vllm", ("hermes",)),
    "vLLM alone (CPU build, hermes tool parser, tools marked strict), SmolLM2-135M": ("vllm-strict", ("hermes",)),
    "gbnf serve in front of vLLM (CPU build), SmolLM2-135M": ("serve-vllm", ()),
}
HANDLERS = {"vllm": CHAT_HANDLER, "vllm-strict": CHAT_HANDLER, "serve-vllm": CHAT_HANDLER}
PROSE_TOKENS = 256
"""A reply's token limit on vLLM alone, where BFCL's handler sets none: ``gbnf serve``'s bound
on a reply that can only be text (``Shaping.prose_tokens``), so neither runs on to the context's end."""
"""The handler of each kind of target other than :data:`HANDLER`."""


def sample(bfcl: Path, per_category: int, categories: tuple[str, ...] = CATEGORIES, offset: int = 0
           ) -> dict[str, list[str]]:
    """The ids of each category's sample: ``per_category`` evenly spaced entries (0: all),
    from the ``offset``-th entry on (another sample of the same size, to try a change on
    entries the published one does not hold)."""
    script = "import bfcl_eval, os; print(os.path.dirname(bfcl_eval.__file__))"
    data = Path(subprocess.run([str(bfcl.parent / "python"), "-c", script], capture_output=True, text=True,
                               check=True).stdout.strip()) / "data"
    ids = {}
    for category in categories:
        lines = (data / f"BFCL_v4_{category}.json").read_text().splitlines()
        every = [json.loads(line)["id"] for line in lines if line.strip()]
        step = max(1, len(every) // per_category) if per_category else 1
        ids[category] = every[offset::step][:per_category or None]
    return ids


@contextmanager
def target(kind: str, options: tuple[str, ...]) -> Iterator[tuple[str, list[str]]]:
    """The base URL (``.../v1``) of a running target, and a list that gets ``gbnf serve``'s log
    lines once it stops (empty for other targets)."""
    log: list[str] = []
    if kind == "serve":
        with ServeProcess("--verbose", *options) as served:
            yield served.url, log
        log += served.stderr.splitlines()
    elif kind in ("vllm", "vllm-strict"):
        with VllmServer(tool_parser=options[0], names=(CHAT_HANDLER, CHAT_HANDLER.removesuffix("-FC")),
                        max_tokens=PROSE_TOKENS) as server:
            if kind == "vllm":
                yield f"{server.url}/v1", log
            else:
                with strict_relay(server.url) as relay:
                    yield f"{relay}/v1", log
    elif kind == "serve-vllm":
        with VllmServer() as server, ServeProcess("--verbose", "--server", server.url, "--upstream-kind", "vllm",
                                                  *options) as served:
            yield served.url, log
        log += served.stderr.splitlines()
    else:
        with LlamaServer(options[0]) as server:
            yield f"{server.url}/v1", log


@contextmanager
def strict_relay(upstream: str) -> Iterator[str]:
    """A loopback relay to ``upstream`` that marks every function tool of a request ``strict``
    (BFCL's handlers mark none, and vLLM holds arguments to their schema only for strict tools);
    its URL."""

    class Relay(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self._send(httpx.get(upstream + self.path, timeout=600))

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            for tool in body.get("tools") or []:
                if isinstance(tool.get("function"), dict):
                    tool["function"]["strict"] = True
            self._send(httpx.post(upstream + self.path, json=body, timeout=600))

        def _send(self, response: httpx.Response) -> None:
            self.send_response(response.status_code)
            self.send_header("Content-Type", response.headers.get("content-type", "application/json"))
            self.send_header("Content-Length", str(len(response.content)))
            self.end_headers()
            self.wfile.write(response.content)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Relay)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


_TIMING = re.compile(r"answered in ([0-9.]+) ms: the model ([0-9.]+) ms, gbnf ([0-9.]+) ms")


def gbnf_milliseconds(log: list[str]) -> tuple[float, float] | None:
    """The p50 and p99 of the milliseconds ``gbnf serve`` spent on a request apart from the
    model's, from its log (None when it logged no request)."""
    own = sorted(float(match[3]) for line in log if (match := _TIMING.search(line)))
    if not own:
        return None
    p99 = statistics.quantiles(own, n=100)[98] if len(own) > 1 else own[0]
    return round(statistics.median(own), 1), round(p99, 1)


def run(bfcl: Path, name: str, url: str, ids: dict[str, list[str]], work: Path, handler: str = HANDLER
        ) -> dict[str, Any]:
    """``bfcl generate`` then ``bfcl evaluate`` for one target, through BFCL's ``handler``; its
    scores and latencies."""
    slug = "".join(c if c.isalnum() else "-" for c in name.lower())
    results, scores = work / "result" / slug, work / "score" / slug
    (work / "test_case_ids_to_generate.json").write_text(json.dumps(ids))
    env = {**os.environ, "OPENAI_BASE_URL": url, "OPENAI_API_KEY": "unused", "BFCL_PROJECT_ROOT": str(work)}
    subprocess.run([str(bfcl), "generate", "--model", handler, "--run-ids", "--temperature", "0",
                    "--result-dir", str(results), "-o"], env=env, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([str(bfcl), "evaluate", "--model", handler, "--test-category", ",".join(ids),
                    "--partial-eval", "--result-dir", str(results), "--score-dir", str(scores)], env=env,
                   check=True, stdout=subprocess.DEVNULL)
    row: dict[str, Any] = {"target": name}
    for category in ids:
        [score] = scores.rglob(f"BFCL_v4_{category}_score.json")
        head = json.loads(score.read_text().splitlines()[0])
        row[category] = (head["correct_count"], head["total_count"])
    entries = [json.loads(line) for path in results.rglob("*_result.json")
               for line in path.read_text().splitlines() if line.strip()]
    replies = [entry.get("result") for entry in entries]
    called = [reply for reply in replies if isinstance(reply, list) and reply]
    row["calls"] = (sum(map(_valid_calls, called)), len(called), len(replies))
    seconds = [x for x in (entry.get("latency") for entry in entries) if isinstance(x, (int, float))]
    row["median_seconds"] = round(statistics.median(seconds), 2)
    row["p99_seconds"] = round(statistics.quantiles(seconds, n=100)[98], 2) if len(seconds) > 1 else row["median_seconds"]
    return row


def _valid_calls(reply: list[Any]) -> bool:
    """Whether every call of a reply BFCL recorded (``{name: arguments}``) has JSON object arguments."""
    def valid(call: Any) -> bool:
        if not isinstance(call, dict) or len(call) != 1:
            return False
        arguments = next(iter(call.values()))
        try:
            return isinstance(json.loads(arguments) if isinstance(arguments, str) else arguments, dict)
        except json.JSONDecodeError:
            return False
    return all(map(valid, reply))


def table(rows: list[dict[str, Any]], ids: dict[str, list[str]]) -> str:
    """The rows as a Markdown table: each category's accuracy, non-live AST overall, the replies
    that called (their calls all with JSON object arguments / replies with calls / replies), seconds, and
    the milliseconds `gbnf serve` spent on a request apart from the model's."""
    head = ["target", *ids, "non-live AST", "valid calls / calls / replies", "median s/entry", "p99 s/entry",
            "gbnf ms/request p50 / p99"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        correct = sum(row[c][0] for c in NON_LIVE if c in row)
        total = sum(row[c][1] for c in NON_LIVE if c in row)
        cells = [f"{row[c][0]}/{row[c][1]}" for c in ids] + [f"{correct / total:.0%}" if total else "-",
                                                             "/".join(map(str, row.get("calls", ()))) or "-",
                                                             str(row["median_seconds"]), str(row.get("p99_seconds", "-")),
                                                             " / ".join(map(str, row.get("gbnf_ms_p50_p99", ()))) or "-"]
        lines.append("| " + " | ".join([row["target"], *cells]) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bfcl", type=Path, required=True, help="the bfcl command of a bfcl-eval install")
    parser.add_argument("--per-category", type=int, default=25, metavar="N")
    parser.add_argument("--target", action="append", choices=list(TARGETS), help="default: every target")
    parser.add_argument("--categories", default=",".join(CATEGORIES), help="comma-separated (default: all eight)")
    parser.add_argument("--offset", type=int, default=0, metavar="K", help="start each category's sample at its "
                        "K-th entry (default 0, the published sample)")
    parser.add_argument("-o", "--output", type=Path, help="also write the table and the rows (JSON) here")
    parser.add_argument("--work", type=Path, help="keep BFCL's results and scores in this folder (default: a "
                        "temporary one)")
    args = parser.parse_args(argv)
    chosen = tuple(args.categories.split(","))
    if set(chosen) - set(CATEGORIES):
        parser.error(f"--categories: not among {', '.join(CATEGORIES)}: {', '.join(sorted(set(chosen) - set(CATEGORIES)))}")
    ids = sample(args.bfcl, args.per_category, chosen, args.offset)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bfcl-") as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for name in args.target or list(TARGETS):
            kind, options = TARGETS[name]
            with target(kind, options) as (url, log):
                rows.append(run(args.bfcl, name, url, ids, work.resolve(), HANDLERS.get(kind, HANDLER)))
            if (own := gbnf_milliseconds(log)) is not None:
                rows[-1]["gbnf_ms_p50_p99"] = own
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    text = table(rows, ids)
    print(text)
    if args.output:
        args.output.write_text(text + "\n\n```json\n" + json.dumps(rows, indent=1) + "\n```\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
