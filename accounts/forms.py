"""Forms of the accounts app: sign-up, password reset, settings and the staff wallet form."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from axes.helpers import get_client_ip_address
from django import forms
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.http import HttpRequest

from accounts.models import AccountMailKind, CashierKind, Player, PlayLimitKind
from accounts.money import CentsField, MoneyParseError, dollars_parse
from accounts.names import NameRefused, name_check
from accounts.selectors import name_held_by_another
from accounts.services import account_mail_allow

NAME_TAKEN_MESSAGE = "That name is taken: it is, or looks like, another player's name."
# For staff in the admin only: sign-up never says it (issue #22).
EMAIL_TAKEN_MESSAGE = "An account with that email address already exists."


def _name_clean(name: str, *, what: str, player_id: int | None) -> str:
    """Refuse a name the room will not show, or one too like another player's (issue #11)."""
    try:
        name_check(name, what=what)
    except NameRefused as error:
        raise forms.ValidationError(str(error), code="refused") from error
    if name_held_by_another(name, player_id=player_id):
        raise forms.ValidationError(NAME_TAKEN_MESSAGE, code="taken")
    return name


class SignUpForm(UserCreationForm):
    """Username, email and a password checked by Django's validators (settings).

    An email address another account holds is not refused: that would tell anyone whether
    an address is registered (issue #22). The new account's address waits unconfirmed, and
    the mail sent to it (accounts.email_confirmation) tells its owner. Usernames are shown at
    every table, so a taken one is refused as before."""

    email = forms.EmailField(required=True)

    class Meta(UserCreationForm.Meta):
        model = Player
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Unconfirmed: one confirmed account per address is the constraint; this is not one.
        self.instance.email_confirmed = False

    def clean_username(self) -> str:
        username = self.cleaned_data.get("username")
        if username:
            _name_clean(username, what="A username", player_id=None)
        # Django's own check after ours (an exact username, in any case).
        return super().clean_username()

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip()
        return email


class RoomPasswordResetForm(PasswordResetForm):
    """Django's reset form (its answer is the same whether or not an account has the address),
    mailing only an account whose address is confirmed, and only the mails
    `account_mail_allow` allows: a few an hour to an account and from an address (issue #22);
    the same answer beyond."""

    _address: str | None = None

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The address the log-in throttle counts too (django-axes' own reading of it).
        request: HttpRequest | None = kwargs.get("request")
        self._address = get_client_ip_address(request) if request is not None else None
        super().save(*args, **kwargs)

    def get_users(self, email: str) -> Iterator[Any]:
        for player in super().get_users(email):
            if player.email_confirmed and account_mail_allow(
                player_id=player.pk, kind=AccountMailKind.PASSWORD_RESET, address=self._address
            ):
                yield player


class PlayerSettingsForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = (
            "display_name",
            "auto_ante",
            "auto_muck",
            "confirm_free_fold",
            "four_colour_deck",
        )
        labels = {"display_name": "Display name at the tables"}
        help_texts = {
            "display_name": "Leave blank to be shown by your username. It cannot look like "
            "another player's name or the room staff's."
        }

    def clean_display_name(self) -> str:
        display_name: str = self.cleaned_data["display_name"].strip()
        if not display_name:
            return ""
        return _name_clean(display_name, what="A display name", player_id=self.instance.pk)


class WalletMovementForm(forms.Form):
    """Staff credit or debit a player; every movement becomes one ledger row."""

    DIRECTION_CHOICES = [
        ("credit", "Credit (add to balance)"),
        ("debit", "Debit (take from balance)"),
    ]
    CATEGORY_CHOICES = [
        ("cash", "Deposit / withdrawal (money in or out of the room)"),
        ("adjustment", "Adjustment (correction)"),
    ]

    amount = CentsField(label="Amount in dollars", min_cents=1, help_text="For example 50.00")
    direction = forms.ChoiceField(choices=DIRECTION_CHOICES, widget=forms.RadioSelect)
    category = forms.ChoiceField(
        choices=CATEGORY_CHOICES, initial="cash", widget=forms.RadioSelect, label="Entry kind"
    )
    reason = forms.CharField(
        max_length=200, help_text="Recorded on the ledger and shown to the player."
    )

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("A reason is required.")
        return reason


class CashierRequestForm(forms.Form):
    """A player asks the cashier for a deposit or a withdrawal (a real-money room)."""

    kind = forms.ChoiceField(
        choices=CashierKind.choices, widget=forms.RadioSelect, label="I want to make a"
    )
    amount = CentsField(label="Amount in dollars", min_cents=1, help_text="For example 50.00")


class CashierDecisionForm(forms.Form):
    """Staff approve or refuse one cashier request (the button pressed says which)."""

    note = forms.CharField(
        max_length=200, required=False, help_text="Shown to the player; on the ledger line."
    )


class PlayLimitForm(forms.Form):
    """One limit (issue #26): its kind and an amount in dollars (minutes for the session
    length and the reality check); left empty, the limit is removed (after 24 hours, like
    any raise; the reality check goes back to every 60 minutes)."""

    kind = forms.ChoiceField(choices=PlayLimitKind.choices, label="Limit")
    amount = forms.CharField(
        required=False,
        label="Amount (dollars, or minutes for the session length and the reality check)",
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        text = (cleaned.get("amount") or "").strip()
        if not text:
            cleaned["amount"] = None
        elif cleaned.get("kind") in (PlayLimitKind.SESSION_MINUTES, PlayLimitKind.REALITY_CHECK):
            if not text.isdigit():
                self.add_error("amount", "Minutes are a whole number.")
            else:
                cleaned["amount"] = int(text)
        else:
            try:
                cleaned["amount"] = dollars_parse(text)
            except MoneyParseError as error:
                self.add_error("amount", str(error))
        return cleaned


class AccountCloseForm(forms.Form):
    """Closing an account asks for the password: a session left open cannot close it."""

    password = forms.CharField(label="Your password", widget=forms.PasswordInput, strip=False)
    confirm = forms.BooleanField(
        label="I understand: I cannot log in again, and this cannot be undone."
    )

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player = player

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.player.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password
