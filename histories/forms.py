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


# A player's own history file (issue #24 item 5): at most this many bytes, uploaded or pasted.
MAX_IMPORT_BYTES = 1_000_000


def _decoded(raw: bytes) -> str:
    """A history file's text: UTF-8 (with or without its BOM, as PokerStars writes it),
    UTF-16 with a BOM, or else Windows-1252."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


class HandImportForm(forms.Form):
    """A PHH file or PokerStars text: uploaded, or pasted. ``cleaned_data["text"]`` is the
    file's text."""

    file = forms.FileField(
        required=False,
        label="A file",
        widget=forms.ClearableFileInput(attrs={"accept": ".txt,.phh,.phhs,.toml,text/plain"}),
    )
    text = forms.CharField(
        required=False,
        label="or paste it",
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        upload = self.cleaned_data.get("file")
        pasted = self.cleaned_data.get("text") or ""
        if upload and pasted.strip():
            raise forms.ValidationError("Upload a file or paste its text, not both.")
        if upload:
            if upload.size > MAX_IMPORT_BYTES:
                raise forms.ValidationError(
                    f"The file is {upload.size:,} bytes: at most {MAX_IMPORT_BYTES:,}."
                )
            self.cleaned_data["text"] = _decoded(upload.read())
        elif not pasted.strip():
            raise forms.ValidationError("Choose a file, or paste a hand history.")
        elif len(pasted.encode()) > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                f"The text is too long: at most {MAX_IMPORT_BYTES:,} bytes."
            )
        return self.cleaned_data


class HandKeepForm(forms.Form):
    """ "Keep in my account": the text of one hand, or of the whole file, as the import page
    read it (it is read and checked again)."""

    text = forms.CharField(strip=False, max_length=MAX_IMPORT_BYTES)
