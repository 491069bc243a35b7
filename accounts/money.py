"""Money is integer cents; people read and type dollars ("$50.00", "50.00", "1,000.00").

The one place that turns cents into text and text into cents, and the form fields every money
field staff or players edit uses: `CentsField` (one amount) and `CentsListField` (a list,
such as a rake tier's thresholds). Any app's form imports them from here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms

# Up to a billion dollars, at most two decimal places, commas only as thousands separators.
_DOLLARS = re.compile(r"^\$?(?P<whole>\d{1,3}(?:,\d{3})*|\d+)(?:\.(?P<cents>\d{1,2}))?$")
# The same with any number of decimal places: a fraction of a cent, said as such.
_FRACTION_OF_A_CENT = re.compile(r"^\$?(?:\d{1,3}(?:,\d{3})*|\d+)\.\d{3,}$")
_NEGATIVE = re.compile(r"^\$?\s*[-\u2212]|^[-\u2212]")
MAX_CENTS = 100_000_000_000

FORMAT_MESSAGE = "Enter an amount in dollars and cents, like 1.50 or $1,000.00."
NEGATIVE_MESSAGE = "An amount cannot be negative."
FRACTION_MESSAGE = "Money is counted in whole cents: {text} has a fraction of a cent."
TOO_LARGE_MESSAGE = "That is more than the room handles in one amount."


class MoneyParseError(ValueError):
    """The text is not an amount of dollars such as "50" or "50.00"; `message` says why, in
    words a person reads."""

    def __init__(self, message: str, *, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def cents_format(cents: int) -> str:
    """5000 -> "$50.00", 123456 -> "$1,234.56", -250 -> "-$2.50"."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{part:02d}"


def cents_plain(cents: int) -> str:
    """What a money input shows: 150 -> "1.50", 100000 -> "1,000.00" (no dollar sign)."""
    return cents_format(cents).replace("$", "")


def cents_to_dollars(cents: int) -> Decimal:
    """150 -> Decimal("1.50"): the number a spreadsheet cell or a chart holds."""
    return (Decimal(int(cents)) / 100).quantize(Decimal("0.01"))


def dollars_parse(text: str) -> int:
    """ "50.00" -> 5000; "$1,234.5" -> 123450. Refuses signs, exponents and fractions of a cent."""
    cleaned = text.strip()
    if _NEGATIVE.match(cleaned):
        raise MoneyParseError(NEGATIVE_MESSAGE, code="negative")
    if _FRACTION_OF_A_CENT.match(cleaned):
        raise MoneyParseError(FRACTION_MESSAGE.format(text=cleaned), code="fraction_of_a_cent")
    match = _DOLLARS.match(cleaned)
    if match is None:
        raise MoneyParseError(FORMAT_MESSAGE)
    try:
        amount = Decimal(cleaned.lstrip("$").replace(",", ""))
    except InvalidOperation as error:  # pragma: no cover - the pattern already refused it
        raise MoneyParseError(FORMAT_MESSAGE) from error
    cents = int((amount * 100).to_integral_exact())
    if cents > MAX_CENTS:
        raise MoneyParseError(TOO_LARGE_MESSAGE, code="too_large")
    return cents


# --- form fields ------------------------------------------------------------------------------


class CentsInput(forms.TextInput):
    """A text box that shows integer cents as dollars and cents (150 -> "1.50")."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__({"inputmode": "decimal", "size": "10", **(attrs or {})})

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool):
            return cents_plain(value)
        return super().format_value(value)


class CentsField(forms.CharField):
    """One amount typed in dollars ("$1.50", "1.50", "1,000.00"), cleaned to integer cents.

    Refuses a negative amount, a fraction of a cent and anything that is not an amount, each
    with its own message; `min_cents` sets the least amount (1: "more than $0.00")."""

    widget = CentsInput

    def __init__(self, *, min_cents: int = 0, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", "In dollars and cents, e.g. 1.50")
        kwargs.pop("max_length", None)  # a model's integer field may pass bounds we own
        kwargs.pop("min_value", None)
        kwargs.pop("max_value", None)
        kwargs.pop("step_size", None)
        super().__init__(**kwargs)
        self.min_cents = min_cents

    def prepare_value(self, value: Any) -> Any:
        return value

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        if isinstance(value, int) and not isinstance(value, bool):
            return value  # already cents (a form's initial value)
        text = super().to_python(value)
        if text is None or text in self.empty_values:
            return None
        try:
            cents = dollars_parse(text)
        except MoneyParseError as error:
            raise forms.ValidationError(error.message, code=error.code) from error
        if cents < self.min_cents:
            raise forms.ValidationError(
                f"The amount must be at least {cents_format(self.min_cents)}."
                if self.min_cents > 1
                else "The amount must be more than $0.00.",
                code="min",
            )
        return cents

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return self.to_python(data) != self.to_python(initial)
        except forms.ValidationError:
            return True


class CentsListInput(forms.TextInput):
    """A text box that shows a list of cents as "1.00, 5.00, 10.00"."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__({"size": "30", **(attrs or {})})

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, list | tuple):
            return ", ".join(cents_plain(int(cents)) for cents in value)
        return super().format_value(value)


def _amounts_split(text: str) -> list[str]:
    """ "1.00, 5.00;$1,000.00" -> ["1.00", "5.00", "$1,000.00"]: a semicolon, a space or a
    comma separates amounts, except a comma followed by three digits, which groups thousands."""
    return [part for part in re.split(r"[;\s]+|,(?!\d{3}(?!\d))", text.strip()) if part]


class CentsListField(forms.CharField):
    """Amounts typed in dollars and separated by ", " ("1.00, 5.00, 10.00"), cleaned to a
    sorted list of distinct integer cents ([100, 500, 1000]); blank is the empty list."""

    widget = CentsListInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", "Amounts in dollars, separated by commas: 1.00, 5.00, 10.00")
        kwargs.pop("encoder", None)  # a model's JSONField passes these
        kwargs.pop("decoder", None)
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        return value

    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        if isinstance(value, list | tuple):
            return sorted({int(cents) for cents in value})
        text = super().to_python(value)
        if not text:
            return []
        amounts: set[int] = set()
        for part in _amounts_split(text):
            try:
                amounts.add(dollars_parse(part))
            except MoneyParseError as error:
                raise forms.ValidationError(f"{part}: {error.message}", code=error.code) from error
        if 0 in amounts:
            raise forms.ValidationError("Each amount must be more than $0.00.", code="min")
        return sorted(amounts)

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return self.to_python(data) != self.to_python(initial or [])
        except forms.ValidationError:
            return True


def cents_list_format(amounts: Iterable[int]) -> str:
    """[100, 500] -> "$1.00, $5.00" (a list column of the admin)."""
    return ", ".join(cents_format(int(cents)) for cents in amounts)
