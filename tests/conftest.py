"""Shared fixtures: llama.cpp's grammar engine (a vocabulary-only load of the embedded model)."""

from __future__ import annotations

from pathlib import Path

import os

import pytest
from hypothesis import HealthCheck, settings

from gbnf.backends.inprocess import LlamaCppBackend
from gbnf.backends.server import ServerBackend
from gbnf.engine import GrammarEngine, shared_engine
from gbnf.manifest import load_manifests
from gbnf.tool import Tool
from gbnf.server.process import LlamaServer

REPO = Path(__file__).resolve().parent.parent

# Hypothesis profiles: "ci" keeps the suite within minutes; "slow" (pytest --slow) runs thousands.
_COMMON = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))
settings.register_profile("ci", max_examples=40, derandomize=True, **_COMMON)
settings.register_profile("slow", max_examples=3000, **_COMMON)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="run the property tests with thousands of examples")


def pytest_configure(config: pytest.Config) -> None:
    settings.load_profile("slow" if config.getoption("--slow") else os.environ.get("HYPOTHESIS_PROFILE", "ci"))
MANIFESTS = REPO / "manifests"


@pytest.fixture(scope="session")
def engine() -> GrammarEngine:
    return shared_engine()


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
