"""Words and names of Chinese, Japanese and Korean text: the first two write no spaces between
words, and Korean writes its particles and endings onto them ("영어로": 영어, "in English").
Japanese (text with kana) is split by SudachiPy's dictionary, Chinese by jieba's, Korean (Hangul)
by Kiwi's model (kiwipiepy). Each word comes with where it lies and whether it is a function word
(a particle, an ending, an auxiliary, a pronoun; in Japanese and Korean a verb or an adjective),
which starts and ends no value ("上海明天天气怎么样？": 上海, 明天, 天气, 怎么样; a value is 上海,
not the sentence); the same analysers tell the proper nouns, names of people, places and
organisations (:func:`proper_nouns`)."""

from __future__ import annotations

import bisect
import functools
import logging
import re
import threading

CJK_LETTERS = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
"""Kana, Han and Hangul, as a regular expression's class (without its brackets)."""
_CJK = re.compile(f"[{CJK_LETTERS}]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_KATAKANA = re.compile(r"[\u30a0-\u30ff]+")
"""A word in katakana alone: a name or a loanword, never a particle or a pronoun as written
("ココ", a dog's name, though the dictionary reads it as "here")."""
_JAPANESE_FUNCTION = frozenset({"助詞", "助動詞", "補助記号", "記号", "空白", "代名詞", "動詞", "形容詞"})
"""SudachiPy's parts of speech that are no value's first or last word: particles, auxiliaries,
marks, pronouns, and verbs and adjectives, as Kiwi's tags of Korean ("目標を作っ" is no name)."""
_CHINESE_FUNCTION = frozenset(
    "的 地 得 了 着 过 吗 呢 吧 啊 呀 嘛 把 被 在 是 和 与 及 跟 从 到 给 对 向 往 为 于 由 "
    "我 你 您 他 她 它 我们 你们 他们 请 帮 帮我 给我 一下 什么 怎么 怎么样 如何 多少 几 哪 哪里 哪儿 "
    "能 能不能 可以 要 想 会 这 那 这个 那个 个 就 也 都 还 又 再 很 最 啦 并 或 或者 还是 然后 "
    "把它 一个 有 没有 是否".split())
"""Chinese function words, which no value starts or ends with."""
_KOREAN_FUNCTION = ("J", "E", "V", "XSV", "XSA", "NP", "SF", "SP", "SS", "SE", "SO", "SW")
"""Kiwi's tags (or their first letters) of what is no value's first or last word: particles
(J...), endings (E...), verbs, adjectives, the copula and auxiliaries (V...), the suffixes that
make a verb of a noun, pronouns and punctuation."""
_LOCK = threading.Lock()  # requests are read in worker threads; the tokenizers are not shared safely


def has_cjk(text: str) -> bool:
    """Whether ``text`` writes Chinese, Japanese or Korean (Han characters, kana or Hangul)."""
    return _CJK.search(text) is not None


def cjk_words(run: str, text: str = "", at: int = 0) -> tuple[tuple[int, int, bool], ...]:
    """The words of ``run`` (text without spaces, found at ``at`` in ``text``, the whole of
    which Korean is read in: "주" of "예약해 주세요" is an auxiliary, not "give"), each as (start,
    end, is a function word) within ``run``, in order; punctuation left out."""
    if _KANA.search(run):
        return _japanese(run)
    if not _HANGUL.search(run):
        return _chinese(run)
    words = _korean(text or run)
    first = bisect.bisect_left(words, (at,))
    last = bisect.bisect_left(words, (at + len(run),))
    return tuple((start - at, end - at, function) for start, end, function in words[first:last]
                 if end <= at + len(run))


@functools.lru_cache(maxsize=1024)
def _korean(text: str) -> tuple[tuple[int, int, bool], ...]:
    """The morphemes of Korean ``text``; those written in one syllable ("할": 하 and ㄹ) as one,
    a function word where all of them are, and a bound noun (a counter) with the word it is
    written onto ("9월", "3명"); one written apart ("할 수 있다") is a function word."""
    with _LOCK:
        tokens = [(t.start, t.start + t.len, t.tag) for t in _kiwi().tokenize(text)]
    merged: list[tuple[int, int, bool]] = []
    for start, end, tag in tokens:
        function = tag.startswith(_KOREAN_FUNCTION)
        if merged and (start < merged[-1][1] or tag == "NNB" and start == merged[-1][1]):
            first, last, both = merged[-1]  # one syllable, or a counter written onto its number ("9월", "3명")
            merged[-1] = (first, max(last, end), both and function)
        else:
            merged.append((start, end, function or tag == "NNB"))
    return tuple(word for word in merged if any(c.isalnum() for c in text[word[0]:word[1]]))


@functools.lru_cache(maxsize=4096)
def _japanese(run: str) -> tuple[tuple[int, int, bool], ...]:
    with _LOCK:
        morphemes = [(m.begin(), m.end(), m.part_of_speech()[0]) for m in _sudachi().tokenize(run)]
    return tuple((start, end, pos in _JAPANESE_FUNCTION and not _KATAKANA.fullmatch(run[start:end]))
                 for start, end, pos in morphemes if any(c.isalnum() for c in run[start:end]))


@functools.lru_cache(maxsize=4096)
def _chinese(run: str) -> tuple[tuple[int, int, bool], ...]:
    with _LOCK:
        pieces = list(_jieba().tokenize(run))
    return tuple((start, end, word in _CHINESE_FUNCTION) for word, start, end in pieces
                 if any(c.isalnum() for c in word))


@functools.lru_cache(maxsize=1024)
def proper_nouns(text: str) -> tuple[str, ...]:
    """The proper nouns (names of people, places, organisations) that the analysers read in
    Chinese, Japanese or Korean ``text`` ("山本さん": 山本; "김민지에게": 김민지; "故宫博物院的门票":
    故宫博物院), in order; none in text of other scripts."""
    if not has_cjk(text):
        return ()
    with _LOCK:
        if _KANA.search(text):
            names = [m.surface() for m in _sudachi().tokenize(text) if m.part_of_speech()[1] == "固有名詞"]
        elif _HANGUL.search(text):
            names = [token.form for token in _kiwi().tokenize(text) if token.tag == "NNP"]
        else:
            names = [word for word, flag in _jieba_tags().cut(text) if flag in _CHINESE_NAMES]
    return tuple(dict.fromkeys(name for name in names if name in text))


def has_function_word(text: str) -> bool:
    """Whether Chinese, Japanese or Korean ``text`` has a function word among its words (a
    particle, an ending: "渋谷駅でスマホ" has で; "西湖国宾馆" none)."""
    return any(function for part in text.split() if has_cjk(part) for _, _, function in cjk_words(part))


_CHINESE_NAMES = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz"})
"""jieba's tags of names: of people, places, organisations and others."""


@functools.cache
def _jieba_tags():  # type: ignore[no-untyped-def]
    """jieba's tagger of parts of speech over its tokenizer."""
    from jieba.posseg import POSTokenizer

    return POSTokenizer(_jieba())


@functools.cache
def _sudachi():  # type: ignore[no-untyped-def]
    """SudachiPy's tokenizer over its core dictionary, splitting as finely as names allow (mode C)."""
    from sudachipy import Dictionary, SplitMode

    return Dictionary().tokenizer(mode=SplitMode.C)


@functools.cache
def _jieba():  # type: ignore[no-untyped-def]
    """jieba's tokenizer, its dictionary loaded (about 1.5 s, once)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    tokenizer.initialize()
    return tokenizer


@functools.cache
def _kiwi():  # type: ignore[no-untyped-def]
    """Kiwi's Korean analyser, its model loaded (about 1 s, once; 2 s more on the first text)."""
    from kiwipiepy import Kiwi

    kiwi = Kiwi(num_workers=1)  # one worker: every call holds the lock
    kiwi.tokenize("워밍업")
    return kiwi


def warm() -> None:
    """Load the three dictionaries and jieba's tagger now."""
    _sudachi()
    _jieba_tags()
    _kiwi()
