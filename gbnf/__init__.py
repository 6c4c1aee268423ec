"""gbnf: make small local models call tools reliably with llama.cpp grammars.

Everything a user needs is here: manifests and the compiler, the pool filter and ranking, the
validator and soft parser, the planner and its backends, and one error tree. The backends load
their engines (llama-cpp-python, httpx) on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gbnf.backends.base import Backend, Completion, Sampling
from gbnf.compiler import MAX_DEPTH, Grammar, compile_pool, compile_schema, compile_schema_grammar
from gbnf.errors import (ApiError, BackendError, ContextExceeded, GbnfError, GbnfSyntaxError, GrammarError,
                         InvalidCall, ManifestError, Overloaded, SchemaError, ServerError, ServerLoading,
                         ServerTimeout, Unrepresentable, Untranslatable)
from gbnf.events import Event, TraceWriter
from gbnf.manifest import load_manifest, load_manifests
from gbnf.planner import Planner, PlanResult
from gbnf.pool import Policy, filter_pool, load_policy
from gbnf.rank import rank_tools, select_tools
from gbnf.salvage import salvage
from gbnf.softparse import SoftParse, soft_parse
from gbnf.tool import Tool
from gbnf.validate import ToolCall, validate_call, validate_calls, validate_json

if TYPE_CHECKING:
    from gbnf.functions import FunctionTool, function_tool
    from gbnf.backends.inprocess import LlamaCppBackend
    from gbnf.backends.server import AsyncServerBackend, ServerBackend
    from gbnf.server.process import LlamaServer

_LAZY = {"LlamaCppBackend": "gbnf.backends.inprocess", "ServerBackend": "gbnf.backends.server",
         "AsyncServerBackend": "gbnf.backends.server", "LlamaServer": "gbnf.server.process",
         "FunctionTool": "gbnf.functions", "function_tool": "gbnf.functions"}


def __getattr__(name: str) -> Any:
    """The backends, the llama-server runner and function tools (pydantic), imported when first
    asked for."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'gbnf' has no attribute {name!r}")


__all__ = [
    "MAX_DEPTH", "ApiError", "AsyncServerBackend", "Backend", "BackendError", "Completion", "ContextExceeded",
    "Event", "FunctionTool", "GbnfError", "GbnfSyntaxError", "Grammar", "GrammarError", "InvalidCall",
    "LlamaCppBackend",
    "LlamaServer", "ManifestError", "Overloaded", "PlanResult", "Planner", "Policy", "Sampling", "SchemaError",
    "ServerBackend", "ServerError", "ServerLoading", "ServerTimeout", "SoftParse", "Tool", "ToolCall",
    "TraceWriter", "Unrepresentable", "Untranslatable", "compile_pool", "compile_schema", "compile_schema_grammar",
    "filter_pool", "function_tool", "load_manifest", "load_manifests", "load_policy", "rank_tools", "salvage",
    "select_tools",
    "soft_parse", "validate_call", "validate_calls", "validate_json",
]
