"""Print the reference page of the candidate sources (``docs/sources.md``)."""

from gbnf.shape.sources import reference

print(reference(), end="")
