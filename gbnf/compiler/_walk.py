"""What the emitter of one kind (objects, arrays, scalars) needs from the walk that calls it."""

from __future__ import annotations

from typing import Any, Protocol

from gbnf.compiler._primitives import Spacing
from gbnf.compiler._rules import RuleTable


class Walk(Protocol):
    """The walk over one root schema (:class:`~gbnf.compiler._emit.Emitter`), as the kind emitters see it."""

    root: Any
    """The root schema, for local ``$ref`` lookups."""
    base: int
    """The nesting level of the root's value in the reply."""
    spacing: Spacing
    table: RuleTable
    """The rule table, for rules that refer to each other in a cycle (:meth:`RuleTable.reserve`)."""
    key_rules: dict[tuple[str, ...], str]
    """The rule for keys other than these declared ones, by the declared keys."""
    key_nodes: int
    """The rules spent on key rules so far (see :data:`~gbnf.compiler._objects.KEY_NODES`)."""

    def rule(self, name: str, body: str) -> str:
        """Add a rule to the table; the name it got."""

    def loose(self, path: str, why: str) -> None:
        """Report a spot the grammar holds more loosely than the schema."""

    def counts(self, schema: dict[str, Any], path: str, low_key: str, high_key: str) -> tuple[int, int | None]:
        """A count's bounds as whole numbers."""

    def visit(self, schema: Any, name: str, path: str, depth: int, refs: frozenset[str] = frozenset()) -> str:
        """A GBNF expression for the instances of ``schema``."""

    def visit_or_none(self, schema: Any, name: str, path: str, depth: int, refs: frozenset[str] = frozenset()
                      ) -> str | None:
        """Like :meth:`visit`, or None when no value satisfies ``schema``."""

    def listed(self, schema: dict[str, Any], path: str) -> list[str]:
        """The JSON literals of a const/enum schema's values that satisfy its other keywords."""
