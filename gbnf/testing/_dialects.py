"""Acceptance oracles on the other engines: llguidance (vLLM's and SGLang's guidance backend,
llama.cpp built with ``LLAMA_LLGUIDANCE``) and XGrammar (vLLM's and SGLang's default backend),
each deciding the grammar written in its own dialect.

A byte vocabulary is enough to decide acceptance: every text is fed one byte a token, then the
end of sequence. Both engines are imported on first use: llguidance is a test dependency
(``pip install -e '.[test]'``), XGrammar an opt-in one (``pip install -e '.[xgrammar]'``: it
needs torch).
"""

from __future__ import annotations

import functools
from typing import Any

from gbnf.compiler import translate
from gbnf.errors import GrammarError
from gbnf.testing._oracle import PerGrammar

_EOS = 256
_BYTES = [bytes([i]) for i in range(256)]


class _ByteVocabulary:
    """256 one-byte tokens and an end-of-sequence token, as llguidance's tokenizer wrapper reads them."""

    eos_token_id = _EOS
    bos_token_id = None
    tokens = [*_BYTES, b"\xff<eos>"]
    special_token_ids = [_EOS]

    def __call__(self, text: bytes) -> list[int]:
        return list(text)


class LlguidanceGrammar:
    """One GBNF grammar, written in llguidance's dialect and loaded: does it accept a text?"""

    def __init__(self, gbnf_text: str) -> None:
        import llguidance

        self.text = translate(gbnf_text, "llguidance")
        self._matcher = llguidance.LLMatcher(_llguidance_tokenizer(), self.text, log_level=0)
        if self._matcher.is_error():
            raise GrammarError(f"llguidance refused the grammar: {self._matcher.get_error()[:300]}", self.text)

    def accepts(self, text: str) -> bool:
        """Whether ``text`` is in the grammar's language (a parser limit counts as a refusal)."""
        matcher = self._matcher.deep_copy()
        return matcher.consume_tokens(list(text.encode("utf-8"))) and matcher.is_accepting()


class XGrammarGrammar:
    """One GBNF grammar, written in XGrammar's dialect and compiled: does it accept a text?"""

    def __init__(self, gbnf_text: str) -> None:
        self.text = translate(gbnf_text, "xgrammar")
        try:
            self._compiled = _xgrammar_compiler().compile_grammar(self.text)
        except RuntimeError as exc:
            raise GrammarError(f"XGrammar refused the grammar: {str(exc)[:300]}", self.text) from None

    def accepts(self, text: str) -> bool:
        """Whether ``text`` is in the grammar's language."""
        import xgrammar

        matcher = xgrammar.GrammarMatcher(self._compiled)
        return all(matcher.accept_token(byte) for byte in text.encode("utf-8")) and matcher.accept_token(_EOS)


@functools.cache
def llguidance_oracle() -> PerGrammar:
    """llguidance's verdicts (each grammar loaded once)."""
    return PerGrammar(LlguidanceGrammar)


@functools.cache
def xgrammar_oracle() -> PerGrammar:
    """XGrammar's verdicts (each grammar compiled once)."""
    return PerGrammar(XGrammarGrammar)


@functools.lru_cache(maxsize=1)
def _llguidance_tokenizer() -> Any:
    import llguidance

    return llguidance.LLTokenizer(llguidance.TokenizerWrapper(_ByteVocabulary()), slices=[])


@functools.lru_cache(maxsize=1)
def _xgrammar_compiler() -> Any:
    import xgrammar

    info = xgrammar.TokenizerInfo([*_BYTES, b"</s>"], vocab_type=xgrammar.VocabType.RAW, stop_token_ids=[_EOS])
    return xgrammar.GrammarCompiler(info)
