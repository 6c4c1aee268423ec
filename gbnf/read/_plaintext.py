"""Plain-text protocols for tiny answers, where a grammar or a tool call is overkill.

Small models answer "pick one of N" and "give exactly N short lines" reliably in plain text
(and faster than through a tool call). Parsing is lenient (``1``, ``1.``, ``1)``, ``1 -``);
an out-of-range pick, a malformed answer, a backend error or a timeout is an abstention,
never an exception and never a hang.
"""

from __future__ import annotations

import concurrent.futures
import re
from dataclasses import dataclass

from gbnf.backends import Backend, Completion, Message, Sampling
from gbnf.errors import GbnfError

_PICK = re.compile(r"^\s*(\d{1,2})\b")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")


@dataclass(frozen=True)
class Pick:
    """A choice among N options (``index`` from 0), or an abstention (``index`` None) and why."""

    index: int | None
    reason: str = ""
    raw: str = ""
    error: str | None = None

    @property
    def abstained(self) -> bool:
        return self.index is None


@dataclass(frozen=True)
class Lines:
    """Exactly the N lines asked for, or an abstention (``lines`` None) and why."""

    lines: list[str] | None
    raw: str = ""
    error: str | None = None

    @property
    def abstained(self) -> bool:
        return self.lines is None


def parse_pick(text: str, n: int) -> Pick:
    """First line: a number 1..n; the rest: the reason."""
    head, _, rest = text.strip().partition("\n")
    match = _PICK.match(head)
    if not match:
        return Pick(None, raw=text, error="the first line holds no number")
    number = int(match.group(1))
    if not 1 <= number <= n:
        return Pick(None, raw=text, error=f"{number} is not between 1 and {n}")
    reason = " ".join(part.strip() for part in [head[match.end():].strip(" .):-"), rest] if part.strip())
    return Pick(number - 1, reason, text)


def parse_lines(text: str, n: int) -> Lines:
    """Exactly ``n`` non-empty lines (bullets and numbering dropped)."""
    lines = [_BULLET.sub("", line).strip() for line in text.strip().splitlines()]
    lines = [line for line in lines if line]
    if len(lines) != n:
        return Lines(None, text, f"expected {n} lines, got {len(lines)}")
    return Lines(lines, text)


def pick_one(backend: Backend, question: str, options: list[str], *, sampling: Sampling | None = None,
             timeout: float = 60.0) -> Pick:
    """Ask the model to pick one option; abstain on error, timeout or a bad answer."""
    listed = "\n".join(f"{i}. {option}" for i, option in enumerate(options, 1))
    prompt = (f"{question}\n\nOptions:\n{listed}\n\nAnswer with the number of your choice alone on the first "
              "line, then one sentence saying why.")
    reply = _ask(backend, [{"role": "user", "content": prompt}], sampling or Sampling(max_tokens=80), timeout)
    if isinstance(reply, str):
        return Pick(None, error=reply)
    return parse_pick(reply.text, len(options))


def exact_lines(backend: Backend, instruction: str, n: int, *, sampling: Sampling | None = None,
                timeout: float = 60.0) -> Lines:
    """Ask for exactly ``n`` short lines and nothing else; abstain otherwise."""
    prompt = f"{instruction}\n\nAnswer with exactly {n} short lines and nothing else."
    reply = _ask(backend, [{"role": "user", "content": prompt}], sampling or Sampling(max_tokens=40 * n), timeout)
    if isinstance(reply, str):
        return Lines(None, error=reply)
    return parse_lines(reply.text, n)


def _ask(backend: Backend, messages: list[Message], sampling: Sampling, timeout: float) -> Completion | str:
    """The completion, or the reason there is none (an error or a timeout)."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    future = pool.submit(backend.complete, messages, None, sampling)
    try:
        return future.result(timeout=timeout)
    except concurrent.futures.TimeoutError:
        return f"no answer within {timeout:g}s"
    except GbnfError as exc:
        return str(exc)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
