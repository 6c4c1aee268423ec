"""What a grammar costs per token through a real llama-server: each case decoded with its
grammar, then the same prompt decoded free for as many tokens, in turn; the difference in the
server's own milliseconds per generated token is the time the grammar adds on that machine
(llama.cpp checks grammars on the host, whatever decodes the model).

Each grammar is sent in each engine's dialect: GBNF, for llama.cpp's own engine, and
llguidance's (``%llguidance {}``), for a llama-server built with llguidance (``gbnf server
build``); a server built without it skips the second. Each row also says how many replies
were the reply the in-process llguidance path wrote for the same case.

Python's standard library only, so it runs where only llama-server and Python are (a GPU host):
the cases (prompts and grammars) come from ``python -m bench.grammar_cost --cases-out FILE``.

    python -m bench.server_cost --cases cases.json --url http://127.0.0.1:8080
    python -m bench.server_cost --cases cases.json --server ./llama-server --model model.gguf --gpu-layers 99
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

MAX_TOKENS = 96


def post(url: str, body: dict[str, Any], timeout: float = 300.0) -> dict[str, Any]:
    """POST ``body`` as JSON; the JSON reply."""
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        reply: dict[str, Any] = json.loads(response.read())
    return reply


ENGINES = {"llama.cpp": "grammar", "llguidance": "llguidance"}
"""Each engine, and the field of a case that holds its grammar."""


def decode(url: str, prompt: str, grammar: str | None, n_predict: int) -> tuple[int, float, float, str]:
    """One completion at temperature 0: tokens generated, the server's ms per generated token,
    the seconds the request took, and the text."""
    body: dict[str, Any] = {"prompt": prompt, "n_predict": n_predict, "temperature": 0.0, "cache_prompt": True}
    body.update({"grammar": grammar} if grammar is not None else {"ignore_eos": True})
    start = time.perf_counter()
    reply = post(f"{url}/completion", body)
    seconds = time.perf_counter() - start
    timings = reply["timings"]
    return (int(timings["predicted_n"]), float(timings["predicted_ms"]) / max(int(timings["predicted_n"]), 1), seconds,
            str(reply.get("content", "")))


def takes(url: str, grammar: str) -> bool:
    """Whether the server decodes with ``grammar`` (a server without llguidance refuses its dialect)."""
    try:
        decode(url, "a", grammar, 1)
    except urllib.error.HTTPError:
        return False
    return True


def server_cost(url: str, cases: list[dict[str, Any]], rounds: int) -> list[dict[str, Any]]:
    """One row per pool and engine: the server's ms per token with the grammar and free on the
    same prompts (medians over cases and rounds), the ms the grammar adds per token (the median
    of each reply's difference with its free twin), the seconds per reply with the grammar
    (grammar parsing included) and free, the prompt already cached for both, and how many
    replies were the in-process llguidance path's."""
    engines = [(engine, field) for engine, field in ENGINES.items()
               if all(field in case for case in cases) and takes(url, cases[0][field])]
    samples: dict[tuple[str, str], dict[str, list[float]]] = {}
    for case in cases:  # one untimed pass: each grammar and prompt seen once
        for _, field in engines:
            decode(url, case["prompt"], case[field], MAX_TOKENS)
    for _ in range(rounds):
        for case in cases:
            for engine, field in engines:
                pool = samples.setdefault((case["pool"], engine), {key: [] for key in (
                    "grammar", "free", "added", "grammar s", "free s", "tokens", "same")})
                decode(url, case["prompt"], None, 1)  # the prompt cached, so neither reply below evaluates it
                tokens, per_token, seconds, text = decode(url, case["prompt"], case[field], MAX_TOKENS)
                _, free_per_token, free_seconds, _ = decode(url, case["prompt"], None, max(tokens, 1))
                same = float(text == case.get("in-process reply"))
                for key, value in (("grammar", per_token), ("free", free_per_token),
                                   ("added", per_token - free_per_token), ("grammar s", seconds),
                                   ("free s", free_seconds), ("tokens", tokens), ("same", same)):
                    pool[key].append(value)
    rows = []
    for (pool, engine), got in samples.items():
        median = {key: statistics.median(values) for key, values in got.items()}
        rows.append({"pool": pool, "engine": engine, "replies": len(got["grammar"]),
                     "as in-process": f"{int(sum(got['same']))}/{len(got['same'])}",
                     "tokens per reply": median["tokens"],
                     "free ms per token": round(median["free"], 3), "grammar ms per token": round(median["grammar"], 3),
                     "added ms per token": round(median["added"], 3),
                     "ratio": round(median["grammar"] / median["free"], 2),
                     "free s per reply": round(median["free s"], 3),
                     "grammar s per reply": round(median["grammar s"], 3)})
    return rows


@contextmanager
def llama_server(binary: str, model: str, gpu_layers: int | None) -> Iterator[str]:
    """A llama-server on a free loopback port for the duration; its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [binary, "-m", model, "--port", str(port), "-c", "8192", "-np", "1", "--no-warmup"]
    command += [] if gpu_layers is None else ["-ngl", str(gpu_layers)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"llama-server exited with code {process.returncode}: {' '.join(command)}")
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                time.sleep(0.5)
        else:
            raise RuntimeError("llama-server did not become healthy within 300 s")
        yield url
    finally:
        process.terminate()
        process.wait(30)


def markdown(rows: list[dict[str, Any]]) -> str:
    """Rows as a markdown table."""
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(str(row[key]) for key in head) + " |" for row in rows])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.server_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, required=True, help="prompts and grammars (bench.grammar_cost)")
    parser.add_argument("--url", help="a running llama-server")
    parser.add_argument("--server", help="a llama-server binary to start instead, with --model")
    parser.add_argument("--model", help="the GGUF model for --server")
    parser.add_argument("--gpu-layers", type=int, help="layers --server puts on the GPU")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the cases")
    parser.add_argument("--out", type=Path, help="write the rows here as JSON too")
    args = parser.parse_args(argv)
    cases = json.loads(args.cases.read_text())
    if args.url:
        rows = server_cost(args.url, cases, args.rounds)
    elif args.server and args.model:
        with llama_server(args.server, args.model, args.gpu_layers) as url:
            rows = server_cost(url, cases, args.rounds)
    else:
        parser.error("give --url, or --server and --model")
    print(markdown(rows))
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
