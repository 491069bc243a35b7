"""The table's "Last hands" (the snapshot's `last_hands`), as the table page shows them."""

from __future__ import annotations

import pytest

from tables import selectors, services
from tests.history_hands import hold_scheduling, three_handed_hand

pytestmark = pytest.mark.django_db


def test_last_hands_keep_the_name_of_a_winner_who_left() -> None:
    """Issue #14: alice wins with three aces and leaves; the table's "Last hands" still names
    her (not "seat 1"), and the hand is numbered by its id, as its history is."""
    played = three_handed_hand()
    alice = played.players[1]
    name = alice.table_name
    assert services.seat_leave(table_id=played.table.pk, player=alice).ok

    snapshot = selectors.table_snapshot(played.table.pk, None)
    assert snapshot is not None
    last = snapshot["last_hands"][0]
    assert last["id"] == played.hand.pk
    assert last["winners"] == [1]
    assert last["winner_names"] == [name]


@pytest.fixture(autouse=True)
def _still(monkeypatch: pytest.MonkeyPatch) -> None:
    hold_scheduling(monkeypatch)
