"""Tool relevance: BM25 ranking, the model's relevance, and which tools each step offers."""

from __future__ import annotations

import pytest

from gbnf import Tool
from gbnf.shape import ModelRelevance
from gbnf.shape.rules import (
    MARGIN,
    Asked,
    as_asked,
    asked_calls,
    asked_items,
    asked_of,
    asked_order,
    asked_parts,
    decide_reply,
    first_clause,
    follow_up,
    items_in_turn,
    offered_values,
    own_values,
    part_values,
    rank_tools,
    read_request,
    select_tools,
    tool_document,
    unasked,
)
from tests.conftest import REPO

BENCH_TOOLS = REPO / "bench" / "tools"


def names(ranked):
    return [r.tool.name for r in ranked]


def test_a_tool_document_reads_names_descriptions_and_parameters(tools):
    send = next(t for t in tools if t.name == "send_messages")
    doc = tool_document(send)
    assert doc.startswith("send messages Send a message") and "recipients" in doc and "email" in doc


@pytest.mark.parametrize("query, best", [
    ("Remind me to call mom tomorrow", "schedule_reminder"),  # stemmed: remind ~ reminder
    ("What's the weather in Paris?", "get_weather"),
    ("Find the PDF files in /tmp", "find_files"),
    ("Create the folder /tmp/reports", "create_folder"),
])
def test_bm25_puts_the_obvious_tool_first(tools, query, best):
    assert names(rank_tools(tools, read_request(query)))[0] == best


def test_stop_words_match_nothing(tools):
    assert all(r.score == 0 for r in rank_tools(tools, read_request("How do you do? What is it?")))


def test_ties_keep_pool_order_and_the_model_breaks_them(tools):
    ranked = rank_tools(tools, read_request("zzz"))
    assert names(ranked) == [t.name for t in tools]
    model = [float(i) for i in range(len(tools))]
    assert names(rank_tools(tools, read_request("zzz"), model)) == [t.name for t in reversed(tools)]
    weather = rank_tools(tools, read_request("weather"), model)
    assert names(weather)[0] == "get_weather" and weather[0].model == float(tools.index(weather[0].tool))


def test_select_with_evidence_acts_first(tools):
    chosen = select_tools(tools, read_request("What's the weather in Paris?"), 3, "final_answer")
    assert chosen.evidence and [t.name for t in chosen.first] == ["get_weather"]
    lenient = select_tools(tools, read_request("What's the weather in Paris?"), 3, "final_answer", act_first=False)
    assert [t.name for t in lenient.first] == ["get_weather", "final_answer"]


def test_select_keeps_tools_within_half_of_the_best_score():
    a = Tool("send_email", "Send an email message to a contact.")
    b = Tool("find_contact", "Find a contact's email address.")
    c = Tool("play_music", "Play songs.")
    final = Tool("final_answer", "Answer.")
    chosen = select_tools([a, b, c, final], read_request("find Maria's email address, send her a message"), 3, "final_answer")
    assert {t.name for t in chosen.first} == {"send_email", "find_contact"}


@pytest.mark.parametrize("query, first", [
    ("Check the weather in Rome and add an umbrella to my shopping list", ["get_weather"]),
    ("Look up the time in Tokyo, then remind me to call", ["get_now"]),
    ("Add milk and eggs to my shopping list", ["add_to_shopping_list"]),  # the rest says where
    ("Turn the lights on in the kitchen", ["set_lights"]),  # one clause: the whole query
])
def test_several_clauses_act_on_the_first(query, first):
    pool = [Tool("get_weather", "Weather forecast for a city."), Tool("get_now", "The current time in a time zone."),
            Tool("add_to_shopping_list", "Add items to the shopping list."),
            Tool("schedule_reminder", "Remind the user of something later."),
            Tool("set_lights", "Turn the lights of a room on or off."), Tool("final_answer", "Answer.")]
    assert [t.name for t in select_tools(pool, read_request(query), 3, "final_answer").first] == first


def test_parameter_words_alone_do_not_force_an_action():
    weather = Tool("get_weather", "Weather forecast for a city.",
                   {"type": "object", "properties": {"days": {"type": "integer", "description": "Days ahead."}}})
    final = Tool("final_answer", "Answer.")
    chosen = select_tools([weather, final], read_request("How many days are there in a week?"), 3, "final_answer")
    assert chosen.evidence and [t.name for t in chosen.first] == ["get_weather", "final_answer"]


def test_first_clause_splits_at_and_or_then():
    assert first_clause(read_request("Read /etc/hostname and send it to Anna")) == "Read /etc/hostname"
    assert first_clause(read_request("Check the time in New York, then remind me at 5pm")) == "Check the time in New York"
    assert first_clause(read_request("What's the weather in Paris?")) is None
    assert first_clause(read_request("Android phones")) is None  # a word, not the conjunction


def test_select_without_evidence_lets_the_model_decide(tools):
    chosen = select_tools(tools, read_request("Who wrote Romeo and Juliet?"), 2, "final_answer")
    assert not chosen.evidence
    assert [t.name for t in chosen.first][-1] == "final_answer" and len(chosen.first) == 3
    assert select_tools([], read_request("q"), 3, "final_answer").first == []


def test_a_clear_model_favourite_acts_without_evidence():
    tools = [Tool("get_news", "News."), Tool("play_music", "Play songs."), Tool("final_answer", "Answer.")]
    relevance = ModelRelevance(lambda pairs: [-10.0, -9.0, -9.0 + MARGIN + (0.1 if "tunes" in pairs[0][1] else -0.2)])
    assert [t.name for t in select_tools(tools, read_request("some tunes"), 3, "final_answer", model=relevance).first] == ["play_music"]
    unsure = select_tools(tools, read_request("some songs?"), 3, "final_answer", model=relevance)  # BM25 has evidence: no model
    assert [t.name for t in unsure.first] == ["play_music"] and [r.model for r in unsure.ranking] == [None, None]
    close = select_tools(tools, read_request("anything"), 3, "final_answer", model=relevance)
    assert [t.name for t in close.first] == ["play_music", "get_news", "final_answer"]


def test_follow_up_offers_what_the_query_still_asks_for():
    lookup = Tool("lookup_contact", "Look up a contact's phone number and email address.")
    send = Tool("send_messages", "Send a message by email or SMS.")
    weather = Tool("get_weather", "Weather forecast for a city.")
    final = Tool("final_answer", "Answer.")
    pool = [lookup, send, weather, final]
    query = "Look up Maria's phone number and send her a message"
    assert follow_up(pool, read_request(query), [lookup], 3, "final_answer") == [send]  # the query names what is left to do
    assert follow_up(pool, read_request(query), [lookup], 3, "final_answer", act=False) == [send, final]
    assert follow_up([weather, final], read_request("What's the weather in Paris?"), [weather], 3, "final_answer") == [final]
    calculate, clock = Tool("calculate", "Evaluate an arithmetic expression."), Tool("get_now", "The current time.")
    query, done = "Calculate 37 times 41", [calculate]
    assert follow_up([calculate, clock, final], read_request(query), done, 3, "final_answer") == [clock]  # "times" reads as time
    said = ["37 times 41"]  # what the call's arguments wrote is done
    assert follow_up([calculate, clock, final], read_request(query), done, 3, "final_answer", said=said) == [final]
    search, note = Tool("search_web", "Search the internet and return the top results."), Tool("add_note", "Save a note.")
    query, said = "Convert 30 euros to GBP and save the result as a note", ["30 euros GBP 25.8"]
    convert = Tool("convert_currency", "Convert money to another currency.")
    assert follow_up([search, note, final], read_request(query), [convert], 3, "final_answer", said=said) == [note]
    assert follow_up([search, final], read_request(query), [convert, note], 3, "final_answer", said=said) == [final]  # "the result" is done


def test_model_relevance_is_query_likelihood_against_a_neutral_card():
    seen = []

    def scorer(pairs):
        seen.extend(pairs)
        return [-20.0 + (5.0 if "play music" in context else 0.0) for context, _ in pairs]

    relevance = ModelRelevance(scorer)
    assert relevance([Tool("get_news", "News."), Tool("play_music", "Play songs.")], "some jazz") == [0.0, 5.0]
    assert [continuation for _, continuation in seen] == [" some jazz"] * 3
    assert "Any request." in seen[0][0] and "Play songs." in seen[2][0]


AREA = Tool("calculate_triangle_area", "Calculate the area of a triangle given its base and height.",
            {"type": "object", "properties": {"base": {"type": "number"}, "height": {"type": "number"},
                                              "unit": {"type": "string", "description": "cm or inches"}}})
WEATHER = Tool("get_weather", "Weather for a city", {"type": "object", "properties": {"city": {"type": "string"}}})


@pytest.mark.parametrize("query, kind, called", [
    ("Find the area of a triangle with base 10 and height 5", "call", ["calculate_triangle_area"]),
    ("Weather in Oslo?", "call", ["get_weather"]),  # half of the query's own words
    ("What is the capital of France?", "text", []),
    ("Calculate the distance between two cities in kilometres", "either", None),  # one word of many
    ("How tall is the tower in inches?", "either", None),  # a parameter's words only
])
def test_the_query_decides_whether_a_reply_must_call(query, kind, called):
    decision = decide_reply([AREA, WEATHER], read_request(query))
    assert decision.kind == kind
    if called is not None:
        assert [t.name for t in decision.tools] == called


def test_a_call_asked_for_also_calls_the_tools_whose_own_names_the_query_says():
    median = Tool("statistics_median", "Returns the median of a data set", {"type": "object", "properties": {}})
    variance = Tool("statistics_variance", "Calculates the variance", {"type": "object", "properties": {}})
    mode = Tool("statistics_mode", "Determines the mode of a list of numbers", {"type": "object", "properties": {}})
    lookup = Tool("find_nursery", "Nurseries near a place", {"type": "object", "properties": {}})
    query = "Find the median and variance of the data set 3,4,5,2,8"
    decision = decide_reply([median, variance, mode, lookup], read_request(query))
    assert decision.kind == "call" and [t.name for t in decision.tools] == ["statistics_median", "statistics_variance"]
    assert decide_reply([variance, mode], read_request("What is the variance?")).kind == "call"  # half the query's words


def test_optional_arguments_the_query_says_nothing_about():
    restaurants = Tool("find_restaurants", "Find restaurants", {"type": "object", "properties": {
        "location": {"type": "string"}, "cuisine": {"type": "string"},
        "count": {"type": "integer", "description": "how many results"},
        "diet": {"type": "array", "items": {"enum": ["vegan", "halal"]}}}, "required": ["location"]})
    assert unasked(restaurants, read_request("Thai restaurants in Manhattan")) == ("cuisine", "count", "diet")
    assert unasked(restaurants, read_request("Five vegan places for Thai cuisine, show me 5 results")) == ()


def test_a_count_argument_is_asked_for_by_a_count_of_any_thing_but_a_length_of_time_or_a_day():
    shopping = Tool("add_list_item", "Add an item to a list", {"type": "object", "properties": {
        "item": {"type": "string"}, "quantity": {"type": "integer", "description": "How many."}}, "required": ["item"]})
    assert unasked(shopping, read_request("Add two cartons of oat milk to the list")) == ()
    assert unasked(shopping, read_request("Put 6 eggs on my list")) == ()
    assert unasked(shopping, read_request("Add oat milk to the list")) == ("quantity",)
    assert unasked(shopping, read_request("Add the dentist on 14 January to the list")) == ("quantity",)
    assert unasked(shopping, read_request("Add a 2 hours walk to the list")) == ("quantity",)
    counted = asked_of(shopping, read_request("在清单上加三瓶牛奶。"))  # "三瓶": three bottles
    assert counted is not None and counted.left == () and counted.sure == ("quantity",)
    for one in ("Add the iPhone 15 Pro to my list", "Add a 65 inch TV to the list", "Add 2 year AppleCare to the list",
                "Find 5 star hotels for the list"):
        assert unasked(shopping, read_request(one)) == ("quantity",), one  # no count of things


def test_an_optional_argument_the_request_names_misspelt_is_asked_for():
    displacement = Tool("displacement", "The displacement of an object", {"type": "object", "properties": {
        "initial_velocity": {"type": "number"}, "time": {"type": "number"},
        "acceleration": {"type": "number"}, "district": {"type": "string", "description": "The specified district"}},
        "required": ["initial_velocity", "time"]})
    asked = read_request("A car at an initial velocity of 10 and acceleeration of 9.8 within 5 seconds, as specific as can be")
    assert unasked(displacement, asked) == ("district",)  # "specific" is no misspelt "specified"
    assert unasked(displacement, read_request("A car at an initial velocity of 10 within 5 seconds")) == (
        "acceleration", "district")


def test_an_optional_string_is_asked_for_when_a_name_after_in_or_by_has_no_other_argument():
    concerts = Tool("find_concerts", "Find concerts", {"type": "object", "properties": {
        "artist": {"type": "string"}, "city": {"type": "string"}}, "required": ["artist"]})
    assert unasked(concerts, read_request("Concerts by Adele in Leeds")) == ()  # Leeds is no artist's: the city's
    assert unasked(concerts, read_request("Concerts by Adele")) == ("city",)
    assert unasked(concerts, read_request("Concerts by Adele, in my town")) == ("city",)  # no name after "in"
    assert unasked(concerts, read_request("Concerts in Leeds and in York")) == ("city",)  # two calls: a name each, as the artist takes
    assert unasked(concerts, read_request("Concerts by Adele in Leeds and in York")) == ()  # two calls, a city each
    venues = Tool("find_concerts", "Find concerts", {"type": "object", "properties": {
        "artist": {"type": "string"}, "city": {"type": "string"}, "venue": {"type": "string"}}, "required": ["artist"]})
    assert unasked(venues, read_request("Concerts by Adele in Leeds")) == ("city", "venue")  # which one: not read
    sitter = Tool("book_sitter", "Book a babysitter", {"type": "object", "properties": {
        "date": {"type": "string", "format": "date"}, "notes": {"type": "string"}}, "required": ["date"]})
    assert unasked(sitter, read_request("A babysitter on Saturday, May 8, 2027 from 7pm")) == ("notes",)  # no places


def test_an_optional_argument_whose_listed_value_the_query_names_is_asked_for():
    search = Tool("search_papers", "Search papers", {"type": "object", "properties": {
        "topic": {"type": "string"}, "scope": {"type": "string", "enum": ["all", "recent"]},
        "kinds": {"type": "array", "items": {"enum": ["peer_reviewed", "preprint"]}}}, "required": ["topic"]})
    assert unasked(search, read_request("Search all the papers on graphs")) == ("kinds",)  # "all" is a stop word to BM25
    assert unasked(search, read_request("Search papers on graphs, peer-reviewed only")) == ("scope",)
    assert unasked(search, read_request("Search papers on graphs")) == ("scope", "kinds")


def test_an_optional_argument_is_asked_for_by_a_word_of_one_of_its_listed_values():
    tickets = Tool("book_ticket", "Book a concert ticket, with add-ons like a backstage pass", {
        "type": "object", "properties": {
            "artist": {"type": "string"},
            "extras": {"type": "array", "items": {"enum": ["Backstage Pass", "Parking Pass"]}}},
        "required": ["artist"]})
    # "backstage" is one listed value's alone, though the description writes it too
    assert unasked(tickets, read_request("A ticket for Adele, with backstage access")) == ()
    assert unasked(tickets, read_request("A ticket for Adele, and I need a pass")) == ("extras",)  # both values'
    sights = Tool("find_sights", "Find sights", {"type": "object", "properties": {
        "city": {"type": "string"}, "kind": {"type": "string", "enum": ["Museum", "Tourist Sights"]}},
        "required": ["city"]})
    assert unasked(sights, read_request("Sights in Lyon")) == ("kind",)  # a word of the tool's name asks nothing


def test_a_unit_argument_takes_the_units_of_the_kind_its_description_names():
    circle = Tool("area_circle", "Area of a circle", {"type": "object", "properties": {
        "radius": {"type": "number"},
        "units": {"type": "string", "description": "The units of the radius (defaults to meters)."}},
        "required": ["radius"]})
    mixed = read_request("The area of a circle of radius 5.6 feet, and a wave from 0 to 3.14 radians")
    assert asked_of(circle, mixed) == Asked(left=(), on=(), measured=("units",), units=("feet",))
    speed = Tool("velocity", "Velocity", {"type": "object", "properties": {
        "distance": {"type": "number"}, "duration": {"type": "number"},
        "unit": {"type": "string", "description": "The unit to return the velocity in. The default is km/h."}},
        "required": ["distance", "duration"]})
    # a length and a time are not what km/h measures: left out
    assert unasked(speed, read_request("The velocity over 50 kilometers in 2 hours")) == ("unit",)
    route = Tool("road_distance", "Road distance between two cities", {"type": "object", "properties": {
        "start": {"type": "string"}, "end": {"type": "string"},
        "units": {"type": "string", "description": "The units of the result ('miles' or 'kilometers')."}},
        "required": ["start", "end"]})
    asked = asked_of(route, read_request("How far is Lyon from Geneva, in mile?"))
    assert asked is not None and asked.units == ("mile",)
    # the unit as the description writes it: a small model copies "mile", which the tool does not take
    assert as_asked(route.parameters, asked)["properties"]["units"]["enum"] == ["miles"]


def test_an_optional_argument_named_in_the_query_is_asked_for_even_when_the_tool_names_it_too():
    neuron = Tool("calculate_neuronal_activity", "Neuronal activity from an input rate, a weight and a decay rate",
                  {"type": "object", "properties": {"rate": {"type": "number"}, "weight": {"type": "number"},
                                                    "decay": {"type": "number", "description": "decay rate"}},
                   "required": ["rate"]})
    assert unasked(neuron, read_request("Neuronal activity for a rate of 200 and weight 0.5")) == ("decay",)
    assert unasked(neuron, read_request("Neuronal activity for a rate of 200")) == ("weight", "decay")


def test_an_optional_number_is_left_out_when_the_request_writes_no_number_for_it():
    chess = Tool("top_chess_players", "Top chess players of a place", {"type": "object", "properties": {
        "location": {"type": "string"}, "minimum_rating": {"type": "integer"},
        "number_of_players": {"type": "integer", "description": "How many players to return"}},
        "required": ["location", "minimum_rating"]})
    assert unasked(chess, read_request("The top chess players in New York with a rating above 2300")) == \
        ("number_of_players",)  # 2300 is the rating's: a small model would copy it into the number of players
    assert unasked(chess, read_request("The top 10 chess players in New York with a rating above 2300")) == ()
    assert unasked(chess, read_request("Chess players in Oslo rated 2000, number of players 5")) == ()
    samples = Tool("t_test", "Significance of two samples", {"type": "object", "properties": {
        "a": {"type": "array", "items": {"type": "number"}}, "b": {"type": "array", "items": {"type": "number"}},
        "alpha": {"type": "number", "description": "significance level"}}, "required": ["a", "b"]})
    assert unasked(samples, read_request("The significance level of 12, 24, 36 against 15, 30, 45")) == ("alpha",)
    assert unasked(samples, read_request("The significance of 12, 24, 36 against 15, 30, 45 at a level of 0.01")) == ()


def test_an_optional_unit_argument_is_asked_when_the_request_names_a_unit():
    circle = Tool("calculate_circumference", "Circumference of a circle", {"type": "object", "properties": {
        "radius": {"type": "number"}, "unit": {"type": "string", "description": "The unit of measure"},
        "precision": {"type": "integer"}}, "required": ["radius"]})
    asked = asked_of(circle, read_request("What is the circumference of a circle with a radius of 4 inches?"))
    assert asked is not None and asked.left == ("precision",)
    assert as_asked(circle.parameters, asked)["properties"]["unit"]["enum"] == ["inches"]
    assert asked_of(circle, read_request("The circumference of a 5cm circle, then a 10cm one")).units == ("cm",)
    assert asked_of(circle, read_request("And the circumference in feet?")).units == ("feet",)  # the unit asked
    assert unasked(circle, read_request("What is the circumference of a circle with a radius of 4?")) == \
        ("unit", "precision")
    speed = Tool("calculate_speed", "Speed of an object", {"type": "object", "properties": {
        "distance": {"type": "number"}, "time": {"type": "number"}, "to_unit": {"type": "string"}},
        "required": ["distance", "time"]})
    assert unasked(speed, read_request("The speed of a car that travels 50 kilometers in 2 hours")) == ("to_unit",)
    assert unasked(speed, read_request("The speed in km/h of a car that travels 450 meters in 20 seconds")) == ()
    french = asked_of(circle, read_request("Quel est le périmètre d'un cercle de 4 pouces de rayon ?"))
    assert french is not None and french.left == ("unit", "precision")  # read by meaning: no stretch means "unit"


def test_an_optional_argument_of_a_shape_the_request_writes_is_asked_for():
    weather = Tool("get_weather", "Weather forecast for a city", {"type": "object", "properties": {
        "city": {"type": "string"}, "date": {"type": "string", "description": "The date, in the format YYYY-MM-DD"},
        "email": {"type": "string", "description": "Where to send the forecast"}}, "required": ["city"]})
    assert unasked(weather, read_request("Could you tell me the weather in Fremont on March 1st 2023?")) == ("email",)
    assert unasked(weather, read_request("The weather in Fremont, sent to ana@example.com")) == ("date",)
    assert unasked(weather, read_request("The weather in Fremont next week")) == ("date", "email")


def test_a_list_of_numbers_as_long_as_the_arguments_named_alike_is_one_calls():
    potential = Tool("electrostatic_potential", "The potential between two charged bodies", {
        "type": "object", "properties": {"charge1": {"type": "number"}, "charge2": {"type": "number"},
                                         "distance": {"type": "number"}}})
    assert asked_calls([potential], read_request("Bodies charged 1e-9 and 2e-9 at a distance of 0.05 m"), 4) == 1
    assert asked_calls([potential], read_request("Bodies charged 1, 2 and 3 at a distance of 0.05 m"), 4) == 3
    area = Tool("circle_area", "The area of a circle", {"type": "object", "properties": {
        "radius": {"type": "number"}, "decimals": {"type": "integer"}}})
    assert asked_calls([area], read_request("Circles of radius 2 and 3, to 1 decimal"), 4) == 2


def test_sentences_about_one_call_and_the_digits_of_dates_times_formulas_and_names_ask_no_more_calls():
    convert = Tool("convert_currency", "Convert an amount of money from one currency to another", {
        "type": "object", "properties": {"amount": {"type": "number"}, "to": {"type": "string"}}, "required": ["amount"]})
    rates = Tool("exchange_rate", "The exchange rate between two currencies", {
        "type": "object", "properties": {"base": {"type": "string"}}, "required": ["base"]})
    assert asked_calls([convert, rates], read_request("I have 100 euro. How much is it in USD?"), 4) == 1
    turns = read_request("First, I have 5000 yen to change into dollars. After that, what is the yen worth?")
    assert asked_calls([convert, rates], turns, 4) == 2  # a sentence that starts another turn
    bus = Tool("find_bus", "Find a bus between two cities", {"type": "object", "properties": {
        "from_city": {"type": "string"}, "date": {"type": "string"}, "passengers": {"type": "integer"}}})
    for query in ["A bus from Boston to New York for 2 on April 25, 2023", "A bus from Boston for 2 on 2023-04-20",
                  "A bus from Boston for 2 people, leaving on 03/07/2023 at 14:00", "A bus for 2 on the 7th of March at 7 PM"]:
        assert asked_calls([bus], read_request(query), 4) == 1, query
    assert asked_calls([bus], read_request("Buses from Boston for 2, 3 and 4 people"), 4) == 3
    derivative = Tool("derivative", "The derivative of a function at a value", {"type": "object", "properties": {
        "function": {"type": "string"}, "x": {"type": "number"}}})
    assert asked_calls([derivative], read_request("The derivative of 3x^2 + 2x - 1 at x = 1"), 4) == 1  # a formula's
    assert asked_calls([derivative], read_request("The derivative of 2x at 1, 2 and 3"), 4) == 3
    game = Tool("find_game", "Find a game", {"type": "object", "properties": {"rating": {"type": "number"}}})
    assert asked_calls([game], read_request("A game rated above 4.5 that runs on Windows 10"), 4) == 1  # a name's
    ride = Tool("ride", "Find a ride", {"type": "object", "properties": {
        "start": {"type": "string"}, "type": {"type": "string"}, "wait_minutes": {"type": "integer"}}})
    for query in ["A Comfort ride from 2020 Addison Street, Berkeley, and I can wait up to 10 minutes",
                  "A ride to 123 Main St, Anytown, within 5 minutes"]:
        assert asked_calls([ride], read_request(query), 4) == 1, query  # a street's number
    assert asked_calls([ride], read_request("A ride within 5 Minutes, another within 10 Minutes"), 4) == 2  # no name's


@pytest.mark.parametrize("query, calls", [
    ("What is the factorial of 5, the factorial of 7, and the factorial of 9?", 3),
    ("What is the factorial of 5?", 1),
    ("The factorials of 1, 2, 3, 4, 5 and 6", 4),  # at most 4
    ("The factorial of a big number", 1),
])
def test_the_calls_a_query_asks_for_from_its_numbers(query, calls):
    factorial = Tool("math_factorial", "The factorial of a number",
                     {"type": "object", "properties": {"number": {"type": "integer"}}, "required": ["number"]})
    gcd = Tool("math_gcd", "The greatest common divisor of two numbers", {"type": "object", "properties": {
        "a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]})
    assert asked_calls([factorial], read_request(query), 4) == calls
    assert asked_calls([gcd], read_request("The GCD of 40 and 50"), 4) == 1 and asked_calls([gcd], read_request("GCD of 3 and 4, 5 and 12"), 4) == 2
    assert asked_calls([factorial, gcd], read_request("The factorial of 5 and the GCD of 4 and 6"), 4) == 2
    assert asked_calls([factorial, gcd], read_request("The factorial of 5. Also the GCD of 4 and 6."), 4) == 2
    assert asked_calls([], read_request("The factorial of 5. Also the GCD of 4 and 6."), 4) == 1


def _tool(name: str, **props: object) -> Tool:
    return Tool(name, name.replace("_", " "), {"type": "object", "properties": props, "required": list(props)})


def test_a_count_written_in_words_before_what_it_counts_is_one_call_each():
    heat = _tool("heat_capacity", temp={"type": "integer"}, volume={"type": "number"})
    query = ("A volume of 2.5 m^3 at 300 Kelvin, at a temperature of 350 Kelvin, or at a volume of 1.5 m^3. "
             "Can you provide the heat capacity for these three different conditions?")
    assert asked_calls([heat], read_request(query), 4) == 3  # the numbers alone ask for two
    assert asked_calls([heat], read_request(query.replace("these three different", "the")), 4) == 2
    area = _tool("triangle_area", base={"type": "number"}, height={"type": "number"})
    assert asked_calls([area], read_request("Find the area of each of the two triangles"), 4) == 2
    distance = _tool("distance", point1={"type": "string"}, point2={"type": "string"})
    assert asked_calls([distance], read_request("How far apart are these two points?"), 4) == 1  # named alike
    route = _tool("route", start={"type": "string"}, end={"type": "string"})
    assert asked_calls([route], read_request("The fastest route between these two cities"), 4) == 1
    assert asked_calls([route], read_request("Finde die Route für diese zwei Städte"), 4) == 1  # words it cannot read


def test_two_enumerations_that_fill_different_arguments_ask_for_every_pair():
    record = _tool("team_record", team={"type": "string"}, season={"type": "integer"})
    assert asked_calls([record], read_request("The record of the Celtics and the Knicks in 2019 and 2021"), 8) == 4
    assert asked_calls([record], read_request("The record of the Celtics and the Knicks in 2019 and 2021 "
                                               "respectively"), 8) == 2
    assert asked_calls([record], read_request("The record of the Celtics and the Knicks in 2019"), 8) == 2
    assert asked_items([record], read_request("The record of the Celtics and the Knicks in 2019 and 2021"), 4) == (
        ("Celtics", 2019), ("Celtics", 2021), ("Knicks", 2019), ("Knicks", 2021))
    integral = _tool("integral", f={"type": "string"}, low={"type": "number"}, high={"type": "number"})
    assert asked_calls([integral], read_request("Integrate 'x^2' and 'x^3' from 2 to 5"), 8) == 2  # one call's pair
    fares = _tool("fares", origin={"type": "string"}, destination={"type": "string"})
    assert asked_calls([fares], read_request("Fares from Boston and Denver to Miami and Austin"), 8) == 4


def test_a_turn_that_asks_again_with_a_name_of_its_own_is_one_call_more():
    facts = _tool("history_facts", event={"type": "string"})
    assert asked_calls([facts], read_request("What caused the Boston Tea Party? Also, what followed the "
                                              "Stamp Act?"), 4) == 2
    book = _tool("book_table", restaurant={"type": "string"}, people={"type": "integer"})
    assert asked_calls([book], read_request("Book a table at Nopa for four. Also, book one at Zuni Cafe."), 4) == 2
    item = _tool("create_page", title={"type": "string"}, slug={"type": "string"})
    assert asked_calls([item], read_request("Create a page titled 'Spring Sale'. Also, the slug should be "
                                             "'Spring'."), 4) == 1  # more of the same call
    assert asked_calls([item], read_request("Create a page titled 'Spring Sale'. Also, I want it to say "
                                             "'Spring'."), 4) == 1


def test_a_written_list_longer_than_a_call_takes_is_one_call_each():
    value = _tool("present_value", payment={"type": "number"}, rate={"type": "number"}, years={"type": "integer"})
    assert asked_calls([value], read_request("The present value of $1000 a year at 5% for 10, 20 and 30 years"), 4) == 3
    assert asked_calls([value], read_request("The present value of $1000 a year at 5% for 10 years"), 4) == 1
    assert asked_calls([value], read_request("The present value of $1000 a year at 5% for 10 years and 20 years"),
                       4) == 2  # the same unit after each number: a list too
    assert asked_calls([value], read_request("The present value of $1000 a year at 5% for 10 years and 20 "
                                             "percent"), 4) == 1


def test_lists_of_numbers_are_the_values_of_a_tool_that_takes_arrays():
    numbers = {"type": "array", "items": {"type": "number"}}
    ttest = _tool("t_test", control=numbers, treated=numbers, alpha={"type": "number"})
    assert asked_calls([ttest], read_request("Control [10, 15, 12, 14] and treated [18, 16, 17, 20] at alpha 0.05"), 4) == 1
    histogram = _tool("histogram", data=numbers, bins={"type": "integer"})
    assert asked_calls([histogram], read_request("A histogram of 1, 2, 3 for May, one of 4, 5, 6 for June, 5 bins"), 4) == 2


def test_an_enumeration_of_more_names_than_a_call_takes_is_one_call_each():
    price = _tool("stock_price", company={"type": "string"}, days={"type": "integer"})
    assert asked_calls([price], read_request("Closing prices of Apple Inc., Google LLC. and Microsoft Corporation"), 4) == 3
    assert asked_calls([price], read_request("Prices of 'Friends' or 'The Office'"), 4) == 2
    shop = _tool("instrument_price", instrument={"type": "string"}, city={"type": "string"})
    assert asked_calls([shop], read_request("A Yamaha piano's price in Berlin and Madrid's music stores"), 4) == 2  # no quote
    news = _tool("news", topic={"type": "string"}, region={"type": "string"})
    assert asked_calls([news], read_request("Headlines on 'Space' and 'Health', each for 'Canada'"), 4) == 2
    assert asked_calls([news], read_request("Headlines on 'Space' and 'Health' for 'Canada'"), 4) == 1  # no "each"
    match = _tool("match_result", team1={"type": "string"}, team2={"type": "string"})
    assert asked_calls([match], read_request("Who won between the Chicago Bulls and the Los Angeles Lakers?"), 4) == 1
    teams = _tool("roster", teams={"type": "array", "items": {"type": "string"}})
    assert asked_calls([teams], read_request("Rosters of Lakers, Bulls and Celtics"), 4) == 1
    fields = {"type": "array", "items": {"type": "string", "enum": ["price", "volume", "Personal Info", "Job History"]}}
    data = _tool("stock_data", symbol={"type": "string"}, fields=fields)
    assert asked_calls([data], read_request("Prices and volumes of Apple Inc., Google LLC. and Microsoft Corporation"), 4) == 3
    assert asked_calls([data], read_request("Personal Info and Job History of ABC Ltd."), 4) == 1  # values it lists
    odd = _tool("odd", city={"type": "string"}, tags={"type": "array", "items": [{"enum": ["x"]}]}, flag=True)
    assert asked_calls([odd], read_request("Weather in Paris, Rome and Oslo"), 4) == 3  # odd schemas: read, no crash
    brand = _tool("find_flute", brand={"type": "string"})
    assert asked_calls([brand], read_request("I prefer the brand 'Yamaha' and I want it silver"), 4) == 1  # "I": no name


def test_names_written_before_the_same_noun_or_in_pairs_after_between_are_one_call_each():
    recipes = _tool("recipe_search", dish={"type": "string"}, diet={"type": "string"})
    assert asked_calls([recipes], read_request("Search for a Chicken Noodle Soup recipe and a Vegan Salad recipe."), 4) == 2
    items = asked_items([recipes], read_request("Find a Chicken Noodle Soup recipe, a Lentil Dal recipe or a Vegan Salad recipe"),
                        3)
    assert items == (("Chicken Noodle Soup",), ("Lentil Dal",), ("Vegan Salad",))
    charts = _tool("most_played", genre={"type": "string"}, region={"type": "string"})
    assert asked_calls([charts], read_request("The most played Pop song and also the most played Rock song in Australia"),
                       4) == 2
    assert asked_calls([charts], read_request("The most played Pop song and the most played Pop album"), 4) == 1
    zones = _tool("convert_time", time={"type": "string"}, from_zone={"type": "string"}, to_zone={"type": "string"})
    assert asked_calls([zones], read_request("Convert 3pm from New York time zone to London time zone"), 4) == 1  # no list
    movies = _tool("find_movie", cast={"type": "string"}, genre={"type": "string"})
    crew = "A movie acted by Ronald Young and directed by Herbert Ross"  # no list between the names
    assert asked_calls([movies], read_request(crew), 4) == 1
    trip = _tool("book_trip", origin={"type": "string"}, hotel_city={"type": "string"})
    assert asked_calls([trip], read_request("A flight from Paris that leaves early, and a hotel in Rome that has a pool"),
                       4) == 1  # "that" after each name: a stop word, no noun of a kind
    distance = _tool("calc_distance", start={"type": "string"}, end={"type": "string"})
    pairs = "The distance between New York and Washington DC, and between Los Angeles and San Francisco"
    assert asked_calls([distance], read_request(pairs), 4) == 2
    assert asked_calls([distance], read_request("The distance between New York and Washington DC"), 4) == 1


def test_things_enumerated_in_small_letters_after_a_preposition_are_one_call_each():
    tea = _tool("tea_price", tea={"type": "string"}, weight={"type": "string"})
    kinds = read_request("How much is a pound of sencha, oolong, rooibos and chamomile?")
    assert asked_calls([tea], kinds, 6) == 4
    assert asked_items([tea], kinds, 4) == (("sencha",), ("oolong",), ("rooibos",), ("chamomile",))
    bikes = _tool("bike_rental", kind={"type": "string"}, city={"type": "string"})
    assert asked_calls([bikes], read_request("Rent prices in Utrecht for a city bike, a cargo bike, or an e-bike"), 4) == 3
    assert asked_calls([tea], read_request("A tea that is strong, sweet and cheap"), 4) == 1  # no preposition before
    assert asked_calls([tea], read_request("A tea for mornings, is green, and costs little"), 4) == 1  # clauses
    assert asked_calls([tea], read_request("A pound of sencha and oolong"), 4) == 1  # two: one call may take both
    pot = _tool("teapot", teas={"type": "array", "items": {"type": "string"}})
    assert asked_calls([pot], read_request("A pot of sencha, oolong and rooibos"), 4) == 1  # one array holds them


def test_a_place_with_its_region_is_one_name_of_an_enumeration():
    hotels = _tool("find_hotels", location={"type": "string"}, stars={"type": "integer"})
    assert asked_calls([hotels], read_request("Hotels in Paris, France and Austin, TX with 4 stars"), 4) == 2
    assert asked_calls([hotels], read_request("Hotels in Boston, Denver and Chicago"), 4) == 3
    assert asked_calls([hotels], read_request("Hotels in Boston, New York and Chicago"), 4) == 3  # a city too
    assert asked_calls([hotels], read_request("Hotels in Seattle, WA, and then do the same for Austin, TX and Miami, FL"),
                       4) == 3  # one, then one for each place of the list the same asks for


def test_the_clauses_of_a_request_for_several_tools_each_ask_for_one():
    factorial = _tool("math_factorial", number={"type": "integer"})
    gcd = _tool("math_gcd", a={"type": "integer"}, b={"type": "integer"})
    lcm = _tool("math_lcm", a={"type": "integer"}, b={"type": "integer"})
    assert asked_calls([gcd, lcm], read_request("The GCD of 96 and 128, and the LCM of 15 and 25"), 4) == 2
    assert asked_calls([factorial, gcd], read_request("The factorial of 5 and 7, and the GCD of 12 and 18"), 4) == 3
    assert asked_calls([factorial, gcd, lcm], read_request("The GCD of 12 and 18"), 4) == 1  # the others not asked
    assert asked_calls([gcd, lcm], read_request("The LCM of 3 and 4 and then the LCM of 5 and 6"), 4) == 2
    request = Tool("request_payment", "Request a payment from a contact", {"type": "object", "properties": {
        "receiver": {"type": "string"}, "amount": {"type": "number"}, "private": {"type": "boolean"}}})
    make = Tool("make_payment", "Make a payment to a contact", {"type": "object", "properties": {
        "receiver": {"type": "string"}, "amount": {"type": "number"}, "private": {"type": "boolean"}}})
    query = read_request("Can you initiate a payment request to Mary for $200 and make sure she sees it today?")
    assert asked_calls([request, make], query, 4) == 1  # "make" is what any tool does, not a call of make_payment
    integral = Tool("integral", "Calculate the definite integral of a function over an interval", {
        "type": "object", "properties": {"function": {"type": "string"}, "a": {"type": "number"}, "b": {"type": "number"}}})
    derivative = Tool("derivative", "Find the derivative of a function at a point", {
        "type": "object", "properties": {"function": {"type": "string"}, "x": {"type": "number"}}})
    area = read_request("Calculate the area under the curve of x^2 from x=1 to x=5. And find the derivative at x=3.")
    assert asked_calls([integral, derivative], area, 4) == 2  # a first clause may ask by such words alone


def test_each_turn_that_asks_for_a_tool_again_is_one_call_more():
    clock = Tool("world_clock", "Get the current local time in a city", {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
    quote = Tool("stock_quote", "Get the latest share price of a listed company", {
        "type": "object", "properties": {"company": {"type": "string"}}, "required": ["company"]})
    query = ("What is the local time in Lisbon right now? After that, get me the latest share price of Nokia. "
             "Lastly, I also need the latest share price of Siemens.")
    assert asked_order([clock, quote], read_request(query), 4) == ("world_clock", "stock_quote", "stock_quote")
    (_, _), (nokia, not_nokia), (siemens, not_siemens) = asked_parts([clock, quote], read_request(query), 4)
    assert "Nokia" in nokia and "Siemens" in not_nokia and "Siemens" in siemens and "Nokia" in not_siemens
    joined = query.replace("Lastly, I also", "And lastly, I")  # "and" before the turn's word
    (_, _), (nokia, _), (siemens, _) = asked_parts([clock, quote], read_request(joined), 4)
    assert "Nokia" in nokia and "Siemens" not in nokia and "Siemens" in siemens and "Nokia" not in siemens
    # a last turn that asks for every tool sums the request up: no call more
    summed = "What is the local time in Lisbon? Then the share price of Nokia. Finally, give me the local time and the share price."
    assert asked_order([clock, quote], read_request(summed), 4) == ("world_clock", "stock_quote")
    # a turn that shares one word with a tool adds to its call ("Also, the price ...")
    details = "What is the latest share price of Nokia? Also, in euro please, and the local time in Lisbon."
    assert asked_calls([clock, quote], read_request(details), 4) == 2


def test_a_clause_that_points_back_at_several_things_asks_as_many_calls():
    life = _tool("life_expectancy", year={"type": "integer"})
    gdp = _tool("gross_domestic_product", year={"type": "integer"})
    query = "The life expectancy in the USA in 1900 and 1950? Also, the gross domestic product in these years?"
    assert asked_order([life, gdp], read_request(query), 6) == ("life_expectancy",) * 2 + ("gross_domestic_product",) * 2
    once = "The life expectancy in the USA in 1900 and 1950? Also, the gross domestic product today?"
    assert asked_order([life, gdp], read_request(once), 6) == ("life_expectancy",) * 2 + ("gross_domestic_product",)


def test_the_tools_of_several_calls_come_in_the_order_the_query_asks_for_them():
    capital = _tool("country_capital", country={"type": "string"})
    population = _tool("country_population", country={"type": "string"})
    largest = _tool("country_largest_city", country={"type": "string"})
    tools = [largest, population, capital]
    query = "What is the capital of Australia, what is the population of Canada, and the largest city in Brazil?"
    assert asked_calls(tools, read_request(query), 4) == 3
    assert asked_order(tools, read_request(query), 3) == ("country_capital", "country_population", "country_largest_city")
    assert asked_order(tools, read_request(query), 2) == ("country_capital", "country_population")
    assert asked_order([capital], read_request(query), 3) == ()  # one tool: its calls need no order


def test_each_tool_the_request_asks_for_is_one_of_the_calls_that_fit():
    def tool(name: str, about: str, **props: object) -> Tool:
        return Tool(name, about, {"type": "object", "properties": props, "required": list(props)})
    text, number = {"type": "string"}, {"type": "number"}
    hotel = tool("book_hotel", "Book a room at a hotel for some days", hotel_name=text, location=text, room_type=text,
                 start_date=text, stay_duration={"type": "integer"}, view=text)
    rate = tool("latest_exchange_rate", "The latest exchange rate between two currencies", source_currency=text,
                target_currency=text, amount=number)
    shop = tool("safeway_order", "Order items from a Safeway store", location=text,
                items={"type": "array", "items": text}, quantity={"type": "array", "items": {"type": "integer"}})
    light = tool("light_travel_time", "How long light takes to travel a distance", distance_in_light_years=number)
    story = read_request(
        "Suppose you are planning a holiday in Rome, Italy. You would like to stay at the 'Hotel Artemide Rome' in a "
        "double room for 7 days starting from 05-03-2024, with a view of the garden. How would you book this hotel? "
        "Once booked, you want to know what 500 Swiss francs are worth in Euros. Can you find out the latest exchange "
        "rate? On the way, you want to stop at a Safeway store in Mountain View, CA to buy 4 oranges, 2 cartons of "
        "milk and 1 bag of rice. How would you place this order? Lastly, you wonder how long light takes to travel "
        "from Earth to Sirius, about 8.6 light years away.")
    tools = [hotel, rate, shop, light]
    # the hotel's numbers read as five calls of it; where four calls fit, each tool asked for is one
    assert asked_order(tools, story, 8)[:5] == ("book_hotel",) * 5
    assert sorted(asked_order(tools, story, 4)) == sorted(t.name for t in tools)
    assert asked_order([hotel, rate], story, 3) == ("book_hotel", "book_hotel", "latest_exchange_rate")


def test_each_call_of_several_tools_is_asked_by_its_own_clauses():
    capital = _tool("country_capital", country={"type": "string"})
    population = _tool("country_population", country={"type": "string"})
    query = "What is the capital of Australia, and the population of Canada?"
    parts = asked_parts([population, capital], read_request(query), 2)
    assert [(own.strip(" ,"), others.strip(" ,")) for own, others in parts] == [
        ("What is the capital of Australia", "the population of Canada?"),
        ("the population of Canada?", "What is the capital of Australia")]
    same = asked_parts([population, capital], read_request("The capital of Australia and its population"), 2)
    assert same[1] == ("The capital of Australia and its population", "")  # points back: the whole request
    assert asked_parts([capital], read_request(query), 2) == ()
    transfer = _tool("bank_transfer", amount={"type": "number"}, to_account={"type": "string"})
    interest = _tool("interest", principal={"type": "number"}, rate={"type": "number"}, years={"type": "integer"})
    money = "Transfer $5000 to my savings account. And calculate the interest after 5 years at a rate of 3%."
    (sent, not_sent), (earned, not_earned) = asked_parts([transfer, interest], read_request(money), 2)
    assert "5000" in sent and "5 years" in not_sent  # the transfer writes its own amount
    assert "5 years" in earned and not_earned == ""  # two numbers for three: it speaks of the transfer's too
    assert asked_parts([population, capital], read_request("Bitte die capital von Australia. Dann die population von Canada"),
                       2) == ()  # not English: its clauses are not read


def test_a_query_that_counts_things_off_asks_for_each():
    circumference = _tool("circumference", radius={"type": "number"}, unit={"type": "string"})
    four = ("The total circumference of four circles: the first has a radius of 5cm, the second 10cm, "
            "the third 15cm and the fourth 20cm")
    assert asked_calls([circumference], read_request(four), 6) == 4
    assert asked_calls([circumference], read_request("The circumference of the first circle, of radius 5"), 6) == 1


def test_names_joined_by_and_fill_one_argument_unless_the_tool_takes_several_alike():
    stock = _tool("check_instrument_availability", instrument={"type": "string"}, city={"type": "string"})
    assert asked_calls([stock], read_request("Price of a Yamaha P125 piano in Berlin and Madrid"), 4) == 2
    distance = _tool("calc_distance", start={"type": "string"}, end={"type": "string"})
    assert asked_calls([distance], read_request("The distance between two cities, New York and Los Angeles"), 4) == 1
    news = _tool("publish", title={"type": "string"}, content={"type": "string"}, meta={"type": "string"})
    assert asked_calls([news], read_request("Publish 'Testing' with 'an analysis' as content and 'Productivity' as meta"), 4) == 1


def test_asking_for_a_tool_again_is_one_call_more():
    emf = _tool("induced_emf", field={"type": "number"}, area={"type": "number"}, seconds={"type": "number"})
    again = "The EMF for a field of 5 T, an area of 2 m² and 4 seconds, then repeat with a change of 10 seconds."
    assert asked_calls([emf], read_request(again), 4) == 2
    shop = _tool("find_store", location={"type": "string"}, criteria={"type": "string"})
    assert asked_calls([shop], read_request("A supermarket in New York open 24 hours and another one in San Diego that delivers"),
                       4) == 2
    events = _tool("events", genre={"type": "string"}, city={"type": "string"})
    assert asked_calls([events], read_request("Jazz events in Los Angeles, then the same for rock in Chicago, and finally "
                                 "classical events in Boston"), 4) == 3  # "then the same" asks once
    assert asked_calls([events], read_request("Jazz events in Los Angeles and also the venues"), 4) == 1


def test_a_number_written_in_one_calls_sentence_is_that_calls_own():
    revenue = _tool("shop_revenue", units={"type": "integer"}, price={"type": "number"}, fee={"type": "number"})
    shops = read_request("The first shop sold 120 units at $4 each and paid a fee of $30. "
                         "The second shop sold 80 units at $5 each.")
    assert asked_calls([revenue], shops, 4) == 2
    first, second = asked_items([revenue], shops, 2)
    assert 30 in first and 30 not in second  # the second shop paid no fee: the first's is not its own
    again = read_request("The first shop sold 120 units at $4 each and paid a fee of $30. The second shop sold 80 units.")
    assert asked_items([revenue], again, 2) == ((120,), (80,))  # the second writes only what changes: 30 is both's


def test_each_call_asks_for_its_own_item_of_an_enumeration_in_turn():
    weather = _tool("get_weather", city={"type": "string"}, days={"type": "integer"})
    three = read_request("The weather in Paris, London and Rome")
    assert asked_items([weather], three, 3) == (("Paris",), ("London",), ("Rome",))
    both = read_request("Weather for 'Oslo' and 'Bergen' for 3 and 5 days")
    assert asked_items([weather], both, 2) == (("Oslo", 3), ("Bergen", 5))
    assert asked_items([weather], three, 2) == ()  # an enumeration of another count asks nothing of each call
    assert asked_items([weather], read_request("The weather in Paris"), 1) == ()
    french = read_request("Quelle est la qualité de l'air à Lyon, Marseille et Nice ?")
    assert asked_calls([weather], french, 4) == 3 and asked_items([weather], french, 3)[2] == ("Nice",)
    assert asked_items([weather, _tool("get_time", city={"type": "string"})], three, 3) == ()  # one tool only
    history = _tool("history", values={"type": "array", "items": {"type": "number"}}, label={"type": "string"})
    assert asked_items([history], read_request("The history of 3, 4 and 5"), 3) == ()  # the list is one array
    rates = _tool("get_exchange_rate", base={"type": "string"}, target={"type": "string"})
    assert asked_items([rates], read_request("Rates of USD to AUD and USD to CAD"), 2) == (("AUD",), ())  # USD twice


def test_each_value_a_listing_argument_takes_that_the_request_writes_is_one_call():
    tides = _tool("tide_table", port={"type": "string"},
                  span={"type": "string", "enum": ["one_week", "month", "three_months"]})
    spans = read_request("Tide tables for Brest over the next one week, the next month and the next three months")
    assert asked_calls([tides], spans, 4) == 3
    # each call's own value: the grammar narrows each call's span to the one it is given
    assert asked_items([tides], spans, 3) == (("one week",), ("month",), ("three months",))
    assert asked_calls([tides], read_request("Tide tables for Brest for the next month"), 4) == 1
    homes = _tool("find_home", city={"type": "string"}, intent={"type": "string", "enum": ["rent", "buy"]})
    assert asked_calls([homes], read_request("A flat in Leeds to rent, not buy"), 4) == 1  # turned down
    rooms = _tool("book_room", hotel={"type": "string"}, kind={"type": "string", "enum": ["Suite", "Junior Suite"]})
    assert asked_calls([rooms], read_request("A Junior Suite at the Ritz"), 4) == 1  # "Suite" inside a longer value
    convert = _tool("convert", value={"type": "number"}, source={"type": "string", "enum": ["km", "mile"]},
                    target={"type": "string", "enum": ["km", "mile"]})
    assert asked_calls([convert], read_request("Convert 5 km to mile"), 4) == 1  # two arguments list them


def test_each_value_a_description_lists_that_the_request_enumerates_is_one_call():
    kinds = {"type": "string", "description": "The kind of sensor, e.g. humidity, pressure, wind."}
    station = _tool("station_reading", station={"type": "string"}, kind=kinds)
    both = read_request("The latest humidity and pressure readings at Tromsø")
    assert asked_calls([station], both, 4) == 2
    assert asked_items([station], both, 2) == (("humidity",), ("pressure",))
    place = {"type": "string", "description": "The city and state, e.g. Boston, MA"}
    parks = _tool("park_finder", location=place)
    assert asked_calls([parks], read_request("A park with camping near Boston, MA"), 4) == 1  # one value, not two
    assert asked_calls([station], read_request("Was it humidity that rose at Tromsø, or the wind?"), 4) == 1  # no list


def test_an_array_of_listed_values_holds_each_one_the_request_enumerates():
    fields = {"type": "array", "items": {"type": "string", "enum": ["price", "volume", "dividend", "rating"]}}
    shares = _tool("share_data", company={"type": "string"}, fields=fields)
    asked = asked_of(shares, read_request("The price and volume of Nokia shares"))
    assert asked is not None and asked.listed == (("fields", 2),)
    shown = as_asked(shares.parameters, asked)["properties"]["fields"]
    assert shown["minItems"] == 2 and shown["uniqueItems"] is True  # both, each once: not the first alone
    assert asked_of(shares, read_request("The price of Nokia shares today, with volume if you have it")).listed == ()
    assert asked_of(shares, read_request("Nokia's price and Sony's volume")).listed == ()  # one of each call
    capped = _tool("share_data", company={"type": "string"}, fields={**fields, "maxItems": 1})
    one = asked_of(capped, read_request("The price and volume of Nokia shares"))
    assert "minItems" not in as_asked(capped.parameters, one)["properties"]["fields"]  # never past its maxItems


def test_each_part_written_for_one_call_gives_that_call_the_names_it_writes():
    crimes = _tool("law_crimes_search", crime={"type": "string"}, location={"type": "string"}, year={"type": "integer"})
    again = read_request("Show me all individuals convicted for money laundering from San Francisco in 2019 and ones "
                         "convicted for the same in Texas in 2018")
    assert asked_items([crimes], again, 2) == ((2019, "San Francisco"), (2018, "Texas"))
    another = read_request("Crimes in New York City in the last year and another one in San Diego")
    assert asked_items([crimes], another, 2) == (("New York City",), ("San Diego",))
    assert asked_items([crimes], read_request("Convictions for fraud in Ohio, then repeat for the whole country"), 2) == ()


def test_each_part_that_names_a_thing_anew_gives_its_call_its_numbers():
    odds = _tool("binomial_probability", trials={"type": "integer"}, successes={"type": "integer"},
                 p={"type": "number"})
    shots = read_request("A player has a 60% chance of making a shot. In a series of 10 shots, what is the probability "
                         "of exactly 7? Also, in a series of 15 shots, the probability of exactly 10? Finally, in a "
                         "series of 20 shots, the probability of exactly 15?")
    # the first part sets the scene for every call; 10 and 15 are each written as two calls' own
    assert asked_items([odds], shots, 3) == ((10, 7), (15, 10), (20, 15))
    twice = read_request("In a series of 10 shots, the probability of exactly 7? Also, in a series of 15 shots, the "
                         "probability of exactly 10? And with a series of 20 shots?")
    assert asked_items([odds], twice, 2) == ()  # a part outside either run of two names "series" too
    drops = _tool("final_speed", h={"type": "number"}, v={"type": "number"})
    runs = read_request("Drop it from a height of 10 with a speed of 3. Then from a height of 20 with a weight of 5. "
                        "Then with a weight of 7.")
    assert asked_items([drops], runs, 2) == ()  # heights in parts 1-2, weights in parts 2-3: neither run is chosen
    fields = _tool("crop_yield", rain={"type": "number"}, sun={"type": "number"})
    alike = read_request("Estimate the yield of 2 fields as follows: The first field gets 30 mm of rain, 5 hours of "
                         "sun. The second field gets 45 mm of rain, 8 hours of sun.")
    # after the colon, each part writes as many numbers: all of them its call's, and the scene's 2 none's
    assert asked_items([fields], alike, 2) == ((30, 5), (45, 8))
    again = read_request("A field with rain of 30 mm and sun of 5 hours, then repeat with rain of 45 mm.")
    assert asked_items([fields], again, 2) == ((30,), (45,))  # fewer numbers in the second part: the rain only


def test_each_call_takes_the_numbers_its_arguments_name():
    circles = _tool("calculate_circumference", radius={"type": "number"}, unit={"type": "string"})
    four = read_request("The first circle has a radius of 5cm, the second a radius of 10cm, the third a radius of "
                        "15cm and the fourth a radius of 20cm.")
    assert asked_items([circles], four, 4) == ((5,), (10,), (15,), (20,))
    growth = _tool("estimate", population={"type": "integer"}, rate={"type": "number"}, years={"type": "integer"})
    rates = read_request("A population of 500 in 10 years at a rate of 2%, then at a rate of 1.5%")
    assert asked_items([growth], rates, 2) == ((2,), (1.5,))  # the population and the years are every call's
    assert asked_items([growth], rates, 3) == ()  # two rates name two calls, not three
    again = read_request("A rate of 2% for a population of 500, and a rate of 2% for 800")
    assert asked_items([growth], again, 2) == ()  # one rate named twice asks nothing of each call
    force = _tool("calculate_em_force", b_field={"type": "number"}, area={"type": "number"}, d_time={"type": "number"})
    repeat = read_request("The induced force for a magnetic field of 5 Tesla, an area of 2 square meters and a change "
                          "in time of 4 seconds, then repeat with a change in time of 10 seconds.")
    assert asked_items([force], repeat, 2) == ((4,), (10,))  # each part's time; the field and the area are both calls'
    powers = _tool("power", base={"type": "integer"}, exponent={"type": "integer"})
    # written call by call, as many numbers in each part: each call has every number of its part, 3 each's
    assert asked_items([powers], read_request("Raise 3 to the power of 5, then 2 to the power of 3."), 2) == \
        ((3, 5), (2, 3))


def test_numbers_written_call_by_call_are_each_calls_own():
    bmi = _tool("calculate_bmi", weight={"type": "number"}, height={"type": "number"})
    two = read_request("John weighs 85 kilograms and is 1.8 meters tall, and his friend Sarah weighs 60 kilograms "
                       "and is 1.65 meters tall.")
    assert asked_items([bmi], two, 2) == ((85, 1.8), (60, 1.65))
    gcd = _tool("gcd", num1={"type": "integer"}, num2={"type": "integer"})
    assert asked_items([gcd], read_request("The GCD of the pairs (45, 60) and (81, 27)"), 2) == ((45, 60), (81, 27))
    # one call's numbers written as a list: each amount may go with each rate, so no call owns any
    interest = _tool("interest", principal={"type": "number"}, rate={"type": "number"})
    assert asked_items([interest], read_request("Interest on $1000 and $2000 at 5% and 6%"), 2) == ()
    tax = _tool("sales_tax", amount={"type": "number"}, city={"type": "string"})
    three = read_request("Calculate the sales tax on a purchase of $30.45 in Chicago, Illinois, $52.33 in "
                         "Sacramento, California and $11.23 in Portland, Oregon.")
    assert asked_items([tax], three, 3) == ((30.45, "Chicago", "Illinois"), (52.33, "Sacramento", "California"),
                                            (11.23, "Portland", "Oregon"))
    before = read_request("Calculate the sales tax in Chicago on $30.45 and in Boston on $52.33.")
    assert asked_items([tax], before, 2) == (("Chicago", 30.45), ("Boston", 52.33))  # names after "in", again
    # a name that comes before the first call's numbers and after the last may be every call's: numbers only
    both = read_request("In Chicago, the sales tax on $30.45 and on $52.33 for Acme")
    assert asked_items([tax], both, 2) == ((30.45,), (52.33,))


def test_a_unit_is_no_name_a_call_owns():
    forecast = _tool("forecast", city={"type": "string"}, unit={"type": "string"})
    parts = read_request("Get the forecast for Oslo in Celsius, then for the coming week in Fahrenheit")
    assert asked_items([forecast], parts, 2) == ()  # the second part names no city: Oslo is not the first call's alone
    two = read_request("Get the forecast for Oslo in Celsius, then for Bergen in Fahrenheit")
    assert asked_items([forecast], two, 2) == (("Oslo",), ("Bergen",))


def test_a_preposition_written_again_after_and_names_another_call():
    rooms = _tool("hotel_availability", hotel={"type": "string"}, city={"type": "string"},
                  check_in={"type": "string"}, check_out={"type": "string"})
    two = read_request("Check the room availability for 'Villa Rosa' in Rome from May 1 to May 3 and for "
                       "'Casa Azul' in Lisbon from June 2 to June 5.")
    assert asked_calls([rooms], two, 4) == 2
    assert asked_items([rooms], two, 2) == (("Villa Rosa",), ("Casa Azul",))
    one = read_request("Check the room availability for 'Villa Rosa' in Rome from May 1 and in the evening.")
    assert asked_calls([rooms], one, 4) == 1  # "and in" names no other thing


def test_each_call_takes_the_names_its_string_arguments_name():
    orders = _tool("order_status", order_id={"type": "string"}, note={"type": "string"})
    two = read_request("Check the order ID 'A-1001' and the order ID 'B-2002', please")
    assert asked_calls([orders], two, 4) == 2  # one call for each name the argument's name is written before
    assert asked_items([orders], two, 2) == (("A-1001",), ("B-2002",))
    assert asked_calls([orders], read_request("Check the order ID 'A-1001', the one with the note 'gift'"), 4) == 1
    assert asked_items([orders], two, 3) == ()  # two orders named, not three


def test_the_calls_of_each_of_several_tools_take_their_own_items_in_turn():
    population = _tool("city_population", city={"type": "string"}, year={"type": "integer"})
    prices = _tool("house_prices", city={"type": "string"}, year={"type": "integer"})
    tools = [prices, population]
    query = read_request("What was the population of Oslo in 1990 and 2020? And the house prices in Oslo in both years?")
    years = ((1990,), (2020,))
    assert items_in_turn(tools, query, 4) == ((years, 0), (years, 1), (years, 0), (years, 1))  # "both": the same
    values = offered_values([query.text])
    last = own_values(part_values(values, *asked_parts(tools, query, 4)[3]), *items_in_turn(tools, query, 4)[3])
    assert 2020 in last.numbers and 1990 not in last.numbers
    own = read_request("The population of Oslo in 1990 and 2020, and the house prices in Bergen in 2000 and 2010")
    assert [items for items, _ in items_in_turn(tools, own, 4)] == [years] * 2 + [((2000,), (2010,))] * 2
    assert items_in_turn([population], own, 4) == ()  # one tool: asked_items


def test_dates_enumerated_for_one_argument_of_dates_are_one_call_each():
    weather = _tool("weather_on", city={"type": "string"}, date={"type": "string"})
    two = read_request("What was the weather in Oslo on 2020-12-25 and 2021-01-01?")
    assert asked_calls([weather], two, 4) == 2
    assert asked_items([weather], two, 2) == (("2020-12-25",), ("2021-01-01",))
    named = read_request("Weather in Oslo on March 3, 2024 and March 5, 2024")
    assert asked_items([weather], named, asked_calls([weather], named, 4)) == (("March 3, 2024",), ("March 5, 2024",))
    stock = _tool("stock_price", company={"type": "string"}, date={"type": "string", "description": "YYYY-MM-DD"})
    crossed = read_request("Closing prices of Nokia and Ericsson on 2022-01-03 and 2022-02-01")
    assert asked_calls([stock], crossed, 8) == 4  # each company on each date
    assert asked_calls([weather], read_request("Weather in Oslo between 2020-12-25 and 2021-01-01"), 4) == 1  # a range
    span = _tool("rentals", city={"type": "string"}, start_date={"type": "string"}, end_date={"type": "string"})
    assert asked_calls([span], read_request("Cars in Oslo on 2024-04-21 and 2024-04-25"), 4) == 1  # two date arguments
    assert asked_calls([weather], read_request("Weather in Paris today and tomorrow"), 4) == 2  # dates from today
    assert asked_calls([weather], read_request("Das Wetter in Wien heute und morgen"), 4) == 2


def test_a_required_number_with_a_stated_default_is_no_number_the_request_must_give():
    odds = _tool("poker_odds", deck_size={"type": "integer", "description": "The size of the deck. Default is 52."},
                 hand_size={"type": "integer", "default": 5})
    asked = read_request("What are the poker odds of a flush?")
    assert decide_reply([odds], asked).kind == "call"
    bare = _tool("poker_odds", deck_size={"type": "integer"}, hand_size={"type": "integer"})
    assert decide_reply([bare], asked).kind == "either"  # a call would make the model invent both
