"""The tournaments' REST API (api/tournaments.py): the list and a tournament for anyone,
register and unregister for a logged-in player, all in the OpenAPI schema."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import PlayerFactory, funded
from tests.tournaments.tui_rows import make_tournament, running_tournament

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
