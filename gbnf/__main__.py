from gbnf.cli import run

raise SystemExit(run())
