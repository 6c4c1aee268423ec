"""The units of measurement a request writes, which an optional unit argument asks for."""

from __future__ import annotations

import pytest

from gbnf.shape.rules import units_written


@pytest.mark.parametrize("text, units", [
    ("What is the circumference of a circle with a radius of 4 inches?", ("inches",)),
    ("The first circle has a radius of 5cm, the second a radius of 10cm", ("cm",)),
    ("A base of 15 meters and a height of 20 meters", ("meters",)),
    ("Calculate the speed in km/h of an object that traveled 450 meters in 20 seconds", ("km/h",)),
    ("The density in kg/m³ of 10 kilograms in 2 cubic meters", ("kg/m³",)),
    ("I would like the result in square meters", ("square meters",)),
    ("The average temperature in Austin for the next 3 days in Celsius", ("Celsius",)),
    ("Set the oven to 180°C", ("°C",)),
    ("A car travels 50 kilometers in 2 hours: its velocity?", ()),  # a length and a time: no one unit
    ("Weight is 70 kg and height is 180 cm", ()),
    ("The top 10 landmark cases in constitutional law", ()),
    ("A triangle with a base of 10 units", ()),  # no micro-nits
    ("He has $5000 and earns 5 a year", ()),  # "a" is no year
    ("Find vegan restaurants in Los Angeles", ()),
])
def test_the_units_a_request_names(text, units):
    assert units_written(text) == units
