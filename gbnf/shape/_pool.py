"""The pool filter: drop escape hatches and provider tools the query gives no reason for."""

from __future__ import annotations

import re

from gbnf.tools import Policy, Tool, load_policy


def marker_pattern(marker: str) -> re.Pattern[str]:
    """A whole-word, case-insensitive pattern: ``qua`` never matches inside ``qualcosa``.

    Word edges are Unicode-aware and work for markers that start or end with punctuation;
    spaces inside a marker match any run of whitespace.
    """
    words = [re.escape(w) for w in marker.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)


def has_marker(query: str, markers: tuple[str, ...] | list[str]) -> str | None:
    """The first marker found in ``query``, or None."""
    return next((m for m in markers if marker_pattern(m).search(query)), None)


def provider_of(tool: Tool, policy: Policy) -> str | None:
    """The tool's provider: set in its manifest, or the policy provider its name ends with."""
    if tool.provider:
        return tool.provider
    return next((p for p in sorted(policy.providers, key=len, reverse=True) if tool.name.endswith("_" + p)), None)


def pool_decisions(tools: list[Tool], query: str, policy: Policy | None = None) -> list[tuple[Tool, str | None]]:
    """Each tool with the reason it is dropped, or None when it stays in the pool."""
    policy = policy or load_policy()
    canonical = sum(1 for t in tools if not t.is_escape_hatch)
    decisions = []
    for tool in tools:
        decisions.append((tool, _drop_reason(tool, query, policy, canonical)))
    return decisions


def filter_pool(tools: list[Tool], query: str, policy: Policy | None = None) -> list[Tool]:
    """The tools the grammar should offer for ``query`` (a pure function of its arguments)."""
    return [tool for tool, reason in pool_decisions(tools, query, policy) if reason is None]


def _drop_reason(tool: Tool, query: str, policy: Policy, canonical: int) -> str | None:
    provider = provider_of(tool, policy)
    if provider is not None:
        markers = (*policy.providers.get(provider, ()), *tool.markers)
        if not markers:
            return f"provider {provider!r} has no markers in the policy"
        if not has_marker(query, markers):
            return f"the query names no {provider} marker"
    if not tool.is_escape_hatch:
        return None
    if tool.min_canonical is not None and canonical >= tool.min_canonical:
        if not (tool.markers and has_marker(query, tool.markers)):
            return f"the pool has {canonical} canonical tools (>= {tool.min_canonical})"
    if tool.markers and provider is None and not has_marker(query, tool.markers):
        return "the query has none of its markers"
    return None
