"""Issue #22: sign-up said whether an email address was registered ("An account with that
email address already exists."). Now every sign-up is answered the same: the account is made
and logged in, and its address waits unconfirmed. The one mail tells the address's owner which
case it was: a link to confirm a new address, or, to the owner of a registered one, a notice
that someone signed up with it (accounts/email_confirmation.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail, signing
from django.test import Client
from django.urls import reverse

from accounts.email_confirmation import email_confirm_token
from accounts.models import Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

STRONG = "seven-card-stud-42"


@pytest.fixture(autouse=True)
def _room_limits(settings: Any) -> None:
    settings.ACCOUNT_MAILS_PER_ACCOUNT = 3
    settings.ACCOUNT_MAILS_PER_ADDRESS = 5


def _sign_up(username: str, email: str, address: str = "192.0.2.10") -> tuple[Client, Any]:
    client = Client(REMOTE_ADDR=address)
    response = client.post(
        reverse("signup"),
        {"username": username, "email": email, "password1": STRONG, "password2": STRONG},
        follow=True,
    )
    return client, response


def _link(message: Any) -> str:
    found = re.search(r"http://testserver(/accounts/email/confirm/\S+/)", message.body)
    assert found is not None, message.body
    return found.group(1)


def test_sign_up_with_a_registered_address_is_answered_as_with_a_new_one() -> None:
    PlayerFactory(username="owner", email="taken@example.com")

    _, fresh = _sign_up("carol", "carol@example.com")
    _, taken = _sign_up("mallory", "TAKEN@example.com")

    def seen(response: Any, username: str, email: str) -> str:
        text = response.content.decode().replace(email, "EMAIL").replace(username, "NAME")
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)

    assert fresh.redirect_chain == taken.redirect_chain == [(reverse("lobby"), 302)]
    assert seen(fresh, "carol", "carol@example.com") == seen(taken, "mallory", "TAKEN@example.com")
    assert "We have mailed TAKEN@example.com: open the link in it" in taken.content.decode()
    assert "already exists" not in taken.content.decode()
    assert Player.objects.get(username="mallory").email_confirmed is False


def test_the_owner_of_a_registered_address_is_told_and_the_address_is_not_attached() -> None:
    PlayerFactory(username="owner", email="taken@example.com")

    _sign_up("mallory", "taken@example.com")

    (notice,) = mail.outbox
    assert notice.to == ["taken@example.com"]
    assert 'opened a Stud Room account named "mallory"' in notice.body
    assert "it was not attached to the new one" in notice.body
    assert "/accounts/email/confirm/" not in notice.body  # no link can attach it

    # A password reset for the address goes to the owner's account alone.
    Client().post(reverse("password_reset"), {"email": "taken@example.com"})
    assert len(mail.outbox) == 2
    assert mail.outbox[1].body.startswith("Hello owner,")


def test_a_new_address_is_confirmed_by_the_mailed_link() -> None:
    client, _ = _sign_up("carol", "carol@example.com")
    (message,) = mail.outbox
    assert message.to == ["carol@example.com"]
    assert message.subject == "Confirm your Stud Room email address"
    assert "(not confirmed yet)" in client.get(reverse("account")).content.decode()
    assert client.get("/api/me/").json()["email_confirmed"] is False

    page = client.get(_link(message))
    assert "Confirm my address" in page.content.decode()
    assert Player.objects.get(username="carol").email_confirmed is False  # opening is not enough

    confirmed = client.post(_link(message), follow=True)
    assert "Your email address is confirmed." in confirmed.content.decode()
    assert "(not confirmed yet)" not in confirmed.content.decode()
    assert Player.objects.get(username="carol").email_confirmed is True
    assert client.get("/api/me/").json()["email_confirmed"] is True


def test_an_unconfirmed_address_gets_no_password_reset_and_the_same_answer() -> None:
    _sign_up("carol", "carol@example.com")
    mail.outbox.clear()

    response = Client().post(reverse("password_reset"), {"email": "carol@example.com"})

    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_an_altered_link_confirms_nothing() -> None:
    client, _ = _sign_up("carol", "carol@example.com")
    carol = Player.objects.get(username="carol")
    other = PlayerFactory(username="dan", email="dan@example.com", email_confirmed=False)
    real = email_confirm_token(player_id=carol.pk, email="carol@example.com")
    assert _link(mail.outbox[0]) == reverse("email_confirm", args=[real])
    altered = real[:-3] + ("abc" if real[-3:] != "abc" else "xyz")  # its signature broken
    # Dan's account and address, signed by someone without the room's key.
    forged = signing.dumps(
        {"player": other.pk, "email": "dan@example.com"}, salt="a guess", compress=True
    )

    for token in (altered, forged):
        path = reverse("email_confirm", args=[token])
        assert "This link no longer works" in client.get(path).content.decode()
        client.post(path)

    assert not Player.objects.get(pk=carol.pk).email_confirmed
    assert not Player.objects.get(pk=other.pk).email_confirmed


def test_of_two_sign_ups_with_one_new_address_only_the_first_confirmed_keeps_it() -> None:
    first, _ = _sign_up("carol", "shared@example.com")
    second, _ = _sign_up("carla", "shared@example.com", address="192.0.2.11")
    first_link, second_link = (_link(message) for message in mail.outbox)

    first.post(first_link)
    refused = second.post(second_link, follow=True)

    assert "This link cannot confirm an address any more." in refused.content.decode()
    assert Player.objects.get(username="carol").email_confirmed is True
    assert Player.objects.get(username="carla").email_confirmed is False


def test_the_link_can_be_sent_again_within_the_hourly_limit() -> None:
    client, _ = _sign_up("carol", "carol@example.com")

    for _ in range(4):
        again = client.post(reverse("email_confirm_again"), follow=True)
        assert "We have mailed carol@example.com again" in again.content.decode()

    assert len(mail.outbox) == 3  # the sign-up's and two more, then none this hour
    assert {message.to[0] for message in mail.outbox} == {"carol@example.com"}


def test_sign_ups_with_someones_address_send_its_owner_three_notices_an_hour() -> None:
    PlayerFactory(username="owner", email="taken@example.com")

    for n in range(6):
        _sign_up(f"mallory{n}", "taken@example.com", address=f"198.51.100.{n}")

    assert len(mail.outbox) == 3
    assert {message.to[0] for message in mail.outbox} == {"taken@example.com"}


def test_staff_cannot_give_a_second_account_a_confirmed_address_in_the_admin() -> None:
    """The address stays one confirmed account's (the constraint that replaced the plain
    unique email), in any case: the admin's form says so to staff."""
    from accounts.admin import PlayerCreationForm

    PlayerFactory(username="owner", email="taken@example.com")
    form = PlayerCreationForm(
        data={
            "username": "newstaff",
            "email": "Taken@Example.com",
            "password1": STRONG,
            "password2": STRONG,
            "usable_password": "true",
        }
    )

    assert not form.is_valid()
    assert "An account with that email address already exists." in str(form.errors)
