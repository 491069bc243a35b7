"""Issue #21: the lobby previews a table on hover or tap (seats, names, stacks, the up cards
of the hand in play) from `/tables/<id>/preview.json`, which gives only what anyone watching
the table sees (R-HIST-2: never a down card)."""

from __future__ import annotations

import json

import pytest

from tables import services
from tables.models import HandEvent
from tests.history_hands import hold_scheduling
from tests.table_factories import make_table, seated_player

pytestmark = pytest.mark.django_db


def test_r_hist_2_the_preview_shows_seats_stacks_and_up_cards_never_a_down_card(
    client, monkeypatch
):
    hold_scheduling(monkeypatch)
    monkeypatch.setattr("tables.services.outbox.broadcast", lambda **kwargs: None)
    table = make_table(name="Capella")
    ann = seated_player(table, username="ann", seat_number=2)
    bob = seated_player(table, username="bob", seat_number=5)
    assert services.hand_start(table_id=table.pk).ok

    response = client.get(f"/tables/{table.pk}/preview.json")

    assert response.status_code == 200
    preview = response.json()
    assert preview["name"] == "Capella" and preview["seats"] == 8
    assert preview["street"] == 3
    doors = {
        dealt["seat"]: dealt["up"]
        for dealt in HandEvent.objects.get(kind="cards_dealt").payload["seats"]
    }
    players = {p["seat"]: p for p in preview["players"]}
    assert {n: (p["name"], p["up"]) for n, p in players.items()} == {
        2: (ann.table_name, doors[2]),
        5: (bob.table_name, doors[5]),
    }
    assert all(p["stack"] == 2000 - 10 for p in players.values())  # after the 10c ante
    downs = [
        card
        for event in HandEvent.objects.filter(kind="down_cards")
        for card in event.payload["cards"]
    ]
    text = json.dumps(preview)
    assert '"down' not in text
    assert not set(downs) & {card for p in players.values() for card in p["up"]}
    assert set(preview) == {
        "id",
        "name",
        "game",
        "small_bet",
        "big_bet",
        "seats",
        "street",
        "players",
    }


def test_a_table_between_hands_previews_its_seats_without_cards(client):
    table = make_table(name="Deneb")
    seated_player(table, username="cy", seat_number=1)
    preview = client.get(f"/tables/{table.pk}/preview.json").json()
    assert preview["street"] is None
    assert [(p["seat"], p["up"], p["stack"]) for p in preview["players"]] == [(1, [], 2000)]


def test_no_preview_of_a_closed_or_unknown_table(client):
    closed = make_table(is_open=False)
    assert client.get(f"/tables/{closed.pk}/preview.json").status_code == 404
    assert client.get("/tables/999999/preview.json").status_code == 404
