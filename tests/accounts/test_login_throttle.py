"""Issue #22: password spraying. Wrong passwords lock one account from one address after
AXES_FAILURE_LIMIT (5), and one address whatever usernames it tries after
AXES_ADDRESS_FAILURE_LIMIT (20) (accounts/login_throttle.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, PlayerFactory

pytestmark = pytest.mark.django_db

SPRAYER = "198.51.100.7"
ELSEWHERE = "203.0.113.9"


@pytest.fixture(autouse=True)
def _room_limits(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_ADDRESS_FAILURE_LIMIT = 20


def _log_in(client: Client, username: str, password: str, address: str = SPRAYER) -> int:
    response = client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )
    return response.status_code


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_twenty_wrong_passwords_over_ten_accounts_lock_the_address(client: Client) -> None:
    """Two guesses on each of ten accounts: no account reaches its own 5, the address
    reaches 20. A player of the room logging in from there with the right password is
    refused (429, the locked-out page); the same player from another address is not."""
    victims = [PlayerFactory(username=f"victim{n}") for n in range(10)]
    guesses = [(victim.username, guess) for victim in victims for guess in ("letmein", "pass1")]
    answers = [_log_in(client, username, guess) for username, guess in guesses]
    assert answers == [200] * 19 + [429]  # the 20th is answered with the lock-out

    newcomer = PlayerFactory(username="newcomer")
    locked = client.post(
        reverse("login"),
        {"username": newcomer.username, "password": PASSWORD},
        REMOTE_ADDR=SPRAYER,
    )
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.text
    assert not _logged_in(client)

    assert _log_in(Client(), newcomer.username, PASSWORD, address=ELSEWHERE) == 302


def test_players_sharing_an_address_are_not_locked_by_each_others_typos(
    client: Client,
) -> None:
    """A café's players behind one address: 19 wrong passwords among ten of them (none
    more than 4 on one account) lock nobody; the next right password logs in."""
    players = [PlayerFactory(username=f"regular{n}") for n in range(10)]
    typos = [player for player in players for _ in range(2)][:19]
    for player in typos:
        assert _log_in(client, player.username, "typo") == 200

    assert _log_in(client, players[-1].username, PASSWORD) == 302
    assert _logged_in(client)


def test_one_account_is_still_locked_from_an_address_after_five_wrong_passwords(
    client: Client,
) -> None:
    frank = PlayerFactory(username="frank")
    for _ in range(4):
        assert _log_in(client, "frank", "guess") == 200
    assert _log_in(client, "frank", "guess") == 429

    assert _log_in(client, frank.username, PASSWORD) == 429
    assert not _logged_in(client)


def test_a_sprayers_own_log_ins_do_not_clear_the_addresss_count(client: Client) -> None:
    """A right password clears that account's failures from that address, not the
    address's: logging in to an account of one's own after every four guesses used to
    reset everything, and the spraying went on for ever."""
    PlayerFactory(username="sprayer")
    victims = [PlayerFactory(username=f"target{n}") for n in range(20)]
    answers = []
    for round_start in range(0, 20, 4):
        if round_start:
            assert _log_in(client, "sprayer", PASSWORD) == 302
            client.post(reverse("logout"))
        for victim in victims[round_start : round_start + 4]:
            answers.append(_log_in(client, victim.username, "Summer2026!"))

    assert answers == [200] * 19 + [429]
    assert _log_in(client, "sprayer", PASSWORD) == 429
    assert not _logged_in(client)
