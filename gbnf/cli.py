"""The ``gbnf`` command: check manifests, compile grammars."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from gbnf.compiler import compile_pool
from gbnf.errors import GbnfError
from gbnf.manifest import load_manifests


def main(argv: list[str] | None = None) -> int:
    """Run the command line; errors print one line and exit 2, never a traceback."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except GbnfError as exc:
        print(f"gbnf: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stdout = open(os.devnull, "w")  # the reader went away (| head): not an error
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gbnf", description=__doc__)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="validate a folder of manifests")
    check.add_argument("path", type=Path)
    check.set_defaults(run=_check)

    comp = commands.add_parser("compile", help="print or write the pool grammar of a manifest folder")
    comp.add_argument("path", type=Path)
    comp.add_argument("-o", "--output", type=Path, help="write the grammar to this file")
    comp.add_argument("--parallel", type=int, default=1, metavar="N", help="a step may carry 1..N calls")
    comp.add_argument("--compact", action="store_true", help="allow no whitespace between tokens")
    comp.set_defaults(run=_compile)
    return parser


def _check(args: argparse.Namespace) -> int:
    tools = load_manifests(args.path)
    grammar = compile_pool(tools)
    print(f"{len(tools)} manifests OK ({len(grammar.rules)} grammar rules)")
    for spot in grammar.looser:
        print(f"  looser than the schema at {spot}")
    return 0


def _compile(args: argparse.Namespace) -> int:
    grammar = compile_pool(load_manifests(args.path), parallel=args.parallel, compact=args.compact)
    if args.output:
        args.output.write_text(grammar.text, encoding="utf-8")
    else:
        sys.stdout.write(grammar.text)
    return 0
