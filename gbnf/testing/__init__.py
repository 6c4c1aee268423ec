"""Oracles and doubles for testing and benchmarking grammars: unstable, may change in any release.

Every oracle has one shape (:class:`Oracle`: ``check(grammar)`` and ``accepts(grammar, text)``):
llama.cpp's own grammar engine, a pure-Python translation to lark, llguidance and XGrammar
(each imported on first use). :class:`ScriptedBackend` replays given replies, for loop logic;
:class:`VllmServer` runs a real vLLM (its CPU build) on the embedded model.
"""

from gbnf.testing._dialects import llguidance_oracle, xgrammar_oracle
from gbnf.testing._lark import lark_oracle
from gbnf.testing._llamacpp import LlamaCppOracle, llamacpp_oracle
from gbnf.testing._oracle import Oracle
from gbnf.testing._scripted import ScriptedBackend
from gbnf.testing._vllm import VllmServer

__all__ = ["LlamaCppOracle", "Oracle", "ScriptedBackend", "VllmServer", "lark_oracle", "llamacpp_oracle",
           "llguidance_oracle", "xgrammar_oracle"]
