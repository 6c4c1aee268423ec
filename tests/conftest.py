"""Shared fixtures (llama.cpp's grammar engine, the embedded model in-process and in a real
llama-server), the hypothesis profiles, and the ``model`` marker: ``pytest -m "not model"`` runs
the tests that need neither a model nor llama-server, in seconds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from gbnf.backends import LlamaCppBackend, ServerBackend
from gbnf.llama_server import LlamaServer
from gbnf.testing import LlamaCppOracle, llamacpp_oracle
from gbnf.tools import Tool, load_manifests

REPO = Path(__file__).resolve().parent.parent

# Hypothesis profiles: "ci" keeps the suite within minutes; "slow" (pytest --slow) runs thousands.
_COMMON = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))
settings.register_profile("ci", max_examples=40, derandomize=True, **_COMMON)
settings.register_profile("slow", max_examples=3000, **_COMMON)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="run the property tests with thousands of examples")


def pytest_configure(config: pytest.Config) -> None:
    settings.load_profile("slow" if config.getoption("--slow") else os.environ.get("HYPOTHESIS_PROFILE", "ci"))
    config.addinivalue_line("markers", "model: needs the embedded model or a llama-server (weights, a vocabulary, "
                                       "or a gbnf command that loads them)")
    config.addinivalue_line("markers", "vllm: starts a real vLLM (its CPU build; the first run makes its venv)")


MODEL_FIXTURES = {"engine", "inprocess", "llama_server", "backend",
                  "local_url"}  # gbnf serve on the embedded model (tests/test_serve.py)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses a model fixture ``model``; tests that start ``gbnf`` commands
    on the model are marked where they are written."""
    for item in items:
        if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.model)


MANIFESTS = REPO / "manifests"


@pytest.fixture(scope="session")
def engine() -> LlamaCppOracle:
    return llamacpp_oracle()


@pytest.fixture(scope="session")
def tools() -> list[Tool]:
    return load_manifests(MANIFESTS)


@pytest.fixture(scope="session")
def inprocess() -> LlamaCppBackend:
    """The embedded model loaded in this process, once."""
    backend = LlamaCppBackend()
    yield backend
    backend.close()


@pytest.fixture(scope="session")
def llama_server() -> LlamaServer:
    """A real llama-server on a free loopback port with the embedded model."""
    with LlamaServer() as server:
        yield server


@pytest.fixture(params=["inprocess", "server"])
def backend(request, inprocess, llama_server):
    """Each backend in turn, behind the same interface."""
    if request.param == "inprocess":
        yield inprocess
    else:
        client = ServerBackend(llama_server.url)
        yield client
        client.close()
