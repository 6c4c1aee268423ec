"""JSON Schema to GBNF: one bare schema, or a pool of tools as a discriminated union.

Each schema position is canonicalized (:mod:`~gbnf.compiler._canonical`), emitted by the
emitter for its kind (:mod:`~gbnf.compiler._emit`: objects, arrays, scalars) into one rule table
(:mod:`~gbnf.compiler._rules`), which writes the grammar with only the rules and primitives the
root reaches.
"""

from __future__ import annotations

import marshal
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from gbnf.compiler._canonical import as_decimal, canonicalize, is_number
from gbnf.compiler._dialects import DIALECTS, Dialect, translate
from gbnf.compiler._emit import MAX_DEPTH, SCHEMA_MAX_DEPTH, Emitter
from gbnf.compiler._literals import REPETITION_LIMIT, json_text, literal_choice, repeat
from gbnf.compiler._order import in_grammar_order
from gbnf.compiler._primitives import Layout
from gbnf.compiler._rules import Grammar, RuleTable, references, renamed, rule_word
from gbnf.compiler._schema import ANNOTATIONS, check_schema, close_objects, key_path, skeleton, validity
from gbnf.compiler._syntax import Alt, AnyChar, Cls, Lit, Node, ParsedGrammar, Ref, Rep, Seq, parse_gbnf, refs_in
from gbnf.errors import SchemaError

__all__ = ["ANNOTATIONS", "DIALECTS", "MAX_DEPTH", "PLAIN_TEXT", "REPETITION_LIMIT", "SCHEMA_MAX_DEPTH", "Alt",
           "AnyChar", "Cls", "Dialect", "Grammar", "Layout", "Lit", "NamedSchema", "Node", "ParsedGrammar", "Ref",
           "Rep", "Seq", "as_decimal", "canonicalize", "check_schema", "close_objects", "compile_pool",
           "compile_schema", "compile_schema_grammar",
           "in_grammar_order", "is_number", "json_text", "key_path", "literal_choice", "parse_gbnf", "references",
           "refs_in", "skeleton", "translate", "validity"]


class NamedSchema(Protocol):
    """What the compiler reads of a tool: its name and its arguments' JSON Schema."""

    @property
    def name(self) -> str: ...

    @property
    def parameters(self) -> dict[str, Any]: ...


def compile_schema(schema: dict[str, Any] | bool, *, layout: Layout = "free", max_depth: int = SCHEMA_MAX_DEPTH,
                   dialect: Dialect = "gbnf") -> str:
    """Compile one bare JSON Schema to a grammar whose start rule is one instance of it, with
    whitespace as ``layout`` has it (see :data:`~gbnf.compiler._primitives.Layout`), in
    ``dialect``: GBNF (llama.cpp), ``llguidance`` or ``xgrammar``; objects and arrays nested
    deeper than ``max_depth`` below the root are any JSON object or array."""
    return compile_schema_grammar(schema, layout=layout, max_depth=max_depth, dialect=dialect).text


def compile_schema_grammar(
    schema: dict[str, Any] | bool, *, layout: Layout = "free", max_depth: int = SCHEMA_MAX_DEPTH,
    dialect: Dialect = "gbnf"
) -> Grammar:
    """Like :func:`compile_schema`, returning the :class:`Grammar` with its looser spots; a
    schema the compiler cannot read is a :class:`SchemaError` naming the key path (found by the
    metaschema, checked only then: it costs more than compiling)."""
    table, looser = RuleTable(layout), list[str]()
    try:
        root = Emitter(table, schema, looser, max_depth=max_depth).visit(schema, "root", "", 0)
        return _in_dialect(table.grammar(root, looser), dialect)
    except (TypeError, AttributeError, ValueError, KeyError, IndexError, RecursionError) as exc:
        check_schema(schema)
        raise SchemaError("", f"cannot compile this schema ({type(exc).__name__}: {exc})") from None


def compile_pool(
    tools: Sequence[NamedSchema], *, parallel: int = 1, least: int = 1, single: bool = False, text: bool = False,
    order: Sequence[str | NamedSchema] = (), layout: Layout = "free", max_depth: int = MAX_DEPTH,
    dialect: Dialect = "gbnf"
) -> Grammar:
    """Compile tools to one grammar for ``{"name": <tool>, "arguments": <its args>}``.

    The name literal selects the arguments rule, so one tool's name never carries another's
    arguments. With ``parallel`` > 1 a reply is a JSON array of ``least``..parallel such calls
    (with ``single`` and ``least`` 1, one bare call is admitted too). With ``text`` (and
    ``least`` 1) it may instead be plain text: anything that does not open with ``{``, ``[`` or
    whitespace (so a reply is a call, or text, from its first character). With ``order`` (at
    most ``least`` tools, by name, or as tools of the pool's names with schemas of their own), the
    first calls of an array call those tools in turn: ``[get_weather(Paris), get_weather(London)]``
    when each call has values of its own. ``dialect`` as for :func:`compile_schema`.
    """
    if not tools:
        raise SchemaError("", "cannot compile an empty pool: no tool to call")
    if not 1 <= least <= parallel:
        raise SchemaError("", f"need 1 <= least <= parallel, not least {least} and parallel {parallel}")
    known = {tool.name for tool in tools}
    named = [step if isinstance(step, str) else step.name for step in order]
    if len(order) > least or not known.issuperset(named):
        raise SchemaError("", f"the order of calls {named} must name at most {least} of the tools")
    table, looser = RuleTable(layout), list[str]()
    spacing = table.spacing

    def call(level: int, chosen: Sequence[NamedSchema] = tools) -> str:
        """One call of one of ``chosen``, nested ``level`` deep in the reply."""
        calls = {}
        for tool in chosen:
            word = rule_word(tool.name, "tool")
            args = _arguments(table, tool, word, looser, max_depth, level + 1)
            tail = f'{spacing.sep(level)} {spacing.key("arguments")} {args}'
            calls[json_text(tool.name)] = table.add(f"call{word}", tail)
        return (f'"{{"{spacing.lead()}{spacing.open(level)} {spacing.key("name")} ({literal_choice(calls)})'
                f'{spacing.close(level)} "}}"')

    one = table.add("toolCall", call(0)) if parallel > 1 or text else call(0)
    choices = [one] if (parallel == 1 or single) and least == 1 else []
    if parallel > 1:
        level = 1 if layout == "indented" else 0  # an indented array's calls sit a level deeper
        item = table.add("toolCall", call(level)) if level else one
        steps = [[t for t in tools if t.name == step] if isinstance(step, str) else [step] for step in order]
        first = [table.add("toolCall", call(level, step)) for step in steps] or [item]
        more = repeat(f"{spacing.sep(0)} {item}", least - len(first), parallel - len(first))
        calls = f"{spacing.open(0)} {f' {spacing.sep(0)} '.join(first)}{more}{spacing.close(0)}"
        choices.append(table.add("toolCalls", f'"["{spacing.lead()}{calls} "]"'))
    if text and least == 1:
        choices.append(table.add("plainText", PLAIN_TEXT))
    return _in_dialect(table.grammar(" | ".join(choices), looser), dialect)


@dataclass(frozen=True)
class _Fragment:
    """What emitting one tool's arguments added to a rule table, to replay in another."""

    name: str
    """The tool's name when emitted: its key paths start with it."""
    word: str
    """Its rule word: the rules emitted are named ``args<word>...``."""
    adds: tuple[tuple[str | None, str | None, str], ...]
    result: str
    looser: tuple[str, ...]


PLAIN_TEXT = '[^{[ \\t\\n] [^\\x00]*'
"""A reply in plain text, as GBNF: anything that does not open with ``{``, ``[`` or whitespace,
so a reply is a call or text from its first character."""
FRAGMENT_CACHE = 4096
"""How many schemas' emitted arguments are kept (the least recently used go first)."""
_fragments: OrderedDict[tuple[bytes | str, str, int, int], _Fragment] = OrderedDict()
_fragments_lock = threading.Lock()


def _arguments(table: RuleTable, tool: NamedSchema, word: str, looser: list[str], max_depth: int, base: int) -> str:
    """The GBNF of ``tool``'s arguments in ``table``: emitted, or replayed from an earlier
    compile of the same schema content under any tool name (its rules renamed to this tool's),
    so a new pool of known schemas (a ranked subset, another order, tools renamed) skips their
    walk. A schema is taken as immutable once compiled, as the planner's cache of pools takes it."""
    with _fragments_lock:
        key = (_content_key(tool.parameters), table.layout, max_depth, base)
        fragment = _fragments.get(key)
        if fragment is not None:
            _fragments.move_to_end(key)
    if fragment is not None and table.spent() is None:
        return _replay(fragment, table, tool.name, word, looser)
    emitter = Emitter(table, tool.parameters, looser, max_depth=max_depth, base=base)
    start, table.log = len(looser), []
    try:
        result = emitter.visit(tool.parameters, f"args{word}", tool.name, 0)
        adds = tuple(table.log)
    finally:
        table.log = None
    if not emitter.cut:
        with _fragments_lock:
            _fragments[key] = _Fragment(tool.name, word, adds, result, tuple(looser[start:]))
            while len(_fragments) > FRAGMENT_CACHE:
                _fragments.popitem(last=False)
    return result


def _content_key(schema: Any) -> bytes | str:
    """``schema``'s content as a key, key order and types included: its marshal form (version 2,
    which writes content only, never which parts are the same object), or its repr for what
    marshal cannot write."""
    try:
        return marshal.dumps(schema, 2)
    except ValueError:
        return repr(schema)


def _replay(fragment: _Fragment, table: RuleTable, name: str, word: str, looser: list[str]) -> str:
    """Add ``fragment``'s rules to ``table`` as emitting them for tool ``name`` would: the rule
    names asked under the new word, references to names the table gave otherwise renamed, and
    the looser spots' key paths under the new name."""
    old, new = f"args{fragment.word}", f"args{word}"
    names: dict[str, str] = {}
    for asked, body, given in fragment.adds:
        if asked is None:  # a reserved rule's body
            table.define(names.get(given, given), renamed(body or "", names))
            continue
        if old != new and asked.startswith(old):
            asked = new + asked[len(old):]
        got = table.add(asked, renamed(body, names) if names else body) if body is not None else table.reserve(asked)
        if got != given:
            names[given] = got
    moved = len(fragment.name)
    looser.extend(f"{name}{spot[moved:]}" if spot.startswith(fragment.name) else spot for spot in fragment.looser)
    return renamed(fragment.result, names) if names else fragment.result


def _in_dialect(grammar: Grammar, dialect: Dialect) -> Grammar:
    """``grammar`` written for ``dialect``'s engine (the same language)."""
    return grammar if dialect == "gbnf" else replace(grammar, text=translate(grammar.text, dialect), dialect=dialect)
