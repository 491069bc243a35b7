"""The tournaments' REST API (api/tournaments.py): the list and a tournament for anyone,
register, unregister and the add-on for a logged-in player, all in the OpenAPI schema."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import LedgerKind
from tables import services as table_services
from tables.models import Seat
from tests.factories import PlayerFactory, funded
from tests.tournaments.money_helpers import (
    balance_of,
    later,
    ledger_of,
    registered,
    seated_in_play,
)
from tests.tournaments.money_helpers import make_tournament as money_tournament
from tests.tournaments.tui_rows import make_tournament, running_tournament
from tournaments.models import Tournament, TournamentEntry, TournamentTable
from tournaments.services.entries import tournament_add_on

pytestmark = pytest.mark.django_db


def test_the_list_names_each_tournament_with_its_buy_in_in_cents(client: Client) -> None:
    make_tournament(name="Friday Stud", start_when_registered=8)

    rows = client.get("/api/tournaments/").json()

    assert [(r["name"], r["buy_in"], r["fee"], r["start_when_registered"]) for r in rows] == [
        ("Friday Stud", 4000, 400, 8)
    ]


def test_a_running_tournament_has_its_clock_tables_and_standings(client: Client) -> None:
    tournament, players, tables = running_tournament(players=9)

    body = client.get(f"/api/tournaments/{tournament.pk}/").json()

    assert body["status"] == "running"
    assert body["level"]["small_bet"] == 10 and body["next_level"]["small_bet"] == 20
    assert 0 < body["clock"]["level_ms_left"] <= 600_000
    assert [t["table_id"] for t in body["tables"]] == [t.pk for t in tables]
    assert sum(len(t["seats"]) for t in body["tables"]) == 9
    assert {s["player_id"] for s in body["standings"]} == {p.pk for p in players}
    assert body["average_stack"] == 800


def test_an_unknown_tournament_is_404(client: Client) -> None:
    assert client.get("/api/tournaments/987654/").status_code == 404


def test_registering_needs_a_login(client: Client) -> None:
    tournament = make_tournament()

    assert client.post(f"/api/tournaments/{tournament.pk}/register/").status_code in (401, 403)


def test_the_schema_names_the_tournament_operations(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()

    for path in (
        "/api/tournaments/",
        "/api/tournaments/{id}/",
        "/api/tournaments/{id}/register/",
        "/api/tournaments/{id}/unregister/",
        "/api/tournaments/{id}/add-on/",
    ):
        assert path in schema["paths"], path


def test_registering_and_unregistering_through_the_api(client: Client) -> None:
    tournament = make_tournament()
    player = PlayerFactory()
    funded(player, 5000)
    client.force_login(player)

    registered = client.post(f"/api/tournaments/{tournament.pk}/register/")
    twice = client.post(f"/api/tournaments/{tournament.pk}/register/")
    unregistered = client.post(f"/api/tournaments/{tournament.pk}/unregister/")

    assert registered.status_code == 200 and registered.json()["entrants"] == 1
    assert twice.status_code == 409 and twice.json()["code"] == "already_registered"
    assert unregistered.status_code == 200 and unregistered.json()["entrants"] == 0
    player.refresh_from_db()
    assert player.balance == 5000


# --- The add-on (issue #21 item 9, R-TOUR-1) -----------------------------------------------


def add_on_url(tournament: Tournament) -> str:
    return f"/api/tournaments/{tournament.pk}/add-on/"


def test_r_tour_1_a_player_buys_the_add_on_through_the_api_and_their_seat_gets_the_chips(
    client: Client,
) -> None:
    tournament = money_tournament()
    players = registered(tournament, 3)
    table = seated_in_play(tournament, players, level=5)  # between hands, before level 6
    buyer = players[1]
    client.force_login(buyer)

    answer = client.post(add_on_url(tournament))

    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["viewer"]["add_on"] is True
    assert body["add_ons"] == 1
    mine = next(s for s in body["standings"] if s["player_id"] == buyer.pk)
    assert (mine["add_on"], mine["chips"]) == (True, 800 + 400)
    assert Seat.objects.get(table=table, player=buyer).stack == 1200
    assert balance_of(buyer) == 10_000 - 4000 - 1500
    assert ledger_of(buyer, tournament)[-1] == (LedgerKind.TOURNAMENT_ADD_ON, -1500)


def test_a_double_click_on_the_add_on_buys_it_once(client: Client) -> None:
    tournament = money_tournament()
    players = registered(tournament, 2)
    table = seated_in_play(tournament, players, level=5)
    client.force_login(players[0])

    first = client.post(add_on_url(tournament))
    second = client.post(add_on_url(tournament))

    assert first.status_code == 200
    assert second.status_code == 409
    assert second.json() == {
        "detail": "You have already bought your add-on.",
        "code": "already_added_on",
    }
    assert balance_of(players[0]) == 10_000 - 4000 - 1500
    assert [kind for kind, _ in ledger_of(players[0], tournament)].count(
        LedgerKind.TOURNAMENT_ADD_ON
    ) == 1
    assert Seat.objects.get(table=table, player=players[0]).stack == 1200


def test_r_tour_1_the_api_refuses_the_add_on_once_level_6_is_dealt(client: Client) -> None:
    tournament = money_tournament()
    players = registered(tournament, 3)
    table = seated_in_play(tournament, players, level=5)
    TournamentTable.objects.filter(table=table).update(level=6)
    assert table_services.hand_start(table_id=table.pk, now=later(74)).ok  # level 6's first
    client.force_login(players[0])

    refused = client.post(add_on_url(tournament))

    assert refused.status_code == 409
    assert refused.json() == {
        "detail": "The add-on closed when the first hand of level 6 was dealt.",
        "code": "too_late",
    }
    assert balance_of(players[0]) == 10_000 - 4000
    detail = client.get(f"/api/tournaments/{tournament.pk}/").json()
    assert (detail["add_on_open"], detail["viewer"]["add_on"]) == (False, False)


def test_the_api_refuses_the_add_on_to_a_player_not_entered(client: Client) -> None:
    tournament = money_tournament()
    seated_in_play(tournament, registered(tournament, 2), level=5)
    stranger = PlayerFactory()
    funded(stranger, 10_000)
    client.force_login(stranger)

    refused = client.post(add_on_url(tournament))

    assert refused.status_code == 409
    assert refused.json() == {
        "detail": "You are not registered for Tuesday Stud.",
        "code": "not_registered",
    }
    assert balance_of(stranger) == 10_000


def test_the_api_refuses_the_add_on_without_the_money(client: Client) -> None:
    tournament = money_tournament()
    (player,) = registered(tournament, 1, balance=5000)
    client.force_login(player)

    refused = client.post(add_on_url(tournament))

    assert refused.status_code == 409
    assert refused.json() == {
        "detail": "You need $15.00 for the add-on (400 chips); your balance is $10.00.",
        "code": "insufficient_balance",
    }
    assert TournamentEntry.objects.get(player=player).add_on_at is None


def test_the_add_on_needs_a_login(client: Client) -> None:
    tournament = money_tournament()

    assert client.post(add_on_url(tournament)).status_code in (401, 403)
    assert client.get(f"/api/tournaments/{tournament.pk}/").json()["viewer"] is None


def test_the_detail_says_whether_the_add_on_is_open_and_whether_this_player_bought_it(
    client: Client,
) -> None:
    tournament = money_tournament()
    player, other = registered(tournament, 2)
    tournament_add_on(tournament_id=tournament.pk, player=player)
    client.force_login(other)
    others = client.get(f"/api/tournaments/{tournament.pk}/").json()
    client.force_login(player)

    mine = client.get(f"/api/tournaments/{tournament.pk}/").json()

    assert mine["add_on_open"] is True and others["add_on_open"] is True
    assert mine["viewer"]["add_on"] is True and mine["viewer"]["registered"] is True
    assert others["viewer"]["add_on"] is False
