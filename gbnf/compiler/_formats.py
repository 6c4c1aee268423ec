"""String ``format`` values a grammar can hold, as GBNF for the content between the quotes.

Each is exact for date, time, date-time, duration, uuid and ipv4, for json-pointer and
relative-json-pointer but a ``~`` written ``\\u007e``, and for uri-template (as the JSON Schema
Test Suite reads RFC 6570: an apostrophe is a literal) but characters written as ``\\u``
escapes; email, ipv6, hostname, uri and uri-reference are close approximations (the validator
makes the final check).
"""

from __future__ import annotations

_LEAP_YEAR = '([0-9]{2} ("0" [48] | [2468] [048] | [13579] [26]) | ("0" [48] | [2468] [048] | [13579] [26]) "00")'
_DATE = ('([0-9]{4} "-" (("0" [13578] | "1" [02]) "-" ("0" [1-9] | [12] [0-9] | "3" [01])'
         ' | ("0" [469] | "11") "-" ("0" [1-9] | [12] [0-9] | "30") | "02-" ("0" [1-9] | "1" [0-9] | "2" [0-8]))'
         f' | {_LEAP_YEAR} "-02-29")')
"""A calendar date: each month's own days, 29 February in leap years only."""
_TIME = ('([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" ([0-5] [0-9] | "60") ("." [0-9]{1,9})? '
         '([zZ] | [+-] ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9])')
_DIGITS = "[0-9]+"
_DURATION_TIME = (f'"T" ({_DIGITS} "H" ({_DIGITS} "M" ({_DIGITS} "S")?)? | {_DIGITS} "M" ({_DIGITS} "S")?'
                  f' | {_DIGITS} "S")')
_DURATION = (f'"P" (({_DIGITS} "Y" ({_DIGITS} "M" ({_DIGITS} "D")?)? | {_DIGITS} "M" ({_DIGITS} "D")? | {_DIGITS} "D")'
             f' ({_DURATION_TIME})? | {_DURATION_TIME} | {_DIGITS} "W")')
"""An ISO 8601 duration as RFC 3339's appendix A writes it (``P1Y2M``, ``PT30S``, ``P2W``)."""
_NOT_TILDE_ESCAPE = ('"\\\\" (["\\\\/bfnrt] | "u" ([1-9a-cA-CeEfF] [0-9a-fA-F]{3} | [dD] [0-7] [0-9a-fA-F]{2}'
                     ' | "0" ([1-9a-fA-F] [0-9a-fA-F]{2} | "0" ([0-689a-fA-F] [0-9a-fA-F] | "7" [0-9a-dA-DfF]))))')
"""A JSON string escape (no surrogate, as ``stringEscape``) that does not write ``~``."""
_POINTER = f'("/" ([^/~"\\\\\\x00-\\x1f] | "~" [01] | {_NOT_TILDE_ESCAPE})*)*'
"""A JSON pointer: ``~`` only as ``~0`` or ``~1`` (and never written ``\\u007e``)."""
_NOT_IN_URI = '"\\\\\\x00-\\x20<>{}|^`'
"""What a URI never holds unescaped (as a GBNF class's contents)."""
_URI_CHAR = f"[^{_NOT_IN_URI}]"
_SEGMENT_CHAR = f"[^:/?#{_NOT_IN_URI}]"
"""A character of a relative reference's first segment: no colon (it would read as a scheme)."""
_PERCENT = '"%" [0-9a-fA-F]{2}'
_VARCHAR = f'([a-zA-Z0-9_] | {_PERCENT})'
_VARSPEC = f'{_VARCHAR} ("."? {_VARCHAR})* (":" [1-9] [0-9]{{0,3}} | "*")?'
_URI_TEMPLATE = (f'([^\\x00-\\x20"%<>\\\\^`{{|}}\\x7f] | "\\\\/" | {_PERCENT}'
                 f' | "{{" [+#./;?&=,!@|]? {_VARSPEC} ("," {_VARSPEC})* "}}")*')
"""An RFC 6570 URI template: literals (``/`` also written ``\\/``) and ``{expressions}``."""
_OCTET = '("25" [0-5] | "2" [0-4] [0-9] | "1" [0-9] [0-9] | [1-9]? [0-9])'
_HEX = "[0-9a-fA-F]"
_LABEL = "[a-zA-Z0-9] ([a-zA-Z0-9-]{0,61} [a-zA-Z0-9])?"
"""A host name's label: letters, digits and inner hyphens, at most 63."""

FORMATS: dict[str, str] = {
    "date": _DATE,
    "time": _TIME,
    "date-time": f"{_DATE} [tT] {_TIME}",
    "uuid": f'{_HEX}{{8}} "-" {_HEX}{{4}} "-" {_HEX}{{4}} "-" {_HEX}{{4}} "-" {_HEX}{{12}}',
    "ipv4": f'{_OCTET} "." {_OCTET} "." {_OCTET} "." {_OCTET}',
    "ipv6": f'({_HEX}{{0,4}} ":"){{2,7}} ({_HEX}{{1,4}} | {_OCTET} "." {_OCTET} "." {_OCTET} "." {_OCTET})?',
    "email": "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]{1,64} \"@\" [a-zA-Z0-9-]{1,63} (\".\" [a-zA-Z0-9-]{1,63})*",
    "hostname": f'{_LABEL} ("." {_LABEL})* "."?',
    "uri": f'[a-zA-Z] [a-zA-Z0-9+.-]* ":" {_URI_CHAR}*',
    "uri-reference": f'([a-zA-Z] [a-zA-Z0-9+.-]* ":" {_URI_CHAR}* | {_SEGMENT_CHAR}* ([/?#] {_URI_CHAR}*)?)',
    "uri-template": _URI_TEMPLATE,
    "duration": _DURATION,
    "json-pointer": _POINTER,
    "relative-json-pointer": f'("0" | [1-9] [0-9]*) ("#" | {_POINTER})',
}
EXACT = {"date", "time", "date-time", "duration", "uuid", "ipv4", "json-pointer", "relative-json-pointer",
         "uri-template"}
