"""Issue #22: password-reset mails were not throttled (10 requests, 10 mails). Now at most
ACCOUNT_MAILS_PER_ACCOUNT (3) an hour reach one account, and at most
ACCOUNT_MAILS_PER_ADDRESS (5) an hour are sent at one address's asking; the page
answers the same for a mail sent, a mail held back and an address nobody has."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import AccountMail
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _room_limits(settings: Any) -> None:
    settings.ACCOUNT_MAILS_PER_ACCOUNT = 3
    settings.ACCOUNT_MAILS_PER_ADDRESS = 5


def _ask(email: str, address: str) -> tuple[int, str, str]:
    """What the asker sees: the answer's status, where it sends them, and that page."""
    client = Client(REMOTE_ADDR=address)
    response = client.post(reverse("password_reset"), {"email": email})
    page = client.get(response["Location"]).text if response.status_code == 302 else ""
    return response.status_code, response.get("Location", ""), page


def test_one_account_gets_three_reset_mails_an_hour_whoever_asks() -> None:
    PlayerFactory(username="hana", email="hana@example.com")

    answers = [_ask("hana@example.com", f"198.51.100.{n}") for n in range(10)]

    assert len(mail.outbox) == 3
    assert {message.to[0] for message in mail.outbox} == {"hana@example.com"}
    assert len(set(answers)) == 1  # the fourth to the tenth were answered like the first
    status, location, page = answers[0]
    assert (status, location) == (302, reverse("password_reset_done"))
    assert "Check your email" in page


def test_one_address_gets_five_reset_mails_sent_an_hour_over_any_accounts() -> None:
    emails = [PlayerFactory(username=f"p{n}", email=f"p{n}@example.com").email for n in range(8)]

    answers = [_ask(email, "203.0.113.5") for email in emails]

    assert sorted(message.to[0] for message in mail.outbox) == sorted(emails[:5])
    assert len(set(answers)) == 1
    # Another address is not held back by this one's asking.
    _ask(emails[7], "192.0.2.44")
    assert mail.outbox[-1].to == [emails[7]] and len(mail.outbox) == 6


def test_the_answer_is_the_same_for_no_account_a_mail_sent_and_a_mail_held_back() -> None:
    PlayerFactory(username="ida", email="ida@example.com")
    unknown = _ask("nobody@example.com", "192.0.2.1")
    sent = _ask("ida@example.com", "192.0.2.2")
    for n in range(2):
        _ask("ida@example.com", f"192.0.2.{3 + n}")
    held_back = _ask("ida@example.com", "192.0.2.9")

    assert len(mail.outbox) == 3
    assert unknown == sent == held_back


def test_an_hour_later_the_account_can_be_mailed_again() -> None:
    PlayerFactory(username="jo", email="jo@example.com")
    for n in range(4):
        _ask("jo@example.com", f"198.51.100.{n}")
    assert len(mail.outbox) == 3

    for sent in AccountMail.objects.all():  # an hour and a minute ago
        sent.sent_at -= timedelta(minutes=61)
        sent.save(update_fields=["sent_at"])
    _ask("jo@example.com", "198.51.100.99")

    assert len(mail.outbox) == 4
