"""JSON Schema to GBNF: one bare schema, or a pool of tools as a discriminated union.

Each schema position is canonicalized (:mod:`~gbnf.compiler.canonical`), emitted by the
emitter for its kind (:mod:`~gbnf.compiler.emit`: objects, arrays, scalars) into one rule table
(:mod:`~gbnf.compiler.rules`), which writes the grammar with only the rules and primitives the
root reaches.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gbnf.compiler.dialects import DIALECTS, Dialect, translate
from gbnf.compiler.emit import MAX_DEPTH, Emitter
from gbnf.compiler.primitives import Layout, Spacing
from gbnf.compiler.rules import Grammar, RuleTable, references, rule_word
from gbnf.errors import SchemaError
from gbnf.literals import gbnf_literal, json_text, repeat
from gbnf.schema import check_schema
from gbnf.tool import Tool

__all__ = ["DIALECTS", "MAX_DEPTH", "Dialect", "Grammar", "Layout", "compile_pool", "compile_schema", "compile_schema_grammar",
           "references", "translate"]


def compile_schema(schema: dict[str, Any] | bool, *, layout: Layout = "free", max_depth: int = MAX_DEPTH,
                   dialect: Dialect = "gbnf") -> str:
    """Compile one bare JSON Schema to a grammar whose start rule is one instance of it, with
    whitespace as ``layout`` has it (see :data:`~gbnf.compiler.primitives.Layout`), in
    ``dialect``: GBNF (llama.cpp), ``llguidance`` or ``xgrammar``."""
    return compile_schema_grammar(schema, layout=layout, max_depth=max_depth, dialect=dialect).text


def compile_schema_grammar(
    schema: dict[str, Any] | bool, *, layout: Layout = "free", max_depth: int = MAX_DEPTH, dialect: Dialect = "gbnf"
) -> Grammar:
    """Like :func:`compile_schema`, returning the :class:`Grammar` with its looser spots; a
    schema the compiler cannot read is a :class:`SchemaError` naming the key path (found by the
    metaschema, checked only then: it costs more than compiling)."""
    table, looser = RuleTable(layout), []
    try:
        root = Emitter(table, schema, looser, max_depth=max_depth).visit(schema, "root", "", 0)
        return _in_dialect(table.grammar(root, looser), dialect)
    except (TypeError, AttributeError, ValueError, KeyError, IndexError, RecursionError) as exc:
        check_schema(schema)
        raise SchemaError("", f"cannot compile this schema ({type(exc).__name__}: {exc})") from None


def compile_pool(
    tools: list[Tool], *, parallel: int = 1, single: bool = False, text: bool = False, layout: Layout = "free",
    max_depth: int = MAX_DEPTH, dialect: Dialect = "gbnf"
) -> Grammar:
    """Compile tools to one grammar for ``{"name": <tool>, "arguments": <its args>}``.

    The name literal selects the arguments rule, so one tool's name never carries another's
    arguments. With ``parallel`` > 1 a reply is a JSON array of 1..parallel such calls (with
    ``single``, one bare call is admitted too). With ``text`` it may instead be plain text:
    anything that does not open with ``{``, ``[`` or whitespace (so a reply is a call, or
    text, from its first character). ``dialect`` as for :func:`compile_schema`.
    """
    if not tools:
        raise SchemaError("", "cannot compile an empty pool: no tool to call")
    if parallel < 1:
        raise SchemaError("", f"parallel must be at least 1, not {parallel}")
    table, looser = RuleTable(layout), []
    spacing = Spacing(layout)

    def call(level: int) -> str:
        """One call, nested ``level`` deep in the reply."""
        calls = []
        for tool in tools:
            word = rule_word(tool.name, "tool")
            args = Emitter(table, tool.parameters, looser, max_depth=max_depth, base=level + 1).visit(
                tool.parameters, f"args{word}", tool.name, 0)
            head = f'{gbnf_literal(json_text(tool.name))} {spacing.sep(level)} {spacing.key("arguments")}'
            calls.append(table.add(f"call{word}", f"{head} {args}"))
        return (f'"{{"{spacing.lead()}{spacing.open(level)} {spacing.key("name")} ({" | ".join(calls)})'
                f'{spacing.close(level)} "}}"')

    one = table.add("toolCall", call(0)) if parallel > 1 or text else call(0)
    choices = [one] if parallel == 1 or single else []
    if parallel > 1:
        item = table.add("toolCall", call(1)) if layout == "indented" else one  # indented a level deeper
        more = repeat(f"{spacing.sep(0)} {item}", 0, parallel - 1)
        choices.append(table.add("toolCalls", f'"["{spacing.lead()}{spacing.open(0)} {item}{more}{spacing.close(0)} "]"'))
        looser[:] = dict.fromkeys(looser)  # the calls emitted twice note each spot twice
    if text:
        choices.append(table.add("plainText", '[^{[ \\t\\n] [^\\x00]*'))
    return _in_dialect(table.grammar(" | ".join(choices), looser), dialect)


def _in_dialect(grammar: Grammar, dialect: Dialect) -> Grammar:
    """``grammar`` written for ``dialect``'s engine (the same language)."""
    return grammar if dialect == "gbnf" else replace(grammar, text=translate(grammar.text, dialect), dialect=dialect)
