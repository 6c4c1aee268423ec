"""gbnf: make small local models call tools reliably with llama.cpp grammars."""

from gbnf.compiler import MAX_DEPTH, Grammar, compile_pool, compile_schema, compile_schema_grammar
from gbnf.errors import BackendError, GbnfError, ManifestError, SchemaError, ServerError
from gbnf.manifest import Tool, load_manifest, load_manifests

__all__ = [
    "MAX_DEPTH", "BackendError", "GbnfError", "Grammar", "ManifestError", "SchemaError", "ServerError",
    "Tool", "compile_pool", "compile_schema", "compile_schema_grammar", "load_manifest", "load_manifests",
]
