#!/usr/bin/env python3
"""The executor of count_words.toml: reads {"path": ...} as JSON on standard input and writes the
file's lines, words and characters as JSON on standard output; a file it cannot read exits 1
with the reason on standard error."""

import json
import sys
from pathlib import Path

arguments = json.load(sys.stdin)
path = Path(arguments["path"]).expanduser()
try:
    text = path.read_text(encoding="utf-8", errors="replace")
except OSError as exc:
    sys.exit(f"cannot read {path}: {exc.strerror}")
print(json.dumps({"path": str(path), "lines": text.count("\n") + (not text.endswith("\n") and bool(text)),
                  "words": len(text.split()), "characters": len(text)}))
