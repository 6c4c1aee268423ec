"""Shared fixtures: llama.cpp's grammar engine (a vocabulary-only load of the embedded model)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gbnf.engine import GrammarEngine, shared_engine
from gbnf.manifest import Tool, load_manifests

REPO = Path(__file__).resolve().parent.parent
MANIFESTS = REPO / "manifests"


@pytest.fixture(scope="session")
def engine() -> GrammarEngine:
    return shared_engine()


@pytest.fixture(scope="session")
def tools() -> list[Tool]:
    return load_manifests(MANIFESTS)
