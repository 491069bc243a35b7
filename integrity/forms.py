from __future__ import annotations

from django import forms

from integrity.models import CaseStatus


class CaseNoteForm(forms.Form):
    text = forms.CharField(widget=forms.Textarea, max_length=4000, label="Note")


class CaseDecideForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[
            (CaseStatus.CLEARED, "Cleared: no collusion"),
            (CaseStatus.WARNED, "Warned"),
            (CaseStatus.SUSPENDED, "Suspended: play stops at the end of the hand, wallet held"),
        ],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(widget=forms.Textarea, max_length=4000, required=False, label="Why")


class SharedAddressForm(forms.Form):
    reason = forms.CharField(max_length=300, label="Why they may share an address")
