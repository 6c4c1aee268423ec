"""llama.cpp's own grammar engine as an oracle: does it parse a grammar, does it accept a text?

A vocabulary-only model load is enough (no weights are read or evaluated). Each text is
tokenized and fed token by token to a grammar sampler as a single-candidate array; the end
of generation is allowed only when the grammar is complete, exactly as during decoding.
"""

from __future__ import annotations

import ctypes
import functools
from pathlib import Path

import llama_cpp

from gbnf.backends import captured_stderr, default_model, grammar_sampler, token_allowed
from gbnf.errors import GbnfError, Unrepresentable


class LlamaCppOracle:
    """Decide grammar parsing and text acceptance with llama.cpp, through llama-cpp-python."""

    def __init__(self, model_path: Path | None = None) -> None:
        path = Path(model_path or default_model())
        llama_cpp.llama_backend_init()
        params = llama_cpp.llama_model_default_params()
        params.vocab_only = True
        with captured_stderr():
            self._model = llama_cpp.llama_model_load_from_file(str(path).encode(), params)
        if not self._model:
            raise GbnfError(f"llama.cpp could not load the vocabulary of {path}")
        self._vocab = llama_cpp.llama_model_get_vocab(self._model)
        self._eos = llama_cpp.llama_vocab_eos(self._vocab)
        self.model_path = path

    def check(self, grammar: str) -> None:
        """Raise :class:`GrammarError` unless llama.cpp parses ``grammar``."""
        llama_cpp.llama_sampler_free(grammar_sampler(self._vocab, grammar))

    def accepts(self, grammar: str, text: str) -> bool:
        """Whether the grammar accepts exactly ``text`` (it parses, and nothing more is needed).

        Raises :class:`Unrepresentable` when this vocabulary cannot spell ``text`` at all.
        """
        tokens = self.tokenize(text)
        if self.detokenize(tokens) != text.encode("utf-8", "surrogatepass"):
            raise Unrepresentable(f"the vocabulary of {self.model_path.name} cannot spell {text!r}")
        sampler = grammar_sampler(self._vocab, grammar)
        try:
            for token in tokens:
                if not token_allowed(sampler, token):
                    return False
                llama_cpp.llama_sampler_accept(sampler, token)
            return token_allowed(sampler, self._eos)
        finally:
            llama_cpp.llama_sampler_free(sampler)

    def tokenize(self, text: str) -> list[int]:
        """The model's tokens for ``text`` (no special tokens added or parsed)."""
        data = text.encode("utf-8", "surrogatepass")
        size = len(data) + 8
        tokens = (llama_cpp.llama_token * size)()
        n = llama_cpp.llama_tokenize(self._vocab, data, len(data), tokens, size, False, False)
        if n < 0:
            raise GbnfError(f"tokenizing {len(data)} bytes needs {-n} tokens")
        return list(tokens[:n])

    def representable(self, text: str) -> bool:
        """Whether some token sequence of this vocabulary spells exactly ``text``."""
        return self.detokenize(self.tokenize(text)) == text.encode("utf-8", "surrogatepass")

    def detokenize(self, tokens: list[int]) -> bytes:
        """The bytes that ``tokens`` spell."""
        out = bytearray()
        buf = ctypes.create_string_buffer(256)
        for token in tokens:
            n = llama_cpp.llama_token_to_piece(self._vocab, token, buf, len(buf), 0, True)
            out += buf.raw[:n]
        return bytes(out)

    def close(self) -> None:
        """Free the vocabulary."""
        if self._model:
            llama_cpp.llama_model_free(self._model)
            self._model = None


@functools.cache
def llamacpp_oracle(model_path: Path | None = None) -> LlamaCppOracle:
    """llama.cpp's verdicts, one vocabulary per model file for the whole process."""
    return LlamaCppOracle(model_path)
