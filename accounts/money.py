"""Money is integer cents; people read and type dollars ("$50.00", "50.00")."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

# Up to a billion dollars, at most two decimal places, commas only as thousands separators.
_DOLLARS = re.compile(r"^\$?(?P<whole>\d{1,3}(?:,\d{3})*|\d+)(?:\.(?P<cents>\d{1,2}))?$")
MAX_CENTS = 100_000_000_000


class MoneyParseError(ValueError):
    """The text is not an amount of dollars such as "50" or "50.00"."""


def cents_format(cents: int) -> str:
    """5000 -> "$50.00", 123456 -> "$1,234.56", -250 -> "-$2.50"."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{part:02d}"


def dollars_parse(text: str) -> int:
    """ "50.00" -> 5000; "$1,234.5" -> 123450. Refuses signs, exponents and fractions of a cent."""
    cleaned = text.strip()
    match = _DOLLARS.match(cleaned)
    if match is None:
        raise MoneyParseError(f"{text!r} is not an amount like 50.00")
    try:
        amount = Decimal(cleaned.lstrip("$").replace(",", ""))
    except InvalidOperation as error:  # pragma: no cover - the pattern already refused it
        raise MoneyParseError(f"{text!r} is not an amount like 50.00") from error
    cents = int((amount * 100).to_integral_exact())
    if cents > MAX_CENTS:
        raise MoneyParseError(f"{text!r} is more than the room handles in one movement")
    return cents
