"""String ``format`` values a grammar can hold, as GBNF for the content between the quotes.

Each is exact for date, time, date-time, uuid and ipv4; email, ipv6, hostname and uri are
close approximations (the validator makes the final check).
"""

from __future__ import annotations

_LEAP_YEAR = '([0-9]{2} ("0" [48] | [2468] [048] | [13579] [26]) | ("0" [48] | [2468] [048] | [13579] [26]) "00")'
_DATE = ('([0-9]{4} "-" (("0" [13578] | "1" [02]) "-" ("0" [1-9] | [12] [0-9] | "3" [01])'
         ' | ("0" [469] | "11") "-" ("0" [1-9] | [12] [0-9] | "30") | "02-" ("0" [1-9] | "1" [0-9] | "2" [0-8]))'
         f' | {_LEAP_YEAR} "-02-29")')
"""A calendar date: each month's own days, 29 February in leap years only."""
_TIME = ('([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" ([0-5] [0-9] | "60") ("." [0-9]{1,9})? '
         '([zZ] | [+-] ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9])')
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
    "uri": '[a-zA-Z] [a-zA-Z0-9+.-]* ":" [^"\\\\\\x00-\\x20<>{}|^`]*',
}
EXACT = {"date", "time", "date-time", "uuid", "ipv4"}
