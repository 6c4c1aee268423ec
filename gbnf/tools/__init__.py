"""Where tools come from: manifests (one TOML file per tool), imported definitions (OpenAI,
MCP, BFCL), typed Python functions and live MCP servers; what runs a manifest's tool (its
``[executor]`` table), the built-in executors of the shipped manifests, and the pool filter's
policy (each provider's query markers). Every source gives :class:`Tool` objects."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gbnf._lazy import lazy_names
from gbnf.tools._builtin import MAX_BYTES, RESULT_CAP, convert_units, find_files, get_now, read_file
from gbnf.tools._executors import ExecutorSpec
from gbnf.tools._imports import (
    Imported,
    bfcl_schema,
    import_each,
    import_groups,
    import_tools,
    read_import_file,
    write_manifests,
)
from gbnf.tools._manifests import load_manifest, load_manifests, tool_from_dict
from gbnf.tools._mcp import McpServer, McpTools, http_server, read_config, stdio_server
from gbnf.tools._policy import Policy, load_policy
from gbnf.tools._tool import Tool, tool_from_function

if TYPE_CHECKING:
    from gbnf.tools._functions import FunctionTool, function_tool

__getattr__ = lazy_names(__name__, {name: "gbnf.tools._functions" for name in ("FunctionTool", "function_tool")})

__all__ = ["MAX_BYTES", "RESULT_CAP", "ExecutorSpec", "FunctionTool", "Imported", "McpServer",
           "McpTools", "Policy", "Tool", "bfcl_schema", "convert_units", "find_files", "function_tool", "get_now",
           "http_server", "import_each", "import_groups", "import_tools", "load_manifest", "load_manifests",
           "load_policy", "read_config", "read_file", "read_import_file", "stdio_server", "tool_from_dict",
           "tool_from_function", "write_manifests"]
