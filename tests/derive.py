"""Random derivations from a GBNF grammar: strings the grammar itself produces (for soundness)."""

from __future__ import annotations

import random

from gbnf.compiler import Alt, AnyChar, Cls, Lit, Node, ParsedGrammar, Ref, Seq, parse_gbnf

# Characters tried for negated classes and '.': ASCII, accents, CJK, an astral, separators.
_POOL = [chr(c) for c in range(32, 127)] + list("éüñß漢字😀𝄞\u2028\t\n")


class Deriver:
    """Walk a grammar choosing at random; past the budget, take the shortest way out."""

    def __init__(self, text: str) -> None:
        self.grammar: ParsedGrammar = parse_gbnf(text)
        self.rules = self.grammar.by_name()
        self.cost = self._costs()

    def derive(self, rng: random.Random, budget: int = 40) -> str:
        out: list[str] = []
        self._walk(self.rules["root"].body, rng, budget, out)
        return "".join(out)

    def _walk(self, node: Node, rng: random.Random, budget: int, out: list[str]) -> None:
        if isinstance(node, Lit):
            out.append(node.text)
        elif isinstance(node, Cls):
            out.append(self._char(node, rng))
        elif isinstance(node, AnyChar):
            out.append(rng.choice(_POOL))
        elif isinstance(node, Ref):
            self._walk(self.rules[node.name].body, rng, budget - 1, out)
        elif isinstance(node, Seq):
            for item in node.items:
                self._walk(item, rng, budget, out)
        elif isinstance(node, Alt):
            if budget > 0:
                option = rng.choice(node.options)
            else:
                option = min(node.options, key=self._node_cost)
            self._walk(option, rng, budget - 1, out)
        else:
            high = node.high if node.high is not None else node.low + 3
            count = rng.randint(node.low, high) if budget > 0 else node.low
            for _ in range(count):
                self._walk(node.item, rng, budget - 1, out)

    @staticmethod
    def _char(node: Cls, rng: random.Random) -> str:
        if not node.negated:
            lo, hi = rng.choice(node.ranges)
            code = rng.randint(lo, hi)
            return chr(code if not 0xD800 <= code <= 0xDFFF else lo)
        return rng.choice([c for c in _POOL if node.matches(c)])

    def _costs(self) -> dict[str, float]:
        """The shortest derivation length of each rule (a fixed point)."""
        cost = {name: float("inf") for name in self.rules}
        changed = True
        while changed:
            changed = False
            for name, rule in self.rules.items():
                value = self._node_cost(rule.body, cost)
                if value < cost[name]:
                    cost[name] = value
                    changed = True
        return cost

    def _node_cost(self, node: Node, cost: dict[str, float] | None = None) -> float:
        cost = self.cost if cost is None else cost
        if isinstance(node, Lit):
            return len(node.text)
        if isinstance(node, (Cls, AnyChar)):
            return 1
        if isinstance(node, Ref):
            return cost[node.name] + 1
        if isinstance(node, Seq):
            return sum(self._node_cost(i, cost) for i in node.items)
        if isinstance(node, Alt):
            return min(self._node_cost(o, cost) for o in node.options)
        return node.low * self._node_cost(node.item, cost)
