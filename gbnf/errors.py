"""One exception hierarchy: catch ``GbnfError`` broadly, or a subclass narrowly."""

from __future__ import annotations


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


class BackendError(GbnfError):
    """A model backend failed; the message names the request."""


class ServerError(BackendError):
    """Finding, building, starting or talking to llama-server failed."""


class ServerTimeout(ServerError):
    """llama-server sent no reply within the timeout."""


class ServerLoading(ServerError):
    """llama-server kept answering 503 (still loading its model) until the retries ran out."""


class Overloaded(BackendError):
    """More requests wait for the model than the queue holds; try again later."""


class ContextExceeded(BackendError):
    """The prompt plus the tokens to generate do not fit the model's context."""
