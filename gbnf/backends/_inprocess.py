"""llama-cpp-python in-process, with grammar decoding faster than free decoding where it can be.

By default (``grammar_engine="llguidance"``) the grammar, in its llguidance dialect, is decided
by llguidance: a whole-vocabulary mask costs it about as little as one grammar check, and
where the grammar admits one continuation only, the tokens that spell it (canonically) are
appended without sampling and evaluated in one batch (fast-forward). At every sampled position
its mask is llama.cpp's; where it fast-forwards it allows only the canonical tokens. A grammar
llguidance refuses (none of BFCL's or the JSON Schema Test Suite's) is decided by llama.cpp.

``grammar_engine="llama.cpp"`` decides it with llama.cpp's own grammar, as llama-server does:
sample first and ask the grammar only about the chosen token; only when the grammar refuses it
is the whole vocabulary masked and the token drawn again from the masked distribution. For
plain temperature sampling the result has exactly the distribution of full masking:
P(a) = p(a) + (1 - p(A)) p(a) / p(A) = p(a) / p(A) for every allowed token a, where A is the
allowed set. ``grammar_mode="full"`` masks at every step (the slow reference, kept for the bench
and the tests).
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import llama_cpp
import llguidance
import numpy as np
from llama_cpp.llama_chat_format import Jinja2ChatFormatter

from gbnf.backends._base import DRY_ALLOWED, DRY_BASE, REPEAT_LAST_N, Completion, Message, Sampling, TextSink, ToolSpec
from gbnf.backends._llamacpp import captured_stderr, grammar_sampler, llguidance_tokenizer, load_llama, token_allowed
from gbnf.backends._model import resolve_model
from gbnf.compiler import translate
from gbnf.errors import BackendError, ContextExceeded, GbnfSyntaxError, GrammarError

GrammarMode = Literal["fast", "full"]
GrammarEngine = Literal["llama.cpp", "llguidance"]
_TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)])


PLAIN_TEMPLATE = ("{{ bos_token }}{% for message in messages %}{{ message['role'] | capitalize }}: "
                  "{{ message['content'] }}\n\n{% endfor %}{% if add_generation_prompt %}Assistant: {% endif %}")
"""The chat template of a model whose GGUF carries none (a base model): a plain transcript."""
PLAIN_STOP = ("\nUser:", "\nSystem:", "\nTool:", "\nAssistant:")
"""Where a free reply ends under :data:`PLAIN_TEMPLATE` (a base model writes the next turn)."""


class LlamaCppBackend:
    """A GGUF model loaded once in this process; thread-safe, one completion at a time.

    ``model_path`` is a GGUF file or a packaged model's name (:func:`gbnf.backends._model.resolve_model`).
    The chat template is ``chat_template``, else the GGUF's own, else :data:`PLAIN_TEMPLATE`.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        n_ctx: int = 8192,
        n_threads: int | None = None,
        grammar_mode: GrammarMode = "fast",
        grammar_cache: int = 16,
        reuse_prefix: bool = True,
        grammar_engine: GrammarEngine = "llguidance",
        chat_template: str | None = None,
        n_gpu_layers: int = 0,
    ) -> None:
        path = resolve_model(model_path)
        try:
            with captured_stderr():
                self.llm = load_llama(str(path), n_ctx=n_ctx, n_threads=n_threads or os.cpu_count(), verbose=False,
                                      n_gpu_layers=n_gpu_layers)
        except ValueError as exc:
            raise BackendError(f"llama.cpp could not load {path}: {exc}") from None
        self.model_path = path
        self.grammar_mode = grammar_mode
        self.grammar_engine = grammar_engine
        self.reuse_prefix = reuse_prefix
        self._vocab = self.llm._model.vocab
        self._n_vocab = self.llm.n_vocab()
        template = chat_template or self.llm.metadata.get("tokenizer.chat_template")
        self._stop = () if template else PLAIN_STOP
        template = template or PLAIN_TEMPLATE
        eos = self.llm.detokenize([self.llm.token_eos()], special=True).decode("utf-8", "replace")
        bos = self.llm.detokenize([self.llm.token_bos()], special=True).decode("utf-8", "replace")
        self._formatter = Jinja2ChatFormatter(template, eos_token=eos, bos_token=bos)
        self._grammars: OrderedDict[str, llama_cpp.llama_sampler_p] = OrderedDict()
        self._matchers: OrderedDict[str, Any] = OrderedDict()
        self._llguidance_tokenizer: Any = None
        self._grammar_cache = grammar_cache
        self._lock = threading.Lock()
        self._candidates = np.zeros(self._n_vocab, dtype=_TOKEN_DATA)
        self._candidates["id"] = np.arange(self._n_vocab, dtype=np.int32)

    def parameters(self) -> float:
        """The model's parameters, as its GGUF file counts them."""
        return float(self.llm._model.n_params())

    def complete(self, messages: list[Message], grammar: str | None, sampling: Sampling,
                 tools: list[ToolSpec] | None = None, on_text: TextSink | None = None) -> Completion:
        """One chat completion, constrained by ``grammar`` when given; ``on_text`` receives the
        reply's text as it is decoded (never text that a stop string later cuts); an exception it
        raises ends the decode and is raised here."""
        if tools:
            raise BackendError("the in-process backend has no native tool calling: use a grammar, or soft parsing")
        prompt = self._formatter(messages=messages).prompt  # type: ignore[arg-type]  # OpenAI-shaped dicts
        if grammar is None and self._stop:
            sampling = replace(sampling, stop=(*sampling.stop, *self._stop))
        with self._lock:
            return self.generate(prompt, grammar, sampling, on_text)

    def generate(self, prompt: str, grammar: str | None, sampling: Sampling,
                 on_text: TextSink | None = None) -> Completion:
        """Complete a raw prompt (the chat template already applied)."""
        start = time.perf_counter()
        tokens = self.llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True)
        if len(tokens) + sampling.max_tokens > self.llm.n_ctx():
            raise ContextExceeded(f"prompt of {len(tokens)} tokens plus {sampling.max_tokens} to generate exceeds "
                                  f"the context of {self.llm.n_ctx()} tokens")
        matcher = self._matcher(grammar) if grammar and self.grammar_engine == "llguidance" else None
        sampler = self._grammar(grammar) if grammar and matcher is None else None
        rng = np.random.default_rng(sampling.seed)
        bias = self._bias(sampling.bias)
        dry = dry_sampler(self._vocab, sampling) if sampling.dry else None
        try:
            return self._decode(tokens, sampler, matcher, rng, sampling, on_text, bias, dry, start)
        finally:
            if dry is not None:
                llama_cpp.llama_sampler_free(dry)

    def _decode(self, tokens: list[int], sampler: llama_cpp.llama_sampler_p | None, matcher: Any,
                rng: np.random.Generator, sampling: Sampling, on_text: TextSink | None, bias: np.ndarray | None,
                dry: llama_cpp.llama_sampler_p | None, start: float) -> Completion:
        self._eval_prompt(tokens)
        decode_start = time.perf_counter()
        out: list[int] = []
        raw = b""  # the reply's bytes so far, each token's piece appended once
        truncated = True
        cut = None
        held = max((len(stop) for stop in sampling.stop), default=1) - 1  # a stop string may still begin here
        sent = 0
        while len(out) < sampling.max_tokens:
            room = sampling.max_tokens - len(out)
            new, ended = self._forced(matcher, dry, room)
            if not new and not ended:
                token = self._pick(sampler, matcher, rng, sampling, out, bias, dry)
                if llama_cpp.llama_vocab_is_eog(self._vocab, token):
                    truncated = False
                    break
                self._accept([token], sampler, matcher, dry)
                forced, ended = self._forced(matcher, dry, room - 1)
                new = [token, *forced]
            out.extend(new)
            raw += self.llm.detokenize(new)
            if ended:
                truncated = False
            if sampling.stop or on_text:
                text = raw.decode("utf-8", "ignore")  # a split character waits
                cut = stop_at(text, sampling.stop)
                if cut is not None:
                    truncated = False
                    break
                if on_text and len(text) - held > sent:
                    on_text(text[sent:len(text) - held])
                    sent = len(text) - held
            if ended or len(out) == sampling.max_tokens:  # nothing will read the logits
                break
            self.llm.eval(new)
        text = raw.decode("utf-8", "replace")[:cut]
        if on_text and len(text) > sent:
            on_text(text[sent:])
        end = time.perf_counter()
        return Completion(text, truncated, len(tokens), len(out), end - start, end - decode_start)

    def _forced(self, matcher: Any, dry: llama_cpp.llama_sampler_p | None, room: int) -> tuple[list[int], bool]:
        """The tokens the grammar forces next (at most ``room``), accepted; and whether the reply
        ends after them (the grammar is complete and admits nothing more, so no token is drawn)."""
        if matcher is None:
            return [], False
        forced = matcher.compute_ff_tokens()[:room]
        ends = [i for i, token in enumerate(forced) if llama_cpp.llama_vocab_is_eog(self._vocab, token)]
        forced = forced[:ends[0]] if ends else forced
        self._accept(forced, None, matcher, dry)
        return forced, bool(ends) or matcher.is_stopped()

    @staticmethod
    def _accept(tokens: list[int], sampler: llama_cpp.llama_sampler_p | None, matcher: Any,
                dry: llama_cpp.llama_sampler_p | None) -> None:
        """Advance the grammar and DRY past ``tokens``."""
        for token in tokens:
            for accepting in (sampler, dry):
                if accepting is not None:
                    llama_cpp.llama_sampler_accept(accepting, token)
        if matcher is not None and tokens and not matcher.consume_tokens(tokens):
            raise BackendError(f"llguidance refused a token it allowed: {matcher.get_error()[:200]}")

    def loglik(self, pairs: list[tuple[str, str]]) -> list[float]:
        """log P(continuation | context) for each ``(context, continuation)`` pair of raw text
        (no chat template); each pair is one batch, evaluated from an empty cache."""
        llm = self.llm
        scores = []
        with self._lock:
            for context, continuation in pairs:
                head = llm.tokenize(context.encode("utf-8"), add_bos=False, special=False)
                tail = llm.tokenize(continuation.encode("utf-8"), add_bos=False, special=False)
                tokens = (head + tail)[-llm.n_batch:]
                start = len(tokens) - len(tail)
                llm.n_tokens = 0  # the cache no longer holds a prompt: the next one is evaluated whole
                llm._ctx.kv_cache_seq_rm(-1, 0, -1)
                llm._batch.set_batch(batch=tokens, n_past=0, logits_all=True)
                llm._ctx.decode(llm._batch)
                total = 0.0
                for i, token in enumerate(tokens[start:], start):
                    pointer = llama_cpp.llama_get_logits_ith(llm._ctx.ctx, i - 1)
                    total += float(_log_softmax(np.ctypeslib.as_array(pointer, shape=(self._n_vocab,)))[token])
                scores.append(total)
        return scores

    def close(self) -> None:
        """Free the grammars and the model."""
        for sampler in self._grammars.values():
            llama_cpp.llama_sampler_free(sampler)
        self._grammars.clear()
        self._matchers.clear()
        self.llm.close()

    def __enter__(self) -> LlamaCppBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _grammar(self, text: str) -> llama_cpp.llama_sampler_p:
        """The parsed grammar for ``text``, from the cache when seen before, reset to its start."""
        sampler = self._grammars.pop(text, None)
        if sampler is None:
            sampler = grammar_sampler(self._vocab, text)
        else:
            llama_cpp.llama_sampler_reset(sampler)
        self._grammars[text] = sampler
        while len(self._grammars) > self._grammar_cache:
            llama_cpp.llama_sampler_free(self._grammars.popitem(last=False)[1])
        return sampler

    def _matcher(self, text: str) -> Any:
        """A fresh llguidance matcher for the GBNF ``text`` (compiled once per grammar), or None
        when llguidance refuses the grammar (llama.cpp's engine decides it then, with a warning:
        the refusal is a gap in our llguidance dialect)."""
        if self._llguidance_tokenizer is None:
            self._llguidance_tokenizer = llguidance_tokenizer(self._vocab)
        if text in self._matchers:
            pristine = self._matchers.pop(text)
        else:
            try:
                pristine = llguidance.LLMatcher(self._llguidance_tokenizer, translate(text, "llguidance"),
                                                log_level=0)
                refusal = pristine.get_error() if pristine.is_error() else None
            except (GrammarError, GbnfSyntaxError) as exc:  # our reading of the grammar fails too
                refusal = str(exc)
            if refusal is not None:
                warnings.warn(f"llguidance refused a grammar, so llama.cpp decides it: {refusal[:300]}", stacklevel=2)
                pristine = None
        self._matchers[text] = pristine
        while len(self._matchers) > self._grammar_cache:
            self._matchers.popitem(last=False)
        return None if pristine is None else pristine.deep_copy()

    def _eval_prompt(self, tokens: list[int]) -> None:
        """Evaluate the prompt, reusing the KV cache for the prefix shared with the last one.

        The last prompt token is always evaluated alone, so the logits that the first draw
        sees do not depend on how much of the prompt was cached (batch shape changes rounding):
        the same prompt and seed give the same reply.
        """
        llm = self.llm
        shared = 0
        if self.reuse_prefix:
            for a, b in zip(llm.input_ids[: llm.n_tokens], tokens):
                if a != b:
                    break
                shared += 1
        llm.n_tokens = min(shared, len(tokens) - 1)
        if llm.n_tokens < len(tokens) - 1:
            llm.eval(tokens[llm.n_tokens:-1])
        llm.eval(tokens[-1:])

    def _logits(self) -> np.ndarray:
        pointer = llama_cpp.llama_get_logits_ith(self.llm._ctx.ctx, -1)
        return np.ctypeslib.as_array(pointer, shape=(self._n_vocab,))

    def _bias(self, bias: tuple[tuple[str, float], ...]) -> np.ndarray | None:
        """The weight added to each token's logit: every token of each text gets its weight."""
        if not bias:
            return None
        vector = np.zeros(self._n_vocab, dtype=np.float32)
        for text, weight in bias:
            vector[self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)] = weight
        return vector

    def _pick(self, sampler: llama_cpp.llama_sampler_p | None, matcher: Any, rng: np.random.Generator,
              sampling: Sampling, out: list[int], bias: np.ndarray | None,
              dry: llama_cpp.llama_sampler_p | None) -> int:
        logits = self._logits() if bias is None else self._logits() + bias
        if dry is not None:
            logits = self._applied(logits, dry)
        logits = penalized(logits, out[-REPEAT_LAST_N:], sampling.repeat_penalty)
        if matcher is not None:
            allowed = np.unpackbits(np.frombuffer(matcher.compute_bitmask(), dtype=np.uint8), bitorder="little")
            logits = np.where(allowed[:self._n_vocab].astype(bool), logits, -np.inf)
            if not np.isfinite(logits).any():
                raise BackendError("the grammar allows no token here (a dead end in the grammar)")
        if sampler is None:
            return draw(nucleus(logits, sampling.top_p, sampling.temperature), rng, sampling.temperature)
        if sampling.top_p < 1 and sampling.temperature > 0:  # the nucleus of the grammar's distribution
            masked = nucleus(self._masked(logits, sampler), sampling.top_p, sampling.temperature)
            return draw(masked, rng, sampling.temperature)
        return pick_constrained(logits, lambda t: token_allowed(sampler, t), lambda x: self._masked(x, sampler),
                                rng, sampling.temperature, self.grammar_mode)

    def _masked(self, logits: np.ndarray, sampler: llama_cpp.llama_sampler_p) -> np.ndarray:
        """The logits with every token the grammar refuses set to -inf."""
        masked = self._applied(logits, sampler)
        if not np.isfinite(masked).any():
            raise BackendError("the grammar allows no token here (a dead end in the grammar)")
        return masked

    def _applied(self, logits: np.ndarray, sampler: llama_cpp.llama_sampler_p) -> np.ndarray:
        """The logits as a llama.cpp sampler (the grammar, DRY) leaves them, in a copy."""
        candidates = self._candidates
        candidates["logit"] = logits
        pointer = candidates.ctypes.data_as(ctypes.POINTER(llama_cpp.llama_token_data))
        array = llama_cpp.llama_token_data_array(pointer, self._n_vocab, -1, False)
        llama_cpp.llama_sampler_apply(sampler, ctypes.byref(array))
        if array.size != self._n_vocab or array.sorted:
            raise BackendError("a llama.cpp sampler reordered or resized the candidate array")
        return candidates["logit"].copy()


def dry_sampler(vocab: llama_cpp.llama_vocab_p, sampling: Sampling) -> llama_cpp.llama_sampler_p:
    """llama.cpp's DRY sampler as llama-server sets it up by default (base 1.75, repeats of two
    tokens allowed), over the reply only, and broken at newlines only: its default breakers
    (colon, quote, asterisk) are every few tokens of a JSON reply and would hide every repeat
    inside a call (the bench: 2 more tasks of 68 with the newline alone, none fewer). llama-server
    keeps its defaults, because its DRY also sees the prompt, where copying is wanted."""
    breakers = [b"\n"]
    array = (ctypes.c_char_p * len(breakers))(*breakers)
    return llama_cpp.llama_sampler_init_dry(vocab, sampling.dry, DRY_BASE, DRY_ALLOWED, sampling.max_tokens, array,
                                            len(breakers))


def penalized(logits: np.ndarray, recent: list[int], penalty: float) -> np.ndarray:
    """llama.cpp's repetition penalty: each recent token's positive logit divided by
    ``penalty``, a negative one multiplied (``logits`` itself is left alone)."""
    if penalty == 1.0 or not recent:
        return logits
    ids = np.unique(recent)
    out = logits.copy()
    out[ids] = np.where(out[ids] > 0, out[ids] / penalty, out[ids] * penalty)
    return out


def stop_at(text: str, stops: tuple[str, ...]) -> int | None:
    """Where ``text`` must end: before the first stop string in it (None: none is there)."""
    found = [i for i in (text.find(stop) for stop in stops if stop) if i >= 0]
    return min(found) if found else None


def nucleus(logits: np.ndarray, top_p: float, temperature: float) -> np.ndarray:
    """The logits with every token outside the top-``top_p`` nucleus of softmax(logits /
    temperature) set to -inf (unchanged when ``top_p`` >= 1 or greedy)."""
    if top_p >= 1 or temperature <= 0:
        return logits
    order = np.argsort(logits)[::-1]
    z = logits[order].astype(np.float64) / temperature
    probs = np.exp(z - z[0])
    cumulative = np.cumsum(probs) / probs.sum()
    keep = order[: int(np.searchsorted(cumulative, top_p)) + 1]
    out = np.full_like(logits, -np.inf)
    out[keep] = logits[keep]
    return out


def pick_constrained(
    logits: np.ndarray,
    allowed: Callable[[int], bool],
    mask: Callable[[np.ndarray], np.ndarray],
    rng: np.random.Generator,
    temperature: float,
    mode: GrammarMode = "fast",
    tries: int = 8,
) -> int:
    """Draw a token the grammar allows.

    ``fast``: ask the grammar only about drawn tokens, up to ``tries`` of them, and mask the
    whole vocabulary only when all are refused. With temperature this is rejection sampling,
    exact at any cap: P(a) = sum_k (1-p(A))^k p(a) + (1-p(A))^K p(a)/p(A) = p(a)/p(A). Greedy,
    it checks the best tokens in order, so the first allowed one is the masked argmax.
    ``full``: mask first, every time (llama-cpp-python's way; the reference).
    """
    if mode == "fast":
        if temperature <= 0:
            best = np.argpartition(logits, -tries)[-tries:]
            for token in best[np.argsort(logits[best])[::-1]]:
                if allowed(int(token)):
                    return int(token)
        else:
            weights = _weights(logits, temperature)
            for _ in range(tries):
                token = _sample(weights, rng)
                if allowed(token):
                    return token
    return draw(mask(logits), rng, temperature)


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    z = logits.astype(np.float64)
    z -= z.max()
    return z - np.log(np.exp(z).sum())


def draw(logits: np.ndarray, rng: np.random.Generator, temperature: float) -> int:
    """Greedy when ``temperature`` is 0, else one draw from softmax(logits / temperature)."""
    if temperature <= 0:
        return int(np.argmax(logits))
    return _sample(_weights(logits, temperature), rng)


def _weights(logits: np.ndarray, temperature: float) -> np.ndarray:
    """Cumulative unnormalized softmax(logits / temperature) weights."""
    z = logits.astype(np.float64) / temperature
    z -= z.max()
    return np.cumsum(np.exp(z))


def _sample(cumulative: np.ndarray, rng: np.random.Generator) -> int:
    return int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
