"""Salvage: when a plan ends without the model's own final answer, answer from the results gathered.

Weak models often get the data with a real tool call, then fail to produce the structured
final answer. One tool-less, plain-text call answers the user's question from those results,
with a repetition penalty and a length cap; the reply is cut at its first repeated line or
sentence. A reply that carries none of the results' values (or no reply at all) is replaced by
a plain summary of the results, so the user always gets what the tools returned.

Citing: a small model's final answer often names one value of a result and drops the rest
("light rain", without the 14 degrees). :func:`cite` appends a plain summary of each result
whose values the answer leaves out, so the answer carries what the tools found.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gbnf._text import fold
from gbnf.backends import Backend, Completion, Message, Sampling
from gbnf.errors import GbnfError
from gbnf.read import ToolCall

INSTRUCTIONS = ("Answer the user's question in plain text, in one or two sentences, using only the tool "
                "results below. Do not call tools and do not write JSON.")
SAMPLING = Sampling(max_tokens=120, temperature=0.0, repeat_penalty=1.3)
"""The salvage request's decoding settings (the seed is the plan's)."""

Results = list[tuple[ToolCall, Any]]


def result_text(value: Any) -> str:
    """A tool's result as text: strings as they are, anything else as compact JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def salvage_messages(query: str, results: Results) -> list[Message]:
    """The one plain-text request: the question and the tool results gathered so far."""
    if not results:
        raise GbnfError("nothing to salvage: no tool returned a result")
    lines = [f"- {call.name}({json.dumps(call.arguments, ensure_ascii=False)}) returned: {result_text(value)}"
             for call, value in results]
    return [{"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": f"Question: {query}\n\nTool results:\n" + "\n".join(lines)}]


def cut_repetition(text: str) -> str:
    """``text`` up to its first line or sentence that repeats an earlier one."""
    seen: set[str] = set()
    kept: list[str] = []
    for piece in re.split(r"(?<=[.!?\n])\s*", text.strip()):
        key = re.sub(r"\W+", " ", piece).strip().lower()
        if key and key in seen:
            break
        if key:
            seen.add(key)
        kept.append(piece)
    return " ".join(p.strip() for p in kept if p.strip())


def summary(results: Results) -> str:
    """A plain summary of the results: what each tool returned, values as they came."""
    return "\n".join(f"{call.name}: {_plain(value)}" for call, value in results)


def grounded(text: str, results: Results) -> bool:
    """Whether ``text`` carries at least one word of what the tools returned (or they returned
    nothing to carry)."""
    values = {w for _, value in results for v in _scalars(value) for w in _tokens(v)}
    return not values or bool(values & _tokens(text))


def omitted(answer: str, results: Results, query: str = "") -> Results:
    """The results with a value the answer leaves out: a value the tool returned that is in
    neither the answer, the call's arguments nor the query (an echo is no news)."""
    said = f"{fold(answer)}|{fold(query)}"
    missing = []
    for call, value in results:
        known = f"{said}|{fold(json.dumps(call.arguments, ensure_ascii=False))}"
        if any(fold(v) and fold(v) not in known for v in _scalars(value)):
            missing.append((call, value))
    return missing


def cite(answer: str, results: Results, query: str = "", limit: int = 600) -> str:
    """``answer``, followed by a plain summary (at most ``limit`` characters) of the results
    it leaves out (:func:`omitted`); ``answer`` itself when it leaves none out."""
    missing = omitted(answer, results, query)
    if not missing:
        return answer
    text = summary(missing)
    if len(text) > limit:
        text = text[:limit].rstrip() + "..."
    return f"{answer.rstrip()}\n\n{text}" if answer.strip() else text


def finish(reply: Completion | GbnfError, results: Results) -> tuple[str, bool]:
    """The salvaged answer from the model's reply, and whether the model wrote it (False: the
    plain summary replaced a reply that was empty, failed, or carried no result)."""
    text = "" if isinstance(reply, GbnfError) else cut_repetition(reply.text)
    if text and grounded(text, results):
        return text, True
    return summary(results), False


def salvage(backend: Backend, query: str, results: Results, sampling: Sampling = SAMPLING) -> str:
    """One plain-text answer from ``results`` (see :func:`finish`); :class:`GbnfError` when there
    are no results to answer from."""
    messages = salvage_messages(query, results)
    try:
        reply: Completion | GbnfError = backend.complete(messages, None, sampling)
    except GbnfError as exc:
        reply = exc
    return finish(reply, results)[0]


def _plain(value: Any) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value)
    return result_text(value)


def _scalars(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _scalars(v)]
    if isinstance(value, list):
        return [s for v in value for s in _scalars(v)]
    if isinstance(value, bool) or value is None:
        return []
    return [str(value)]


def _tokens(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.lower()) if len(w) > 1}
