"""A Razz tournament (R-GAME-1, R-MIX-1: "a tournament may be played as Razz"): its tables
deal Razz, the king brings in, and the pages name the game."""

from __future__ import annotations

import pytest

from tests.tournaments.play_helpers import SEATING, T0, deal, open_tables, started

pytestmark = pytest.mark.django_db


def test_r_razz_2_a_razz_tournament_deals_razz_and_the_highest_door_brings_in(client):
    tournament, _ = started(4, game="razz")
    (table,) = open_tables(tournament)
    assert table.game == "razz"
    hand = deal(table, T0 + SEATING)
    state = hand.state
    assert state["config"]["game"] == "razz"
    events = list(hand.events.filter(kind="bring_in_due").values_list("payload", flat=True))
    (due,) = events
    doors = {p["seat"]: up[0] for p, up in zip(state["players"], state["up"], strict=True)}
    highest = max(doors.values(), key=lambda card: ((card >> 2) + 1) % 13 * 4 + (card & 3))
    assert due["door_card"] == highest and doors[due["seat"]] == highest
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Razz · fixed limit" in page
