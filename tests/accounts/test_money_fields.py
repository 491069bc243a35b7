"""Issue #16: the one money form field every app uses (accounts.money): dollars typed as
people write them, cleaned to integer cents, shown back as dollars; lists of amounts likewise."""

from __future__ import annotations

import pytest
from django import forms

from accounts.money import (
    FRACTION_MESSAGE,
    NEGATIVE_MESSAGE,
    CentsField,
    CentsInput,
    CentsListField,
    CentsListInput,
)


@pytest.mark.parametrize(
    ("typed", "cents"),
    [("1.50", 150), ("$1.50", 150), ("1,000.00", 100_000), ("$1,000", 100_000), ("0", 0)],
)
def test_an_amount_typed_in_dollars_is_cleaned_to_cents(typed: str, cents: int) -> None:
    assert CentsField().clean(typed) == cents


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1.505", FRACTION_MESSAGE.format(text="1.505")),
        ("-1", NEGATIVE_MESSAGE),
        ("$-1.50", NEGATIVE_MESSAGE),
        ("one dollar", "Enter an amount in dollars and cents, like 1.50 or $1,000.00."),
    ],
)
def test_fractions_of_a_cent_and_negative_amounts_are_refused_saying_why(
    typed: str, message: str
) -> None:
    with pytest.raises(forms.ValidationError) as refused:
        CentsField().clean(typed)
    assert refused.value.messages == [message]


def test_a_least_amount_is_enforced_and_blank_is_none_when_not_required() -> None:
    with pytest.raises(forms.ValidationError, match="more than"):
        CentsField(min_cents=1).clean("0.00")
    assert CentsField(required=False).clean("") is None


def test_cents_are_shown_back_as_dollars_and_cents() -> None:
    assert CentsInput().format_value(150) == "1.50"
    assert CentsInput().format_value(100_000) == "1,000.00"
    assert CentsInput().format_value("1.505") == "1.505"  # what was typed, when refused
    assert CentsListInput().format_value([2000, 4000]) == "20.00, 40.00"


@pytest.mark.parametrize(
    ("typed", "cents"),
    [
        ("20.00, 40.00, 60.00", [2000, 4000, 6000]),
        ("60, 20,40", [2000, 4000, 6000]),
        ("$1,000.00, 5.00", [500, 100_000]),
        ("", []),
    ],
)
def test_a_list_of_dollar_amounts_is_cleaned_to_sorted_cents(typed: str, cents: list[int]) -> None:
    assert CentsListField().clean(typed) == cents


def test_a_list_names_the_amount_it_refuses() -> None:
    with pytest.raises(forms.ValidationError) as refused:
        CentsListField().clean("20.00, 1.505")
    assert refused.value.messages == ["1.505: " + FRACTION_MESSAGE.format(text="1.505")]
