"""Python functions as tools: schema from hints and docstring, the function as executor."""

from __future__ import annotations

import asyncio
from typing import Literal

import pytest
from pydantic import BaseModel

from gbnf import Planner, Tool, compile_pool, function_tool
from gbnf.errors import ManifestError
from gbnf.tools import load_manifest


@function_tool
def forecast(city: str, days: int = 3, units: Literal["c", "f"] = "c") -> dict:
    """The weather forecast for a city.

    Args:
        city: The city's name.
        days: How many days ahead.
    """
    return {"city": city, "days": days, "units": units, "sky": "sunny"}


class Person(BaseModel):
    name: str
    age: int


@function_tool(name="greet", description="Greet a person.")
async def hello(person: Person, loud: bool = False) -> str:
    await asyncio.sleep(0)
    text = f"Hello, {person.name} ({person.age})"
    return text.upper() if loud else text


def test_a_function_compiles_to_the_grammar_of_its_manifest(tmp_path):
    manifest = tmp_path / "forecast.toml"
    manifest.write_text('''name = "forecast"
description = "The weather forecast for a city."

[parameters]
type = "object"
required = ["city"]

[parameters.properties.city]
type = "string"

[parameters.properties.days]
type = "integer"

[parameters.properties.units]
type = "string"
enum = ["c", "f"]
''')
    assert compile_pool([forecast.tool]).text == compile_pool([load_manifest(manifest)]).text
    assert forecast.tool.description == "The weather forecast for a city."
    assert forecast.tool.parameters["properties"]["city"]["description"] == "The city's name."
    assert "title" not in forecast.tool.parameters["properties"]["city"]
    assert Tool.from_function(forecast.__wrapped__) == forecast.tool


def test_the_function_is_the_executor_with_hinted_types():
    assert forecast(city="Oslo", days=2) == {"city": "Oslo", "days": 2, "units": "c", "sky": "sunny"}
    assert hello.tool.name == "greet" and hello.tool.description == "Greet a person."
    assert hello(person={"name": "Ann", "age": 30}, loud=True) == "HELLO, ANN (30)"
    assert hello.tool.parameters["properties"]["person"] == {"$ref": "#/$defs/Person"}


class Opaque:
    pass


def test_a_function_whose_hints_make_no_schema_is_named():
    def odd(thing: Opaque) -> None:
        """Takes an opaque thing."""

    def unknown(thing: Missing) -> None:  # noqa: F821 (a name that does not resolve)
        """Takes a thing of no known type."""

    for function in (odd, unknown):
        with pytest.raises(ManifestError, match=rf"{function.__name__}: its type hints make no JSON Schema"):
            Tool.from_function(function)


def test_the_planner_runs_a_function_tool_on_the_embedded_model(inprocess):
    planner = Planner([forecast.tool], inprocess, {"forecast": forecast})
    result = planner.run("What is the weather forecast for Paris?")
    assert [call.name for call, _ in result.results] == ["forecast"]
    call, value = result.results[0]
    assert call.arguments["city"].lower() == "paris" and value["sky"] == "sunny"
    assert result.answer is not None
