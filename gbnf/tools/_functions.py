"""Python functions as tools: the arguments' schema from the type hints (pydantic), the
description and each argument's description from the docstring (Google, reST or NumPy style),
both read by :func:`tool_from_function`, and the function itself as the executor.

    @gbnf.function_tool
    def forecast(city: str, days: int = 3, units: Literal["c", "f"] = "c") -> dict:
        \"\"\"The weather forecast for a city.

        Args:
            city: The city's name.
        \"\"\"

    planner = Planner([forecast.tool], backend, {forecast.tool.name: forecast})   # final_answer is added

The decorated function takes the call's JSON arguments: pydantic turns them into the hinted
types (a model from an object, say) before the function runs; an async function is run to
completion.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable
from typing import Any, Protocol

import pydantic

from gbnf.tools._tool import Tool, tool_from_function


class FunctionTool(Protocol):
    """A function made a tool by :func:`function_tool`: call it with a call's arguments;
    ``.tool`` is its :class:`Tool`."""

    tool: Tool

    def __call__(self, **arguments: Any) -> Any: ...


def function_tool(function: Callable[..., Any] | None = None, *, name: str | None = None,
                  description: str | None = None) -> Any:
    """Decorator: ``function`` as a tool's executor, with ``.tool`` its :class:`Tool`
    (:func:`tool_from_function`). Use bare (``@function_tool``) or with a name or description."""
    if function is None:
        return lambda inner: function_tool(inner, name=name, description=description)
    validated = pydantic.validate_call(function)

    @functools.wraps(function)
    def run(**arguments: Any) -> Any:
        value = validated(**arguments)
        return asyncio.run(value) if inspect.iscoroutine(value) else value

    run.tool = tool_from_function(function, name=name, description=description)  # type: ignore[attr-defined]
    return run
