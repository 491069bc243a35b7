"""Sign-up, log-in, log-out, settings and password reset, as a player sees them."""

from __future__ import annotations

import html
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import Player
from tests.factories import PASSWORD, PlayerFactory

pytestmark = pytest.mark.django_db


def test_sign_up_creates_a_player_who_is_logged_in_and_not_staff(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "alice",
            "email": "alice@example.com",
            "password1": "seven-card-stud-42",
            "password2": "seven-card-stud-42",
        },
        follow=True,
    )

    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert "Welcome to the room, alice." in response.text
    assert "Log out alice" in response.text
    alice = Player.objects.get(username="alice")
    assert not alice.is_staff and not alice.is_superuser
    assert alice.auto_ante and alice.auto_muck and not alice.four_colour_deck
    assert alice.balance == 100_000  # the play-money sign-up grant


def test_sign_up_refuses_a_weak_password(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "bob",
            "email": "bob@example.com",
            "password1": "12345678",
            "password2": "12345678",
        },
    )

    assert response.status_code == 200
    assert "This password is too common." in response.text
    assert "This password is entirely numeric." in response.text
    assert not Player.objects.filter(username="bob").exists()


def test_log_in_and_log_out(client: Client) -> None:
    PlayerFactory(username="dave")

    response = client.post(
        reverse("login"), {"username": "dave", "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert "Log out dave" in response.text

    response = client.post(reverse("logout"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("login")
    assert "Log out dave" not in response.text
    assert "Sign up" in response.text


def test_a_wrong_password_is_refused(client: Client) -> None:
    PlayerFactory(username="erin")

    response = client.post(reverse("login"), {"username": "erin", "password": "wrong"})

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.text


def test_repeated_wrong_passwords_lock_the_login(client: Client, settings: object) -> None:
    PlayerFactory(username="frank")
    limit = settings.AXES_FAILURE_LIMIT  # type: ignore[attr-defined]

    for _ in range(limit - 1):
        response = client.post(reverse("login"), {"username": "frank", "password": "guess"})
        assert response.status_code == 200
    response = client.post(reverse("login"), {"username": "frank", "password": "guess"})
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.text

    # Locked: even the right password is refused until the cool-off ends.
    response = client.post(reverse("login"), {"username": "frank", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_pages_of_the_account_need_a_login(client: Client) -> None:
    for name in ("account", "settings"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_settings_show_the_defaults_and_save_changes(client: Client) -> None:
    player = PlayerFactory(username="gina")
    client.force_login(player)

    page = client.get(reverse("settings")).text
    assert "post the ante automatically" in page
    assert re.search(r'name="auto_ante"[^>]*checked', page)
    assert re.search(r'name="auto_muck"[^>]*checked', page)
    assert not re.search(r'name="four_colour_deck"[^>]*checked', page)

    response = client.post(
        reverse("settings"),
        {"display_name": "Gina the Great", "auto_muck": "on", "four_colour_deck": "on"},
        follow=True,
    )

    assert "Your settings are saved." in response.text
    assert "Log out Gina the Great" in response.text
    player.refresh_from_db()
    assert player.display_name == "Gina the Great"
    assert not player.auto_ante
    assert player.auto_muck
    assert player.four_colour_deck


def test_settings_help_speaks_poker_and_the_free_fold_question_can_be_turned_off(
    client: Client,
) -> None:
    """Issue #14: the help texts explain in a player's words, never a rule code ("R-ANTE-1");
    "Ask before folding when I could check" is on by default, saved off, and the table page
    tells the browser (its page data) not to ask."""
    from tests.table_factories import make_table

    player = PlayerFactory(username="ivy")
    client.force_login(player)
    table = make_table()

    page = client.get(reverse("settings")).text
    assert not re.search(r"\bR-[A-Z]+-\d", page)
    assert "dealt without you" in page
    assert "face down instead of shown" in page
    assert re.search(r'name="confirm_free_fold"[^>]*checked', page)
    assert '"confirm_free_fold": true' in client.get(f"/tables/{table.pk}/").text

    client.post(reverse("settings"), {"display_name": "", "auto_ante": "on", "auto_muck": "on"})

    player.refresh_from_db()
    assert not player.confirm_free_fold
    assert '"confirm_free_fold": false' in client.get(f"/tables/{table.pk}/").text


def test_saving_settings_never_touches_the_balance(client: Client) -> None:
    from tests.factories import funded

    player = PlayerFactory()
    client.force_login(player)
    client.get(reverse("settings"))
    funded(player, 5000)

    client.post(reverse("settings"), {"display_name": "Late", "auto_ante": "on"})

    player.refresh_from_db()
    assert player.balance == 5000


def test_password_reset_mails_a_link_that_sets_a_new_password(client: Client) -> None:
    PlayerFactory(username="hana", email="hana@example.com")

    response = client.post(reverse("password_reset"), {"email": "hana@example.com"}, follow=True)
    assert "Check your email" in response.text
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["hana@example.com"]
    assert message.subject == "Reset your Stud Room password"
    link = re.search(r"http://testserver(/\S+)", message.body)
    assert link is not None

    response = client.get(link.group(1), follow=True)
    assert "Choose a new password" in response.text
    set_password_url = response.redirect_chain[-1][0]
    response = client.post(
        set_password_url,
        {"new_password1": "a-brand-new-stud-pw", "new_password2": "a-brand-new-stud-pw"},
        follow=True,
    )
    assert "Your password is changed" in response.text

    response = client.post(
        reverse("login"), {"username": "hana", "password": "a-brand-new-stud-pw"}, follow=True
    )
    assert "Log out hana" in response.text


def test_password_reset_for_an_unknown_address_sends_nothing(client: Client) -> None:
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"}, follow=True)

    assert "Check your email" in response.text
    assert mail.outbox == []


# --- Names others see (issue #11: impersonation) --------------------------------------------

NAME_TAKEN = "That name is taken: it is, or looks like, another player's name."
INVISIBLE = "cannot contain invisible, formatting or control characters"
RESERVED = "cannot contain words kept for the room's staff"


def _settings_post(client: Client, display_name: str) -> str:
    response = client.post(
        reverse("settings"), {"display_name": display_name, "auto_ante": "on"}, follow=True
    )
    return html.unescape(response.text)


@pytest.mark.parametrize(
    ("display_name", "message"),
    [
        ("bob", NAME_TAKEN),  # another player's username
        ("Alice", NAME_TAKEN),  # another player's display name, another case
        ("alice\u200b", INVISIBLE),  # a zero-width space after it
        ("\u0430lice", NAME_TAKEN),  # a Cyrillic a
        ("AIice", NAME_TAKEN),  # a capital i for the l
        ("staff", RESERVED),
        ("Dealer Dan", RESERVED),
        ("\u202ebob", INVISIBLE),  # a right-to-left override
    ],
)
def test_a_display_name_that_impersonates_is_refused_and_nothing_changes(
    client: Client, display_name: str, message: str
) -> None:
    PlayerFactory(username="bob")
    PlayerFactory(username="carol", display_name="alice")
    mallory = PlayerFactory(username="mallory", display_name="Mal")
    client.force_login(mallory)

    page = _settings_post(client, display_name)

    assert message in page
    assert "Your settings are saved." not in page
    mallory.refresh_from_db()
    assert mallory.display_name == "Mal"


def test_a_legitimate_display_name_and_ones_own_username_are_accepted(client: Client) -> None:
    PlayerFactory(username="bob")
    zoe = PlayerFactory(username="zoe")
    client.force_login(zoe)

    assert "Your settings are saved." in _settings_post(client, "Zoë the Bold")
    assert "Your settings are saved." in _settings_post(client, "ZOE")

    zoe.refresh_from_db()
    assert zoe.table_name == "ZOE"


def test_a_display_name_given_up_is_free_for_another_player(client: Client) -> None:
    PlayerFactory(username="ann", display_name="Lucky")
    client.force_login(Player.objects.get(username="ann"))
    _settings_post(client, "")
    ben = PlayerFactory(username="ben")
    client.force_login(ben)

    assert "Your settings are saved." in _settings_post(client, "lucky")


def test_a_lookalike_name_is_refused_by_the_database_even_past_the_form() -> None:
    """Two requests that both passed the form's check: the unique name key lets one win."""
    from accounts.models import NameTaken
    from accounts.services import player_settings_update

    PlayerFactory(username="first", display_name="Ace")
    second = PlayerFactory(username="second", display_name="Deuce")

    with pytest.raises(NameTaken):
        player_settings_update(
            player_id=second.pk,
            display_name="\u0410CE",  # Cyrillic A, then C and E
            auto_ante=False,
            auto_muck=True,
            four_colour_deck=False,
            confirm_free_fold=True,
        )

    second.refresh_from_db()
    assert (second.display_name, second.auto_ante) == ("Deuce", True)


@pytest.mark.parametrize(
    ("username", "message"),
    [("Bob", NAME_TAKEN), ("\u0430lice", NAME_TAKEN), ("Staff", RESERVED), ("Alice", NAME_TAKEN)],
)
def test_sign_up_refuses_a_username_that_impersonates(
    client: Client, username: str, message: str
) -> None:
    PlayerFactory(username="bob")
    PlayerFactory(username="carol", display_name="alice")

    response = client.post(
        reverse("signup"),
        {
            "username": username,
            "email": "new@example.com",
            "password1": "seven-card-stud-42",
            "password2": "seven-card-stud-42",
        },
    )

    assert message in html.unescape(response.text)
    assert not Player.objects.filter(email="new@example.com").exists()


def test_a_player_whose_name_predates_the_keys_can_still_change_their_password() -> None:
    """Names that clashed before the name keys existed do not stop unrelated saves."""
    PlayerFactory(username="bob")
    legacy = PlayerFactory(username="robert")
    Player.objects.filter(pk=legacy.pk).update(display_name="BOB")  # as before the migration

    legacy = Player.objects.get(pk=legacy.pk)
    legacy.set_password("a-new-stud-password-7")
    legacy.save()

    assert Player.objects.get(pk=legacy.pk).check_password("a-new-stud-password-7")


def test_staff_cannot_give_a_player_another_players_name_in_the_admin() -> None:
    from accounts.admin import PlayerChangeForm

    PlayerFactory(username="bob")
    player = PlayerFactory(username="dave")

    form = PlayerChangeForm(instance=player, data={"username": "dave", "display_name": "B0B"})

    assert form.errors["display_name"] == [NAME_TAKEN]
