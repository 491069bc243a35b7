"""The forms of the accountant's pages: the rake report's New York days and grouping, and
the monthly statement's month."""

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


class StatementForm(forms.Form):
    """A month typed as 2025-03 (the browser's month picker)."""

    month = forms.DateField(
        input_formats=["%Y-%m"], widget=forms.DateInput(attrs={"type": "month"}, format="%Y-%m")
    )
