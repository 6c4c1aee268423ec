"""Objects: declared members in schema order (required always, optional maybe), undeclared
members as ``additionalProperties``/``patternProperties`` allow, keys that never spell a
declared key."""

from __future__ import annotations

import math
import re
from typing import Any

from gbnf.compiler._automaton import automaton_rule
from gbnf.compiler._literals import repeat
from gbnf.compiler._regex import pattern_to_gbnf
from gbnf.compiler._rules import rule_word
from gbnf.compiler._scalars import not_spelled
from gbnf.compiler._schema import key_path
from gbnf.compiler._unmatched import matching_but, unmatched
from gbnf.compiler._walk import Walk
from gbnf.errors import Unsatisfiable, Untranslatable

LINEAR_FROM = 8
"""Objects with more optional properties than this before the first required one share their
members' tails as rules (see :func:`_members`)."""
LONGEST_CHAIN = 250
"""The most optional members one object's tails chain one by one (each tail naming the next):
past it, members go in blocks of about the square root of their number, each tail naming the
rest of its block and the next block's tail, so the chains are about twice that root long and
the grammar still grows linearly. llguidance recurses through a chain of rules when it loads a
grammar, and an object nested in itself down to the depth cap (five levels) must stay within
:data:`~gbnf.compiler._dialects.LLGUIDANCE_NESTING`."""

KEY_NODES = 2000
"""How many rules one schema's walk spends keeping undeclared keys from spelling declared ones
(one per distinct key prefix); past it, undeclared keys are any string and the validator checks
them. Without a cap, a schema of hundreds of objects with open keys makes a grammar past
llguidance's symbol table (65,525)."""


def emit_object(e: Walk, schema: dict[str, Any], name: str, path: str, depth: int) -> str:
    """An object: its declared members, then undeclared ones where allowed."""
    spacing, level = e.spacing, e.base + depth
    declared = schema.get("properties") or {}
    required = [k for k in schema.get("required", []) if isinstance(k, str)]
    patterns = schema.get("patternProperties")
    props = {key: _member_schema(e, schema, key, path) if patterns or key not in declared else declared[key]
             for key in dict.fromkeys([*declared, *required])}  # the common case at once
    extra = _extra_member(e, schema, list(props), name, path, depth)  # before the members: see _extra_member
    pairs: list[tuple[str, bool]] = []
    for key, sub in props.items():
        visit = e.visit if key in required else e.visit_or_none  # an optional key no value fits is left out
        value = visit(sub, name + rule_word(key), key_path(path, key), depth + 1)
        if value is None:
            continue
        pairs.append((f"{spacing.key(key)} {value}", key in required))
    low, high = e.counts(schema, path, "minProperties", "maxProperties")
    required_pairs = sum(req for _, req in pairs)
    if high == 0 or (extra is None and not pairs):  # the empty object only
        if low or required_pairs:
            raise Unsatisfiable(key_path(path, "minProperties" if low else "required"), "no member is allowed")
        return e.rule(name, f'"{{"{spacing.lead()} "}}"')
    if high is not None and high < required_pairs:
        raise Unsatisfiable(key_path(path, "maxProperties"), "fewer members than the required ones")
    if high == required_pairs:  # room for the required members only
        pairs, extra = [pair for pair in pairs if pair[1]], None
    if extra is not None and required_pairs == len(pairs) and (not pairs or low > required_pairs or high is not None):
        members = _counted(e, [kv for kv, _ in pairs], extra, low, high, level)
        return e.rule(name, f'"{{"{spacing.lead()} {members} "}}"')
    if extra is not None:
        pairs.append((extra, False))
    if low > max(required_pairs, 1):  # 1: no empty object; up to the required members: always
        e.loose(key_path(path, "minProperties"), "left to the validator")
    if high is not None and (extra is not None or high < len(pairs)):
        e.loose(key_path(path, "maxProperties"), "left to the validator")
    members = _members(e, pairs, extra, name, level, nonempty=low >= 1)
    return e.rule(name, f'"{{"{spacing.lead()} {members} "}}"')


def _counted(e: Walk, fixed: list[str], extra: str, low: int, high: int | None, level: int) -> str:
    """Members ``fixed`` (every declared one, all required), then undeclared ones (``extra``),
    ``low`` to ``high`` members in all; with no declared member, the object may be empty
    where ``low`` allows."""
    sep, head = e.spacing.sep(level), fixed or [extra]  # no declared member: the first undeclared one
    more = repeat(f"{sep} {extra}", max(low - len(head), 0), None if high is None else high - len(head))
    inner = f"{e.spacing.open(level)} {f' {sep} '.join(head)}{more}".strip() + e.spacing.close(level)
    return inner if fixed or low else f"({inner})?"


def _extra_member(e: Walk, schema: dict[str, Any], declared: list[str], name: str, path: str,
                  depth: int) -> str | None:
    """The rule for one undeclared member ``"key": value``, or None when none is allowed.

    Without applicators beside it (see :func:`~gbnf.compiler._canonical.canonicalize`),
    ``unevaluatedProperties`` means ``additionalProperties``.

    Each key rule is made before the values it governs are visited: the schema's budget of key
    rules (:data:`KEY_NODES`) goes to outer objects first, so where it runs out, the keys left
    loose are the deepest ones, not the root's.
    """
    extra = schema.get("additionalProperties", schema.get("unevaluatedProperties", True))
    patterns = schema.get("patternProperties") or {}
    options = []
    for i, (pattern, sub) in enumerate(patterns.items()):
        if sub is False:
            continue
        matching = _pattern_key(e, pattern, declared, f"{name}Pattern{i}Key", path)
        value = e.visit_or_none(sub, f"{name}Pattern{i}", key_path(path, f"/{pattern}/"), depth + 1)
        if matching is not None and value is not None:
            options.append(f"{matching}{e.spacing.colon()} {value}")
    if extra is not False:
        key = _unmatched_key(e, schema, declared, name, path) if patterns else _key(e, schema, declared, name, path)
        value = e.visit_or_none(extra, f"{name}Extra", key_path(path, "*"), depth + 1)
        if key is not None and value is not None:
            options.append(f"{key}{e.spacing.colon()} {value}")
    if not options:
        return None
    return e.rule(f"{name}Member", " | ".join(options))


def _pattern_key(e: Walk, pattern: str, declared: list[str], name: str, path: str) -> str | None:
    """The keys ``pattern`` governs alone: those matching it but for declared ones (which have
    their own rules), or None when it matches declared keys only."""
    where = key_path(path, "patternProperties")
    try:
        taken = tuple(key for key in declared if re.search(pattern, key))
    except re.error:  # noted where the declared members are read (_member_schema)
        taken = ()
    if taken:
        try:
            states = matching_but(pattern, taken)
            if e.key_nodes + len(states) > KEY_NODES:
                raise Untranslatable(f"past {KEY_NODES} key rules in one schema")
            e.key_nodes += len(states)
            return e.rule(name, f'"\\"" {automaton_rule(states, e.table, name + "Text")} "\\""') if states else None
        except Untranslatable as exc:
            e.loose(where, f"declared keys matching {pattern!r} may take its schema alone ({exc})")
    try:
        return f'"\\"" {pattern_to_gbnf(pattern)} "\\""'
    except Untranslatable as exc:
        e.loose(where, f"pattern {pattern!r} not translated ({exc})")
        return "string"


def _unmatched_key(e: Walk, schema: dict[str, Any], declared: list[str], name: str, path: str) -> str | None:
    """The rule of keys that match none of the object's ``patternProperties`` and spell no
    declared key, or None when every key matches a pattern. Where that cannot be built (or
    with ``propertyNames``), keys are any string but declared ones, and the validator checks
    the rest."""
    where = key_path(path, "patternProperties")
    if schema.get("propertyNames"):
        e.loose(where, "keys matching no pattern: left to the validator (beside propertyNames)")
        return _key(e, schema, declared, name, path)
    try:
        states = unmatched(tuple(schema["patternProperties"]), tuple(declared))
    except Untranslatable as exc:
        e.loose(where, f"keys matching no pattern: left to the validator ({exc})")
        return _key(e, schema, declared, name, path)
    if not states:
        return None
    if e.key_nodes + len(states) > KEY_NODES:
        e.loose(where, f"keys matching no pattern: left to the validator (past {KEY_NODES} key rules in one schema)")
        return _key(e, schema, declared, name, path)
    e.key_nodes += len(states)
    start = automaton_rule(states, e.table, f"{name}KeyText")
    return e.rule(f"{name}Key", f'"\\"" {start} "\\""')


def _member_schema(e: Walk, schema: dict[str, Any], key: str, path: str) -> Any:
    """A member's schema: its property's (for a required key no property declares, the
    ``additionalProperties`` schema, unless a pattern claims the key), with the schemas of the
    ``patternProperties`` its key matches (as the validator matches them: Python's ``re.search``)."""
    matched, unsure = [], False
    for pattern, pattern_schema in (schema.get("patternProperties") or {}).items():
        try:
            if re.search(pattern, key):
                matched.append(pattern_schema)
        except (re.error, TypeError):
            unsure = True
            e.loose(key_path(path, f"/{pattern}/"), f"not read as a regex: {key!r} may match it; left to the validator")
    declared = schema.get("properties") or {}
    sub = (declared[key] if key in declared else True if matched or unsure
           else schema.get("additionalProperties", schema.get("unevaluatedProperties", True)))
    return {"allOf": [sub, *matched]} if matched else sub


def _key(e: Walk, schema: dict[str, Any], declared: list[str], name: str, path: str) -> str:
    """A property name: constrained by propertyNames, and never a declared key's spelling."""
    names = schema.get("propertyNames")
    if isinstance(names, dict) and names:
        if declared:
            e.loose(key_path(path, "propertyNames"), "undeclared keys may repeat a declared one")
        return e.visit({**names, "type": "string"}, f"{name}Key", key_path(path, "propertyNames"), 0)
    plain = [k for k in declared if not any(c in k for c in '"\\') and all(ord(c) >= 0x20 for c in k)]
    if len(plain) < len(declared):
        e.loose(path, "undeclared keys may repeat a declared key that needs escapes")
    if not plain:
        return "string"
    keys = tuple(plain)
    if keys not in e.key_rules:  # objects reached again (a recursive $ref) share the key rule
        nodes = len({key[:i] for key in plain for i in range(len(key))})
        if e.key_nodes + nodes > KEY_NODES:
            e.loose(path, f"undeclared keys may repeat a declared one (past {KEY_NODES} key rules in one schema)")
            return "string"
        e.key_nodes += nodes
        e.key_rules[keys] = e.rule(f"{name}Key", f'"\\"" {not_spelled(e, plain, name + "KeyText")} "\\""')
    return e.key_rules[keys]


def _members(e: Walk, pairs: list[tuple[str, bool]], repeat_last: str | None, name: str, level: int,
             nonempty: bool = False) -> str:
    """Members in schema order: required ones always, optional ones maybe (at least one with
    ``nonempty``), commas between.

    With ``repeat_last``, the last pair (undeclared members) may repeat. Each optional member
    that may come first starts a branch followed by the members after it; past
    ``LINEAR_FROM`` such members, those tails are shared rules (``...Rest``), so the grammar
    grows linearly with the number of optional properties, not quadratically; a tail names the
    next (or, past ``LONGEST_CHAIN`` members, the next block's first), so they chain.
    """
    sep = e.spacing.sep(level)

    def framed(members: str) -> str:
        return f"{e.spacing.open(level)} {members}".strip() + e.spacing.close(level)

    def one(kv: str, req: bool, first: bool) -> str:
        lead = "" if first else f"{sep} "
        if kv == repeat_last:
            return f"{kv} ({sep} {kv})*" if first else f"({sep} {kv})*"
        return f"{lead}{kv}" if req else f"({lead}{kv})?"

    leading = next((i for i, (_, req) in enumerate(pairs) if req), len(pairs))
    tails: dict[int, str] = {}
    if leading > LINEAR_FROM:
        block = 1 if len(pairs) <= LONGEST_CHAIN else math.isqrt(len(pairs))
        parts: dict[int, str] = {}  # from a member to the end of its block
        for i in range(len(pairs) - 1, 0, -1):
            next_block = i - (i - 1) % block + block  # its first member
            part = f"{one(*pairs[i], False)} {parts.get(i + 1, '') if i + 1 < next_block else ''}".strip()
            parts[i] = part if block == 1 else e.rule(f"{name}Part", part)
            tail = f"{parts[i]} {tails.get(next_block, '')}".strip()
            tails[i] = e.rule(f"{name}Rest", tail) if i == next_block - block else tail  # a block's first: named

    def after(start: int) -> str:
        if tails or start >= len(pairs):
            return tails.get(start, "")
        return " ".join(one(kv, req, False) for kv, req in pairs[start:])

    branches = []
    for i, (kv, req) in enumerate(pairs):
        head = f"{kv} ({sep} {kv})*" if kv == repeat_last else kv
        branches.append(f"{head} {after(i + 1)}".strip())
        if req:
            break
    else:
        optional = "" if nonempty else "?"
        if tails:  # one symbol under "?": llama.cpp refuses to repeat thousands of alternatives
            return f"({framed(e.rule(f'{name}First', ' | '.join(branches)))}){optional}"
        return f"({framed(_one_of(branches))}){optional}"
    return framed(_one_of(branches))


def _one_of(options: list[str]) -> str:
    return options[0] if len(options) == 1 else f"({' | '.join(options)})"
