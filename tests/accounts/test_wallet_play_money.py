"""Play money (issue #14, item 3): a new player is granted chips at sign-up and may top up
once a New York day while the wallet is below the floor; both are ledger lines with their
reason, and audit_chips counts them as money in."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import LedgerEntry, LedgerKind, Player
from accounts.services import (
    TopUpRefused,
    player_sign_up,
    wallet_debit,
    wallet_top_up,
)
from tables import services as table_services
from tables.models import Seat
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table

pytestmark = pytest.mark.django_db

PASSWORD = "seven-card-stud-42"
# 2026-12-01 23:30 in New York is 04:30 UTC on the 2nd; New York's next day starts 05:00 UTC.
LATE_EVENING_NY = datetime(2026, 12, 2, 4, 30, tzinfo=UTC)
JUST_BEFORE_NY_MIDNIGHT = datetime(2026, 12, 2, 4, 59, tzinfo=UTC)
JUST_AFTER_NY_MIDNIGHT = datetime(2026, 12, 2, 5, 1, tzinfo=UTC)


def sign_up(client: Client, username: str) -> Player:
    response = client.post(
        reverse("signup"),
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302, response.text
    return Player.objects.get(username=username)


def test_a_new_player_sees_the_sign_up_grant_and_can_buy_in(client: Client) -> None:
    """Before: a new account had $0.00 and the buy-in dialog said "at most your balance of
    $0.00". Now the sign-up grant is on the account page and pays a buy-in."""
    form = client.get(reverse("signup")).text
    assert "you start with $1,000.00" in form
    newcomer = sign_up(client, "newcomer")

    lobby = client.get(reverse("lobby")).text
    assert "You have $1,000.00 of play money to play with." in lobby
    page = client.get(reverse("account")).text
    assert 'data-testid="balance">$1,000.00<' in page
    assert "Play-money grant" in page and "sign-up grant" in page
    grant = LedgerEntry.objects.get(player=newcomer)
    assert (grant.kind, grant.amount, grant.balance_after, grant.staff) == (
        LedgerKind.PLAY_MONEY_GRANT,
        100_000,
        100_000,
        None,
    )

    table = make_table(buy_in=2_000)
    result = table_services.seat_take(table_id=table.pk, player=newcomer, buy_in=20_000)
    assert result.ok, result
    assert Seat.objects.get(table=table, player=newcomer).stack == 20_000
    newcomer.refresh_from_db()
    assert newcomer.balance == 80_000


def test_the_grant_is_a_setting_and_a_real_money_room_grants_nothing(settings) -> None:
    settings.PLAY_MONEY_SIGN_UP_GRANT = 25_000
    small = player_sign_up(username="small", email="small@example.com", password=PASSWORD)
    settings.ROOM_MONEY = "real"
    real = player_sign_up(username="real", email="real@example.com", password=PASSWORD)

    assert Player.objects.get(pk=small.pk).balance == 25_000
    assert Player.objects.get(pk=real.pk).balance == 0
    assert not LedgerEntry.objects.filter(player=real).exists()


def test_top_up_is_refused_while_the_wallet_is_at_or_above_the_floor() -> None:
    player = PlayerFactory()
    funded(player, 10_000)  # exactly the $100.00 floor

    with pytest.raises(TopUpRefused, match=r"below \$100\.00; it is \$100\.00"):
        wallet_top_up(player_id=player.pk, now=LATE_EVENING_NY)

    player.refresh_from_db()
    assert player.balance == 10_000
    assert LedgerEntry.objects.filter(player=player).count() == 1


def test_top_up_once_a_new_york_day_then_again_the_next_day() -> None:
    """The day is New York's: a second top-up before New York midnight is refused (though
    it is already the next day in UTC), one after it is given."""
    player = PlayerFactory()

    first = wallet_top_up(player_id=player.pk, now=LATE_EVENING_NY)
    assert (first.kind, first.amount, first.reason) == (
        LedgerKind.PLAY_MONEY_TOP_UP,
        100_000,
        "daily top-up",
    )
    wallet_debit(player_id=player.pk, amount=95_000, kind=LedgerKind.BUY_IN)  # lost at a table

    with pytest.raises(TopUpRefused, match="already topped up today"):
        wallet_top_up(player_id=player.pk, now=JUST_BEFORE_NY_MIDNIGHT)
    assert Player.objects.get(pk=player.pk).balance == 5_000

    second = wallet_top_up(player_id=player.pk, now=JUST_AFTER_NY_MIDNIGHT)
    assert second.balance_after == 105_000


def test_chips_at_a_table_do_not_count_toward_the_floor() -> None:
    """The floor compares the wallet, the balance off the tables: a player with $50.00 in the
    wallet and $200.00 in front of them at a table may top up."""
    player = PlayerFactory()
    funded(player, 25_000)
    table = make_table(buy_in=2_000)
    assert table_services.seat_take(table_id=table.pk, player=player, buy_in=20_000).ok

    entry = wallet_top_up(player_id=player.pk, now=LATE_EVENING_NY)

    assert entry.balance_after == 105_000


def test_no_top_up_in_a_real_money_room(settings) -> None:
    settings.ROOM_MONEY = "real"
    player = PlayerFactory()

    with pytest.raises(TopUpRefused, match="real money"):
        wallet_top_up(player_id=player.pk, now=LATE_EVENING_NY)
    assert not LedgerEntry.objects.filter(player=player).exists()


def test_the_top_up_button_on_the_account_page(client: Client) -> None:
    player = PlayerFactory(username="shortstack")
    funded(player, 500)
    client.force_login(player)

    page = client.get(reverse("account")).text
    assert "Top up $1,000.00" in page

    response = client.post(reverse("top_up"), follow=True)
    assert "Topped up $1,000.00: your balance is $1,005.00." in response.text
    assert 'data-testid="balance">$1,005.00<' in response.text
    assert "daily top-up" in response.text
    assert "Top up $1,000.00</button>" not in response.text

    again = client.post(reverse("top_up"), follow=True)
    assert "your balance off the tables is below $100.00; it is $1,005.00." in again.text
    assert Player.objects.get(pk=player.pk).balance == 100_500


def test_top_up_refuses_a_get(client: Client) -> None:
    player = PlayerFactory()
    client.force_login(player)

    assert client.get(reverse("top_up")).status_code == 405
    assert not LedgerEntry.objects.filter(player=player).exists()


def test_audit_counts_the_grant_and_top_up_as_money_in(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Grant + top-up + a buy-in and its cash-out: chips are conserved."""
    newcomer = player_sign_up(username="newcomer", email="n@example.com", password=PASSWORD)
    wallet_debit(player_id=newcomer.pk, amount=95_000, kind=LedgerKind.WITHDRAWAL)
    wallet_top_up(player_id=newcomer.pk, now=LATE_EVENING_NY)
    table = make_table(buy_in=2_000)
    assert table_services.seat_take(table_id=table.pk, player=newcomer, buy_in=30_000).ok
    call_command("audit_chips")  # chips at the table: conserved
    assert table_services.seat_leave(table_id=table.pk, player=newcomer).ok

    call_command("audit_chips")

    out = capsys.readouterr().out
    assert "Chips conserved: $1,050.00 in, balances $1,050.00" in out
    kinds = list(
        LedgerEntry.objects.filter(player=newcomer).order_by("id").values_list("kind", flat=True)
    )
    assert kinds == [
        LedgerKind.PLAY_MONEY_GRANT,
        LedgerKind.WITHDRAWAL,
        LedgerKind.PLAY_MONEY_TOP_UP,
        LedgerKind.BUY_IN,
        LedgerKind.CASH_OUT,
    ]


def test_the_api_tops_up_once_and_then_says_why_not() -> None:
    player = PlayerFactory()
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=player)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")

    given = client.post(reverse("api_top_up"))
    refused = client.post(reverse("api_top_up"))

    assert given.status_code == 201
    assert (given.json()["kind"], given.json()["amount"], given.json()["reason"]) == (
        "play_top_up",
        100_000,
        "daily top-up",
    )
    assert refused.status_code == 409
    assert "below $100.00; it is $1,000.00" in refused.json()["detail"]
    assert Player.objects.get(pk=player.pk).balance == 100_000
    assert APIClient().post(reverse("api_top_up")).status_code in (401, 403)


def test_the_table_page_links_to_getting_chips(client: Client) -> None:
    """The buy-in dialog says "at most your balance"; beside the balance, the way to more."""
    player = PlayerFactory()
    client.force_login(player)
    table = make_table()

    page = client.get(reverse("table", args=[table.pk])).text

    assert f'href="{reverse("account")}#top-up" data-get-chips>Get chips</a>' in page


def test_the_cashier_of_a_play_money_room_says_the_room_plays_for_play_money(
    client: Client,
) -> None:
    """Issue #21 (11): /accounts/cashier/ in a play-money room was Django's 404; it is a page
    that says why there is no cashier and where play money comes from."""
    player = PlayerFactory()
    client.force_login(player)

    response = client.get(reverse("cashier"))

    assert response.status_code == 200
    page = response.text
    assert "This room plays for play money" in page
    assert "My account" in page and "Send my request" not in page
