"""The values a request's words offer: stretches of words, numbers, and schemas limited to them."""

from __future__ import annotations

import datetime

import pytest

from gbnf.errors import InvalidCall
from gbnf.read import validate_call
from gbnf.shape.rules import (
    Values,
    copied,
    kept_apart,
    labelled,
    named_strings,
    number_runs,
    numbers,
    numbers_named,
    offered_values,
    own_values,
    part_values,
    read_request,
    repeated_value,
    spans,
    value_texts,
    without_count,
)
from gbnf.tools import Tool


def test_spans_are_stretches_of_words_without_the_punctuation_at_their_ends():
    found = spans('Book "Hilton Hotel" in San Francisco, CA?')
    assert {"Hilton Hotel", "Hilton", "San Francisco", "San Francisco, CA", "CA"} <= set(found)
    assert '"Hilton' not in found and "CA?" not in found and "in San Francisco" not in found and "in" not in found
    assert "Shape of You" in spans("play Shape of You") and "Portland, OR" in spans("a flight to Portland, OR")
    assert not [stretch for stretch in spans("the time difference between these two cities over its course")
                if stretch.split()[0] in ("between", "these", "over", "its")]
    assert {"gas", "gas-fueled", "2022-2023", "2023", "docs/a.txt"} <= set(spans("a gas-fueled car in 2022-2023 at docs/a.txt"))
    assert {"/etc/hostname", "/tmp", "-v"} <= set(spans("read /etc/hostname, then ls -v in (/tmp)."))
    assert {"Washington, D.C.", "Apple Inc.", "Roe v. Wade"} <= set(spans("From Washington, D.C. to Apple Inc. on 'Roe v. Wade'.Now"))
    assert not [stretch for stretch in spans("한일관 4명 자리 예약해 줘. 생일 모임이야.") if "생일" in stretch and "자리" in stretch]
    found = spans("Look up Maria's email address in my Notion")
    assert "Maria" in found and not any("Maria's" in stretch or stretch.startswith("my") for stretch in found)
    assert {"McDonald's", "McDonald"} <= set(spans("Order two Big Macs from McDonald's on Uber Eats"))  # the place's own 's
    assert {"Nando's", "Trader Joe's"} <= set(spans("A table at Nando's, then Trader Joe's."))
    assert not [stretch for stretch in spans("It's Maria's call: That's it") if stretch.endswith("'s")]
    review = "I love the food here! It's always fresh, every single day, and delicious."
    assert review in spans(f"Analyze the sentiment of the review '{review}' please") and "D.C" not in spans("D.C.")
    assert max(len(s.split()) for s in spans(" ".join(map(str, range(30))))) == 8
    assert spans("") == [] and spans("?! ...") == []


def test_a_stretch_starts_with_no_word_of_the_asking_and_stays_in_its_sentence():
    found = spans("How cold is it in Oslo? Could you also find me the weather in Bergen. I need it for Will Smith")
    assert {"Oslo", "Bergen", "Will Smith", "weather in Bergen"} <= set(found)
    assert not [stretch for stretch in found if stretch.split()[0] in ("How", "Could", "you", "find", "me", "I")]
    assert not [stretch for stretch in found if "?" in stretch or "Bergen. I" in stretch]
    assert "Will Smith" not in spans("Will Smith star in it?") and "How" in spans("Tell me How I Met Your Mother")
    assert "where is beijing" in spans("run a web search; where is beijing")  # lowercase, a question may be asked


def test_a_stretch_neither_starts_nor_ends_with_a_function_word_of_the_language_the_request_reads_as():
    assert spans("Wie wird das Wetter in Hamburg?") == ["Wetter", "Wetter in Hamburg", "Hamburg"]
    assert "Sevilla" in spans("¿Qué tiempo hará en Sevilla?") and not [  # "en": Spanish's and French's
        stretch for stretch in spans("¿Qué tiempo hará en Sevilla?") if stretch.startswith(("¿", "Qué", "en "))]
    italian = spans("Che tempo fa a La Paz per la settimana?")  # "che", "per", "la": Italian's
    assert "La Paz" in italian and not [stretch for stretch in italian if stretch.startswith(("Che", "per ", "la "))]
    assert {"die casting", "come alive"} <= set(spans("Find die casting shops that come alive"))  # English: its own
    assert "vi" in spans("progression=['I', 'V', 'vi', 'IV']")  # one such word tells no language
    assert "dir Desktop" in spans("list file in desktop using dir Desktop")  # nor one beside English's "in"


def test_a_stretch_starts_at_a_name_s_first_word_not_inside_it():
    found = spans("Get the scores for Real Madrid in La Liga, then ask Dr John Smith in New York City")
    assert {"Real Madrid", "La Liga", "John Smith", "New York City", "New York"} <= set(found)
    assert not {"Madrid", "Liga", "Liga, then", "York City", "City", "Smith"} & set(found)
    assert {"Lakers", "NBA"} <= set(spans("the NBA Lakers")) and "Boston" in spans("Austin, Boston")
    found = spans("A ticket from London King's Cross to Leeds, then dinner at Nonna's on Friday.")
    assert {"London King's Cross", "Nonna's"} <= set(found)  # a possessive inside a name goes on
    assert not {"London King", "Nonna's on Friday"} & set(found)


def test_numbers_read_thousands_and_lists_as_written():
    assert numbers("factorial of 5,10 and 15, $5,000 of 1,000,000 at 1e-9 or -3.5%") == [
        5, 10, 15, 5000, 1000000, 1e-09, -3.5]
    assert numbers("version 1.2.3, room B4, 5km") == [5]
    assert numbers("Two nights for 3 adults and one child, a dozen eggs; someone, often") == [3, 2, 1, 12]
    # a scale in a word is the number's; a scale's letter may be a unit's (kelvins)
    assert numbers("213 million people on 8.5 million km², $1.2M, 300K") == [213000000, 8500000, 1.2, 1200000, 300,
                                                                             300000]
    # a unit's or a variable's power is no value; a number's power is
    assert numbers("9.81 m/s^2 over 10 m^3 of y = x^-1, and 2^10") == [9.81, 10, 2, 10]
    # digits led by a zero, three or more, are a code (an account, a zip code), no quantity
    assert numbers("account '00125648' for the past 7 days, zip 02139, 0.05 on 05/06") == [7, 0.05, 5, 6]


def test_a_results_texts_are_its_values_each_on_its_own():
    assert value_texts({"amount": 25.8, "currency": "GBP", "rates": [1, None, True], "to": {"city": "Porto"}}) == [
        "25.8", "GBP", "1", "true", "Porto"]
    assert value_texts("a text") == ["a text"] and value_texts(None) == []
    assert '25.8, "currency": "GBP' not in offered_values(value_texts({"amount": 25.8, "currency": "GBP"})).strings
    # a result's string is offered whole too, whatever words it starts with, but not a page
    translated = offered_values(["Translate 'where is the station' to German"], whole=["Wo ist der Bahnhof?"])
    assert "Wo ist der Bahnhof?" in translated.strings and "Bahnhof" in translated.strings
    page = " ".join(["word"] * 50)  # 249 characters
    assert page not in offered_values([], whole=[page]).strings and "word" in offered_values([], whole=[page]).strings


def test_copied_limits_free_strings_and_numbers_where_a_value_fits():
    schema = {"type": "object", "properties": {
        "city": {"type": "string"}, "unit": {"enum": ["C", "F"]}, "days": {"type": "integer", "maximum": 7},
        "ratio": {"type": "number", "minimum": 10}, "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}}}}
    out = copied(schema, Values(("Oslo", "Oslo Norway"), (3, 2.5, 30)))
    props = out["properties"]
    assert props["city"]["enum"] == ["Oslo"] and props["unit"] == schema["properties"]["unit"]  # the city written
    assert props["days"]["enum"] == [3]  # 2.5 is no integer, 30 is past the maximum
    assert props["ratio"]["enum"] == [30]
    assert "enum" not in props["tags"]["items"]  # no stretch fits in 3 characters: left as it was
    assert schema["properties"]["city"] == {"type": "string"}  # the schema itself is untouched
    coded = {"type": "string", "description": "A code, for example ABC"}
    assert copied(coded, Values(("Swiss francs",))) == coded  # a code of no kind it knows: not a stretch either


def test_a_number_whose_description_gives_its_default_takes_it_where_the_request_writes_none():
    deck = {"type": "integer", "description": "The size of the deck. Default is 52."}
    assert copied(deck, Values(("poker",))) == {**deck, "enum": [52]}
    assert copied(deck, Values(("a deck",), (40,)))["enum"] == [40]  # a number written: the user's, not the default
    assert copied({"type": "integer", "description": "The size of the deck."}, Values(("poker",))).get("enum") is None


def test_a_copied_string_takes_the_form_its_description_quotes_for_a_value_written_in_another():
    suit = {"type": "string", "description": "The suit: one of 'spades', 'clubs', 'hearts' or 'diamonds'."}
    schema = {"type": "object", "properties": {"suit": suit, "note": {"type": "string"}}}
    strings = list(offered_values(["What are the chances my next card is a spade?"]).strings)
    props = copied(schema, Values(tuple(strings)))["properties"]
    assert "spade" in props["note"]["enum"]  # a description that quotes no values: the request's own form
    assert props["suit"]["enum"] == ["spades" if s == "spade" else s for s in props["note"]["enum"]]
    one = {"type": "string", "description": "The suit, for example 'spades'."}  # one quotation lists nothing
    assert "spade" in copied({"type": "object", "properties": {"suit": one}}, Values(tuple(strings)))["properties"]["suit"]["enum"]
    german = list(offered_values(["Wie stehen die Chancen auf eine Pik-Karte?"]).strings)
    assert copied(schema, Values(tuple(german)))["properties"]["suit"]["enum"] == german  # no form of a quoted value
    examples = {"type": "string", "description": "The kind of shop, e.g. bakery, butcher or grocer etc."}
    shops = list(offered_values(["Which bakeries open early on Sundays?"]).strings)
    found = copied({"type": "object", "properties": {"shop": examples}}, Values(tuple(shops)))["properties"]["shop"]["enum"]
    assert "bakery" in found and "bakeries" not in found  # unquoted examples are listed values too


def test_copied_strings_are_not_the_names_the_validator_refuses():
    tool = Tool("find_exhibition", "Find an exhibition.", {"type": "object", "properties": {
        "location": {"type": "string"}, "month": {"type": "string"}, "kind": {"enum": ["month", "week"]}}})
    assert tool.echoes == {"findexhibition", "location", "kind"}  # "month" is a value the schema lists
    strings = ["Find exhibition", "find_exhibition", "Location", "upcoming month", "New York"]
    out = copied(tool.parameters, Values(tuple(strings)), echoes=tool.echoes)["properties"]
    assert out["location"]["enum"] == ["upcoming month", "New York"]  # "Find exhibition" folds to the tool's name
    for value in out["location"]["enum"]:  # each value the grammar offers, the validator takes
        validate_call({"name": tool.name, "arguments": {"location": value}}, [tool])
    for value in ("Find exhibition", "Location"):
        with pytest.raises(InvalidCall, match="only repeats a name"):
            validate_call({"name": tool.name, "arguments": {"location": value}}, [tool])
    assert "Location" in copied(tool.parameters, Values(tuple(strings)))["properties"]["location"]["enum"]  # none named: all


def _enum(schema: dict, query: str) -> list | None:
    """The values a free string ``schema`` is offered for ``query`` (None: it stays free)."""
    return copied(schema, offered_values([query])).get("enum")


def test_a_string_that_asks_for_a_date_format_takes_the_dates_written_in_that_format():
    iso = {"type": "string", "description": "The date, in the format 'YYYY-MM-DD'."}
    us = {"type": "string", "description": "The check-in day, formatted MM/DD/YYYY"}
    example = {"type": "string", "description": "Day of the flight, e.g. 2022-04-28"}

    assert _enum(iso, "Weather in Foster City for April 25th 2023?") == ["2023-04-25"]
    assert _enum(iso, "Weather in Seattle on the 4th of march 2023") == ["2023-03-04"]
    assert _enum(iso, "A ticket for Friday, June 30th 2023") == ["2023-06-30"]
    assert _enum(us, "A room from 2023 April 4th to April 8th") == ["04/04/2023", "04/08/2023"]  # its year
    assert _enum(example, "Flüge nach Rom am 8. März 2023") == ["2023-03-08"]
    assert _enum(iso, "Vuelos a Roma el 8 de marzo de 2023") == ["2023-03-08"]
    assert "March 9th" in _enum(iso, "Weather in LA on March 9th?")  # no year written: as written
    assert "March 3rd" in _enum(iso, "A flight for $2000 on March 3rd")  # an amount is no year
    assert "April 25th 2023" in _enum({"type": "string", "description": "The date"}, "On April 25th 2023")
    assert _enum(iso, "Wetter in Berlin am 19.03.2024") == ["2024-03-19"]  # no 19th month: day first
    assert _enum(iso, "A room from 12/05/2023 to 18/05/2023") == ["2023-05-12", "2023-05-18"]  # as the other
    assert "03/07/2023" in _enum(iso, "Weather in Oslo on 03/07/2023")  # either order reads: as written


def test_a_string_that_asks_for_a_date_and_time_format_takes_the_dates_written_with_their_time_of_day():
    spaced = {"type": "string", "description": "The start, in the format 'YYYY-MM-DD HH:mm:ss'."}
    iso = {"type": "string", "description": "The new time, in ISO-8601 format (e.g., 'YYYY-MM-DDTHH:MM:SS')."}
    zulu = {"type": "string", "description": "The time in ISO-8601 format, such as '2023-04-15T13:45:00Z'."}
    day_first = {"type": "string", "description": "The departure time in the format of 'dd/mm/yyyy HH:MM'."}

    assert _enum(spaced, "A housekeeper available on March 19, 2024, at 12:00 PM in Bangkok") == ["2024-03-19 12:00:00"]
    assert _enum(day_first, "A flight from Paris on the 12th of March 2023 at 3 in the afternoon") == ["12/03/2023 15:00"]
    assert _enum(iso, "Reschedule 'Bob-123' to November 1, 2023 at 4pm London time") == ["2023-11-01T16:00:00"]
    assert _enum(zulu, "Move it to March 3, 2024 at 11.00 a.m. please") == ["2024-03-03T11:00:00Z"]
    assert _enum(spaced, "Termin am 8. März 2024 um 15:00") == ["2024-03-08 15:00:00"]
    assert _enum(spaced, "available on March 19, 2024, starting at noon") == ["2024-03-19 12:00:00"]
    assert _enum(spaced, "A table for 7:30 pm on December 24, 2024 at Nando's") == ["2024-12-24 19:30:00"]
    assert _enum(zulu, "Remind me at 4pm on the 3rd of March 2025") == ["2025-03-03T16:00:00Z"]  # time first
    assert _enum(spaced, "on March 25, 2024, 2:30 PM, no pets") == ["2024-03-25 14:30:00"]  # not 02:30 too
    assert _enum(spaced, "on March 3, 2024 at 13 PM") == ["2024-03-03"]  # no such hour: the date alone
    assert _enum(iso, "Move my meeting to 4:30 PM") is None  # no date written: free


def test_a_string_that_asks_for_a_date_takes_the_dates_written_from_today_in_any_language_read(monkeypatch):
    monkeypatch.setattr("gbnf.shape._dates.today", lambda: datetime.date(2026, 12, 3))  # a Thursday
    iso = {"type": "string", "description": "The day, in the format YYYY-MM-DD."}
    moment = {"type": "string", "description": "The new time, in ISO-8601 format (e.g., 'YYYY-MM-DDTHH:MM:SS')."}

    assert _enum(iso, "Is it going to rain in Oslo tomorrow?") == ["2026-12-04"]
    assert _enum(iso, "Wie wird das Wetter morgen in Hamburg?") == ["2026-12-04"]
    assert _enum(iso, "Quel temps fera-t-il à Lyon après-demain ?") == ["2026-12-05"]
    assert _enum(iso, "Do I need an umbrella in London today?") == ["2026-12-03"]
    assert _enum(iso, "¿Qué tiempo hará en Madrid el próximo viernes?") == ["2026-12-11"]  # next week's
    assert _enum(iso, "A table for Friday at Nando's") == ["2026-12-04"]  # the first Friday after today
    assert _enum(iso, "Any concerts this Thursday?") == ["2026-12-03"]  # today is one
    assert _enum(iso, "What did I spend last Friday?") == ["2026-11-27"]
    assert _enum(iso, "Book a table at Nando's in 3 days") == ["2026-12-06"]  # days counted in digits
    assert _enum(iso, "Weather in Oslo the day after tomorrow?") == ["2026-12-05"]  # English's, not the CLDR's
    assert _enum(iso, "Bring it back a week from today") == ["2026-12-10"]
    assert _enum(iso, "Remind me to call Ana two weeks from now") == ["2026-12-17"]
    assert "2026-12-10" not in _enum(iso, "Schedule yoga 3 times in a week")  # how often, not when
    assert _enum(iso, "Wie war das Wetter in Wien vor 2 Tagen?") == ["2026-12-01"]
    assert _enum(iso, "Un vol pour Rome dans 2 semaines") == ["2026-12-17"]
    assert "2026-12-02" not in _enum(iso, "Wie ist das Wetter hier?")  # "hier": here, not French's yesterday
    assert _enum(moment, "Move my meeting to next Thursday at 4:30 PM") == ["2026-12-10T16:30:00"]
    berkeley = "The forecast for Berkeley on the upcoming Saturday? Today is Tuesday April 25th 2023"
    assert _enum(iso, berkeley) == ["2023-04-29"]  # from the day the request says today is, not that day
    assert _enum(iso, "Weather in Oslo on March 3, 2027 and tomorrow") == ["2027-03-03"]  # beside a full date: left
    assert _enum(iso, "A ticket for Friday, June 30th 2023") == ["2023-06-30"]  # a weekday of a date


def test_a_string_named_a_date_takes_the_dates_written_in_digits_or_with_a_months_name_in_any_language_read():
    schema = {"type": "object", "properties": {"date": {"type": "string"}}}

    def offered(query):
        return copied(schema, offered_values([query]))["properties"]["date"].get("enum")

    assert offered("Book a table at Lumière for 4 on Dec 3 2024") == ["2024-12-03"]  # as ISO 8601 writes it
    assert offered("Réserve une table chez Lumière pour le 3 décembre 2024") == ["2024-12-03"]
    assert offered("Reserviere einen Tisch im Adler für 8 Mai 2024") == ["2024-05-08"]
    assert offered("The air quality index in London 2022/08/16") == ["2022-08-16"]
    assert offered("Book a table at Lumière for 4 on Dec 3") == ["Dec 3"]  # no year: as written


def test_a_string_whose_description_gives_a_place_with_its_region_takes_the_places_written_with_theirs():
    city = {"type": "string", "description": "The city and state, e.g. San Francisco, CA"}

    found = _enum(city, "What is the weather in Bangkok, Thailand today?")
    assert "Bangkok, Thailand" in found and "Bangkok" not in found and "Thailand" not in found
    assert "Paris" in _enum(city, "What is the weather in Paris today?")  # written without one: as written
    assert "Chennai" in _enum(city, "The weather in Chennai, Tamil Nadu")  # no country's, no U.S. state's name
    assert "Bangkok" in _enum({"type": "string", "description": "The city"}, "The weather in Bangkok, Thailand")


def test_a_us_city_written_alone_takes_its_state_where_the_description_asks_for_city_and_state():
    city = {"type": "string", "description": "The city, in the format 'City, State', such as 'Austin, TX'."}

    found = _enum(city, "I need a dentist in berkeley for next week")
    assert "Berkeley, CA" in found and "berkeley" not in found  # the state a small model cannot add itself
    assert "Portland, OR" in _enum(city, "Any good bakeries in Portland?")  # the most populous Portland
    assert "Paris" in _enum(city, "Any good bakeries in Paris?")  # France's before Texas's: as written
    assert "Boston, MA" in _enum(city, "Bakeries in Boston, MA")  # written with its state: kept whole
    bare = {"type": "string", "description": "The city where the dentist works."}
    assert "berkeley" in _enum(bare, "I need a dentist in berkeley for next week")  # no state asked for
    region = {"type": "string", "description": "The city and country, e.g. Lyon, France"}
    assert "Lyon" in _enum(region, "Bakeries in Lyon")  # a region, but no U.S. state, asked for


def _offered(name: str, description: str, query: str) -> list[str]:
    """The values a free string property ``name`` is offered for ``query``."""
    schema = {"type": "object", "properties": {name: {"type": "string", "description": description}}}
    return copied(schema, offered_values([query]))["properties"][name]["enum"]


@pytest.mark.parametrize(("query", "name", "not_offered"), [
    ("Réserve une chambre à l'Hôtel du Lac pour deux nuits.", "Hôtel du Lac", "l'Hôtel du Lac"),
    ("Un tavolo all'Osteria Francescana per due, stasera.", "Osteria Francescana", "all'Osteria Francescana"),
    ("Deux billets pour le musée d’Orsay demain.", "musée d’Orsay", "d’Orsay"),
])
def test_a_name_starts_after_an_article_written_onto_it(query, name, not_offered):
    offered = _offered("place", "Name of the place.", query)
    assert name in offered and not_offered not in offered
    assert "L'Oréal" in _offered("brand", "The brand.", "Achète du shampoing L'Oréal")  # a name's own capital


def test_a_formula_takes_the_formulas_the_request_writes_with_python_powers():
    query = "The derivative of 3x^2 + 2x - 1 at 5, then of 4y^3 - 3y^2 + 2y - 1 at 3, for the variable 'x'"
    assert _offered("function", "The function to differentiate.", query) == ["3x**2 + 2x - 1", "4y**3 - 3y**2 + 2y - 1"]
    assert _offered("function", "The function, for example 'x^3'", query)[0] == "3x^2 + 2x - 1"  # as its example writes
    assert _offered("math_expression", "", "the area under the curve y=x^2 from x=1 to x=3") == ["x**2"]
    assert "x" in _offered("function_variable", "", query)  # a variable's name, no formula: stretches
    assert _offered("function", "", "the function sin(x) / x") == ["sin(x) / x"]


def test_a_date_goes_to_an_argument_that_asks_for_one():
    query = "Check the rooms at 'Queens Hotel' in Berlin, Germany from March 10, 2022 to March 20, 2022"
    place = _offered("location", "The city of the hotel.", query)
    assert "Berlin, Germany" in place and not {"March 10, 2022", "March", "2022", "2022 to March 20"} & set(place)
    assert "March 10, 2022" in _offered("when", "The day of the stay, as a date.", query)  # asks for a date
    assert "March 10, 2022" in _offered("location", "The city.", "from March 10, 2022")  # nothing else written
    place = _offered("city", "The city.", "Is it going to rain in Oslo tomorrow?")
    assert "Oslo" in place and not {"tomorrow", "Oslo tomorrow", "rain in Oslo tomorrow"} & set(place)
    assert _offered("city", "The city.", "Wie wird das Wetter morgen in Hamburg?") == ["Hamburg"]  # a city's name
    assert "next Friday" in _offered("when", "The date of the trip.", "A train to Lyon next Friday")
    body = _offered("body", "The body of the email.", "Email Bob with the body 'Let's meet at 10 AM tomorrow'")
    assert "Let's meet at 10 AM tomorrow" in body and "tomorrow" not in body  # a quotation is offered whole


def test_a_number_alone_goes_to_a_string_named_for_one():
    query = "Who won the Grammy for Best New Artist in 2013, and what is case 20231 about?"
    act = _offered("act", "The name of the act.", query)
    assert act and not {"2013", "20231"} & set(act)  # an act's name has words
    assert "20231" in _offered("case_no", "The case.", query)  # a number named for one
    assert "2013" in _offered("season", "The season.", query)
    assert _offered("act", "The name of the act.", "and 2013") == ["2013"]  # nothing else written: kept


def test_a_date_named_for_no_format_takes_the_written_date_in_iso_form():
    query = "Find lawsuits against Apple Inc. filed in California after January 1, 2020, at 10:00"
    assert _offered("start_date", "Start of the date range.", query) == ["2020-01-01"]
    assert "January 1, 2020" in _offered("dateOrTime", "When it starts.", query)  # a time too: as written
    assert "January 1, 2020" in _offered("start_date", "In the format of MM-DD-YYY.", query)  # a format unread
    assert _offered("start_date", "As MM/DD/YYYY.", query) == ["01/01/2020"]  # the format it asks


@pytest.mark.parametrize(("text", "written"), [
    ("Teil die Rechnung über 78,40 durch zwei", [78.4, 2]), ("quando o euro passar de 6,50.", [6.5]),
    ("entre 1,5 y 2,5 kg", [1.5, 2.5]), ("the GCD of 5,10", [5, 10]), ("It costs 1,500 dollars", [1500]),
    ("les numéros 1,2,3", [1, 2, 3]),
    # a two-digit decimal comma tells the language where no function word does; its thousands are points
    ("Tanken eintragen: 52 Liter, 89,40 Euro, Kilometerstand 143.200.", [52, 89.4, 143200]),
    ("Gasto de 1.250 euros en el súper", [1250]), ("Заправка: 45,5 литра, 3\u00a0200 рублей", [45.5, 3200]),
    ("Benzina 12,30 € il 15.05.2027", [12.3]), ("I ran 1.500 km", [1.5]), ("Sum 5,10 and 15", [5, 10, 15]),
])
def test_a_decimal_comma_is_read_where_the_text_is_in_a_language_that_writes_one(text, written):
    assert list(offered_values([text]).numbers) == written


@pytest.mark.parametrize(("text", "counts"), [
    ("Book a table for four at half past seven", [4]), ("Tisch für sechs Personen um halb acht abends", [6]),
    ("Mesa para dos a las nueve de la noche", [2]), ("Zarezerwuj stolik dla trzech osób o 18:00", [3]),
    ("Przyjdę z dwiema osobami", [2]), ("iki saatliğine basketbol sahası", [2]),
])
def test_a_count_is_offered_without_the_hours_of_the_times_written_in_words(text, counts):
    schema = {"type": "object", "properties": {"party_size": {"type": "integer", "minimum": 1}}}
    assert copied(schema, offered_values([text]))["properties"]["party_size"]["enum"] == counts


def test_an_integer_written_with_a_decimal_point_is_offered_as_one():
    schema = {"type": "object", "properties": {"rating": {"type": "integer"}, "score": {"type": "number"}}}
    offered = copied(schema, offered_values(["a game rated 4.0 or 5, with a score of 2.5"]))["properties"]
    assert offered["rating"]["enum"] == [4, 5] and isinstance(offered["rating"]["enum"][0], int)
    assert offered["score"]["enum"] == [4.0, 5, 2.5]


def test_a_glob_pattern_takes_the_file_types_the_request_names():
    glob = {"type": "string", "description": "Glob pattern such as *.txt"}
    assert copied(glob, offered_values(["Find the PDF files and csv files in /tmp"]))["enum"] == ["*.pdf", "*.csv"]
    assert "report" in copied(glob, offered_values(["Find files named report"]))["enum"]  # no type: stretches
    regex = copied({"type": "string", "description": "A regular expression"}, offered_values(["the PDF files"]))
    assert "*.pdf" not in regex["enum"] and "PDF files" in regex["enum"]  # no glob asked for: stretches


def test_copied_codes_are_those_the_request_names_in_words():
    currency = {"type": "string", "pattern": "^[A-Z]{3}$", "description": "ISO 4217 code, for example EUR"}
    schema = {"type": "object", "properties": {"from_currency": currency, "to_currency": currency,
                                               "amount": {"type": "number"}}}
    props = copied(schema, offered_values(["How much is 50 euros in US dollars?"]))["properties"]
    assert props["from_currency"]["enum"] == ["EUR"] and props["to_currency"]["enum"] == ["USD"]  # the amount's is the source
    props = copied(schema, offered_values(["What is the rate between the yen and British pounds?"]))["properties"]
    assert props["from_currency"]["enum"] == props["to_currency"]["enum"] == ["JPY", "GBP"]  # no direction: either
    props = copied(schema, offered_values(["The rate from Euro to Dollar, and USD to AUD"]))["properties"]
    assert props["from_currency"]["enum"] == ["EUR", "USD"] and props["to_currency"]["enum"] == ["USD", "AUD"]
    rated = {**schema, "properties": {"from_currency": currency, "to_currency": currency, "rate": {"type": "number"}}}
    for text, priced, price in [("Text me when the euro rises above 1.15 US dollars.", "EUR", "USD"),
                                ("Avísame cuando un dólar estadounidense valga menos de 17 pesos mexicanos.", "USD", "MXN"),
                                ("Alert me if 1 GBP falls below 1.10 EUR", "GBP", "EUR")]:
        props = copied(rated, offered_values([text]))["properties"]  # a rate's amount is in the second currency
        assert (props["from_currency"]["enum"], props["to_currency"]["enum"]) == ([priced], [price]), text
    converts = {**schema, "properties": {**rated["properties"], "amount": {"type": "number"}}}
    props = copied(converts, offered_values(["Convert 500 USD to EUR"]))["properties"]
    assert (props["from_currency"]["enum"], props["to_currency"]["enum"]) == (["USD"], ["EUR"])  # an amount: a conversion
    props = copied(rated, offered_values(["Alert me when USD to EUR goes above 0.95 EUR"]))["properties"]
    assert props["to_currency"]["enum"] == ["EUR"]  # the way written
    props = copied(rated, offered_values(["The rate between the yen and British pounds?"]))["properties"]
    assert props["from_currency"]["enum"] == ["JPY", "GBP"]  # no amount: either, as before
    sides = {"source": {"type": "string", "description": "ISO code, for example GBP."}, "target": {"type": "string"}}
    props = copied({"type": "object", "properties": sides}, offered_values(["Change £20 into Swiss francs"]))["properties"]
    assert props["source"]["enum"] == ["GBP"]  # its example is a currency code
    assert "Swiss francs" in props["target"]["enum"]  # nothing says what it takes: stretches, as before
    assert copied(currency, offered_values(["convert 5 pounds to dollars"]))["enum"] == ["GBP", "USD"]  # most used
    assert copied(currency, offered_values(["convert it"])) == currency  # nothing named: left as it was
    broken = {"type": "string", "pattern": "(", "description": "The currency"}
    assert copied(broken, offered_values(["50 euros"])) == broken  # left for the compiler to name the bad pattern
    zone = {"type": "string", "description": "IANA time zone such as Europe/Rome"}
    assert copied(zone, offered_values(["What time is it in New York?"]))["enum"] == ["America/New_York"]
    assert copied(zone, offered_values(["and in Japan?"]))["enum"] == ["Asia/Tokyo"]
    assert copied(zone, offered_values(["ニューヨークは今何時？"]))["enum"] == ["America/New_York"]  # the CLDR's names
    assert copied(zone, offered_values(["What time is it in Munich?"]))["enum"] == ["Europe/Berlin"]  # a city's zone
    assert copied(zone, offered_values(["北京时间下午三点是伦敦几点？"]))["enum"] == ["Asia/Shanghai", "Europe/London"]
    assert copied(currency, offered_values(["Zapisz wydatek: 120 zł na lekarza"]))["enum"] == ["PLN"]  # a local symbol
    assert copied(currency, offered_values(["Paguei R$ 35 no táxi"]))["enum"] == ["BRL"]
    when = {"type": "string", "description": "The new date and time, with no timezone offset"}
    assert "London" in copied({"type": "object", "properties": {"dateOrTime": when}},
                              offered_values(["at 8pm London time"]))["properties"]["dateOrTime"]["enum"]  # no zone
    languages = {"type": "object", "properties": {"target_language": {"type": "string", "description": "ISO 639-1 code"},
                                                  "url": {"type": "string", "description": "A country code URL"}}}
    props = copied(languages, offered_values(["Say hello in German, from the Germany page"]))["properties"]
    assert props["target_language"]["enum"] == ["de"] and "DE" not in props["url"].get("enum", [])  # no country code
    named = {"type": "string", "description": "Language name such as Spanish."}
    assert "German" in copied(named, offered_values(["Say hello in German"]))["enum"]  # a name, as written


def test_copied_narrows_an_enum_to_the_values_the_request_names():
    schema = {"type": "object", "properties": {
        "period": {"type": "string", "enum": ["one_year", "six_months", "five_years"]},
        "unit": {"enum": ["C", "F"]}, "diets": {"type": "array", "items": {"enum": ["Vegan", "Gluten-free", "Keto"]}}}}
    props = copied(schema, offered_values(["Vegan and gluten free dishes for the next six months"]))["properties"]
    assert props["period"]["enum"] == ["six_months"] and props["diets"]["items"]["enum"] == ["Vegan", "Gluten-free"]
    assert props["unit"] == {"enum": ["C", "F"]}  # none of its values named: left as it was
    assert props["diets"]["uniqueItems"] is True  # an array of listed or copied strings repeats none
    loose = {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 3, "uniqueItems": False}
    assert copied(loose, Values()) == loose  # said otherwise, or more items than values: left as it was


def test_number_runs_are_the_lists_written_whole():
    runs = number_runs("Group A [3, 4, 5] and Group B [7, 8]; the multiples of 3 and 5 between 1 and 1000")
    assert {(3, 4, 5), (7, 8), (3, 5), (1, 1000)} <= set(runs)
    assert (5, 7) not in runs and (5, 1) not in runs and (3, 4, 5, 7) not in runs
    assert (4, 5) not in runs and (3,) not in runs  # no part of a list: an array is copied whole
    # two lists in brackets joined by "and" are two lists; a number alone is a list of one
    assert number_runs("From (40.71, -74.0) and (34.05, -118.24) in 2 hours") == [(40.71, -74.0), (34.05, -118.24), (2,)]


def test_a_ranges_two_ends_are_a_run_beside_each_alone():
    assert number_runs("Rainfall records from 1990 to 2020 in Bergen") == [(1990,), (2020,), (1990, 2020)]
    assert (-2, 5) in number_runs("The integral of x^3 between x = -2 and x = 5")
    assert (4, 12) in number_runs("Bikes from 4 km to 12 km long")  # a unit before the end
    schema = {"type": "object", "properties": {"years": {"type": "array", "items": {"type": "integer"}}}}
    years = copied(schema, offered_values(["Rainfall records from 1990 to 2020 in Bergen"]))["properties"]["years"]
    assert [1990, 2020] in years["enum"]
    assert number_runs("Tickets for 3 adults and 2 kids") == [(3,), (2,)]  # no range word: no run of two


def test_ordinals_written_as_a_list_are_one_run():
    assert number_runs("Inspect the 2nd, 3rd and 5th floors") == [(2, 3, 5)]
    assert number_runs("Rows 1st to 3rd") == [(1,), (3,)]  # no list between them


def test_a_number_that_speaks_of_no_date_takes_none_of_a_dates_numbers():
    schema = {"type": "object", "properties": {"nights": {"type": "integer"}, "year": {"type": "integer"},
                                               "guests": {"type": "integer"}}}
    props = copied(schema, offered_values(["Book 2 nights for 3 guests from 15th October,2023"]))["properties"]
    assert props["nights"]["enum"] == [2] and props["guests"]["enum"] == [3]  # what each number counts
    assert props["year"]["enum"] == [15, 2023]
    # a number written outside a date too stays offered: "1 adult" and "June 1, 2022"
    props = copied(schema, offered_values(["A room for 1 adult from June 1, 2022"]))["properties"]
    assert props["guests"]["enum"] == [1]
    # only dates' numbers written: the number is offered them still
    assert copied(schema, offered_values(["From May 5, 2024"]))["properties"]["nights"]["enum"] == [5, 2024]


def test_copied_arrays_of_numbers_are_runs_of_a_written_list():
    schema = {"type": "object", "properties": {"group": {"type": "array", "items": {"type": "integer"}},
                                               "pair": {"type": "array", "items": {"type": "number"}, "minItems": 2}}}
    props = copied(schema, offered_values(["Compare group A [3, 4, 5] with group B [7, 8]"]))["properties"]
    assert [3, 4, 5] in props["group"]["enum"] and [7, 8] in props["group"]["enum"]
    assert [5, 7] not in props["group"]["enum"] and [3, 3, 3] not in props["group"]["enum"]
    assert all(len(run) >= 2 for run in props["pair"]["enum"])
    free = copied(schema, offered_values(["no numbers here"]))["properties"]
    assert "enum" not in free["group"]  # no number to copy: left as it was


def test_copied_strings_take_the_shape_their_property_name_asks_for():
    schema = {"type": "object", "properties": {name: {"type": "string"} for name in (
        "path", "check_in_date", "startTime", "email", "title")}}
    query = "Mail bob@example.com the file /etc/hostname, a room from 15th October, 2023 at 5 pm"
    props = copied(schema, offered_values([query]))["properties"]
    assert props["path"]["enum"] == ["/etc/hostname"] and props["email"]["enum"] == ["bob@example.com"]
    assert props["check_in_date"]["enum"] == ["2023-10-15"] and props["startTime"]["enum"] == ["5 pm"]
    assert "Mail" in props["title"]["enum"]  # no shape asked for: every stretch
    assert "no path" in copied(schema, offered_values(["there is no path here"]))["properties"]["path"]["enum"]  # none has it


def test_a_call_of_an_enumeration_copies_its_own_item_and_what_all_share():
    values = offered_values(["Flights from Boston to Paris and London on 3 and 4 May"])
    items = (("Paris", 3), ("London", 4))
    first, second = own_values(values, items, 0), own_values(values, items, 1)
    assert "Paris" in first.strings and "Boston" in first.strings and not any("London" in text for text in first.strings)
    assert "London" in second.strings and "Boston" in second.strings and not any("Paris" in text for text in second.strings)
    assert 3 in first.numbers and 4 not in first.numbers and 4 in second.numbers and 3 not in second.numbers
    assert own_values(values, (("Paris", 3), ("Paris", 4)), 0).strings == values.strings  # a name both calls share stays
    cities = offered_values(["Hotels in San Francisco in 2019 and in San Jose and Texas in 2018"])
    texas = own_values(cities, (("San Francisco", 2019), ("Texas", 2018)), 1).strings
    assert "Texas" in texas and "San" not in texas and "Francisco" not in texas  # nor a part of another's name
    jose = own_values(cities, (("San Francisco", 2019), ("San Jose", 2018)), 1).strings
    assert "San" in jose and "San Jose" in jose and "Francisco" not in jose  # a part of its own name stays


def test_the_word_that_counts_the_calls_is_no_value_of_one():
    text = "The magnetic field of two loops: one of radius 0.5 m carrying 10 A, the other 1 m and 15 A."
    assert without_count(offered_values([text]), text, 2).numbers == (0.5, 10, 1, 15)
    assert 2 in without_count(offered_values([text]), text, 3).numbers  # it counts something else
    both = "Two loops: 2 m and 3 m."
    assert 2 in without_count(offered_values([both]), both, 2).numbers  # also written as a value


def test_a_call_of_several_tools_copies_what_its_own_words_write():
    text = "Find the chess rating of Magnus Carlsen, then the price of 20 shares of Apple for 3 days"
    values = offered_values([text])
    chess = part_values(values, "Find the chess rating of Magnus Carlsen, for 3 days", "the price of 20 shares of Apple")
    assert "Magnus Carlsen" in chess.strings and "Apple" not in chess.strings and "3 days" in chess.strings
    assert "Magnus Carlsen, then the price" in values.strings and not any("then" in text for text in chess.strings)  # runs on
    assert 20 not in chess.numbers and 3 in chess.numbers
    assert part_values(values, text, "") == values  # the whole request: nothing left out
    museum = "Find the opening hours of the Louvre Museum and the waiting time"
    waiting = part_values(offered_values([museum]), "the waiting time", "Find the opening hours of the Louvre Museum")
    assert "Louvre Museum" in waiting.strings and "opening hours" not in waiting.strings  # it speaks of the others' name
    weather = "Get temperature and humidity for Boston, USA and rain for Rome, Italy"
    temperature = part_values(offered_values([weather]), "Get temperature", weather.removeprefix("Get temperature"))
    assert {"Boston, USA", "Rome", "Italy"} <= set(temperature.strings)
    assert "Boston, USA and rain" not in temperature.strings and "humidity" not in temperature.strings


def test_a_value_the_user_wrote_once_fills_one_argument_of_a_call():
    gold = read_request("Get current Gold price per ounce.")
    assert repeated_value([("get_metal_price", {"metal": "Gold", "measure": "Gold"})], gold) == (0, "measure", "Gold")
    assert repeated_value([("get_metal_price", {"metal": "Gold", "measure": "Gold price"})], gold) == (
        0, "measure", "Gold")
    assert repeated_value([("get_metal_price", {"metal": "Gold", "measure": "ounce"})], gold) is None
    twice = read_request("Solve x^2 + 2x + 2 = 0 with a=1, b=2 and c=2")  # 2 is written more than once
    assert repeated_value([("roots", {"a": 1, "b": 2, "c": 2})], twice) is None
    flags = read_request("Search for 1 item, sorted")
    assert repeated_value([("search", {"limit": 1, "sorted": True, "exact": True})], flags) is None
    calls = [("convert", {"amount": 5, "unit": "cup"}), ("convert", {"amount": 8, "unit": "ounce", "to": 8})]
    assert repeated_value(calls, read_request("Convert 5 cups, and 8 ounces to grams")) == (1, "to", 8)


def test_an_argument_kept_apart_lists_its_values_without_what_another_took():
    schema = {"type": "object", "properties": {"metal": {"type": "string"}, "measure": {"type": "string"},
                                               "count": {"type": "integer"}}}
    listed = copied(schema, Values(tuple(spans("Get current Gold price per ounce")), (3, 5)))
    apart = kept_apart(listed, [("measure", "Gold price"), ("count", 3)])
    assert {"Gold", "Gold price", "price", "Gold price per ounce"}.isdisjoint(apart["properties"]["measure"]["enum"])
    assert "ounce" in apart["properties"]["measure"]["enum"] and apart["properties"]["count"]["enum"] == [5]
    assert apart["properties"]["metal"] == listed["properties"]["metal"]
    assert kept_apart(schema, [("measure", "Gold")]) is None  # a free string lists nothing to leave out
    assert kept_apart(listed, [("measure", "Nickel")]) is None  # nor what it does not list


def test_a_number_is_labelled_with_the_words_written_right_before_it():
    assert labelled("a width of 30, 2 bathrooms and shareholder's equity = $5,000,000 at a rate of 5%") == (
        ("a width", 30), ("", 2), ("bathrooms and shareholder equity", 5000000), ("at a rate", 5), ("at a rate", 0.05))
    labels = labelled("an interest rate of 5% for 10 years, then an interest rate of 4%, and a rate of 5%")
    assert numbers_named(labels, "interest_rate") == [5, 4]  # as written, each once, no fractions
    assert numbers_named(labels, "rate") == [5, 4] and numbers_named(labels, "years") == []


def test_a_number_written_after_an_arguments_name_is_that_arguments():
    sides = {"type": "object", "properties": {"width": {"type": "integer"}, "length": {"type": "integer"},
                                              "rate": {"type": "number"}}}
    props = copied(sides, offered_values(["a length of 50 m and a width of 30 m, at a rate of 5%"]))["properties"]
    assert props["width"]["enum"] == [30] and props["length"]["enum"] == [50]  # not swapped
    assert props["rate"]["enum"] == [0.05]  # a percentage named as the rate, as a fraction
    rooms = {"type": "object", "properties": {"bedrooms": {"type": "integer"}, "bathrooms": {"type": "integer"},
                                              "area": {"type": "integer"}}}
    props = copied(rooms, offered_values(["3 bedrooms, 2 bathrooms and an area of 1800 sq ft"]))["properties"]
    assert props["bathrooms"]["enum"] == [2] and props["bedrooms"]["enum"] == [3]  # what each number counts
    assert props["area"]["enum"] == [1800]
    props = copied(sides, offered_values(["a width of 30 and then 30 again, length 50"]))["properties"]
    assert props["length"]["enum"] == [30, 50]  # 30 is also written unnamed
    props = copied(sides, offered_values(["Breite 30, Länge 50"]))["properties"]
    assert props["width"]["enum"] == [30, 50]  # words it cannot read name nothing: every number stays


def test_a_name_is_labelled_with_the_words_right_before_it_after_a_stop_word():
    assert named_strings("Create a 'Design Review' event in the 'Blue Lagoon' room. Ask Dr. Lee about the team "
                         "Falcons; then play high quality Roar by Katy Perry. Thanks") == (
        (("", "event"), "Design Review"), (("", "room"), "Blue Lagoon"), (("",), "Dr. Lee"), (("team",), "Falcons"),
        (("play high quality",), "Roar"), (("",), "Katy Perry"))  # a quoted name's next word; a sentence ends a name


def test_a_name_written_after_a_string_arguments_name_is_not_another_arguments():
    event = {"type": "object", "properties": {"title": {"type": "string"}, "room": {"type": "string"}}}

    def offered(request: str) -> dict[str, list[str]]:
        props = copied(event, offered_values([request]))["properties"]
        return {key: [value for value in props[key]["enum"] if value in ("Design Review", "Blue Lagoon")]
                for key in props}
    assert offered("Book an event with the title 'Design Review' in the room 'Blue Lagoon'") == {
        "title": ["Design Review"], "room": ["Blue Lagoon"]}  # each name is its argument's alone
    assert offered("Book a 'Design Review' event in the 'Blue Lagoon' room") == {
        "title": ["Design Review"], "room": ["Design Review", "Blue Lagoon"]}  # "event" names no argument
    assert offered("Book a Design Review in the room Blue Lagoon; the Blue Lagoon is big") == {
        "title": ["Design Review", "Blue Lagoon"], "room": ["Blue Lagoon"]}  # also written unnamed; "room" before it
    assert offered("Buche ein Treffen 'Design Review' im Raum 'Blue Lagoon'") == {
        "title": ["Design Review", "Blue Lagoon"], "room": ["Blue Lagoon"]}  # "Raum" means room (a label read by meaning)
    play = {"type": "object", "properties": {"quality": {"type": "string"}, "song": {"type": "string"}}}
    assert "Roar" in copied(play, offered_values(["Play high quality Roar"]))["properties"]["song"]["enum"]


def test_a_stretch_that_gives_one_argument_its_value_is_offered_to_no_free_string():
    lost = {"type": "object", "properties": {
        "where_lost": {"type": "string", "description": "Where it was lost."},
        "contact_email": {"type": "string", "format": "email"},
        "list": {"type": "string", "enum": ["groceries", "todo", "packing"]}}}
    props = copied(lost, offered_values(["I lost my phone at the grocery store, write to ana@example.com"]))["properties"]
    assert props["contact_email"]["enum"] == ["ana@example.com"] and props["list"]["enum"] == ["groceries"]
    assert "ana@example.com" not in props["where_lost"]["enum"] and "grocery" not in props["where_lost"]["enum"]
    assert "phone" in props["where_lost"]["enum"]
    places = {"type": "object", "properties": {"location": {"type": "string"},
                                               "cuisine": {"type": "string", "enum": ["italian", "thai", "mexican"]}}}
    props = copied(places, offered_values(["Find restaurants in Little Italy"]))["properties"]
    assert props["cuisine"]["enum"] == ["italian"] and "Little Italy" in props["location"]["enum"]  # by meaning, two words
    task = {"type": "object", "properties": {"title": {"type": "string"},
                                             "priority": {"type": "string", "enum": ["low", "normal", "high"]}}}
    props = copied(task, offered_values(["Add a task Review high school applications, high priority"]))["properties"]
    assert "Review high school applications" in props["title"]["enum"]  # a longer stretch that holds "high" stays
    props = copied(lost, offered_values(["ana@example.com"]))["properties"]  # all it offers: left as it was
    assert props["where_lost"]["enum"] == ["ana@example.com"]
    shared = {"type": "object", "properties": {"list": lost["properties"]["list"], "note": {"type": "string"},
                                               "tag": {"type": "string", "enum": ["a", "b", "c"]}}}
    props = copied(shared, offered_values(["Note: buy tape for packing, or todo"]))["properties"]
    assert props["note"]["enum"] == ["buy tape for packing, or todo"]  # a label gives it its value
    props = copied(shared, offered_values(["A note to buy tape for packing, or todo"]))["properties"]
    assert "packing" in props["note"]["enum"]  # two of three listed: the request did not settle it


def test_a_stretch_that_writes_only_a_number_another_argument_takes_is_offered_to_no_free_string():
    goal = {"type": "object", "properties": {"name": {"type": "string"}, "target_amount": {"type": "number"}}}
    props = copied(goal, offered_values(["「結婚式」という貯金目標を作って。目標は200万円。"]))["properties"]
    assert props["target_amount"]["enum"] == [2000000]
    assert "結婚式" in props["name"]["enum"] and not any("200" in name for name in props["name"]["enum"])
    table = {"type": "object", "properties": {"restaurant": {"type": "string"}, "party_size": {"type": "integer"}}}
    props = copied(table, offered_values(["Book a table for 4 at Hanilkwan"]))["properties"]
    assert props["party_size"]["enum"] == [4] and "Hanilkwan" in props["restaurant"]["enum"]
    assert "for 4" not in props["restaurant"]["enum"] and "4 at Hanilkwan" not in props["restaurant"]["enum"]
    props = copied(table, offered_values(["Book a table for three at Dune Part Three"]))["properties"]
    assert props["party_size"]["enum"] == [3] and "Dune Part Three" in props["restaurant"]["enum"]  # a name's number
    props = copied(table, offered_values(["Book a table at Hanilkwan for 4 or 5 people"]))["properties"]
    assert "4 or 5 people" in props["restaurant"]["enum"]  # no number settled: every stretch stays


def test_a_percentage_goes_to_the_argument_that_takes_one_not_to_the_others():
    bill = {"type": "object", "properties": {"total": {"type": "number"}, "people": {"type": "integer"},
                                             "tip_percent": {"type": "number"}}}
    props = copied(bill, offered_values(["Somos siete y la cuenta es de 315. Divídela con un 15 % de propina."]))
    people, total = props["properties"]["people"]["enum"], props["properties"]["total"]["enum"]
    assert 7 in people and 15 not in people and props["properties"]["tip_percent"]["enum"] == [15]
    assert 315 in total and 15 not in total and 0.15 not in total
    chairs = {"type": "object", "properties": {"quantity": {"type": "integer"}, "discount_percent": {"type": "number"}}}
    props = copied(chairs, offered_values(["Order 10 chairs at 50 dollars each with a 10% discount"]))["properties"]
    assert 10 in props["quantity"]["enum"]  # written as a count too
    loan = {"type": "object", "properties": {"principal": {"type": "number"}, "rate": {"type": "number"}}}
    props = copied(loan, offered_values(["A loan of 1000 at 5% for 3 years"]))["properties"]
    assert 0.05 in props["rate"]["enum"] or 5 in props["rate"]["enum"]  # no argument takes a percentage: as before


@pytest.mark.parametrize("text", ["买两张票，两个大人一个小孩。", "大人2名、子供1名でお願いします。", "성인 2명, 아이 1명 예약해 줘."])
def test_counts_of_adults_and_children_go_to_their_own_arguments_in_chinese_japanese_and_korean(text):
    tickets = {"type": "object", "properties": {"adults": {"type": "integer"}, "children": {"type": "integer"}}}
    props = copied(tickets, offered_values([text]))["properties"]
    assert props["adults"]["enum"] == [2] and props["children"]["enum"] == [1]


def test_a_free_string_takes_the_name_written_after_a_word_for_its_argument_in_any_language():
    tickets = {"type": "object", "properties": {"restaurant": {"type": "string"}, "museum": {"type": "string"}}}
    props = copied(tickets, offered_values(["Reservier einen Tisch im Restaurant Zur Linde, bitte"]))["properties"]
    assert "Restaurant Zur Linde" in props["restaurant"]["enum"]
    assert all(value.startswith("Restaurant") for value in props["restaurant"]["enum"])
    props = copied(tickets, offered_values(["Deux billets pour le musée d'Orsay demain"]))["properties"]
    assert props["museum"]["enum"] == ["musée d'Orsay"]  # not "d'Orsay": no stretch starts at an elided article
    props = copied(tickets, offered_values(["Book Luigi's restaurant for 4 people"]))["properties"]
    assert "Luigi" in props["restaurant"]["enum"]  # the word after the name, before no name: nothing held


def test_a_code_among_examples_in_brackets_leaves_a_free_string_copied():
    request = offered_values(["Book a taxi from 14 Elm Street, the driver should ring twice"])
    for description, copied_ in [("Message for the driver (luggage, meeting point, door code, ...).", True),
                                 ("The pickup airport's IATA code.", False),
                                 ("The airport (IATA code, e.g. JFK).", False),
                                 ("The departure airport (IATA code, e.g. JFK, LAX).", False),
                                 ("The currency (ISO 4217 code, such as USD, EUR).", False),
                                 ("The currency (ISO code, USD, EUR, GBP).", False)]:
        note = {"type": "object", "properties": {"note": {"type": "string", "description": description}}}
        assert ("enum" in copied(note, request)["properties"]["note"]) is copied_, description
