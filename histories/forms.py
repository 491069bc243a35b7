"""Forms of the hand-history pages: the list's filters and the "email these hands" choice."""

from __future__ import annotations

from typing import Any

from django import forms

from pokerroom.room_day import day_range_error
from tables.models import Table

OUTCOME_CHOICES = [("", "Won or lost"), ("won", "Won"), ("lost", "Lost"), ("even", "Even")]


class HandFilterForm(forms.Form):
    """Which of my hands: a table, New York days (first and last included), won or lost."""

    table = forms.ModelChoiceField(queryset=Table.objects.order_by("name"), required=False)
    first_day = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    last_day = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    outcome = forms.ChoiceField(choices=OUTCOME_CHOICES, required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        error = day_range_error(data.get("first_day"), data.get("last_day"))
        if error:
            self.add_error("last_day", error)
        return data

    def filters(self) -> dict[str, Any]:
        """Keyword arguments for histories.selectors.played_hands (valid form only)."""
        data = self.cleaned_data
        table = data.get("table")
        return {
            "table_id": table.pk if table is not None else None,
            "first_day": data.get("first_day"),
            "last_day": data.get("last_day"),
            "outcome": data.get("outcome") or None,
        }


class HandIdsField(forms.Field):
    """Hand ids posted as checkboxes; anything not a whole number is refused."""

    def to_python(self, value: Any) -> list[int]:
        if value in (None, "", []):
            return []
        values = value if isinstance(value, list) else [value]
        try:
            return [int(v) for v in values]
        except (TypeError, ValueError) as error:
            raise forms.ValidationError("Hand ids are whole numbers.") from error


class HandsEmailForm(forms.Form):
    hand_ids = HandIdsField(widget=forms.MultipleHiddenInput)
