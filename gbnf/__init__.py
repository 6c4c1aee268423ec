"""gbnf: make small local models call tools reliably with llama.cpp grammars.

Everything a user needs is here: manifests and the compiler, the shaping stage (:mod:`gbnf.shape`),
the pool filter and ranking, the validator and soft parser, the planner and its backends, and
one error tree. The backends load their engines (llama-cpp-python, httpx) on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gbnf._lazy import lazy_names
from gbnf.backends import Backend, Completion, Sampling
from gbnf.compiler import MAX_DEPTH, SCHEMA_MAX_DEPTH, Grammar, compile_pool, compile_schema, compile_schema_grammar
from gbnf.errors import (
    ApiError,
    BackendError,
    Cancelled,
    ConnectionFailed,
    ContextExceeded,
    ExecutorFailed,
    GbnfError,
    GbnfSyntaxError,
    GrammarError,
    InvalidCall,
    ManifestError,
    McpError,
    Overloaded,
    SchemaError,
    ServerError,
    ServerLoading,
    ServerRefused,
    ServerTimeout,
    ToolError,
    Unrepresentable,
    Unsatisfiable,
    Untranslatable,
)
from gbnf.plan import Event, Planner, PlanOptions, PlanResult, TraceWriter, salvage
from gbnf.read import SoftParse, ToolCall, soft_parse, validate_call, validate_calls, validate_json
from gbnf.shape import Shaping
from gbnf.shape.rules import Request, filter_pool, rank_tools, read_request, select_tools
from gbnf.tools import McpTools, Policy, Tool, load_manifest, load_manifests, load_policy

if TYPE_CHECKING:
    from gbnf.backends import AsyncServerBackend, LlamaCppBackend, ServerBackend
    from gbnf.llama_server import LlamaServer
    from gbnf.tools import FunctionTool, function_tool

__getattr__ = lazy_names(__name__, {
    "LlamaCppBackend": "gbnf.backends", "ServerBackend": "gbnf.backends", "AsyncServerBackend": "gbnf.backends",
    "LlamaServer": "gbnf.llama_server", "FunctionTool": "gbnf.tools", "function_tool": "gbnf.tools"})

__all__ = ["MAX_DEPTH", "SCHEMA_MAX_DEPTH", "ApiError", "AsyncServerBackend", "Backend", "BackendError", "Cancelled",
           "Completion", "ConnectionFailed", "ContextExceeded", "Event", "ExecutorFailed",
           "FunctionTool", "GbnfError", "GbnfSyntaxError", "Grammar", "GrammarError", "InvalidCall", "LlamaCppBackend",
           "LlamaServer", "ManifestError", "McpError", "McpTools", "Overloaded", "PlanOptions", "PlanResult",
           "Planner", "Policy", "Request", "Sampling", "SchemaError", "ServerBackend", "ServerError", "ServerLoading",
           "ServerRefused", "ServerTimeout", "Shaping", "SoftParse", "Tool", "ToolCall", "ToolError",
           "TraceWriter", "Unrepresentable", "Unsatisfiable", "Untranslatable", "compile_pool", "compile_schema",
           "compile_schema_grammar", "filter_pool", "function_tool", "load_manifest", "load_manifests", "load_policy",
           "rank_tools", "read_request", "salvage", "select_tools", "soft_parse", "validate_call",
           "validate_calls", "validate_json"]
