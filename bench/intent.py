"""Requests read by meaning: does ``gbnf serve`` act on a request that needs a tool (the right
tool with the right arguments) and abstain on one that needs none, for paraphrases, other
languages and unrelated requests (``bench/intent/``)?

Each request goes alone, as a user's message with the set's tools and ``tool_choice`` left to
OpenAI's default (``auto``), through the official ``openai`` client to ``gbnf serve`` on the
embedded model. Scored per request: ``acted`` (a tool was called), ``right_tool`` (the first
call is the tool the request needs), ``right`` (that, with every argument value the case
lists: strings compared without case or accents, by containment; numbers exactly; for a case
that lists several ``calls``, the reply's calls are exactly those, in any order), and for
requests that need no tool, ``abstained`` (no call). ``decided`` is what the server's shaping
decided before the model wrote anything (``call``, ``either``, ``text``: the reply's
``shaping``, asked for with ``explain``). Seconds are per request.

    python -m bench.intent                      # every set, every variant
    python -m bench.intent --set heldout --variant "gbnf serve --profile capable" --model gemma3-270m
    python -m bench.intent --set heldout --variant "gbnf serve"
    python -m bench.intent --set heldout --variant "gbnf serve" --noted   # tools with a usage note

With ``--noted`` each tool's description ends with a usage note (:data:`NOTE`), as the
descriptions of many real tools do (an MCP server's "Use this tool when..."; BFCL's harness adds
"Note that the provided function is in Python 3 syntax." to every function): the same requests
should be read the same.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import re
import statistics
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import openai

from gbnf import load_manifests
from gbnf.endpoint import ServeProcess
from gbnf.plan import openai_tools
from gbnf.tools import Tool

HERE = Path(__file__).resolve().parent
_DEV, _DEV2, _DEV3, _DEV4, _DEV5, _DEV6 = (HERE / "chats" / name
                                            for name in ("dev", "dev2", "dev3", "dev4", "dev5", "dev6"))
SETS = {"heldout": ((HERE / "intent" / "heldout.json",), (HERE / "intent" / "tools",), ()),
        "dev": ((HERE / "intent" / "dev.json",), (HERE / "tools",), ("search_web",)),
        "several": ((HERE / "intent" / "several.json",), (HERE / "intent" / "tools",), ()),
        "chats": ((HERE / "chats" / "heldout.json",), (HERE / "chats" / "tools",), ()),
        "chats-dev": ((_DEV / "chats.json",), (_DEV / "tools",), ()),
        "chats-dev2": ((_DEV2 / "chats.json",), (_DEV2 / "tools",), ()),
        "chats-dev-all": ((_DEV / "chats.json", _DEV2 / "chats.json"), (_DEV / "tools", _DEV2 / "tools"), ()),
        "chats-dev3": ((_DEV3 / "chats.json",), (_DEV / "tools", _DEV2 / "tools"), ()),
        "chats-dev4": ((_DEV4 / "chats.json",), (_DEV4 / "tools",), ()),
        "chats-dev5": ((_DEV5 / "chats.json",), (_DEV5 / "tools",), ()),
        "chats-dev6": ((_DEV6 / "chats.json",), (_DEV6 / "tools",), ())}
"""Each set: its cases' files, its tools' folders, and the tools of those it leaves out
(``chats-dev-all``: both development sets' chats with all twenty of their tools offered, as the
held-out chats offer theirs; ``chats-dev3``: requests to call or not over the same twenty;
``chats-dev4``: arguments over twenty more tools; ``chats-dev5``: optional free strings asked and
not asked, over twelve more; ``chats-dev6``: arguments and abstaining over twenty more)."""
VARIANTS = {"gbnf serve": (), "gbnf serve --shaping meaning=false": ("--shaping", "meaning=false"),
            "gbnf serve --profile capable": ("--profile", "capable"), "gbnf serve --profile off": ("--profile", "off"),
            "gbnf serve --shaping sources_off=durations": ("--shaping", "sources_off=durations")}
NOTE = " Use it only when the user asks for what it does; it returns its result as JSON."
"""The usage note ``--noted`` adds to every tool's description."""


def set_tools(name: str, noted: bool = False) -> list[Tool]:
    """The tools a set's requests are sent with, each description followed by :data:`NOTE` when ``noted``."""
    _, folders, left_out = SETS[name]
    return [replace(t, description=t.description + NOTE) if noted else t
            for folder in folders for t in load_manifests(folder) if t.name not in left_out]


def cases(name: str) -> list[dict[str, Any]]:
    """A set's cases."""
    return [case for path in SETS[name][0] for case in json.loads(path.read_text(encoding="utf-8"))]


def ask(client: openai.OpenAI, case: dict[str, Any], tools: list[Tool]) -> dict[str, Any]:
    """One request, scored; ``decided`` is what the server's shaping decided (its ``explain``)."""
    start = time.perf_counter()
    try:
        messages = case.get("messages") or [{"role": "user", "content": case["query"]}]
        reply = client.chat.completions.create(model="bench", messages=messages,
                                               tools=openai_tools(tools), temperature=0, max_tokens=256,
                                               extra_body={"explain": True})
    except openai.APIError as exc:
        return {"id": case["id"], "kind": case["kind"], "decided": None, "error": str(exc)[:200],
                "acted": 0, "right_tool": 0, "right": 0, "abstained": 0,
                "seconds": round(time.perf_counter() - start, 3)}
    decided = (reply.model_extra or {}).get("shaping", {}).get("reply")
    calls = reply.choices[0].message.tool_calls or []
    first = calls[0].function if calls else None
    arguments = _arguments(first.arguments) if first else {}
    right_tool = int(first is not None and first.name == case["tool"])
    every = [_arguments(call.function.arguments) for call in calls if call.function.name == case["tool"]]
    right = (each_once(every, case["calls"]) and len(every) == len(calls) if "calls" in case
             else right_tool and _exactly(arguments, case["args"], case.get("may", ())) if "messages" in case
             else right_tool and _matches(arguments, case["args"]))
    return {"id": case["id"], "kind": case["kind"], "decided": decided, "error": None, "acted": int(bool(calls)),
            "right_tool": right_tool, "right": int(right), "calls": len(calls),
            "abstained": int(not calls), "call": [first.name, arguments] if first else None,
            "text": (reply.choices[0].message.content or "")[:120], "seconds": round(time.perf_counter() - start, 3)}


def _matches(arguments: dict[str, Any], wanted: dict[str, list[Any]]) -> bool:
    """Whether ``arguments`` has every value ``wanted`` lists (one of each key's accepted)."""
    return all(_same(arguments.get(key), accepted) for key, accepted in wanted.items())


def _exactly(arguments: dict[str, Any], wanted: dict[str, list[Any]], may: Sequence[str]) -> bool:
    """Whether ``arguments`` has each value ``wanted`` lists, written as one of its accepted
    ones (strings compared whole, without case, accents or surrounding spaces; ``{today+N}``
    the date N days from today), and no argument besides those and the ``may`` ones."""
    today = datetime.date.today()

    def accepted(value: Any) -> Any:
        found = _TODAY.fullmatch(value) if isinstance(value, str) else None
        return (today + datetime.timedelta(days=int(found.group(1) or 0))).isoformat() if found else value
    return set(arguments) <= set(wanted) | set(may) and all(
        key in arguments and _same(arguments[key], [accepted(a) for a in values], whole=True)
        for key, values in wanted.items())


_TODAY = re.compile(r"\{today(?:\+(\d+))?\}")


def each_once(calls: list[dict[str, Any]], wanted: list[dict[str, list[Any]]]) -> bool:
    """Whether ``calls`` (their arguments) are exactly the ``wanted`` ones, in any order: as many, each matching
    one of them, no two the same one."""
    if len(calls) != len(wanted):
        return False
    return any(all(_matches(call, want) for call, want in zip(calls, order))
               for order in itertools.permutations(wanted))


def _arguments(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _fold(text: str) -> str:
    """Lowercased, without accents or spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c) and not c.isspace())


def _same(got: Any, accepted: list[Any], whole: bool = False) -> bool:
    """Whether an argument value is one of the ``accepted`` ones (a string holds one, or with
    ``whole`` is one)."""
    if isinstance(got, bool) or got is None:
        return isinstance(got, bool) and any(a is got for a in accepted)
    if isinstance(got, (int, float)):
        return any(isinstance(a, (int, float)) and float(got) == float(a) for a in accepted)
    return isinstance(got, str) and any(isinstance(a, str) and (_fold(a) == _fold(got) if whole else _fold(a) in _fold(got))
                                        for a in accepted)


NO_TOOL = ("no tool", "near domain")
"""The kinds of request that need no tool."""


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per kind of request: how many, acted with the right tool and arguments, the right tool,
    abstained; and seconds."""
    out: dict[str, Any] = {}
    for kind in ("paraphrase", "direct", "other language", "several calls", "typed", "asks", "free", "follow-up", "dated",
                 "no tool", "near domain", "need a tool", "need none"):
        chosen = [r for r in rows if (r["kind"] not in NO_TOOL if kind == "need a tool" else r["kind"] in NO_TOOL
                                      if kind == "need none" else r["kind"] == kind)]
        if not chosen or (kind == "need none" and len(chosen) == sum(r["kind"] == "no tool" for r in rows)):
            continue
        if kind in NO_TOOL or kind == "need none":
            out[kind] = {"n": len(chosen), "abstained": sum(r["abstained"] for r in chosen),
                         "decided text": sum(r["decided"] == "text" for r in chosen)}
        else:
            out[kind] = {"n": len(chosen), "right": sum(r["right"] for r in chosen),
                         "right tool": sum(r["right_tool"] for r in chosen), "acted": sum(r["acted"] for r in chosen),
                         "decided call": sum(r["decided"] == "call" for r in chosen)}
    seconds = [r["seconds"] for r in rows]
    out["seconds"] = {"p50": round(statistics.median(seconds), 2), "max": round(max(seconds), 2)}
    out["errors"] = sum(bool(r["error"]) for r in rows)
    return out


def run(name: str, variant: str, noted: bool = False, model: str | None = None) -> list[dict[str, Any]]:
    """Every case of one set through one ``gbnf serve`` variant (its tools noted:
    :func:`set_tools`), on ``model`` (None: the embedded one)."""
    tools = set_tools(name, noted)
    with ServeProcess(*VARIANTS[variant], *(("--model", model) if model else ())) as served:
        client = openai.OpenAI(base_url=served.url, api_key="unused", max_retries=0, timeout=300)
        return [ask(client, case, tools) for case in cases(name)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.intent", description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", choices=list(SETS), help="default: every set")
    parser.add_argument("--variant", action="append", choices=list(VARIANTS), help="default: every variant")
    parser.add_argument("--noted", action="store_true", help="end every tool's description with a usage note")
    parser.add_argument("--model", help="GGUF file or packaged model (gemma3-270m; default: the embedded one)")
    parser.add_argument("-o", "--output", type=Path, help="write the rows and summaries (JSON) here")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    for name in args.set or list(SETS):
        for variant in args.variant or list(VARIANTS):
            rows = run(name, variant, args.noted, args.model)
            label = f"{name}: {variant}" + (" (noted)" if args.noted else "") + (f", {args.model}" if args.model else "")
            report[label] = {"summary": summary(rows), "rows": rows}
            print(label, json.dumps(summary(rows)), flush=True)
    if args.output:
        args.output.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
