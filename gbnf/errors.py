"""One exception hierarchy: catch ``GbnfError`` broadly, or a subclass narrowly."""

from __future__ import annotations

from typing import Any

__all__ = ["ApiError", "BackendError", "Cancelled", "ConnectionFailed", "ContextExceeded", "ExecutorFailed",
           "GbnfError", "GbnfSyntaxError", "GrammarError", "InvalidCall", "ManifestError", "McpError", "Overloaded",
           "SchemaError", "ServerError", "ServerLoading", "ServerRefused", "ServerTimeout", "ToolError",
           "Unrepresentable", "Unsatisfiable", "Untranslatable"]


class GbnfError(Exception):
    """Base of every error this toolkit raises on purpose."""


class ManifestError(GbnfError):
    """A manifest file is broken; the message names the file and the key path."""

    def __init__(self, file: str, key: str, problem: str) -> None:
        self.file, self.key, self.problem = file, key, problem
        where = f"{file}: {key}" if key else file
        super().__init__(f"{where}: {problem}")


class SchemaError(GbnfError):
    """A JSON Schema the compiler cannot use; the message names the key path."""

    def __init__(self, path: str, problem: str) -> None:
        self.path, self.problem = path, problem
        super().__init__(f"{path or '(root)'}: {problem}")


class Unsatisfiable(SchemaError):
    """A schema position that no value satisfies: an error at the root, while a union branch,
    an optional property or an array item that admits nothing is left out of the grammar."""


class BackendError(GbnfError):
    """A model backend failed; the message names the request."""


class ServerError(BackendError):
    """Finding, building, starting or talking to llama-server failed."""


class ConnectionFailed(ServerError):
    """The connection to the server failed before a reply came: refused, reset, or closed (a
    server that died, restarts, or dropped a kept-alive connection). Safe to ask again, on
    another replica or the same one, as long as nothing of the reply was passed on."""


class ServerRefused(ServerError):
    """The server refused the request as a bad one (HTTP 4xx): a message list its chat template
    cannot take, a prompt past its context..."""


class ServerTimeout(ServerError):
    """llama-server sent no reply within the timeout."""


class ServerLoading(ServerError):
    """llama-server kept answering 503 (still loading its model) until the retries ran out."""


class Overloaded(BackendError):
    """More requests wait for the model than the queue holds; try again later."""


class Cancelled(BackendError):
    """A decode ended early because its request was cancelled (its client went away)."""


class ContextExceeded(BackendError):
    """The prompt plus the tokens to generate do not fit the model's context."""


class McpError(BackendError):
    """An MCP server could not start, died, hung or answered garbage; the message names it."""


class ToolError(GbnfError):
    """A tool reported that it failed (an MCP result flagged ``isError``)."""


class ExecutorFailed(ToolError):
    """A manifest's executor failed (a missing program, a non-zero exit, a timeout, too much
    output, output that is not what was promised, an HTTP error); the message says how, in one
    sentence the model can read."""


class GrammarError(GbnfError):
    """An engine (llama.cpp's parser, llama-server) refused a grammar; ``grammar`` holds it and
    ``log`` what the engine said."""

    def __init__(self, message: str, grammar: str, log: str = "") -> None:
        self.grammar, self.log = grammar, log
        super().__init__(message)


class GbnfSyntaxError(GbnfError):
    """The text is not GBNF; ``line`` and ``column`` say where."""

    def __init__(self, message: str, line: int, column: int) -> None:
        self.line, self.column = line, column
        super().__init__(f"{line}:{column}: {message}")


class Untranslatable(GbnfError):
    """A ``pattern`` uses regex features a grammar cannot hold (the compiler then emits a looser
    grammar and reports it)."""


class Unrepresentable(GbnfError):
    """The model's vocabulary has no token sequence for a text (a byte it cannot emit)."""


class InvalidCall(GbnfError):
    """A decoded call the executor must not receive; ``str()`` is the message for the model."""


class ApiError(GbnfError):
    """A request to ``gbnf serve`` answered with an OpenAI-shaped error: HTTP ``status``,
    ``type``, ``param``, ``code``."""

    def __init__(self, status: int, message: str, *, param: str | None = None, type: str = "invalid_request_error",
                 code: str | None = None, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status, self.param, self.type, self.code, self.retry_after = status, param, type, code, retry_after

    def body(self) -> dict[str, Any]:
        return {"error": {"message": str(self), "type": self.type, "param": self.param, "code": self.code}}
