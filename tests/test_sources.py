"""The candidate sources, each on its own: its example, its switch, the reference page made from
the table, and the conversation's day that dates from today count from."""

import datetime
from dataclasses import replace
from pathlib import Path

import pytest

from gbnf.errors import GbnfError
from gbnf.shape import Conversation, Shaping, shape
from gbnf.shape.rules import (
    copied,
    counted,
    counts_argument,
    offered_values,
    read_request,
    without_parts,
    without_the_day,
    without_times,
)
from gbnf.shape.sources import NAMES, SOURCES, candidates, reference
from gbnf.tools import Tool

DOCS = Path(__file__).resolve().parents[1] / "docs" / "sources.md"


@pytest.mark.parametrize("source", SOURCES, ids=lambda source: source.name)
def test_each_source_offers_its_example(source):
    example = source.example
    values = offered_values([example.request])
    assert tuple(source.offers(example.name, example.schema, values)) == example.offered


@pytest.mark.parametrize("source", SOURCES, ids=lambda source: source.name)
def test_a_source_switched_off_offers_nothing_and_the_next_of_its_kind_is_asked(source):
    example = source.example
    values = offered_values([example.request])
    assert candidates(source.kind, example.name, example.schema, values)[0] == source.name  # on: it answers
    off = values.__class__(**{**values.__dict__, "off": frozenset({source.name})})
    assert candidates(source.kind, example.name, example.schema, off)[0] != source.name


def test_the_reference_page_is_the_table():
    assert DOCS.read_text(encoding="utf-8") == reference(), "run: python -m gbnf.shape.sources > docs/sources.md"
    assert all(f"## `{name}`" in reference() for name in NAMES)


def test_a_source_that_does_not_exist_is_named_with_those_that_do():
    with pytest.raises(GbnfError, match="no candidate source 'dates_typo'.*choose among"):
        Shaping(sources_off=frozenset({"dates_typo"}))


FORECAST = Tool("get_forecast", "The weather forecast for a city on a day.",
                {"type": "object", "required": ["city", "date"],
                 "properties": {"city": {"type": "string"},
                                "date": {"type": "string", "description": "The day, YYYY-MM-DD"}}})


def _dates(messages, today=None, shaping=Shaping()):
    shaped = shape(Conversation(tuple(messages), (FORECAST,), "required", today=today), shaping)
    return shaped.tools[0].parameters["properties"]["date"].get("enum")


def test_tomorrow_counts_from_the_day_the_conversation_says_today_is_else_its_clock():
    asked = ("user", "What's the forecast for Oslo tomorrow?")
    assert _dates([("system", "Today is 2025-03-03."), asked]) == ["2025-03-04"]
    assert _dates([asked], today=datetime.date(2024, 2, 28)) == ["2024-02-29"]
    assert _dates([("user", "Heute ist der 3. März 2025."), ("assistant", "Ja."), asked]) == ["2025-03-04"]
    off = _dates([asked], shaping=Shaping(sources_off=frozenset({"dates"})))  # the next source: stretches
    assert "tomorrow" in off and not any(value[0].isdigit() for value in off)


def test_earlier_turns_and_tool_results_offer_values():
    messages = [("user", "Weather in Oslo tomorrow?"), ("tool", '{"city": "Oslo", "alerts": ["Storm Ingrid"]}'),
                ("user", "And the day after that, there?")]
    shaped = shape(Conversation(tuple(messages), (FORECAST,), "required", today=datetime.date(2025, 3, 3)), Shaping())
    assert "Oslo" in shaped.tools[0].parameters["properties"]["city"]["enum"]


ROOMS = ["kitchen", "bedroom", "bathroom", "living_room"]
MODES = ["driving", "walking", "cycling", "transit"]


@pytest.mark.parametrize(("request_", "listed", "meant"), [
    ("Schalte das Licht in der Küche aus", ROOMS, "kitchen"),
    ("Allume la lumière du salon", ROOMS, "living_room"),
    ("寝室のエアコンを消して", ROOMS, "bedroom"),
    ("把客厅的灯关掉", ROOMS, "living_room"),
    ("Pinta el coche de rojo", ["red", "green", "blue"], "red"),
    ("Ich fahre mit dem Fahrrad", MODES, "cycling"),
    ("Route me there on foot", MODES, "walking"),
    ("How do I get there by bus?", MODES, "transit"),
    ("Spiel etwas klassische Musik", ["rock", "jazz", "classical"], "classical"),
    ("Envoie-le en express", ["standard", "express", "overnight"], "express"),
    ("Abre la puerta del garaje", ["front", "back", "garage"], "garage"),
    ("What's the capital of France?", ROOMS, None),
    ("Tell me a joke", ["low", "medium", "high"], None),
])
def test_an_enum_value_is_named_by_meaning_in_any_language(request_, listed, meant):
    """The cases :data:`~gbnf.shape.sources.enum_meaning.NAMED` was chosen on."""
    source = next(s for s in SOURCES if s.name == "enum-meaning")
    offered = source.offers("value", {"type": "string", "enum": listed}, offered_values([request_]))
    assert (meant in offered and len(offered) < len(listed)) if meant else offered == []


@pytest.mark.parametrize(("request_", "listed", "first"), [
    ("Mi hijo no irá a clase porque tiene cita con el dentista.",
     ["illness", "medical_appointment", "family_emergency", "other"], "medical_appointment"),
    ("The funeral of my grandmother is on Friday, so she stays home.",
     ["illness", "bereavement", "medical_appointment", "other"], "bereavement"),
    ("Il pacco arriva con il corriere espresso domani mattina.", ["standard", "overnight", "express"], None),
    ("Please excuse Tom from school on Friday, he has to see the dentist.",
     ["illness", "medical_appointment", "family_emergency", "bereavement", "other"], "medical_appointment"),
    ("Tom bleibt morgen zu Hause, er hat einen Termin beim Kieferorthopäden.",
     ["illness", "medical_appointment", "family_emergency", "bereavement", "other"], "medical_appointment"),
])
def test_an_enum_lists_first_the_value_the_request_means_and_keeps_the_others(request_, listed, first):
    """A small model writes the first value its prompt lists: where the request does not name one
    value closely enough to narrow the enum to it, the prompt lists the closest first and the
    grammar allows the others; where two are about as close ("espresso domani mattina": express
    and overnight), with the source switched off, and for a capable model, the prompt lists the
    enum as declared."""
    tool = Tool("file_request", "File a request of one kind.", {
        "type": "object", "properties": {"reason": {"type": "string", "enum": listed}}, "required": ["reason"]})
    conversation = Conversation((("user", request_),), (tool,), "required")
    shaped = shape(conversation, Shaping())
    kept = shaped.tools[0].parameters["properties"]["reason"]["enum"]
    assert len(kept) > 1 and (first is None or first in kept), kept
    assert _listed_order(shaped.prompt, listed) == listed if first is None else \
        _listed_order(shaped.prompt, listed)[0] == first, shaped.prompt
    for settings in (Shaping(sources_off=frozenset({"enum-meaning"})), Shaping.named("capable")):
        assert _listed_order(shape(conversation, settings).prompt, listed) == listed


DISPUTE = ["not_recognised", "charged_twice", "item_not_received", "wrong_amount"]
PORTS = ["dover", "calais", "dunkirk", "portsmouth"]


@pytest.mark.parametrize(("text", "name", "listed", "kept"), [
    ("Tell me when the pound drops under 1.10 euros.", "condition", ["rises_above", "falls_below"], ["falls_below"]),
    ("Je conteste ce paiement, ils m'ont débité deux fois.", "reason", DISPUTE, ["charged_twice"]),
    ("Alert me if the yen goes over 160 per dollar.", "condition", ["rises_above", "falls_below"],
     ["rises_above", "falls_below"]),  # the clauses put no value ahead
    ("Ferry from Dover to Calais on 2027-09-01, one adult.", "to_port", PORTS, ["calais"]),  # named by its words
])
def test_a_required_enum_is_held_to_the_value_its_stretches_and_its_clauses_both_put_ahead(text, name, listed, kept):
    ports = {key: {"type": "string", "enum": PORTS} for key in ("from_port", "to_port")}
    schema = {"type": "object", "properties": {name: {"type": "string", "enum": listed}, **ports}}
    assert copied(schema, offered_values([text]), declared=[name])["properties"][name]["enum"] == kept
    optional = copied(schema, offered_values([text]))["properties"][name].get("enum", listed)
    assert len(optional) > 1 if name != "to_port" else optional == kept  # an optional enum is not held so
    # unless the request was read as asking for it: the tool as shaped then requires it
    asked = copied({**schema, "required": [name]}, offered_values([text]), declared=[])
    assert asked["properties"][name]["enum"] == kept


def _listed_order(prompt: str, listed: list[str]) -> list[str]:
    return sorted(listed, key=lambda value: prompt.index(f'"{value}"'))


@pytest.mark.parametrize(("text", "times"), [
    ("Wake me at 5:15 please", ["05:15"]), ("at 7 pm", ["19:00"]), ("um 19 Uhr", ["19:00"]),
    ("à 19h30", ["19:30"]), ("下午3点半", ["15:30"]), ("午後3時に", ["15:00"]), ("오후 3시 30분", ["15:30"]),
    ("la 8 de la tarde", ["20:00"]), ("on 2025.03.04", []), ("at 12 am", ["00:00"]),
    ("à 19 heures 30", ["19:30"]), ("alle ore 21", ["21:00"]), ("a las 19 horas", ["19:00"]), ("il 3 luglio alle 18", ["18:00"]),
    ("à 8 heures et demie", ["08:30"]), ("pendant 2 heures", []), ("a las 5 personas", []),
    ("half eleven", ["11:30"]), ("om half elf", ["10:30"]), ("Bed: half eleven.", ["11:30"]),
    ("Weck mich um halb 7.", ["06:30"]), ("Kom om kwart over 8.", ["08:15"]),
    ("alle 21 e 30", ["21:30"]), ("alle 3 di pomeriggio", ["15:00"]), ("vers 7 ou 8 personnes", []),
    ("à 9 heures moins le quart", []), ("卓球台を1時間", []), ("3시간 동안", []), ("中午12点半", ["12:30"]),
    ("午前12時", ["00:00"]), ("this Saturday at 11.", ["11:00"]), ("at 5 locations", []), ("my calendar is in UTC+01:00", []),
    ("at 9:30 in the evening", ["21:30"]), ("from 8 to 9 tonight", ["20:00", "21:00"]),
    ("Разбуди меня в 7 вечера", ["19:00"]), ("в 19 часов", ["19:00"]), ("в семь утра", ["07:00"]),
    ("в 11 ночи", ["23:00"]), ("на 2 часа", []), ("o godzinie 19", ["19:00"]), ("saat 19'da", ["19:00"]),
    ("akşam 7'de", ["19:00"]), ("sabah dokuzda", ["09:00"]), ("saat 7 buçukta", ["07:30"]), ("dört saatlik", []),
    ("sabah bir kahve", []), ("저녁 일곱 시 반", ["19:30"]), ("한 시간 동안", []), ("at seven thirty pm", ["19:30"]),
])
def test_times_are_read_in_several_languages_and_written_as_the_pattern_asks(text, times):
    source = next(s for s in SOURCES if s.name == "times")
    schema = {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}
    assert source.offers("at", schema, offered_values([text])) == times


def test_hour_words_are_read_only_after_their_own_languages_markers():
    for text in ("Onde fica o hotel?", "la onda verde", "Birde bir kahve"):  # no Turkish "on", "bir"
        assert without_times(text) == text
    assert without_times("sabah dokuzda") == " " * len("sabah 9") + "da"


@pytest.mark.parametrize(("request_", "start", "end"), [
    ("Record BBC One from 10 to 11 pm.", "22:00", "23:00"),
    ("Book the court from 11 to 1 pm.", "11:00", "13:00"),
    ("Graba La 1 de diez y media a once y media de la noche.", "22:30", "23:30"),
    ("Nimm von 9 bis 10 Uhr abends auf.", "21:00", "22:00"),
    ("Registra dalle 8 alle 10 di sera.", "20:00", "22:00"),
    ("晚上8点到9点录下来。", "20:00", "21:00"),
    ("오후 3시부터 5시까지 예약해 줘.", "15:00", "17:00"),
    ("Record it from 23:00 to 01:00.", "23:00", "01:00"),
    ("午前10時から12時まで予約して。", "10:00", "12:00"),
    ("Ich brauche jemanden von 17 bis 21 Uhr.", "17:00", "21:00"),  # the clock's word once
    ("Neem het op van 8 tot 10 uur.", "08:00", "10:00"),
])
def test_a_range_of_hours_is_one_half_of_the_day_and_starts_with_its_first(request_, start, end):
    assert _two_offered(request_, CLOCK, ("start_time", "end_time")) == ([start], [end])


def test_a_day_before_a_time_and_a_count_before_a_part_of_the_day_are_no_range_of_hours():
    assert _two_offered("Deliver it March 3 - 5 pm.", CLOCK, ("start_time", "end_time"))[0] == ["17:00"]
    assert read_request("Book a table for 4 tonight").number_lists == ((4,),)


def test_chinese_and_japanese_are_offered_their_words_not_the_sentence():
    chinese, japanese = offered_values(["上海明天天气怎么样？"]), offered_values(["明日の東京の天気は？"])
    assert "上海" in chinese.strings and "上海明天天气怎么样" not in chinese.strings and "怎么样" not in chinese.strings
    assert "東京" in japanese.strings and not any(s.endswith(("の", "は")) for s in japanese.strings)
    goal = offered_values(["「結婚式」という貯金目標を作って。"]).strings
    assert "貯金目標" in goal and not any(s.endswith("作っ") for s in goal)  # a verb ends no value, as in Korean
    codes = offered_values(["从MAN到EDB的火车"])
    source = next(s for s in SOURCES if s.name == "patterns")
    assert source.offers("to", {"type": "string", "pattern": "^[A-Z]{3}$"}, codes) == ["MAN", "EDB"]


@pytest.mark.parametrize(("request_", "files"), [
    ("把季度报告.docx分享给王磊，只读权限。", ["季度报告.docx"]),
    ("企画書.pdfを山本さんに共有して。", ["企画書.pdf"]),
    ("Deel het bestand jaarplan-2027.pdf met Sanne de Vries.", ["jaarplan-2027.pdf"]),
    ("Share report.pdf with Anna, it costs 3.50 euros to print.", ["report.pdf"]),
    ("Open my 'Q3 plan.docx' and the one on example.com", ["Q3 plan.docx"]),
    ("Attach Annual Report.PDF please", ["Attach Annual Report.PDF", "Annual Report.PDF"]),
    ("Upload it to drive.google.com", []),
])
def test_a_file_is_named_with_its_extension_in_any_script(request_, files):
    source = next(s for s in SOURCES if s.name == "files")
    assert source.offers("file_name", {"type": "string"}, offered_values([request_])) == files
    assert source.offers("recipient", {"type": "string"}, offered_values([request_])) == []


def test_a_name_is_offered_without_the_case_ending_written_onto_it():
    strings = offered_values(["Grand Bosphorus Otel'de 1 Mart'tan itibaren 3 gece kal, Kadıköy'e yakın."]).strings
    assert {"Grand Bosphorus Otel", "Kadıköy"} <= set(strings)
    assert not any("'" in string for string in strings)
    assert "Luigi's" in offered_values(["Book Luigi's at 8"]).strings  # an English possessive names a place
    assert "Hawai'i" in offered_values(["A hotel in Hawai'i, please"]).strings  # no Turkish text: no case ending


@pytest.mark.parametrize(("request_", "first", "second"), [
    ("Any trains to EDB from MAN?", "MAN", "EDB"),
    ("Zug nach HAM von MUC, bitte", "MUC", "HAM"),
    ("Un billet pour LYS depuis CDG", "CDG", "LYS"),
    ("从PEK到SHA的航班", "PEK", "SHA"),
    ("NRTからKIXまで", "NRT", "KIX"),
])
def test_a_pair_of_arguments_takes_its_values_by_the_request_s_markers(request_, first, second):
    code = {"type": "string", "pattern": "^[A-Z]{3}$"}
    assert _two_offered(request_, code, ("from_station", "to_station")) == ([first], [second])


CLOCK = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"}


def _two_offered(request_: str, part: dict, keys: tuple[str, str]) -> tuple[list, list]:
    """The candidates a request offers each of two arguments that take ``part``."""
    props = copied({"type": "object", "properties": dict.fromkeys(keys, part)}, offered_values([request_]))["properties"]
    return props[keys[0]].get("enum"), props[keys[1]].get("enum")


def test_a_pair_of_codes_named_in_words_follows_the_markers_too():
    code = {"type": "string", "description": "ISO 639-1 code"}
    schema = {"type": "object", "properties": {"source_language": code, "target_language": code}}
    props = copied(schema, offered_values(['Translate "good morning" into Japanese from English']))["properties"]
    assert props["source_language"]["enum"] == ["en"] and props["target_language"]["enum"] == ["ja"]
    unmarked = copied(schema, offered_values(["English and Japanese"]))["properties"]  # no marker: both stay
    assert unmarked["source_language"]["enum"] == unmarked["target_language"]["enum"] == ["en", "ja"]


def test_a_profile_that_imposes_no_values_still_shows_them_when_asked():
    code = {"type": "string", "pattern": "^[A-Z]{3}$"}
    trains = Tool("search_trains", "Trains between two stations.",
                  {"type": "object", "required": ["from_station", "to_station"],
                   "properties": {"from_station": code, "to_station": code}})
    asked = Conversation((("user", "Any trains to EDB from MAN?"),), (trains,))
    capable = shape(asked, "capable", explain=True)
    assert capable.tools[0].parameters == trains.parameters  # the grammar: as declared
    assert capable.decisions["values"] == {"search_trains": {"from_station": ["MAN"], "to_station": ["EDB"]}}
    assert capable.decisions["values_imposed"] is False
    small = shape(asked, "small", explain=True)
    assert small.tools[0].parameters["properties"]["to_station"]["enum"] == ["EDB"]
    assert "values_imposed" not in small.decisions


@pytest.mark.parametrize(("text", "name", "schema", "offered"), [
    ("Run the sprinklers for an hour at 9 pm", "minutes", {"type": "integer"}, [60]),
    ("Book a 45-minute lesson at 17:00", "duration_min", {"type": "integer"}, [45]),
    ("Set a timer for 1 hour 30 minutes", "seconds", {"type": "integer"}, [5400]),
    ("Arrose la pelouse pendant une demi-heure, à 20h15.", "minutes", {"type": "integer"}, [30]),
    ("Gieß den Rasen eine halbe Stunde lang, bitte um 7 Uhr", "minutes", {"type": "integer"}, [30]),
    ("Riega el jardín durante una hora y media", "minutes", {"type": "integer"}, [90]),
    ("给花坛浇二十五分钟水，下午五点开始", "minutes", {"type": "integer"}, [25]),
    ("1時間半の会議を入れて", "hours", {"type": "number"}, [1.5]),
    ("The weather for the next 3 days", "days", {"type": "integer"}, [3]),
    ("Wait 90 seconds", "minutes", {"type": "integer"}, []),  # not a whole number of minutes
    ("Wait 90 seconds", "timeout", {"type": "number", "description": "Timeout in minutes."}, [1.5]),
    ("7時30分に起こして", "minutes", {"type": "integer"}, []),  # a time of day
    ("Clean the flat from 10:00 to 16:00", "hours", {"type": "integer"}, [6]),  # the time between two times
    ("Book the court from 17:00 to 18:30", "duration_minutes", {"type": "integer"}, [90]),
    ("Book the court at 18:30, then remind me at 17:00", "duration_minutes", {"type": "integer"}, []),  # no span
    ("Two tickets at 9 pm", "minutes", {"type": "integer"}, []),
    ("Add a tag to it as long as it takes", "minutes", {"type": "integer"}, []),
    ("Filter for an hour", "min_price", {"type": "integer"}, []),  # "min" is a minimum here
    ("3 meat meals a week", "meals_per_week", {"type": "integer"}, []),  # a rate
    ("Play them for 20 minutes and 15 minutes respectively", "duration", {"type": "integer",
                                                                          "description": "In minutes."}, [20, 15]),
])
def test_lengths_of_time_are_offered_in_the_unit_the_argument_counts_in(text, name, schema, offered):
    source = next(s for s in SOURCES if s.name == "durations")
    assert source.offers(name, schema, offered_values([text])) == offered


def test_a_length_a_tool_result_gives_as_a_number_alone_is_offered_beside_those_written():
    """``"recommended_minutes": 25`` in a tool's result is a length too; the hour of a time of
    day is none."""
    source = next(s for s in SOURCES if s.name == "durations")
    values = offered_values(["Do a run of the recommended length then at 7 pm.", "Water the lawn for 10 minutes."],
                            whole=["25", "front_lawn"])
    assert source.offers("minutes", {"type": "integer"}, values) == [10, 25]


@pytest.mark.parametrize(("text", "written"), [
    ("Zwei Tickets nach Berlin", [2]), ("trois billets pour Lyon", [3]), ("dos personas para el viernes", [2]),
    ("vingt-deux euros pour le dîner", [22]), ("三张票", [3]), ("两个人", [2]), ("十二个", [12]), ("二泊で", [2]),
    ("Sei so nett", []), ("three tickets", [3]), ("one thousand two hundred and six", [1206]),
    ("twenty-five minutes", [25]), ("two or three people", [2, 3]),
    ("drei Nächte", [3]), ("quinze minutes", [15]), ("大人4名", [4]), ("我们4个人", [4]), ("2泊3日", [2, 3]),
    ("네 명", [4]), ("표 두 장 주세요", [2]), ("세 시간", [3]), ("MTR-700214", []), ("네 주문할게요", []),
    ("근처에 한 병원 찾아줘", []), ("12ab3", []),
    ("目標は150万円。", [1500000]), ("매달 20만 원씩", [200000]), ("予算は3千円", [3000]),  # scales of ten thousand
    ("音量调到四十。", [40]), ("一下。", []), ("十一月", []),  # tens at a clause's end; no month
])
def test_numbers_written_in_words_of_other_languages_are_offered(text, written):
    assert list(offered_values([text]).numbers) == written


FEEDER = Tool("schedule_feeding", "Schedule the pet feeder.",
              {"type": "object", "required": ["time", "grams"],
               "properties": {"time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"},
                              "grams": {"type": "integer"},
                              "repeat": {"type": "string", "enum": ["once", "daily", "weekdays"]},
                              "note": {"type": "string"}}})


def test_under_auto_a_request_that_offers_no_value_a_required_typed_argument_takes_is_answered_in_text():
    asked = shape(Conversation((("user", "Is 40 grams a day enough food for a beagle?"),), (FEEDER,)), Shaping())
    assert asked.reply == "text" and "offers no value" in asked.decisions["why"]
    timed = shape(Conversation((("user", "Feed the dog 40 grams at 7:30 every day"),), (FEEDER,)), Shaping())
    assert timed.reply != "text"
    required = shape(Conversation((("user", "Is 40 grams a day enough food for a beagle?"),), (FEEDER,), "required"),
                     Shaping())
    assert required.reply == "call"  # the client asked for a call: it gets one


VISA = Tool("check_visa_requirements", "Check whether a passport holder needs a visa for a country.", {
    "type": "object", "required": ["passport_country", "destination_country"],
    "properties": {"passport_country": {"type": "string", "pattern": "^[A-Z]{2}$"},
                   "destination_country": {"type": "string", "pattern": "^[A-Z]{2}$"}}})
TODO = Tool("add_list_item", "Add an item to one of the user's lists.", {
    "type": "object", "required": ["list", "item"],
    "properties": {"list": {"type": "string", "enum": ["todo", "groceries", "books"]}, "item": {"type": "string"},
                   "priority": {"type": "string", "enum": ["low", "normal", "high"]}}})


def test_a_request_closest_to_a_tool_it_gives_no_value_for_asks_for_the_next_it_gives_values_for():
    put = shape(Conversation((("user", "Put 'renew passport' on my to-do list, high priority."),), (VISA, TODO)),
                Shaping())
    assert put.reply == "call" and [t.name for t in put.tools] == ["add_list_item"], put.decisions["why"]
    asked = shape(Conversation((("user", "Do I need to renew my passport before it runs out?"),), (VISA, TODO)),
                  Shaping())
    assert asked.reply == "text"  # a question: no call made of what it does not ask


def test_an_optional_typed_argument_is_asked_for_where_the_request_offers_it_a_value_in_any_language():
    for request_, left in [("Feed the dog 40 grams at 7:30", ["repeat", "note"]),
                           ("Feed the dog 40 grams at 7:30 every day", ["note"]),
                           ("Gib dem Hund täglich um 7:30 40 Gramm", ["note"])]:
        shaped = shape(Conversation((("user", request_),), (FEEDER,), "required"), Shaping())
        assert shaped.decisions["left_out"].get("schedule_feeding", []) == left, request_


def test_a_follow_up_is_decided_with_the_message_before_it_and_takes_values_from_the_earlier_call():
    messages = (("user", "Feed Rex 40 grams at 07:30 please"),
                ("assistant", '{"name": "schedule_feeding", "arguments": {"time": "07:30", "grams": 40}}'),
                ("tool", 'schedule_feeding result: {"status": "scheduled", "next": "07:30"}'),
                ("user", "Make that 60 instead."))
    shaped = shape(Conversation(messages, (FEEDER,)), Shaping())
    assert shaped.reply != "text"
    props = shaped.tools[0].parameters["properties"]
    assert props["time"]["enum"] == ["07:30"] and 60 in props["grams"]["enum"]


def test_a_system_prompt_s_date_is_the_day_tomorrow_counts_from():
    assert _dates([("system", "Current date: 2027-05-20 (Thursday)."), ("user", "Forecast for Oslo tomorrow?")]) \
        == ["2027-05-21"]
    assert _dates([("system", "오늘은 2027년 3월 5일 금요일입니다."), ("user", "Forecast for Oslo tomorrow?")]) \
        == ["2027-03-06"]


def test_codes_are_named_in_other_languages_and_a_code_pattern_takes_no_function_word():
    code = {"type": "string", "pattern": "^[a-z]{2}$", "description": "ISO 639-1 code of the language"}
    schema = {"type": "object", "properties": {"language": code}}
    for request_ in ("Un cours d'allemand à 9h", "Ein Kurs auf Deutsch", "我想学德语", "ドイツ語のレッスン"):
        assert copied(schema, offered_values([request_]))["properties"]["language"]["enum"] == ["de"], request_
    plain = {"type": "object", "properties": {"taught_in": {"type": "string", "pattern": "^[a-z]{2}$"}}}
    assert "enum" not in copied(plain, offered_values(["a lesson taught at me in the op"]))["properties"]["taught_in"]


DAY = {"type": "string", "format": "date"}


@pytest.mark.parametrize(("request_", "start", "end"), [
    ("Drop-off on June 20, 2027, pick-up on June 14, 2027.", "2027-06-14", "2027-06-20"),
    ("Rückgabe am 12. Juli 2027, abholen am 5. Juli 2027.", "2027-07-05", "2027-07-12"),
    ("From the 3rd to the 7th of August 2027, please.", "2027-08-03", "2027-08-07"),
    ("Du 3 au 7 août 2027.", "2027-08-03", "2027-08-07"),
    ("Del 3 al 7 de agosto de 2027.", "2027-08-03", "2027-08-07"),
    ("2027年8月3日到7日。", "2027-08-03", "2027-08-07"),
    ("August 3 to 7, 2027", "2027-08-03", "2027-08-07"),
    ("Vrij van 3 tot en met 7 augustus 2027.", "2027-08-03", "2027-08-07"),
])
def test_a_span_of_time_starts_before_it_ends_whatever_order_and_language_it_is_written_in(request_, start, end):
    for first, second in (("pickup_date", "return_date"), ("checkIn", "checkOut"), ("start_date", "end_date")):
        schema = {"type": "object", "properties": {first: DAY, second: DAY}}
        props = copied(schema, offered_values([request_]))["properties"]
        assert (props[first]["enum"], props[second]["enum"]) == ([start], [end]), first


def test_a_day_written_as_an_ordinal_before_its_month_ends_no_sentence():
    strings = offered_values(["Rückgabe am 12. Juli 2027 in Hamburg."]).strings
    assert "12. Juli 2027" in strings and "Room 12. Then" not in offered_values(["Room 12. Then lunch."]).strings


@pytest.mark.parametrize(("request_", "date"), [
    ("给车牌京A12345的车预约2027年12月3日换机油。", "2027-12-03"),  # no space around the date
    ("15 Mayıs 2027'de teslim almak üzere bir pasta sipariş et.", "2027-05-15"),  # a case ending on the year
    ("Запиши машину на 12 октября 2027 года.", "2027-10-12"),
])
def test_a_date_is_read_where_the_words_around_it_run_on(request_, date):
    source = next(s for s in SOURCES if s.name == "typed-dates")
    assert source.offers("day", DAY, offered_values([request_])) == [date]


def test_a_pair_of_dates_that_is_no_span_keeps_every_date():
    request_ = "Arriving on June 20, 2027, leaving on June 14, 2027."  # arrival and departure: no one order
    schema = {"type": "object", "properties": {"arrival_date": DAY, "departure_date": DAY}}
    props = copied(schema, offered_values([request_]))["properties"]
    assert props["arrival_date"]["enum"] == props["departure_date"]["enum"] == ["2027-06-20", "2027-06-14"]


def test_a_sentence_that_says_what_day_it_is_is_the_day_tomorrow_counts_from():
    assert _dates([("user", "It's Monday the 1st of February 2027. What's the forecast for Oslo tomorrow?")]) \
        == ["2027-02-02"]
    assert _dates([("user", "Nous sommes le 3 mars 2027. Quel temps fera-t-il à Oslo demain ?")]) == ["2027-03-04"]
    party = _dates([("user", "The party? It's on 12 March 2027. What's the forecast for Oslo then?")])
    assert party == ["2027-03-12"]  # a date it is on, not the day it is


@pytest.mark.parametrize(("text", "quoted"), [
    ("Drei Karten für „Das Lehrerzimmer“ am 6. Februar.", "Das Lehrerzimmer"),
    ("帮我买两张《流浪地球3》的票", "流浪地球3"),
    ("Cuatro entradas para «Coco» este sábado.", "Coco"),
    ('Play "Bohemian Rhapsody" by Queen', "Bohemian Rhapsody"),
])
def test_a_stretch_that_crosses_a_quotation_mark_is_no_value(text, quoted):
    strings = offered_values([text]).strings
    assert quoted in strings
    assert not [s for s in strings if s != quoted and any(mark in s for mark in "„“«»《》\"")]


LESSON = Tool("schedule_lesson", "Book a language lesson.", {
    "type": "object", "required": ["language", "date"],
    "properties": {"language": {"type": "string", "enum": ["en", "de", "fr", "pt"]},
                   "taught_in": {"type": "string", "enum": ["en", "de", "fr", "pt"]},
                   "date": {"type": "string", "format": "date"},
                   "duration_minutes": {"type": "integer", "enum": [30, 45, 60, 90]}}})


@pytest.mark.parametrize(("request_", "minutes"), [
    ("Book a 45-minute Portuguese lesson on 2027-03-10.", 45),
    ("Réserve-moi un cours d'allemand de 30 minutes le 14 mars 2027.", 30),
    ("Book a Portuguese lesson on 2027-03-10 for an hour and a half.", 90),
])
def test_a_length_written_asks_for_an_optional_number_in_its_unit_and_narrows_its_list(request_, minutes):
    shaped = shape(Conversation((("user", request_),), (LESSON,), "required"))
    properties = shaped.tools[0].parameters["properties"]
    assert properties["duration_minutes"]["enum"] == [minutes]
    assert "taught_in" not in properties  # one language written: the required argument's


def test_an_optional_argument_is_kept_where_the_request_writes_it_a_value_of_its_own():
    shaped = shape(Conversation((("user", "Book a Portuguese lesson taught in French on 2027-03-10."),), (LESSON,),
                                "required"))
    properties = shaped.tools[0].parameters["properties"]
    assert "taught_in" in properties and "duration_minutes" not in properties


def test_a_code_written_with_a_space_is_offered_joined_and_its_words_not_alone():
    flight = {"type": "string", "pattern": "^[A-Z0-9]{2}[0-9]{1,4}$"}
    props = copied({"type": "object", "properties": {"flight": flight}},
                   offered_values(["Seat 22A on LH 401, please."]))["properties"]
    assert props["flight"]["enum"] == ["LH401"]


@pytest.mark.parametrize(("text", "written"), [
    ("Submit 1840 for meter MTR-700214", [1840]), ("COVID-19 cases in 2021", [2021]),
    ("a single ticket", [1]), ("a couple of tickets", [2]), ("twice a day", [2]),
])
def test_the_digits_of_a_code_are_no_number_and_a_count_may_be_a_word(text, written):
    assert list(offered_values([text]).numbers) == written


@pytest.mark.parametrize(("text", "times"), [
    ("Plan een les voor me om kwart over vijf 's middags", ["17:15"]), ("um Viertel vor acht abends", ["19:45"]), ("um halb sechs", ["05:30"]),
    ("at noon", ["12:00"]), ("a medianoche", ["00:00"]), ("中午见", ["12:00"]), ("quarter past 5 pm", ["17:15"]),
    ("Let us meet halfway", []),
])
def test_quarters_halves_noon_and_midnight_are_times(text, times):
    at = {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}
    assert copied({"type": "object", "properties": {"at": at}}, offered_values([text]))["properties"]["at"].get(
        "enum", []) == times


def test_what_a_request_asks_is_read_without_its_sentences_that_say_the_day():
    assert without_the_day("Hoy es lunes 12 de abril de 2027. Cómprame cuatro entradas.") == "Cómprame cuatro entradas."
    assert without_the_day("It's Monday the 1st of February 2027. Rent me a car.") == "Rent me a car."
    assert without_the_day("Today is 2025-03-03.") == "Today is 2025-03-03."
    assert without_the_day("Book it for 2025-03-03. Thanks!") == "Book it for 2025-03-03. Thanks!"


@pytest.mark.parametrize(("request_", "first", "second"), [
    ("Scale the banana bread recipe from 6 servings up to 15.", 6, 15),
    ("Adatta la ricetta del tiramisù da otto porzioni a tre.", 8, 3),
    ("Passe la recette de 4 à 10 portions.", 4, 10),
])
def test_a_pair_of_numbers_takes_its_values_by_the_request_s_markers(request_, first, second):
    count = {"type": "integer"}
    schema = {"type": "object", "properties": {"from_servings": count, "to_servings": count}}
    props = copied(schema, offered_values([request_]))["properties"]
    assert (props["from_servings"]["enum"], props["to_servings"]["enum"]) == ([first], [second])


@pytest.mark.parametrize(("text", "pattern", "code"), [
    ("Add a roaming pass to +44 7700 900 123, with 10 GB.", r"^\+[1-9][0-9]{7,14}$", "+447700900123"),
    ("put a roaming pass on 0044 7911 123456", r"^\+[1-9][0-9]{7,14}$", "+447911123456"),
    ("Ik wil een fiets huren bij station ST 0087.", r"^ST-[0-9]{4}$", "ST-0087"),
    ("Bitte mein Rezept RX-0092817 nachbestellen.", r"^RX[0-9]{7}$", "RX0092817"),
    ("Postcode 1017 ab, huisnummer 24.", r"^[1-9][0-9]{3}[A-Z]{2}$", "1017AB"),
    ("Seat 22A on LH 401, please.", r"^[A-Z0-9]{2}[0-9]{1,4}$", "LH401"),
])
def test_a_code_written_in_groups_is_offered_as_its_pattern_writes_it(text, pattern, code):
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": pattern}}}
    assert copied(schema, offered_values([text]))["properties"]["code"]["enum"] == [code]


@pytest.mark.parametrize(("text", "country"), [
    ("Book a hotel in Lisbon for May.", "PT"), ("Réservez-moi une suite à Rome.", "IT"),
    ("帮我订东京的酒店", "JP"), ("ソウルのホテルを予約して。", "KR"), ("A hotel in Germany near Paris", "DE"),
])
def test_a_country_code_is_offered_for_the_country_or_else_the_city_a_request_names(text, country):
    code = {"type": "string", "pattern": "^[A-Z]{2}$", "description": "ISO 3166-1 alpha-2 country code."}
    props = copied({"type": "object", "properties": {"country": code}}, offered_values([text]))["properties"]
    assert props["country"]["enum"] == [country]


@pytest.mark.parametrize(("text", "code"), [
    ("Ferry on 2027-07-18 with our car, reg AB12 CDE, the 11:30", "AB12CDE"),
    ("Ölwechsel für mein Auto, Kennzeichen M-AB 1234, am 11. Juni 2027", "MAB1234"),
    ("Reg is ky19 xmp, can I drop it off on 2027-02-16?", "KY19XMP"),
])
def test_a_plate_is_offered_whole_and_no_date_is_a_plate(text, code):
    plate = {"type": "string", "pattern": "^[A-Z0-9]{2,8}$"}
    assert copied({"type": "object", "properties": {"plate": plate}}, offered_values([text]))["properties"]["plate"][
        "enum"] == [code]


def test_a_korean_or_japanese_month_is_read_whole():
    assert _dates([("system", "오늘은 2027년 11월 15일 월요일입니다."), ("user", "내일 날씨는?")]) == ["2027-11-16"]
    assert _dates([("user", "Today's 2027-01-28. What's the forecast for Oslo the day after tomorrow?")]) \
        == ["2027-01-30"]
    assert _dates([("system", "Today is 2027-03-02."), ("user", "Log how I slept last night.")]) == ["2027-03-01"]


PICKUP = Tool("schedule_bulky_waste_pickup", "Schedule a pickup of bulky household waste at a Dutch address.", {
    "type": "object", "required": ["postcode", "house_number", "date"],
    "properties": {"postcode": {"type": "string", "pattern": "^[1-9][0-9]{3}[A-Z]{2}$", "description": "Dutch postcode."},
                   "house_number": {"type": "string", "pattern": "^[1-9][0-9]{0,4}[A-Za-z]?$"},
                   "date": {"type": "string", "format": "date"}}})
HOTEL = Tool("book_hotel_room", "Book a hotel room.", {
    "type": "object", "required": ["city", "country", "check_in"],
    "properties": {"city": {"type": "string"},
                   "country": {"type": "string", "pattern": "^[A-Z]{2}$", "description": "ISO 3166-1 alpha-2 code."},
                   "check_in": {"type": "string", "format": "date"}}})


def test_a_request_that_writes_a_tool_s_code_is_offered_that_tool_where_the_others_lack_a_value():
    asked = Conversation((("user", "Pick up two mattresses from 3511 LK, number 7b, on 2027-01-19, please."),),
                         (HOTEL, PICKUP))
    shaped = shape(asked)
    assert shaped.reply == "call" and [t.name for t in shaped.offered] == ["schedule_bulky_waste_pickup"]
    assert shaped.tools[0].parameters["properties"]["postcode"]["enum"] == ["3511LK"]
    unrelated = shape(Conversation((("user", "What should I do with an old mattress?"),), (HOTEL, PICKUP)))
    assert unrelated.reply != "call"


@pytest.mark.parametrize(("text", "days"), [
    ("Deliver on August 3, 2027 and 2 boxes", ["2027-08-03"]), ("Reserve table 5 and 2027-08-07", ["2027-08-07"]),
    ("Ship on 2027-08-07 - 3 boxes", ["2027-08-07"]),
])
def test_a_number_beside_a_date_is_no_day_of_a_range(text, days):
    schema = {"type": "object", "properties": {"day": DAY}}
    assert copied(schema, offered_values([text]))["properties"]["day"]["enum"] == days


@pytest.mark.parametrize(("text", "days"), [
    ("Put in a leave request for next Monday through Friday.", ["2027-06-21", "2027-06-25"]),
    ("Je serai absent du lundi au jeudi.", ["2027-06-21", "2027-06-24"]),
    ("Ich bin von Freitag bis Dienstag weg.", ["2027-06-18", "2027-06-22"]),
    ("Move it to Friday.", ["2027-06-18"]),
])
def test_a_weekday_that_ends_a_range_counts_from_its_first_day(text, days):
    leave = {"type": "object", "properties": {"start_date": DAY, "end_date": DAY}}
    read_on = replace(offered_values([text]), today=datetime.date(2027, 6, 14), said_today=True)  # a Monday
    props = copied(leave, read_on)["properties"]
    assert sorted({*props["start_date"]["enum"], *props["end_date"]["enum"]}) == days


@pytest.mark.parametrize(("text", "name", "meant"), [
    ("Zet NPO Radio 1 aan in de keuken.", "station", "NPO Radio 1"),
    ("Mets RTL sur l'enceinte du salon.", "station", "RTL"),
    ("Radio Paradise, please.", "station", "Radio Paradise"),  # a name alone
    ("Grand Bosphorus Otel'de iki gece kalmak istiyorum.", "hotel", "Grand Bosphorus"),  # the verb comes last
    ("Paris weather for tomorrow evening please.", "city", "Paris"),  # a city, by the cities' own source
    ("Remind me to call mom tomorrow at 9am.", "text", "Remind me to call mom"),  # the user's own text
])
def test_a_stretch_that_starts_with_the_request_s_opening_verb_is_no_value(text, name, meant):
    offered = copied({"type": "object", "properties": {name: {"type": "string"}}},
                     offered_values([text]))["properties"][name]["enum"]
    first = text.split()[0]
    assert meant in offered and (meant.startswith(first) or not [s for s in offered if s.startswith(first)]), offered


def test_numbers_each_a_code_are_not_joined_and_odd_digits_and_schemas_break_nothing():
    order = {"type": "string", "pattern": "^[0-9]+$"}
    props = copied({"type": "object", "properties": {"order": order, "flag": True, "n": {"type": "integer"}}},
                   offered_values(["Cancel orders 48213 48214 and 48215, option ① please"]))["properties"]
    assert props["order"]["enum"] == ["48213", "48214", "48215"] and props["flag"] is True
    at = {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}
    assert "enum" not in copied({"type": "object", "properties": {"at": at}},
                                offered_values(["Rappelle-moi cet après-midi"]))["properties"]["at"]


ROOMS = Tool("book_rooms", "Book hotel rooms.", {
    "type": "object", "required": ["city", "guests"],
    "properties": {"city": {"type": "string"}, "guests": {"type": "integer", "minimum": 1},
                   "rooms": {"type": "integer", "minimum": 1, "description": "Rooms, 1 when left out."},
                   "max_price_eur_per_night": {"type": "integer"},
                   "data_gb": {"type": "integer"}}})


@pytest.mark.parametrize(("request_", "counted"), [
    ("A hotel in Barcelona, 4 guests, 2 rooms.", {"guests": [4], "rooms": [2]}),
    ("Hotel in Oslo for two guests and three rooms, nothing over 150 euros a night.",
     {"guests": [2], "rooms": [3], "max_price_eur_per_night": [150]}),
    ("Ein Hotel in Wien, 3 guests, 2 rooms bitte.", {"guests": [3], "rooms": [2]}),
    ("东京的酒店，三个人，20GB", {"data_gb": [20], "guests": [3]}),
    ("Un hotel en Lima para cuatro personas, 2 rooms.", {"guests": [4], "rooms": [2]}),
])
def test_a_number_written_before_what_an_argument_counts_asks_for_it_and_goes_to_it(request_, counted):
    properties = shape(Conversation((("user", request_),), (ROOMS,), "required")).tools[0].parameters["properties"]
    assert {key: properties[key].get("enum") for key in counted} == counted


def test_what_a_number_counts_is_the_word_after_it_and_a_rate_counts_nothing():
    assert counted("Two e-bikes for 3 nights, 20GB流量") == (("bikes", 2), ("nights", 3), ("gb", 20))
    assert counts_argument("bikes", "bikes") and counts_argument("gb", "data_gb")
    assert counts_argument("euros", "max_price_eur_per_night")
    assert not counts_argument("nights", "max_price_eur_per_night")  # a rate's unit
    assert not counts_argument("numbers", "max_number")  # words of counting count nothing
    assert counts_argument("kids", "children") and counts_argument("Fahrräder", "bikes")  # by meaning
    assert not counts_argument("rooms", "guests") and not counts_argument("hours", "days")
    assert counted("from the 3rd to the 7th of May") == ()  # an ordinal's ending counts nothing


def test_a_text_that_writes_a_length_offers_no_other_number_of_its_own_for_a_length():
    source = next(s for s in SOURCES if s.name == "durations")
    values = offered_values(["Two bikes on June 5th 2027 for three hours."])
    assert source.offers("hours", {"type": "integer"}, values) == [3]
    values = offered_values(["Two bikes for three hours.", '{"recommended_hours": 4}'])
    assert source.offers("hours", {"type": "integer"}, values) == [3, 4]


STAY = Tool("book_stay", "Book a hotel stay.", {
    "type": "object", "required": ["check_in", "check_out"],
    "properties": {"check_in": {"type": "string", "format": "date"}, "check_out": {"type": "string", "format": "date"},
                   "max_price": {"type": "integer"}}})


@pytest.mark.parametrize(("request_", "check_out"), [
    ("Checking in 2027-08-14 for three nights, nothing over 150 euros a night.", ["2027-08-17"]),
    ("2027年4月1日入住，住五晚。", ["2027-04-06"]),
    ("Ankunft am 30. Dezember 2027, für eine Woche.", ["2028-01-06"]),
    ("Check in on 2027-08-14, check out on 2027-08-16, two nights.", ["2027-08-16"]),
])
def test_a_span_written_as_its_start_and_a_length_in_days_ends_that_many_days_later(request_, check_out):
    properties = shape(Conversation((("user", request_),), (STAY,), "required")).tools[0].parameters["properties"]
    assert properties["check_out"]["enum"] == check_out


CONCERT = {"type": "object", "properties": {"artist": {"type": "string"}, "date": {"type": "string", "format": "date"}}}


@pytest.mark.parametrize(("text", "unwanted"), [
    ("Quiero dos entradas para Rosalía el 15 de octubre de 2027.", "Rosalía el 15"),
    ("Un biglietto per i Måneskin il 22/11/2027, palco VIP.", "Måneskin il 22/11"),
    ("2027년 9월 3일 오후 4시에 경복궁 영어 가이드 투어 예약해 줘.", "오후 4시에 경복궁"),
    ("帮我订东京的酒店，2027年4月1日入住。", "东京的酒店，2027"),
    ("내일부터 모레까지 지우 공연 예매해 줘.", "내일부터"),  # a day in a word, a particle after it
    ("Perdi o bilhete do concerto dos Xutos no dia 27 de dezembro de 2026.", "Xutos no dia"),
    ("买2027年5月1日周杰伦的票，两个大人一个小孩。", "两个大人"),  # a count is no name
    ("买2027年5月1日周杰伦的票，两个大人一个小孩。", "买"),  # nor a verb of one character
])
def test_a_name_is_offered_without_the_date_or_time_written_beside_it(text, unwanted):
    artist = copied(CONCERT, offered_values([text]))["properties"]["artist"]["enum"]
    assert not [string for string in artist if string.startswith(unwanted)]


@pytest.mark.parametrize(("text", "name"), [
    ("明日、明日香村の祭りのチケットを買って", "明日香村"),  # a name that begins with a day's word
    ("六本木のライブのチケットを2027年5月1日に買って", "六本木"),  # a place whose name begins with a count
    ("오늘 오늘이 공연 예매해 줘", "오늘이"),
])
def test_a_name_that_holds_a_date_or_a_count_is_still_offered(text, name):
    assert name in copied(CONCERT, offered_values([text]))["properties"]["artist"]["enum"]


def test_a_city_argument_takes_the_cities_written_in_any_language():
    hotel = {"type": "object", "properties": {"city": {"type": "string"}, "note": {"type": "string"}}}
    for text, city in [("I need a twin room in Edinburgh, 2 adults", ["Edinburgh"]), ("帮我订东京的酒店", ["东京"]),
                       ("Réservez-moi une suite à Rome pour deux personnes", ["Rome"])]:
        properties = copied(hotel, offered_values([text]))["properties"]
        assert properties["city"]["enum"] == city and len(properties["note"]["enum"]) > 1
    source = next(s for s in SOURCES if s.name == "cities")
    assert source.offers("city", {"type": "string"}, offered_values(["I need a mobile home"])) == []


ROAMING = Tool("buy_roaming_pass", "Buy a roaming pass.", {
    "type": "object", "required": ["country", "days"],
    "properties": {"country": {"type": "string", "pattern": "^[A-Z]{2}$", "description": "ISO country code"},
                   "days": {"type": "integer"},
                   "specialty": {"type": "string", "enum": ["general_practice", "dermatology", "cardiology"]}}})


def test_a_value_of_a_kind_the_last_message_writes_is_asked_over_an_earlier_turn_s():
    messages = (("user", "A 7-day roaming pass for Japan, please."),
                ("assistant", '{"name": "buy_roaming_pass", "arguments": {"country": "JP", "days": 7}}'),
                ("tool", '{"status": "active", "country": "JP"}'),
                ("user", "再帮我加一个同样的套餐，不过是去韩国的。"))
    properties = shape(Conversation(messages, (ROAMING,), "required")).tools[0].parameters["properties"]
    assert properties["country"]["enum"] == ["KR"] and 7 in properties["days"]["enum"]


@pytest.mark.parametrize("request_", [
    "How do I get to the Natural History Museum from Paddington Station on public transport?",
    "¿Cómo llego al estadio desde la Plaza Mayor en transporte público?",
])
def test_a_stretch_about_as_close_to_three_of_an_enum_s_values_names_none_of_them(request_):
    source = next(s for s in SOURCES if s.name == "enum-meaning")
    mode = {"type": "string", "enum": ["any", "bus", "tram", "metro", "train", "ferry"]}
    assert source.offers("mode", mode, offered_values([request_])) == []
    assert source.offers("mode", mode, offered_values(["Ich nehme lieber die Straßenbahn."])) == ["tram"]


def test_an_enum_value_well_apart_from_the_others_by_meaning_is_named():
    source = next(s for s in SOURCES if s.name == "enum-meaning")
    specialty = ROAMING.parameters["properties"]["specialty"]
    assert source.offers("specialty", specialty, offered_values(["내일 오전 9시에 피부과 예약해 주세요."])) == ["dermatology"]
    assert source.offers("specialty", specialty, offered_values(["Book me in for tomorrow at nine."])) == []


SLOT = Tool("book_slot", "Book a slot at the garage.", {
    "type": "object", "required": ["date", "time"],
    "properties": {"date": {"type": "string", "format": "date"},
                   "time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"},
                   "guests": {"type": "integer"}, "note": {"type": "string"},
                   "room": {"type": "string", "enum": ["single", "double", "suite", "twin"]}}})


def _follow_up(result, asked, sent='{"date": "2027-02-10", "time": "09:00", "guests": 2}'):
    messages = (("user", "Book 2027-02-10 at 9am for two guests, please."),
                ("assistant", f'{{"name": "book_slot", "arguments": {sent}}}'),
                ("tool", result), ("user", asked))
    return shape(Conversation(messages, (SLOT,), "required")).tools[0].parameters["properties"]


@pytest.mark.parametrize(("asked", "time"), [
    ("The afternoon one works.", "15:40"), ("Le créneau de l'après-midi, alors.", "15:40"),
    ("A bit later then.", "11:15"), ("Then the earliest.", "08:30"), ("早一点的吧。", "08:30"),
    ("3:40 works for us.", "15:40"),
])
def test_a_follow_up_picks_among_the_times_a_result_offers_in_place_of_the_one_refused(asked, time):
    properties = _follow_up('{"status": "taken", "date": "2027-02-10", "free": ["08:30", "11:15", "15:40"]}', asked)
    assert properties["time"]["enum"] == [time]
    assert properties["date"]["enum"] == ["2027-02-10"] and properties["guests"]["enum"] == [2]  # "one" is no number


def test_a_follow_up_takes_the_cheaper_option_a_result_lists_and_keeps_what_the_call_sent():
    result = ('{"status": "unavailable", "room": "double", "alternatives": [{"room": "suite", "price_eur": 310}, '
              '{"room": "twin", "price_eur": 128}]}')
    sent = '{"date": "2027-02-10", "time": "09:00", "guests": 2, "room": "double"}'
    for asked in ("Go with the cheaper one.", "Prenez la moins chère alors.", "Dann das günstigere."):
        properties = _follow_up(result, asked, sent)
        assert properties["room"]["enum"] == ["twin"], asked
        assert properties["time"]["enum"] == ["09:00"]  # the result refused no time: offered none other
    assert _follow_up(result, "The dearest one, please.", sent)["room"]["enum"] == ["suite"]


LOCKERS = Tool("send_via_locker", "Send a parcel from one parcel locker to another.", {
    "type": "object", "required": ["from_locker", "to_locker"],
    "properties": {"from_locker": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{5}$"},
                   "to_locker": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{5}$"}}})


@pytest.mark.parametrize(("result", "asked"), [
    ('{"status": "not_found", "did_you_mean": ["PL04215"]}', "Yes, that one."),
    ('{"status": "no_space", "locker": "PL04211", "nearby": [{"locker": "PL04215", "distance_m": 350}]}',
     "Use that one instead."),
])
def test_a_follow_up_of_a_failed_call_takes_the_code_its_result_offers_in_place_of_the_one_sent(result, asked):
    messages = (("user", "Send it from PL04211 to PL77310."),
                ("assistant", '{"name": "send_via_locker", "arguments": {"from_locker": "PL04211", "to_locker": "PL77310"}}'),
                ("tool", result), ("user", asked))
    properties = shape(Conversation(messages, (LOCKERS,), "required")).tools[0].parameters["properties"]
    assert (properties["from_locker"]["enum"], properties["to_locker"]["enum"]) == (["PL04215"], ["PL77310"])


@pytest.mark.parametrize("asked", ["じゃあ、それでお願い。", "Dann so.", "Vale, perfecto."])
def test_a_message_after_a_failed_call_answers_the_failure_and_is_no_closing_thanks(asked):
    failed = '{"status": "unavailable", "date": "2027-02-10", "free": ["13:00"]}'
    messages = (("user", "Book 2027-02-10 at 9am for two guests, please."),
                ("assistant", '{"name": "book_slot", "arguments": {"date": "2027-02-10", "time": "09:00"}}'),
                ("tool", failed), ("user", asked))
    assert shape(Conversation(messages, (SLOT,))).reply != "text"
    for result in ('{"status": "booked", "date": "2027-02-10", "time": "09:00"}',
                   '{"status": "booked", "closed_days": ["Monday"], "note": "Full refund if cancelled"}'):
        done = (*messages[:2], ("tool", result), ("user", "Perfect, thanks a lot!"))
        assert shape(Conversation(done, (SLOT,))).reply == "text", result


@pytest.mark.parametrize("request_", ["I need the lasagne for twelve people instead of four.",
                                      "Die Lasagne für zwölf Personen statt vier, bitte.",
                                      "La lasagne pour douze personnes au lieu de quatre."])
def test_the_number_a_request_replaces_is_where_a_pair_comes_from_and_the_other_where_it_goes(request_):
    count = {"type": "integer"}
    schema = {"type": "object", "properties": {"from_servings": count, "to_servings": count}}
    props = copied(schema, offered_values([request_]))["properties"]
    assert (props["from_servings"]["enum"], props["to_servings"]["enum"]) == ([4], [12])


SUITE = Tool("book_hotel_room", "Reserve a hotel room.", {
    "type": "object", "required": ["city", "check_in", "check_out", "room_type"],
    "properties": {"city": {"type": "string"}, "check_in": {"type": "string", "format": "date"},
                   "check_out": {"type": "string", "format": "date"},
                   "room_type": {"type": "string", "enum": ["single", "double", "twin", "suite"]}}})
GARAGE = Tool("book_car_service", "Book a service for a car at the garage.", {
    "type": "object", "required": ["registration", "date"],
    "properties": {"registration": {"type": "string", "pattern": "^[A-Z0-9]{5,8}$"},
                   "date": {"type": "string", "format": "date"}}})


def test_a_request_that_writes_each_typed_value_a_tool_requires_calls_it():
    asked = "Réservez-moi une suite à Rome, arrivée le 20 juin 2027 et départ le 23 juin, pour deux personnes."
    shaped = shape(Conversation((("user", asked),), (SUITE, GARAGE)))
    assert shaped.reply == "call" and [t.name for t in shaped.offered] == ["book_hotel_room"]
    for picking in ("好的，那就20:30吧", "Va bene, quello delle 22:45.", "Dann die erste, bitte."):
        chosen = (("user", asked), ("assistant", '{"name": "book_hotel_room", "arguments": {"city": "Rome"}}'),
                  ("tool", '{"status": "full", "free": ["20:30", "22:45"]}'), ("user", picking))
        assert shape(Conversation(chosen, (SUITE, GARAGE))).reply != "text", picking  # it picks among them
    for closing in ("Parfait, merci beaucoup !", "谢谢！", "Thanks, that's all."):
        thanks = (("user", asked), ("assistant", '{"name": "book_hotel_room", "arguments": {"city": "Rome"}}'),
                  ("tool", '{"status": "booked"}'), ("user", closing))
        assert shape(Conversation(thanks, (SUITE, GARAGE))).reply == "text", closing  # the earlier turns wrote the values


HOTEL = Tool("reserve_hotel_room", "Reserve a room at a hotel.", {
    "type": "object", "required": ["hotel", "check_in", "nights", "guests"],
    "properties": {"hotel": {"type": "string"}, "check_in": {"type": "string", "format": "date"},
                   "nights": {"type": "integer"}, "guests": {"type": "integer"}}})
CAR = Tool("schedule_car_maintenance", "Book the user's car into the garage for a job.", {
    "type": "object", "required": ["plate_number", "job", "workshop_day"],
    "properties": {"plate_number": {"type": "string"}, "workshop_day": {"type": "string", "format": "date"},
                   "job": {"type": "string", "enum": ["oil_change", "inspection", "brake_check", "full_service"]}}})
SHARE = Tool("share_with_colleague", "Give a colleague access to one of the user's files.", {
    "type": "object", "required": ["colleague", "file_name", "permission"],
    "properties": {"colleague": {"type": "string"}, "file_name": {"type": "string"},
                   "permission": {"type": "string", "enum": ["view", "comment", "edit"]}}})


def test_a_file_name_written_with_its_extension_is_a_typed_value_of_the_tool_that_takes_a_file():
    asked = "Share Q3-budget.xlsx with Priya Nair, edit rights, and add the message: please check the travel line before Friday."
    shaped = shape(Conversation((("user", asked),), (HOTEL, CAR, SHARE)))
    assert shaped.reply == "call" and "share_with_colleague" in [t.name for t in shaped.offered], shaped.decisions
    plain = "Share the budget with Priya Nair, edit rights, and add the message: please check the travel line before Friday."
    offered = [t.name for t in shape(Conversation((("user", plain),), (HOTEL, CAR, SHARE))).offered]
    assert "share_with_colleague" not in offered  # no file written: the permission alone is no evidence enough


def test_a_count_of_days_from_today_is_read_with_or_without_spaces():
    day = {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}}
    for text in ("3日後から1週間、ソウルのホテル", "3天后的酒店", "dans 3 jours"):
        values = offered_values([text])
        values = values.__class__(**{**values.__dict__, "today": datetime.date(2027, 8, 2)})
        assert copied(day, values)["properties"]["day"]["enum"] == ["2027-08-05"], text


def test_a_follow_up_that_picks_keeps_the_strings_the_call_sent_and_one_that_asks_anew_does_not():
    tickets = Tool("buy_tickets", "Buy concert tickets.", {
        "type": "object", "required": ["artist", "section"],
        "properties": {"artist": {"type": "string"}, "section": {"type": "string", "enum": ["floor", "upper_tier"]}}})
    result = ('{"status": "sold_out", "section": "floor", "other": [{"section": "upper_tier", "price_eur": 45}, '
              '{"section": "floor", "price_eur": 90}]}')

    def artist(asked):
        messages = (("user", "Two floor tickets for Angèle please."),
                    ("assistant", '{"name": "buy_tickets", "arguments": {"artist": "Angèle", "section": "floor"}}'),
                    ("tool", result), ("user", asked))
        return shape(Conversation(messages, (tickets,), "required")).tools[0].parameters["properties"]["artist"]
    assert artist("Prenez la moins chère alors.")["enum"] == ["Angèle"]
    assert artist("Could you also find tickets for Stromae?")["enum"] != ["Angèle"]


def test_words_written_in_groups_without_a_digit_are_no_code():
    code = {"type": "object", "properties": {"ref": {"type": "string", "pattern": "^[A-Z0-9]{6}$"}}}
    offered = copied(code, offered_values(["The one in row 12 is fine, booking RP2W9D."]))["properties"]["ref"]
    assert offered["enum"] == ["RP2W9D"]


def test_a_part_of_the_day_is_no_name():
    rental = {"type": "object", "properties": {"site": {"type": "string"}}}
    props = copied(rental, offered_values(["2027년 9월 3일 오후 4시에 경복궁 투어"]))["properties"]
    assert "오후" not in props["site"]["enum"] and "경복궁" in props["site"]["enum"]


def test_chinese_and_japanese_names_are_offered_without_a_date_s_or_time_s_numbers():
    film = {"type": "object", "properties": {"film": {"type": "string"}, "pet_name": {"type": "string"}}}
    props = copied(film, offered_values(["帮我买两张2027年1月23日晚上七点半《流浪地球3》的票"]))["properties"]
    assert "流浪地球3" in props["film"]["enum"] and not [s for s in props["film"]["enum"] if "2027年" in s]
    props = copied(film, offered_values(["毎日午後6時にココにご飯を30グラムあげて。"]))["properties"]
    assert "ココ" in props["pet_name"]["enum"]  # a name in katakana, which the dictionary reads as "here"
    assert not [s for s in props["pet_name"]["enum"] if s.startswith(("時", "午後6"))]


def test_a_korean_length_with_a_suffix_is_read():
    source = next(s for s in SOURCES if s.name == "durations")
    assert source.offers("duration_minutes", {"type": "integer"}, offered_values(["영어 수업 한 시간짜리 잡아 줘"])) == [60]


def test_a_phone_number_is_no_list_of_numbers_and_a_time_is_no_code():
    roaming = Tool("buy_roaming_pass", "Buy a roaming pass for a phone number.", {
        "type": "object", "required": ["phone_number", "days"],
        "properties": {"phone_number": {"type": "string", "pattern": "^\\+[0-9]{8,15}$"}, "days": {"type": "integer"}}})
    asked = Conversation((("user", "Un bono de roaming de 30 días en el número +34 612 34 56 78, por favor."),),
                         (roaming,), "required")
    assert shape(asked).least == 1
    plate = {"type": "object", "properties": {"registration": {"type": "string", "pattern": "^[A-Z0-9]{4,8}$"}}}
    found = copied(plate, offered_values(["Kenteken 12-XKL-3, ik breng hem om 8 uur."]))["properties"]["registration"]
    assert found["enum"] == ["12XKL3"]
    dated = copied(plate, offered_values(["Führung am 18. Mai 2027 um 11 Uhr."]))["properties"]["registration"]
    assert "MAI2027" not in dated.get("enum", [])


def test_a_follow_up_keeps_what_the_call_sent_where_it_names_nothing_new():
    full = '{"status": "full", "waitlist_length": 2}'
    properties = _follow_up(full, "Ugh. Fine, put me on the waitlist for it, and one more note.")
    assert (properties["date"]["enum"], properties["time"]["enum"], properties["guests"]["enum"]) == (
        ["2027-02-10"], ["09:00"], [2])
    assert _follow_up(full, "Then make it 3 guests.")["guests"]["enum"] == [3]
    assert _follow_up(full, "Make that 4 instead.")["guests"]["enum"][0] == 4  # the new one first
    assert _follow_up(full, "Then on 2027-02-11.")["date"]["enum"] == ["2027-02-11"]


def test_a_question_after_a_call_is_answered_in_text_where_it_brings_no_value_a_tool_needs():
    feeder = Tool("schedule_pet_feeding", "Schedule the automatic pet feeder.", {
        "type": "object", "required": ["pet_name", "time", "portion_grams"],
        "properties": {"pet_name": {"type": "string"}, "portion_grams": {"type": "integer"},
                       "time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}})
    before = (("user", "Feed Bruno 40 grams at 08:00 every day."),
              ("assistant", '{"name": "schedule_pet_feeding", "arguments": {"pet_name": "Bruno", "time": "08:00", '
                            '"portion_grams": 40}}'),
              ("tool", '{"status": "scheduled"}'))
    asked = shape(Conversation((*before, ("user", "Is 40 grams a day actually enough for a grown beagle, though?")),
                               (feeder,)))
    assert asked.reply == "text"
    again = shape(Conversation((*before, ("user", "Could you make it 50 grams at 09:00 instead?")), (feeder,)))
    assert again.reply != "text"


CINEMA = Tool("buy_cinema_tickets", "Buy tickets for a film at the cinema.", {
    "type": "object", "required": ["film", "date", "showtime"],
    "properties": {"film": {"type": "string"}, "date": {"type": "string", "format": "date"},
                   "showtime": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}})
CONCERT_TICKETS = Tool("buy_concert_tickets", "Buy tickets for a concert.", {
    "type": "object", "required": ["artist", "date"],
    "properties": {"artist": {"type": "string"}, "date": {"type": "string", "format": "date"}}})
TAXI = Tool("book_taxi", "Book a taxi ride to an address.", {
    "type": "object", "required": ["destination", "pickup_time"],
    "properties": {"destination": {"type": "string"},
                   "pickup_time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}})


def test_a_follow_up_is_answered_by_the_tool_of_the_call_before_unless_it_asks_for_another():
    before = (("user", "Two tickets for Dune on 2027-01-15 at 20:00."),
              ("assistant", '{"name": "buy_cinema_tickets", "arguments": {"film": "Dune", "date": "2027-01-15", '
                            '"showtime": "20:00"}}'),
              ("tool", '{"status": "sold_out", "other_showtimes": ["17:30", "22:10"]}'))
    tools = (CONCERT_TICKETS, CINEMA, TAXI)
    late = shape(Conversation((*before, ("user", "Take the late one then.")), tools))
    assert [t.name for t in late.offered] == ["buy_cinema_tickets"]
    assert late.tools[0].parameters["properties"]["showtime"]["enum"] == ["22:10"]
    taxi = shape(Conversation((*before, ("user", "Now book me a taxi to Central Station at 19:15.")), tools))
    assert [t.name for t in taxi.offered] == ["book_taxi"]
    fuel = Tool("log_fuel", "Log a fuel fill-up of the car.", {"type": "object", "required": ["litres"], "properties": {
        "litres": {"type": "number"}}})
    expense = Tool("log_expense", "Log an expense.", {"type": "object", "required": ["amount"], "properties": {
        "amount": {"type": "number"}}})
    logged = (("user", "Log 18 dollars for a taxi."), ("assistant", '{"name": "log_expense", "arguments": {"amount": 18}}'),
              ("tool", '{"status": "ok"}'))
    for asked in ("Same for the ride back, 23 dollars.", "Pareil pour le trajet du retour, 23 dollars."):
        same = shape(Conversation((*logged, ("user", asked)), (fuel, expense)))
        assert [t.name for t in same.offered] == ["log_expense"], asked


def test_a_request_that_names_a_tool_s_enum_value_in_its_words_goes_to_that_tool():
    gym = Tool("book_gym_class", "Book a place in a gym class.", {
        "type": "object", "required": ["class_type", "date", "time"],
        "properties": {"class_type": {"type": "string", "enum": ["yoga", "pilates", "hiit", "spinning", "boxing"]},
                       "date": {"type": "string", "format": "date"},
                       "time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}})
    feeder = Tool("schedule_pet_feeding", "Schedule the automatic pet feeder to release a portion of food.", {
        "type": "object", "required": ["pet_name", "time"],
        "properties": {"pet_name": {"type": "string"},
                       "time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}})
    asked = Conversation((("user", "HIIT at 18:30 on 2027-04-01 please, and don't put me on any waiting list."),),
                         (feeder, gym))
    assert [t.name for t in shape(asked).offered] == ["book_gym_class"]


SLOTS = {"type": "string", "enum": ["morning", "afternoon", "evening"]}


@pytest.mark.parametrize(("request_", "meant"), [
    ("Passez le prendre le 22 février l'après-midi.", ["afternoon"]),
    ("Consegna il 9 marzo 2027, di pomeriggio.", ["afternoon"]),
    ("z dostawą 4 grudnia 2027 po południu", ["afternoon"]),
    ("Recolham os sacos no dia 3 de março à noite, por favor.", ["evening"]),  # Portuguese "noite": 19 to 24 h
    ("2027年1月23日上午送到", ["morning"]),
    ("내일 저녁에 가져다 주세요", ["evening"]), ("ส่งตอนบ่ายนะ", ["afternoon"]),  # Thai writes no spaces
    ("Привезите завтра утром, часов в 9 утра.", ["morning"]),
    ("Pick it up on Friday at 14:30.", ["afternoon"]),  # the hours of a time written
    ("Hol es morgen ab.", []),  # "morgen" is tomorrow, no morning
    ("Pick it up on Friday.", []),
    ("Pick it up at 3:00.", []),  # either half of the day
    ("YARIN ÖĞLEDEN SONRA GELİN", ["afternoon"]),  # capitals whose small letters are not the CLDR's
])
def test_an_enum_of_parts_of_the_day_takes_the_part_a_word_or_a_time_means(request_, meant):
    source = next(s for s in SOURCES if s.name == "day-parts")
    assert source.offers("pickup_slot", SLOTS, offered_values([request_])) == meant
    assert source.offers("room", {"type": "string", "enum": ["morning", "kitchen"]}, offered_values([request_])) == []


PARCELS = Tool("request_parcel_collection", "Ask a courier to collect parcels from an address.", {
    "type": "object", "required": ["collection_address", "collection_day", "parcel_count"],
    "properties": {"collection_address": {"type": "string"}, "collection_day": {"type": "string", "format": "date"},
                   "parcel_count": {"type": "integer", "minimum": 1}}})
GROCERIES = Tool("order_groceries", "Order one of the user's saved shopping lists for home delivery.", {
    "type": "object", "required": ["saved_list", "delivery_day", "delivery_window"],
    "properties": {"saved_list": {"type": "string"}, "delivery_day": {"type": "string", "format": "date"},
                   "delivery_window": {"type": "string", "enum": ["morning", "afternoon", "evening"]}}})


def test_of_the_tools_a_request_asks_for_those_taking_a_number_it_writes_go_before_those_taking_none():
    asked = "Bitte lass am 14. Januar 2027 zwei Pakete in der Lindenstraße 8, 10115 Berlin abholen."
    shaped = shape(Conversation((("user", asked),), (GROCERIES, PARCELS)))
    assert [t.name for t in shaped.offered] == ["request_parcel_collection"], shaped.decisions["why"]
    # a number written only in a date or a time is no number of either tool's
    dated = shape(Conversation((("user", "Liefere meine Liste Wocheneinkauf am 14. Januar 2027 um 18 Uhr."),),
                               (GROCERIES, PARCELS)))
    assert "order_groceries" in [t.name for t in dated.offered], dated.decisions["why"]


def test_odd_inputs_break_nothing():
    digits = "Track parcel +1" + "2" * 40 + "X please"
    assert without_parts(digits) == digits  # a run of digits is no phone number (nor read two ways: no hang)
    assert read_request("Call +34 612 34 56 78 for 2 nights").number_lists == ((2,),)  # a phone number is
    stay = {"type": "object", "properties": {"check_in": {"type": "string", "pattern": "^[0-9-]{10}$"},
                                             "check_out": {"type": "string", "format": "date"}}}
    for text in ("Check in 2027-02-30 for three nights", "Check in 2027-08-14 for 99999999 nights"):
        copied(stay, offered_values([text]))  # no day, or past the calendar: no crash
    assert shape(Conversation((), (STAY,))).reply == "text"


def test_a_city_is_not_imposed_where_a_smaller_place_is_named_too():
    train = {"type": "object", "properties": {"to_city": {"type": "string"}}}
    offered = copied(train, offered_values(["Book a train from Zurich to Zermatt"]))["properties"]["to_city"]["enum"]
    assert "Zermatt" in offered


def test_chinese_addresses_and_lines_are_names_and_a_little_is_no_time():
    place = {"type": "object", "properties": {"address": {"type": "string"}}}
    for text, name in [("送到中山路100号", "中山路100号"), ("坐地铁1号线去", "1号线")]:
        assert any(name in s for s in copied(place, offered_values([text]))["properties"]["address"]["enum"]), text


def test_a_confirmation_refuses_nothing_and_a_call_of_another_tool_keeps_nothing():
    confirmed = '{"status": "confirmed", "start": "09:00", "end": "09:30"}'
    assert _follow_up(confirmed, "Make it 3 guests instead.")["time"]["enum"] == ["09:00"]
    reminder = Tool("create_reminder", "Create a reminder.", {
        "type": "object", "required": ["time"],
        "properties": {"time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}})
    messages = (("user", "Wake me at 07:00."),
                ("assistant", '{"name": "set_alarm", "arguments": {"time": "07:00"}}'),
                ("tool", '{"status": "set"}'), ("user", "And remind me to call Anna at 18:30."))
    shaped = shape(Conversation(messages, (reminder,), "required"))
    assert shaped.tools[0].parameters["properties"]["time"]["enum"] == ["18:30"]


def test_of_enum_values_alike_but_for_their_case_the_one_written_as_it_is_is_named():
    source = next(s for s in SOURCES if s.name == "enum-words")
    genotype = {"type": "string", "enum": ["AA", "Aa", "aa"]}
    assert source.offers("genotype", genotype, offered_values(["The frequency of the AA genotype?"])) == ["AA"]
    assert source.offers("genotype", genotype, offered_values(["The frequency of the aA genotype?"])) == genotype["enum"]


GYM = Tool("book_gym_class", "Book a place in a gym class.", {
    "type": "object", "required": ["class_type", "date", "time"],
    "properties": {"class_type": {"type": "string", "enum": ["yoga", "pilates", "zumba", "spinning"]},
                   "date": {"type": "string", "format": "date"},
                   "time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}})
RECIPE = Tool("scale_recipe", "Scale a recipe to another number of servings.", {
    "type": "object", "required": ["recipe", "servings"],
    "properties": {"recipe": {"type": "string"}, "servings": {"type": "integer"}}})


@pytest.mark.parametrize("asked", ["Ist Zumba für Anfänger mit Knieproblemen überhaupt geeignet?",
                                   "Is pilates or yoga better for back pain?", "Le yoga, c'est bon pour le dos ?"])
def test_a_request_near_a_tool_that_gives_none_of_the_typed_values_it_requires_gets_text(asked):
    shaped = shape(Conversation((("user", asked),), (GYM, RECIPE, GARAGE)))
    assert shaped.reply == "text", shaped.decisions["why"]
    booked = shape(Conversation((("user", "Zumba am 2027-05-05 um 18:30, bitte."),), (GYM, RECIPE, GARAGE)))
    assert [t.name for t in booked.offered] == ["book_gym_class"]


def test_korean_words_are_read_without_their_particles_and_endings():
    values = offered_values(["2027년 9월 3일 오후 4시에 경복궁 가이드 투어를 영어로 성인 4명 예약해 줘."])
    assert "경복궁" in values.strings and "영어" in values.strings
    assert not any(s.endswith(("줘", "에", "를", "로", "해")) for s in values.strings)
    code = {"type": "string", "pattern": "^[a-z]{2}$", "description": "ISO 639-1 code of the language"}
    source = next(s for s in SOURCES if s.name == "codes")
    assert source.offers("language", code, offered_values(["영어로 투어를 예약해 주세요."])) == ["en"]


@pytest.mark.parametrize(("request_", "listed", "named"), [
    ("Put 'renew passport' on my to-do list.", ["groceries", "todo", "packing"], ["todo"]),
    ("Send me the code by e-mail, not by text.", ["sms", "email", "push"], ["email"]),
    ("Is there wi-fi in the room?", ["wifi", "ethernet"], ["wifi"]),
    ("Put it on my list, to do by Monday.", ["groceries", "todo", "packing"], []),  # "to do" is no stretch
])
def test_an_enum_value_written_as_one_word_is_named_by_its_words_written_apart(request_, listed, named):
    source = next(s for s in SOURCES if s.name == "enum-words")
    assert source.offers("list", {"type": "string", "enum": listed}, offered_values([request_])) == named


@pytest.mark.parametrize(("request_", "listed", "named"), [
    ("Un biglietto per i Måneskin, palco VIP.", ["front_of_stage", "vip_box", "lower_tier"], ["vip_box"]),
    ("Find a family therapist in Berkeley", ["Psychologist", "Family Counselor", "Psychiatrist"], ["Family Counselor"]),
    ("Switch off the light in room 4", ["kitchen", "living_room", "bedroom"], []),  # the argument's own word
    ("The upper one", ["upper_tier", "lower_tier"], ["upper_tier"]),
    ("Any tier is fine", ["upper_tier", "lower_tier"], []),  # a word both values have
])
def test_an_enum_value_is_named_by_a_word_no_other_value_has(request_, listed, named):
    source = next(s for s in SOURCES if s.name == "enum-words")
    assert source.offers("room", {"type": "string", "enum": listed}, offered_values([request_])) == named


def test_a_question_that_gives_no_number_a_tool_requires_is_answered_in_text():
    water = Tool("water_garden", "Water a zone of the garden.", {
        "type": "object", "required": ["zone", "minutes"],
        "properties": {"zone": {"type": "string", "enum": ["lawn", "greenhouse", "flower_bed"]},
                       "minutes": {"type": "integer"}}})
    for asked in ("Jak często podlewać pomidory w szklarni w lipcu?", "How long should I water the lawn in summer?"):
        assert shape(Conversation((("user", asked),), (water, GARAGE))).reply == "text", asked
    watered = shape(Conversation((("user", "Can you water the greenhouse for 20 minutes?"),), (water, GARAGE)))
    assert watered.reply == "call"


@pytest.mark.parametrize(("text", "asks"), [
    ("Kann ich am 5. Mai um 10 Uhr eine Yogastunde buchen?", False), ("Puis-je réserver une table ?", False),
    ("¿Puedo reservar una mesa?", False), ("Posso prenotare un tavolo?", False), ("Czy mogę umówić lekcję?", False),
    ("Kan ik een fiets huren?", False), ("Ist Zumba für Anfänger geeignet?", True),
    ("Czy 40 gramów dziennie wystarczy dla beagla?", True), ("We are 4. Can you book it?", False),
    ("¿Es bueno el yoga para la espalda?", True), ("Is pilates good for back pain?", True),
])
def test_a_question_that_asks_to_do_something_is_a_request_in_several_languages(text, asks):
    assert read_request(text).asks_to_know is asks


TIMED_FEEDER = Tool("schedule_pet_feeding", "Schedule the automatic pet feeder to release a portion of food.", {
    "type": "object", "required": ["pet_name", "time", "portion_grams"],
    "properties": {"pet_name": {"type": "string"}, "portion_grams": {"type": "integer"},
                   "time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}})


PET_MEAL = Tool("log_pet_meal", "Record how many grams of food a pet ate.", {
    "type": "object", "required": ["pet_name", "grams"],
    "properties": {"pet_name": {"type": "string"}, "grams": {"type": "integer"}}})


def test_of_tools_a_request_asks_for_the_one_that_takes_more_of_its_typed_values_is_offered():
    asked = Conversation((("user", "Set the feeder so Biscuit gets 40 grams every day at quarter to eight."),),
                         (PET_MEAL, TIMED_FEEDER))
    assert [t.name for t in shape(asked).offered] == ["schedule_pet_feeding"]  # the meal log takes no time


@pytest.mark.parametrize(("text", "passport", "destination"), [
    ("I have a Canada passport. Do I need a visa for a 10-day holiday in Canada?", None, None),
    ("I have a Canadian passport. Do I need a visa for a 10-day holiday in Vietnam?", "CA", "VN"),
    ("I'm going to Brazil for a conference, traveling on an India passport.", "IN", "BR"),
    ("Tenho passaporte de Portugal. Preciso de visto para ir trabalhar no Canadá?", "PT", "CA"),
    ("韓国に出張で5日間行きます。パスポートは日本のものです。", "JP", "KR"),
])
def test_two_arguments_of_one_kind_take_the_value_their_words_are_written_beside(text, passport, destination):
    offered = _visa_offered(text)
    if passport is None:  # one country written: both may take it
        assert offered["passport_country"]["enum"] == offered["destination_country"]["enum"] == ["CA"]
    else:
        assert offered["passport_country"]["enum"] == [passport]
        assert offered["destination_country"]["enum"] == [destination]


@pytest.mark.parametrize(("text", "passport", "destination"), [
    ("J'ai un passeport suédois et je pars en vacances au Brésil.", "SE", "BR"),
    ("Mit meinem deutschen Reisepass nach Thailand: brauche ich ein Visum?", "DE", "TH"),
    ("Ho il passaporto polacco, vado a studiare in Giappone.", "PL", "JP"),
    ("Türk pasaportuyla İspanya'ya gidiyorum.", "TR", "ES"),
])
def test_a_country_is_named_by_its_people_in_any_language_as_its_language_is(text, passport, destination):
    offered = _visa_offered(text)
    assert passport in offered["passport_country"]["enum"]
    assert destination in offered["destination_country"]["enum"]


@pytest.mark.parametrize(("text", "spoken", "captions"), [
    ("I want Spanish subtitles for call 905-230-7781; the speakers will be using Japanese.", "ja", "es"),
    ("Meeting 311-408-2290: Untertitel auf Deutsch, gesprochen wird Französisch.", "fr", "de"),
    ("给会议 602-774-1180 开启字幕：发言人讲英语，字幕显示中文。", "en", "zh"),
])
def test_languages_spoken_and_shown_are_told_apart_by_their_words_in_any_language(text, spoken, captions):
    offered = _pair_offered(text, "^[a-z]{2}$", "ISO 639-1 code of the language {}.", {
        "spoken_language": "the speakers use", "caption_language": "the captions are shown in"})
    assert (offered["spoken_language"]["enum"], offered["caption_language"]["enum"]) == ([spoken], [captions])


@pytest.mark.parametrize("text", ["Any trains MAN to EDB tomorrow?", "Zugverbindung MAN nach EDB, bitte."])
def test_two_values_written_for_a_pair_that_runs_one_way_go_one_to_each(text):
    offered = _pair_offered(text, "^[A-Z]{3}$", "Station code {}.", {"from_station": "to leave from",
                                                                    "to_station": "to arrive at"})
    assert (offered["from_station"]["enum"], offered["to_station"]["enum"]) == (["MAN"], ["EDB"])


def test_of_two_days_written_for_a_span_the_end_takes_none_before_the_start():
    leave = Tool("request_leave", "Request leave.", {"type": "object", "required": ["start_date", "end_date"],
                                                    "properties": {"start_date": DAY, "end_date": DAY}})
    asked = (("system", "Today is Wednesday, 2027-09-01."), ("user", "Book leave next Monday through Friday."))
    properties = shape(Conversation(asked, (leave,), "required"), Shaping()).tools[0].parameters["properties"]
    assert "2027-09-03" not in properties["end_date"].get("enum", [])  # this Friday is before next Monday


def _visa_offered(text):
    """The countries ``text`` offers a visa check's passport and destination."""
    return _pair_offered(text, "^[A-Z]{2}$", "ISO 3166-1 alpha-2 code of the country {}.", {
        "passport_country": "that issued the traveller's passport", "destination_country": "the traveller is going to"})


def _pair_offered(text, pattern, described, roles):
    """The values ``text`` offers two arguments of one ``pattern``, each described by its role."""
    schema = {"type": "object", "properties": {key: {"type": "string", "pattern": pattern,
                                                     "description": described.format(role)}
                                               for key, role in roles.items()}}
    return copied(schema, offered_values([text]))["properties"]


@pytest.mark.parametrize(("texts", "offered"), [
    (["Put 'Dentist' in my calendar on 2027-02-16 from 14:00 to 14:45.", "The user's calendar is in UTC+01:00."],
     ["2027-02-16T14:00:00+01:00", "2027-02-16T14:45:00+01:00"]),
    (["A call that ends at 17:30 UTC on 9 March 2027"], ["2027-03-09T17:30:00Z"]),
    (["Move it to 2027-03-04T09:30:00-05:00 please"], ["2027-03-04T09:30:00-05:00"]),
    (["Meet at 10:00 GMT-5 on March 3, 2027"], ["2027-03-03T10:00:00-05:00"]),
])
def test_a_date_time_takes_each_date_at_each_time_written_in_the_offset_stated(texts, offered):
    source = next(s for s in SOURCES if s.name == "typed-moments")
    assert source.offers("start", {"type": "string", "format": "date-time"}, offered_values(texts)) == offered


@pytest.mark.parametrize(("text", "listed", "named"), [
    ("I'm moving out, clean the flat", ["standard", "deep_clean", "move_out"], ["move_out"]),
    ("Record it every week", ["once", "weekdays", "weekly"], ["weekly"]),
    ("her second MMR shot", ["influenza", "measles_mumps_rubella", "hpv"], ["measles_mumps_rubella"]),
])
def test_an_enum_value_is_named_by_its_words_stemmed_or_by_its_initials(text, listed, named):
    source = next(s for s in SOURCES if s.name == "enum-words")
    assert source.offers("kind", {"type": "string", "enum": listed}, offered_values([text])) == named


def test_a_country_is_named_with_an_ending_after_an_apostrophe():
    source = next(s for s in SOURCES if s.name == "codes")
    country = {"type": "string", "pattern": "^[A-Z]{2}$", "description": "ISO 3166-1 alpha-2 code"}
    assert source.offers("country", country, offered_values(["Almanya'ya gideceğim"])) == ["DE"]
    assert source.offers("country", country, offered_values(["Canada's rules"])) == ["CA"]
    assert source.offers("country", country, offered_values(["I travel on my Irish passport"])) == ["IE"]
    assert source.offers("country", country, offered_values(["an Indian passport"])) == ["IN"]  # not the Ocean Territory


BILL = Tool("split_bill", "Split a bill between people.", {
    "type": "object", "required": ["total", "people"],
    "properties": {"total": {"type": "number"}, "people": {"type": "integer", "minimum": 1, "maximum": 50},
                   "tip_percent": {"type": "integer", "minimum": 0, "maximum": 50}}})


def test_a_percentage_asks_for_a_percentage_argument():
    request_ = "Somos siete y la cuenta es de 315. Divídela con un 15 % de propina."
    properties = shape(Conversation((("user", request_),), (BILL,), "required")).tools[0].parameters["properties"]
    assert 7 in properties["people"]["enum"] and properties["tip_percent"]["enum"] == [15]
    plain = shape(Conversation((("user", "Split 315 between 7 of us"),), (BILL,), "required")).tools[0]
    assert "tip_percent" not in plain.parameters["properties"]  # no percentage written: not asked


def test_a_short_system_message_gives_values_and_a_long_one_does_not():
    event = Tool("add_event", "Add an event to the calendar.", {
        "type": "object", "required": ["title", "start"],
        "properties": {"title": {"type": "string"}, "start": {"type": "string", "format": "date-time"}}})
    asked = ("user", "Put 'Dentist' in my calendar on 2027-02-16 at 14:00.")
    short = shape(Conversation((("system", "The user's calendar is in UTC+01:00."), asked), (event,), "required"))
    assert short.tools[0].parameters["properties"]["start"]["enum"] == ["2027-02-16T14:00:00+01:00"]
    long = ("system", "You are a helpful assistant. " * 10 + "The user's calendar is in UTC+01:00.")
    assert "+01:00" not in str(shape(Conversation((long, asked), (event,), "required")).tools[0].parameters)


def test_a_part_of_a_quotation_is_no_value_of_its_own():
    item = {"type": "object", "properties": {"item": {"type": "string"}}}
    offered = copied(item, offered_values(["Add 'call the plumber about the kitchen leak' to my list."]))
    assert "call the plumber about the kitchen leak" in offered["properties"]["item"]["enum"]
    assert not {"kitchen leak", "plumber", "call"} & set(offered["properties"]["item"]["enum"])


def test_odd_inputs_the_new_rules_once_misread():
    assert offered_values(["I prezzi sono troppo alti per 2 persone"]).numbers == (2,)  # Italian "alti" is no "altı"
    assert offered_values(["MASA İÇİN İKİ KİŞİ"]).numbers == ()  # Turkish capitals: no error, no misread
    assert list(offered_values(["Je veux les articles 1,2 et 3"]).numbers) == [1, 2, 3]
    assert list(offered_values(["Ich zahle 1.500,50 Euro"]).numbers) == [1500.5]
    rename = {"type": "object", "properties": {"old_name": {"type": "string"}, "new_name": {"type": "string"}}}
    names = copied(rename, offered_values(["Rename 'Plumber' to 'Call the Plumber'"]))["properties"]
    assert {"Plumber", "Call the Plumber"} <= set(names["old_name"]["enum"])
    status = copied({"type": "string"}, offered_values(["Change the status from 'open' to 'reopened'"]))
    assert {"open", "reopened"} <= set(status["enum"])
    price = {"type": "object", "properties": {"price": {"type": "number"}}}
    assert 12.5 in copied(price, offered_values(["Order 3 pizzas at 12.50 each"]))["properties"]["price"]["enum"]
    times = next(s for s in SOURCES if s.name == "times")
    hhmm = {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}
    assert times.offers("at", hhmm, offered_values(["Buy at 19.99, then sell at 25.50"])) == []
    assert times.offers("at", hhmm, offered_values(["Let us meet at 8 this evening"])) != ["08:00"]
    codes = next(s for s in SOURCES if s.name == "codes")
    country = {"type": "string", "pattern": "^[A-Z]{2}$", "description": "ISO 3166-1 alpha-2 code"}
    assert codes.offers("country", country, offered_values(["Find Chinese restaurants in Toronto"])) == ["CA"]
    words = next(s for s in SOURCES if s.name == "enum-words")
    channel = {"type": "string", "enum": ["email", "sms", "push_message"]}
    assert words.offers("channel", channel, offered_values(["Notify me at 5 PM"])) == []
    moments = next(s for s in SOURCES if s.name == "typed-moments")
    assert moments.offers("at", {"type": "string", "format": "date-time"},
                          offered_values(["on 2027-07-16 at 14:00 UTC+25, or UTC"])) == ["2027-07-16T14:00:00Z"]


def test_a_percentile_is_no_percentage_and_a_level_keeps_its_percentage():
    numbers = next(s for s in SOURCES if s.name == "numbers")
    written = offered_values(["Show the 95th percentile latency for hosts with over 5% errors"])
    assert 95 in numbers.offers("percentile", {"type": "integer"}, written)
    assert 30 in numbers.offers("brightness", {"type": "integer"}, offered_values(["Set the brightness to 30% in 2 rooms"]))


def test_a_follow_up_time_keeps_the_morning_it_names_or_the_result_offers():
    result = '{"status": "taken", "date": "2027-02-10", "free": ["08:30", "11:15", "15:40", "20:30"]}'
    assert _follow_up(result, "Make it 8:30 then.")["time"]["enum"] == ["08:30"]
    assert _follow_up('{"status": "taken", "free": ["15:40", "20:30"]}', "8:30 in the morning works.")["time"][
        "enum"] != ["20:30"]


def test_a_system_message_s_instructions_are_no_values():
    rooms = Tool("book_rooms", "Book hotel rooms.", {
        "type": "object", "required": ["rooms"], "properties": {"rooms": {"type": "integer"}}})
    system = ("system", "You are a helpful travel assistant. Always answer in 2 sentences. Never book more than 5 rooms.")
    shaped = shape(Conversation((system, ("user", "Book rooms in Paris for our team of 12")), (rooms,), "required"))
    assert shaped.tools[0].parameters["properties"]["rooms"]["enum"] == [12]


@pytest.mark.parametrize(("request_", "key", "offered"), [
    ("Bitte lass zwei Pakete abholen. Notiz für den Kurier: bitte klingeln bei Schulz, 3. Stock.", "courier_note",
     ["bitte klingeln bei Schulz, 3. Stock"]),
    ("帮我预订西湖国宾馆，住两晚，特殊要求：高楼层无烟房。", "special_requests", ["高楼层无烟房"]),
    ("母にギフト券を送って。メッセージは『いつもありがとう』で。", "gift_message", ["いつもありがとう"]),
    ("Check the rooms at 'Queens Hotel' from March 10", "when", []),  # "at" labels nothing
    ("not: çocuk koltuğu lazım", "note", []),  # nor does "not", alone
    ("Find the game 'Call of Duty: Modern Warfare' on the Playstation", "game", ["Call of Duty: Modern Warfare"]),
    ("Fetch it from this URL: 'https://api.example.com/groups'?", "url", ["https://api.example.com/groups"]),
    ("Order a burger. Restaurant: McDonald's. Pay by card.", "restaurant", ["McDonald's"]),
    ("Check my flight. Ticket number: IND5463. It leaves today.", "ticket_number", ["IND5463"]),
    ("Book the clinic. Note: ask for Dr. Smith at the desk. Thanks", "note", ["ask for Dr. Smith at the desk"]),
    ('Send it. Message: "Hello" and more.', "message", ['"Hello" and more']),  # the quotation is not all of it
    ("Book a table. Note: ...", "note", []),  # no value
    ("Note: " + "a, " * 1000, "note", []),  # a pasted text: its labels are not read
    ("Réserve un taxi à 7h20, avec le commentaire « code porte 1234 ».", "comment", ["code porte 1234"]),
    ("카드에는 '항상 감사합니다'라고 써 줘.", "card_message", ["항상 감사합니다"]),
    ("Auf die Karte: „Alles Gute zum Muttertag!“", "card_message", ["Alles Gute zum Muttertag!"]),
    ("Book the dentist at 8:30, reason: toothache on the left. Thanks", "reason", ["toothache on the left"]),
    ("Book the dentist at 8:30 for my toothache.", "reason", []),  # no label: the stretches are asked
    ("Add 'Dentist' to my calendar", "reason", []),  # "Add" means no reason
])
def test_a_value_after_a_label_that_means_the_argument_is_offered_whole(request_, key, offered):
    labelled = next(source for source in SOURCES if source.name == "labelled")
    assert list(labelled.offers(key, {"type": "string"}, offered_values([request_]))) == offered


def test_a_labelled_value_goes_to_the_argument_its_label_means_most():
    tool = Tool("book_doctor", "Book a doctor's appointment.", {"type": "object", "required": ["day"], "properties": {
        "day": {"type": "string", "format": "date"}, "reason": {"type": "string"},
        "note_for_reception": {"type": "string"}}})
    request = "Marca uma consulta para 27 de setembro de 2027. Nota para a receção: o Tomás vem com a avó."
    shaped = shape(Conversation((("user", request),), (tool,), "required"), Shaping())
    assert shaped.tools[0].parameters["properties"]["note_for_reception"]["enum"] == ["o Tomás vem com a avó"]
    assert shaped.decisions["left_out"]["book_doctor"] == ["reason"]  # its label means the note more
    assert "note_for_reception" in shaped.tools[0].parameters["required"]  # a label is sure: the value is written


@pytest.mark.parametrize(("request_", "pair", "key", "value"), [
    ("Envía un vale de 20 euros a ana@example.es y fírmalo como «Tu tío Pablo».", ("gift_message", "signed_as"),
     "signed_as", "Tu tío Pablo"),
    ("내일 오후 3시에 커트 예약해 줘. 메모: 앞머리는 짧게 해 주세요.", ("stylist_preference", "salon_note"),
     "salon_note", "앞머리는 짧게 해 주세요"),
])
def test_a_label_less_close_still_names_the_argument_it_means_far_more_than_the_others(request_, pair, key, value):
    tool = Tool("book", "Book it.", {"type": "object", "properties": {name: {"type": "string"} for name in pair}})
    shaped = shape(Conversation((("user", request_),), (tool,), "required"), Shaping())
    assert shaped.tools[0].parameters["properties"][key]["enum"] == [value]


def test_a_label_less_close_names_no_part_read_alone():
    send = {"type": "object", "required": ["recipients", "text"], "properties": {
        "recipients": {"type": "array", "items": {"type": "string", "description": "A name, email or phone number."}},
        "text": {"type": "string", "description": "Body of the message."}}}
    asked = offered_values(["Look up Maria's email address and send her the message 'See you at noon'"],
                           whole=["Maria Rossi", "maria.rossi@example.com"])
    props = copied(send, asked)["properties"]
    assert props["text"]["enum"] == ["See you at noon"]
    assert "maria.rossi@example.com" in props["recipients"]["items"]["enum"]  # the message is no recipient's


def test_a_command_s_payload_after_a_colon_is_the_user_s_text():
    food = Tool("log_food", "Log food eaten.", {"type": "object", "required": ["description", "calories"], "properties": {
        "description": {"type": "string"}, "calories": {"type": "integer"}}})
    props = shape(Conversation((("user", "Log dinner: mushroom risotto, about 600 calories."),), (food,), "required"),
                  Shaping()).tools[0].parameters["properties"]
    assert props["description"]["enum"] == ["mushroom risotto", "mushroom risotto, about 600 calories"]
    props = shape(Conversation((("user", "Dinner: mushroom risotto, 600 calories."),), (food,), "required"),
                  Shaping()).tools[0].parameters["properties"]
    assert "Dinner" in props["description"]["enum"]  # one word is a label, not a command: its stretches, as before
    pet = Tool("feed_pet", "Feed a pet.", {"type": "object", "required": ["pet_name"], "properties": {
        "pet_name": {"type": "string"}}})
    props = shape(Conversation((("user", "Feed my cat Mochi: just a little, 15g."),), (pet,), "required"),
                  Shaping()).tools[0].parameters["properties"]
    assert "Mochi" in props["pet_name"]["enum"]  # a name is no text of the user's own


def test_an_optional_free_string_a_label_gives_a_value_is_asked_for_in_english_too():
    cake = Tool("order_cake", "Order a cake.", {"type": "object", "required": ["flavour"], "properties": {
        "flavour": {"type": "string", "enum": ["chocolate", "lemon"]}, "inscription": {"type": "string"}}})
    for request_, left in [('A chocolate cake please. Write "Congrats Sam!" on it.', []),
                           ("A chocolate cake please, for Sam.", ["inscription"])]:
        shaped = shape(Conversation((("user", request_),), (cake,), "required"), Shaping())
        assert shaped.decisions["left_out"].get("order_cake", []) == left, request_
    assert shaped.tools[0].parameters["properties"]["flavour"]["enum"] == ["chocolate"]


def test_an_apostrophe_inside_a_word_of_any_script_but_cjk_quotes_nothing():
    assert offered_values(["Купи м'ясо і п'ять яблук"]).quoted == ()
    assert offered_values(["Книга про Д'Артаньяна и 'Три мушкетёра'"]).quoted == ("Три мушкетёра",)
    assert offered_values(["카드에는 '항상 감사합니다'라고 써 줘"]).quoted == ("항상 감사합니다",)


def test_an_optional_argument_offered_a_value_of_its_own_kind_is_asked_for_in_any_language():
    laundry = Tool("schedule_laundry_pickup", "Schedule a laundry pickup.", {
        "type": "object", "required": ["pickup_date"], "properties": {
            "pickup_date": {"type": "string", "format": "date"},
            "pickup_slot": {"type": "string", "enum": ["morning", "afternoon", "evening"], "description": "Part of the day."},
            "bags": {"type": "integer", "minimum": 1, "maximum": 10, "description": "Number of bags."},
            "tip_percent": {"type": "number", "description": "Tip for the driver, in percent."},
            "express": {"type": "boolean", "description": "Same-day return."}}})
    for request_, asked in [("Recolham 2 sacos de roupa no dia 3 de março de 2027, à noite, com 10 % de gorjeta.",
                             ["pickup_date", "pickup_slot", "bags", "tip_percent"]),
                            ("2027年3月3日晚上来取衣服，小费10%。", ["pickup_date", "pickup_slot", "tip_percent"]),
                            ("Recolham roupa no dia 3 de março de 2027.", ["pickup_date"])]:
        shaped = shape(Conversation((("user", request_),), (laundry,), "required"), Shaping())
        assert shaped.tools[0].parameters["required"] == asked, request_


def test_a_word_for_what_an_enum_s_values_are_kinds_of_names_no_value_of_that_kind():
    cake = Tool("order_cake", "Order a cake from the bakery.", {"type": "object", "required": ["flavour"], "properties": {
        "flavour": {"type": "string", "enum": ["chocolate", "vanilla", "lemon", "cheesecake", "strawberry"],
                    "description": "Flavour of the cake."}}})
    for request_, named in [("Je voudrais un gâteau au citron pour samedi.", ["lemon"]), ("订一个草莓蛋糕。", ["strawberry"]),
                            ("Ich möchte einen Käsekuchen.", ["cheesecake"]),
                            ("Un gâteau, s'il vous plaît.", ["chocolate", "vanilla", "lemon", "cheesecake", "strawberry"])]:
        shaped = shape(Conversation((("user", request_),), (cake,), "required"), Shaping())
        assert shaped.tools[0].parameters["properties"]["flavour"]["enum"] == named, request_


def test_a_follow_up_s_value_goes_to_the_argument_its_words_mean_and_the_other_keeps_what_was_sent():
    country = {"type": "string", "pattern": "^[A-Z]{2}$"}
    visa = Tool("check_visa_requirements", "Check whether a traveller needs a visa.", {
        "type": "object", "required": ["passport_country", "destination_country"], "properties": {
            "passport_country": {**country, "description": "ISO 3166-1 alpha-2 code of the country that issued the passport."},
            "destination_country": {**country, "description": "ISO 3166-1 alpha-2 code of the country to visit."}}})
    for asked, passport in [("What if I travel on my Irish passport instead?", "IE"), ("Et avec un passeport italien ?", "IT")]:
        messages = (("user", "Do I need a visa to visit India on my US passport?"),
                    ("assistant", '{"name": "check_visa_requirements", "arguments": '
                                  '{"passport_country": "US", "destination_country": "IN"}}'),
                    ("tool", '{"visa_required": true, "visa_type": "e-Visa"}'), ("user", asked))
        properties = shape(Conversation(messages, (visa,), "required")).tools[0].parameters["properties"]
        assert properties["passport_country"]["enum"] == [passport], asked
        assert properties["destination_country"]["enum"] == ["IN"], asked


def test_a_follow_up_s_value_goes_to_the_side_of_a_pair_its_marker_says():
    station = {"type": "string", "pattern": "^[A-Z]{3}$"}
    trains = Tool("search_trains", "Search trains between two stations.", {
        "type": "object", "required": ["from_station", "to_station"], "properties": {
            "from_station": {**station, "description": "Code of the station to leave from."},
            "to_station": {**station, "description": "Code of the station to arrive at."}}})
    for asked in ("And to LDS?", "Und nach LDS?"):
        messages = (("user", "Any trains from MAN to EDB?"),
                    ("assistant", '{"name": "search_trains", "arguments": {"from_station": "MAN", "to_station": "EDB"}}'),
                    ("tool", '{"trains": ["07:10", "08:40"]}'), ("user", asked))
        properties = shape(Conversation(messages, (trains,), "required")).tools[0].parameters["properties"]
        assert (properties["from_station"]["enum"], properties["to_station"]["enum"]) == (["MAN"], ["LDS"]), asked


def test_an_argument_that_takes_a_code_is_offered_the_whole_codes_written():
    plate = {"type": "object", "properties": {"plate_number": {"type": "string"}}}
    for request_, offered in [("Programa un cambio de aceite para el coche con matrícula 4821 KLM.", ["4821 KLM"]),
                              ("Prenota la revisione per l'auto targata FG 123 HK.", ["FG 123 HK"])]:
        assert copied(plate, offered_values([request_]))["properties"]["plate_number"]["enum"] == offered, request_
    written_on = copied(plate, offered_values(["预约车牌京A12345的车保养"]))["properties"]["plate_number"]["enum"]
    assert "京A12345" in written_on  # no code is cut out of a longer word
    room = {"type": "object", "properties": {"room_type": {"type": "string"}}}
    assert "single" in copied(room, offered_values(["Book a single room for 3 nights."]))["properties"]["room_type"][
        "enum"]  # a number alone is no code


def test_a_name_in_chinese_japanese_or_korean_is_offered_before_other_stretches_but_not_to_a_message():
    schema = {"type": "object", "properties": {"colleague": {"type": "string"}, "card_message": {"type": "string"}}}
    for request_, names in [("企画書.pdfを山本さんに閲覧のみで共有して。", ["山本", "山本さん"]),
                            ("김민지에게 튤립 꽃다발 보내 줘.", ["김민지"]), ("把季度报告分享给王磊，请他周五前改完", ["王磊"])]:
        props = copied(schema, offered_values([request_]))["properties"]
        assert props["colleague"]["enum"] == names, request_
        assert len(props["card_message"]["enum"]) > len(names), request_
