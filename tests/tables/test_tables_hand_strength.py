"""Issue #14: each player learns what their own cards make, after every deal, in their own
frame and in their snapshot; nobody else learns it."""

from __future__ import annotations

import pytest

from tables import services
from tables.selectors import table_snapshot
from tests.table_factories import act, make_table, passive_action, seated_player, stacked_deck

pytestmark = pytest.mark.django_db

# Seat 1 (alice) is dealt As Ad down and Ah up; seat 2 (bob) 2c 3d down and 7c up; 4th
# street (after the burn, 9s): alice Kc, bob 8d.
ALICE_TRIPS = "As 2c Ad 3d Ah 7c 9s Kc 8d 9h Qc 4h 9d Jd 5s 9c Ac Td"


def strengths(result, player) -> list[dict]:
    return [f for f in result.frames.users_json.get(player.pk, []) if f["type"] == "hand_strength"]


def test_each_player_is_told_what_their_own_cards_make_after_each_deal():
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)

    dealt = services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_TRIPS))

    [mine] = strengths(dealt, alice)
    assert (mine["seat"], mine["high"], mine["low"]) == (1, "Three of a kind, Aces", None)
    [his] = strengths(dealt, bob)
    assert (his["seat"], his["high"]) == (2, "High card Seven")
    assert not [f for f in dealt.frames.table_json if f["type"] == "hand_strength"]

    # bob brings in, alice calls: 4th street is dealt and each hears again.
    first = act(table, bob, *passive_action(table, bob))
    assert not strengths(first, bob)  # no card dealt: nothing new to say
    fourth = act(table, alice, *passive_action(table, alice))
    assert [f["high"] for f in strengths(fourth, bob)] == ["High card Eight"]
    assert [f["high"] for f in strengths(fourth, alice)] == ["Three of a kind, Aces"]

    snapshot = table_snapshot(table.pk, alice)
    assert snapshot is not None
    seats = {s["seat"]: s for s in snapshot["hand"]["state"]["seats"]}
    assert seats[1]["strength"] == {"high": "Three of a kind, Aces", "low": None}
    assert "strength" not in seats[2]
