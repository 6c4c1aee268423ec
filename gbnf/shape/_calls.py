"""How many calls a request asks for, of which tools, in what order, and which of its words ask for
each (:func:`asked_calls`, :func:`asked_order`, :func:`asked_parts`): the request is cut into
clauses and turns, and each clause goes to the tool whose own words it shares most.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Any

from gbnf.shape._english import STOPS, either, words
from gbnf.shape._listed import BETWEEN, NAMED, SENTENCE_END, calls_by_values, calls_for_names
from gbnf.shape._request import Request, read_request, terms
from gbnf.shape._tool_words import ACTIONS, CALL_WORDS, most_alike, numbers_needed, own_terms
from gbnf.shape._values import NUMBER_WORDS
from gbnf.tools import Tool

REQUEST_CUT = rf"{SENTENCE_END.pattern}|\b(?:{either('request_cuts')})\b"
_CLAUSES = re.compile(rf"{REQUEST_CUT}|,\s*(?=(?:{either('question_words')})\b)|\band\b", re.IGNORECASE)
"""Where a request for several tools may turn to another tool: where a request ends, "and", and
a comma before a question word."""
_TURNS = re.compile(rf"(?:[.?!]\s+|\n)\W*(?:(?:{either('list_joins')})\s+)?"
                    rf"(?:{either('request_cuts')}|{either('again')}|{either('ordinals')})\b", re.IGNORECASE)
"""Where a sentence starts another turn of a request for several tools ("First, ... After that, ...
And finally, ...")."""
AGAIN = re.compile(rf"\b(?:{either('again')})\b", re.IGNORECASE)
"""Words that ask for one tool once more ("then repeat with 10 seconds", "and another one in San
Diego"); "also" is not among them: "and also provide the species" asks more of the same call."""


def asked_calls(tools: list[Tool], request: Request, most: int) -> int:
    """How many calls ``request`` asks for, up to ``most``, when it asks for what ``tools`` do
    (as offered: without the optional arguments it does not ask for, see
    :func:`~gbnf.shape._optional.unasked`).

    Of several tools, the query's clauses (cut at sentence ends, "and", "also", "then", and a
    comma before "what", "how"...) each ask for the one tool whose own words (those not all the
    tools have; its name's words count twice; after the first clause, no word of what any tool
    does, "make", "find") they share most; a clause sharing none goes on the one before it ("the
    GCD of 96 and 128, and the LCM of 15 and 25": one call each; "a payment request to Mary for
    $200 and make sure she sees it": one call, not one of ``make_payment`` too). Each tool
    is then asked as often as its clauses' numbers and names ask, as below, or as often as an
    earlier tool when its clauses ask once and point back at several things ("in 1900 and 1950?
    Also, the GDP in these years": two calls each, :data:`MANY`), or as often as turns ask
    for it (:func:`_turns_asking`: "After that, the share price of Nokia. Lastly, the share
    price of Siemens": two), and the query asks
    at least one call of each tool for each of its turns: its start and each sentence that
    starts with a word of another turn ("Also", "Then", "After that", "Second"). Sentences alone
    ask no more ("I have 100 euro. How much is it in USD?" is one call). Of one tool, the most
    of what its numbers, its names, its words that ask again and its ordinals ask for:

    - numbers: each call takes one for each numeric argument ("the GCD of 3 and 4, 5 and 12":
      two calls), not counting the digits of dates, times, formulas and names ("on April 25,
      2023 at 14:00", "3x^2 + 2x - 1", "Windows 10", "2020 Addison Street":
      :attr:`Request.numbers_alone`); a
      written list of more numbers than one call leaves room for is one call each ("$1000 at
      5% for 10, 20 and 30 years": three), unless the tool has as many numeric arguments named
      alike ("charged 1e-9 and 2e-9" fills ``charge1`` and ``charge2``); lists of numbers are the values
      of a tool that takes arrays of numbers, one call for each list it has no room for;
    - names: an enumeration of names ("Apple, Google and Microsoft", "'Friends' or 'Lost'",
      "a Chicken Soup recipe and a Vegan Salad recipe") is one call each, unless the tool has
      as many string arguments named alike ("the Bulls and the Lakers" fill ``team1`` and
      ``team2``) or, for quoted names, as many string arguments (unless "each" follows them:
      "'Space' and 'Health', each for 'Canada'" is two); after "between", one call
      (for each pair, when there are several); and so is each name written right after the
      name of one of its string arguments ("the compound C6H12O6 ... the compound C12H22O11",
      :func:`~gbnf.shape.rules.strings_named`), and each name written after "and" and a preposition
      written before another name ("for 'Queens Hotel' ... and for 'Royal Hotel'": two);
    - asking again: one call more for each "then", "another", "again", "the same"... followed
      by three words or more before the next ("then repeat the same for Chicago": one);
    - listed values: two or more of the strings one argument lists, each one call's ("the last six
      months, the last year and the last five years" of ``six_months``, ``year``, ``five_years``:
      three, :func:`~gbnf.shape._listed.choices_written`), or its description lists, enumerated
      ("resistivity of copper and aluminum" of "Allowed values: 'copper', 'aluminum'": two);
    - dates: an enumeration of dates, for a tool with one argument of dates, is one call each
      ("the weather in Oslo on 2020-12-25 and 2021-01-01": two,
      :func:`~gbnf.shape._listed.dates_listed`);
    - things in small letters enumerated after a preposition, three or more ("the price of gold,
      silver, platinum, and palladium": four, :func:`~gbnf.shape._listed._things_listed`);
    - ordinals: "the first circle..., the second..., the third" is three;
    - counts in words: "for these three scenarios" is three (:func:`_counted_in_words`);
    - two enumerations that fill different arguments: one call for each pair ("the Lakers and
      the Bulls in 2018 and 2020", "Nokia and Ericsson on 2022-01-03 and 2022-02-01": four,
      :func:`~gbnf.shape._listed.crossed_enumerations`);
    - turns: one call more for each sentence that starts another turn ("Also, ...") and asks
      anew, naming something (:func:`_asks_anew`: "What was the Treaty of Paris about? Also,
      what was the importance of Magna Carta?": two).
    """
    if not tools:
        return 1
    if len(tools) == 1:
        return max(1, min(most, _calls_of_one(tools[0], request)))
    turns = 1 + len(_TURNS.findall(request.text))
    return max(1, min(most, max(len(asked_in_turn(tools, request)), min(len(tools), turns))))


def _calls_of_one(tool: Tool, request: Request) -> int:
    """How many calls of ``tool`` ``request`` asks for by its values, its words that ask again
    (each part they start asks for one call more, or one for each name it enumerates: "..., then
    do the same for Austin, TX and Denver" two), its ordinals, its counts in words and its turns
    that ask anew."""
    props = tool.parameters.get("properties") or {}
    asked_again = 1 + sum(calls_for_names(props, part) for part in AGAIN.split(request.text)[1:]
                          if len(part.split()) >= 3)
    named_turns = 1 + sum(1 for turn in _TURNS.split(request.text)[1:] if _asks_anew(turn))
    return max(calls_by_values(tool, request), asked_again, _ordinals(request.text),
               _counted_in_words(props, request.text), named_turns)


_QUESTION_WORDS = frozenset(words("question_words"))


def _asks_anew(turn: str) -> bool:
    """Whether a turn of a request ("Also, ...") asks for a call of its own: it starts with a
    question word or a word that is no stop word ("Also, what was the importance of Magna
    Carta", "Also, book a room at the Marriott"), not with "I" or "the" ("Also, the URL should
    be ...": more of the same call), and writes a name."""
    first = re.match(r"\W*([A-Za-z]+)", turn)
    return first is not None and bool(NAMED.search(turn)) and (
        first.group(1).lower() in _QUESTION_WORDS or first.group(1).lower() not in STOPS)


_ORDINALS = words("ordinals")


def _ordinals(query: str) -> int:
    """How many things ``query`` counts off ("the first circle ..., the second ..."): the last
    ordinal of an unbroken run from "first" and "second"."""
    words = set(re.findall(r"[a-z]+", query.lower()))
    count = 0
    while count < len(_ORDINALS) and _ORDINALS[count] in words:
        count += 1
    return count if count >= 2 else 1


_COUNTS = {word: number for word, number in NUMBER_WORDS.items() if 2 <= number <= 10}
_COUNTED = re.compile(rf"\b(?:{either('count_leads')})\s+({'|'.join(_COUNTS)})\s+"
                      rf"(?:(?:{either('count_kinds')})\s+)?[a-z]+s\b", re.IGNORECASE)
"""A count written in words before a plural noun that points back at what the request described
("for these three scenarios", "each of the two triangles")."""


def _counted_in_words(props: dict[str, Any], query: str) -> int:
    """How many things ``query`` counts in words as it points back at them ("the population for
    these three scenarios": three), one call each; one when none, when "between" comes before
    ("between these two cities": one call takes both) or when the tool has as many arguments
    named alike ("these two points": ``point1`` and ``point2``)."""
    found = _COUNTED.search(query)
    if found is None or BETWEEN.search(query[:found.start()]):
        return 1
    count = _COUNTS[found.group(1).lower()]
    return count if count > most_alike(props) else 1


def asked_order(tools: list[Tool], request: Request, most: int) -> tuple[str, ...]:
    """The tools of the first calls ``request`` asks for, in turn, when it asks for several of
    ``tools`` (empty for one tool): each tool its clauses ask for (see :func:`asked_calls`), as
    many times as they ask, in the order the query first asks for each, up to ``most`` calls."""
    if len(tools) < 2:
        return ()
    return tuple(tools[i].name for i in asked_in_turn(tools, request, most))


def asked_in_turn(tools: list[Tool], request: Request, most: int | None = None) -> list[int]:
    """The index in ``tools`` of each call the clauses of ``request`` ask for (see
    :func:`asked_calls`): a tool's calls together, tools in the order the query first asks for
    them; of the first ``most`` calls, each tool one at least where there is room
    (:func:`_each_called`)."""
    key = tuple((tool.name, tool.description) for tool in tools)
    by_turn = Counter(i for asked in _turns_asking(key, request.text) for i in asked)
    turns: list[int] = []
    for i, text in clauses_by_tool(key, request.text):
        if i is not None:
            calls = calls_by_values(tools[i], read_request(text))
            if calls == 1 and turns and MANY.search(text):
                calls = max(Counter(turns).values())
            turns += [i] * max(calls, by_turn[i])
    if most is None:
        return turns
    own = own_terms(key)
    return _each_called(turns[:most], [i for i in range(len(tools)) if len(request.words & own[i]) >= CALL_WORDS])


def _each_called(turns: list[int], asked: list[int]) -> list[int]:
    """``turns`` (the tool of each call) giving each tool of ``asked`` (those whose own words the
    request has) that no clause asked for one call, in place of the last call of the tool asked
    for most, while that one has two or more: the clauses read a request for four things as four
    calls of one tool ("stay at the 'Hotel Le Bristol Paris' ... the latest exchange rate ... the
    time light takes"), and a small model would leave three undone."""
    turns = list(turns)
    for missing in [i for i in asked if i not in turns]:
        most, count = Counter(turns).most_common(1)[0] if turns else (0, 0)
        if count < 2:
            break
        del turns[len(turns) - 1 - turns[::-1].index(most)]
        turns.append(missing)
    return turns


@functools.lru_cache(maxsize=64)
def _turns_asking(tools: tuple[tuple[str, str], ...], query: str) -> tuple[frozenset[int], ...]:
    """For tools given as (name, description), the tools each turn of ``query`` asks for (its
    start, and each sentence that starts with "Then", "After that", "Lastly"...: :data:`_TURNS`):
    those its clauses ask for (:func:`clauses_by_tool`) that share
    :data:`~gbnf.shape._tool_words.CALL_WORDS` of their own words with it. A turn that asks for
    every tool asks for none: it sums the request up ("Could you calculate the area and plot the
    sine wave?")."""
    own = own_terms(tools)
    turns = []
    for turn in _TURNS.split(query):
        words = set(terms(turn))
        asked = frozenset(i for i, _ in clauses_by_tool(tools, turn)
                          if i is not None and len(words & own[i]) >= CALL_WORDS)
        turns.append(asked if len(asked) < len(tools) else frozenset())
    return tuple(turns)


MANY = re.compile(rf"\b(?:{either('back_to_many')})\b", re.IGNORECASE)
"""Words by which a tool's clauses point back at several things an earlier tool's wrote ("the
life expectancy in 1900 and 1950, and the GDP in these years"): as many calls as that tool's."""


_BACK = re.compile(rf"\b(?:{either('back_references')})\b", re.IGNORECASE)


def asked_parts(tools: list[Tool], request: Request, most: int) -> tuple[tuple[str, str], ...]:
    """For each of the first calls :func:`asked_order` names, in turn: the words of ``request``
    that may ask for it (its tool's clauses, and those that ask for no one tool; the whole
    request where its clauses point back: "for the same city", "its GDP") and those that ask for
    another tool ("the electric field at 3m from a charge of 4C. Also, the magnetic field of a
    current of 0.5A": 3m and 4C for the first call, 0.5A for the other's). A tool asked for by as
    many turns as it has calls (:func:`_turns_asking`: "After that, the share price of Nokia.
    Lastly, the share price of Siemens") gives its k-th call the k-th of those turns, with the
    turns that ask for no tool, unless that turn points back. Words that write fewer numbers than
    their tool requires speak of the others' too ("Transfer $5000 ... And the interest after 5
    years at 3%": the principal is 5000): none ask for another tool. Empty for one tool, and for a
    request not in English, whose clauses these words do not read."""
    if len(tools) < 2 or not request.english:
        return ()
    key = tuple((tool.name, tool.description) for tool in tools)
    texts = clauses_by_tool(key, request.text)
    turns, asking = _TURNS.split(request.text), _turns_asking(key, request.text)
    calls = asked_in_turn(tools, request, most)
    seen: Counter[int] = Counter()

    def part(i: int) -> tuple[str, str]:
        mine = [k for k, asked in enumerate(asking) if i in asked]
        seen[i] += 1
        if len(mine) == calls.count(i) >= 2 and not _BACK.search(own := turns[mine[seen[i] - 1]]):
            return (". ".join(turn for turn, asked in zip(turns, asking) if turn == own or not asked),
                    ". ".join(turn for turn, asked in zip(turns, asking) if turn != own and asked))
        if _BACK.search(". ".join(text for tool, text in texts if tool == i)):
            return request.text, ""
        own = ". ".join(text for tool, text in texts if tool in (i, None))
        if len(read_request(own).numbers) < numbers_needed(tools[i]):
            return own, ""
        return own, ". ".join(text for tool, text in texts if tool not in (i, None))
    return tuple(part(i) for i in calls)


@functools.lru_cache(maxsize=64)
def clauses_by_tool(tools: tuple[tuple[str, str], ...], query: str) -> tuple[tuple[int | None, str], ...]:
    """For tools given as (name, description), the index of each one the clauses of ``query``
    ask for and those clauses, in the order the query first asks for it (see
    :func:`asked_calls`), and None with the clauses that ask for no one tool;
    :func:`asked_calls`, :func:`asked_order` and :func:`asked_parts` read it."""
    own = own_terms(tools)
    common = frozenset(terms(f"{tools[0][0]} {tools[0][1]}")) - own[0]
    named = [set(terms(name)) - common for name, _ in tools]
    runs: list[tuple[int | None, int, int]] = []  # (tool, start, end) of clauses asking for one tool
    start = 0
    for cut in [*_CLAUSES.finditer(query), None]:
        end = cut.start() if cut else len(query)
        words = set(terms(query[start:end]))
        if runs:  # words of what any tool does ("make sure", "find") turn to no other tool
            words -= ACTIONS
        shared = [len(words & mine) + len(words & name) for mine, name in zip(own, named)]  # names count twice
        best = max(shared)
        tool = shared.index(best) if best and shared.count(best) == 1 else None
        if runs and (not best or tool == runs[-1][0]):
            runs[-1] = (runs[-1][0], runs[-1][1], end)
        else:
            runs.append((tool, start, end))
        start = cut.end() if cut else end
    texts: dict[int | None, list[str]] = {}
    for tool, start, end in runs:
        texts.setdefault(tool, []).append(query[start:end])
    return tuple((tool, ". ".join(parts)) for tool, parts in texts.items())
