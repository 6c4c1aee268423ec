"""Reading what a model wrote: the validator (every call against its tool's full schema, with
repairs that cannot change meaning), soft parsing of sloppy output, and plain-text protocols
for tiny answers."""

from gbnf.read._plaintext import Lines, Pick, exact_lines, parse_lines, parse_pick, pick_one
from gbnf.read._softparse import SoftParse, soft_parse
from gbnf.read._validate import ToolCall, checked_json, validate_call, validate_calls, validate_json

__all__ = ["Lines", "Pick", "SoftParse", "ToolCall", "checked_json", "exact_lines", "parse_lines", "parse_pick",
           "pick_one", "soft_parse", "validate_call", "validate_calls", "validate_json"]
