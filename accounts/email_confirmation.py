"""The mails a sign-up sends (issue #22): sign-up answers the same whether or not an address is
registered, so the address is proved afterwards, by mail.

- An address no confirmed account holds gets a link (signed, good for
  `EMAIL_CONFIRM_DAYS`) that confirms it for the new account.
- An address a confirmed account already holds gets, instead, a notice to its owner: someone
  opened an account with this address; it was not attached; if it was you, log in or reset
  your password. The new account keeps the address unconfirmed, so nothing is ever mailed to
  it for that account.

Nothing here writes: accounts.services sends these (after `account_mail_allow`) and confirms.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.template.loader import render_to_string
from django.urls import reverse

EMAIL_CONFIRM_DAYS = 7
_SALT = "accounts.email_confirmation"


@dataclass(frozen=True)
class EmailToConfirm:
    player_id: int
    email: str


def email_confirm_token(*, player_id: int, email: str) -> str:
    return signing.dumps({"player": player_id, "email": email.lower()}, salt=_SALT, compress=True)


def email_confirm_read(token: str) -> EmailToConfirm | None:
    """The account and address a link names; None for a forged, altered or expired one."""
    try:
        value = signing.loads(token, salt=_SALT, max_age=EMAIL_CONFIRM_DAYS * 24 * 3600)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict):
        return None
    player_id, email = value.get("player"), value.get("email")
    if not isinstance(player_id, int) or not isinstance(email, str):
        return None
    return EmailToConfirm(player_id=player_id, email=email)


def email_confirm_mail(*, site: str, username: str, player_id: int, email: str) -> tuple[str, str]:
    """Subject and body of the confirmation link's mail. `site`: "https://room.example"."""
    path = reverse("email_confirm", args=[email_confirm_token(player_id=player_id, email=email)])
    body = render_to_string(
        "registration/email_confirm_email.txt",
        {"username": username, "link": f"{site}{path}", "days": EMAIL_CONFIRM_DAYS},
    )
    return "Confirm your Stud Room email address", body


def sign_up_notice_mail(*, site: str, username: str) -> tuple[str, str]:
    """Subject and body of the notice to an address's owner that `username` signed up with it."""
    body = render_to_string(
        "registration/sign_up_notice_email.txt",
        {
            "username": username,
            "login": f"{site}{reverse('login')}",
            "reset": f"{site}{reverse('password_reset')}",
        },
    )
    return "Someone signed up at the Stud Room with your email address", body
