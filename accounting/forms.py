"""The rake report's form: New York days and how to group them."""

from __future__ import annotations

from typing import Any

from django import forms

from accounting.report import GROUP_BY_CHOICES
from pokerroom.room_day import day_range_error


class RakeReportForm(forms.Form):
    first_day = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    last_day = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    group_by = forms.ChoiceField(choices=[(g, g) for g in GROUP_BY_CHOICES], initial="day")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        error = day_range_error(data.get("first_day"), data.get("last_day"), limited=True)
        if error:
            self.add_error("last_day", error)
        return data
