"""``gbnf lint``: what makes llama.cpp refuse a grammar, or a small model loop in it."""

from gbnf.lint._lint import Problem, lint

__all__ = ["Problem", "lint"]
