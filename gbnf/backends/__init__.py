"""Model backends behind one interface: in-process llama-cpp-python, or llama-server over HTTP."""

from gbnf.backends.base import AsyncBackend, Backend, Completion, Message, Sampling

__all__ = ["AsyncBackend", "Backend", "Completion", "Message", "Sampling"]
