"""The candidate sources, each on its own: its example, its switch, the reference page made from
the table, and the conversation's day that dates from today count from."""

import datetime
from pathlib import Path

import pytest

from gbnf.errors import GbnfError
from gbnf.shape import Conversation, Shaping, offered_values, shape
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
    assert candidates(source.kind, example.name, example.schema, values)[0] in (source.name, "")
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
