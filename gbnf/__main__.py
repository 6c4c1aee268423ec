from gbnf.cli._main import run

raise SystemExit(run())
