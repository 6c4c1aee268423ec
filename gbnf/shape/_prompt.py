"""The system text a shaped reply adds: the tools offered, each with the shape of its arguments,
and how to call them (a chat's offer, a plan's instructions).

Two styles. ``skeleton`` (for unconstrained backends) shows a literal JSON call with
placeholders (``"<city>"``), never sample content: it keeps small models from calling tools
in prose. ``signature`` (for grammar mode) shows typed arguments
(``{"city": string, "days"?: integer}``): the grammar already carries the syntax, and tiny
models copy a literal skeleton's placeholders instead of filling in values.
"""

from __future__ import annotations

from typing import Any, Literal

from gbnf.compiler import json_text, skeleton
from gbnf.tools import Tool

INSTRUCTIONS = """You are a planner. You answer the user's request by calling tools, one step at a time.
Reply with exactly one JSON object {{"name": <tool name>, "arguments": {{...}}}} and nothing else.
After each call you receive the tool's result. When you can answer, call {final}."""

PARALLEL = """You may reply with a JSON array of up to {n} calls when they do not depend on each other."""

OFFER = {
    "auto": """You can call these tools. To call one, reply with only a JSON object
{{"name": <tool name>, "arguments": {{...}}}}; otherwise answer in plain text.""",
    "required": "Reply with only a JSON object {{\"name\": <tool name>, \"arguments\": {{...}}}} "
                "that calls one of these tools.",
}


def signature(schema: Any) -> str:
    """Typed argument shape: ``{"city": string, "days"?: integer, "units"?: "metric"|"imperial"}``."""
    if not isinstance(schema, dict) or not schema:
        return "any"
    if "const" in schema:
        return json_text(schema["const"])
    if "enum" in schema:
        return "|".join(json_text(v) for v in schema["enum"])
    for keyword in ("anyOf", "oneOf"):
        if schema.get(keyword):
            return " | ".join(signature(branch) for branch in schema[keyword])
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        required = schema.get("required", [])
        props = schema.get("properties", {})
        inner = ", ".join(f"{json_text(k)}{'' if k in required else '?'}: {signature(v)}" for k, v in props.items())
        return "{" + inner + "}"
    if kind == "array":
        return "[" + signature(schema.get("items", {})) + ", ...]"
    if isinstance(kind, list):
        return "|".join(kind)
    return kind or "any"


Style = Literal["signature", "skeleton"]


def describe_tool(tool: Tool, style: Style = "signature") -> str:
    """The tool's lines in the system prompt: with ``signature``, its name and description, its
    arguments' signature, and a line for each argument its schema describes (a small model
    otherwise reads ``measure`` as any word, not a unit)."""
    if style == "signature":
        props = tool.parameters.get("properties") or {}
        described = [f"  {key}: {text.strip()}" for key, sub in props.items()
                     if isinstance(sub, dict) and isinstance(text := sub.get("description"), str) and text.strip()]
        return "\n".join([f"- {tool.name}: {tool.description}", f"  arguments: {signature(tool.parameters)}",
                          *described])
    call = json_text({"name": tool.name, "arguments": skeleton(tool.parameters)})
    lines = [f"- {tool.name}: {tool.description}", f"  {call}"]
    props = tool.parameters.get("properties", {})
    optional = [key for key in props if key not in tool.parameters.get("required", [])]
    if optional:
        parts = []
        for key in optional:
            sub = props[key] if isinstance(props[key], dict) else {}
            kind = "|".join(map(str, sub["enum"])) if "enum" in sub else sub.get("type", "any")
            text = f"{key} ({kind})"
            if sub.get("description"):
                text += f": {sub['description'].rstrip('.')}"
            parts.append(text)
        lines.append("  optional: " + "; ".join(parts))
    return "\n".join(lines)


def system_prompt(tools: list[Tool], parallel: int = 1, style: Style = "signature", *,
                  final_tool: str = "final_answer") -> str:
    """The whole system prompt for a pool."""
    head = INSTRUCTIONS.format(final=final_tool)
    if parallel > 1:
        head += "\n" + PARALLEL.format(n=parallel)
    return head + "\n\nTools:\n" + "\n".join(describe_tool(tool, style) for tool in tools)


def tools_offer(tools: list[Tool], required: bool, parallel: int = 1) -> str:
    """The system prompt's part that offers ``tools`` to a chat (``gbnf serve``): a call is
    required, or the model may answer in text instead."""
    head = OFFER["required" if required else "auto"].format()
    if parallel > 1:
        head += "\n" + PARALLEL.format(n=parallel)
    return head + "\n\nTools:\n" + "\n".join(describe_tool(tool) for tool in tools)
