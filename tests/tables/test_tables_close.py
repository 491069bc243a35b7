"""Staff close a table (issue #14): its players are told at once and their seats are cashed
out (R-BUY-1); a hand in play finishes first, then its players are cashed out too."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tables import services
from tables.models import Seat
from tables.selectors import table_snapshot
from tests.history_hands import hold_scheduling
from tests.table_factories import make_table, play_down, seated_player, stacked_deck

pytestmark = pytest.mark.django_db

ALICE_WINS = "As 2c Ad 3d Ah 7c 9s Kc 8d 9h Qc 4h 9d Jd 5s 9c Ac Td"


@pytest.fixture(autouse=True)
def _still(monkeypatch: pytest.MonkeyPatch) -> None:
    hold_scheduling(monkeypatch)


def test_r_buy_1_closing_a_quiet_table_cashes_every_seat_out_and_says_so():
    table = make_table()
    alice = seated_player(table, seat_number=1, balance=10_000)  # $20 on the table
    bob = seated_player(table, seat_number=2, balance=10_000)

    closed = services.table_close(table_id=table.pk)

    assert [f for f in closed.frames.table_json if f["type"] == "table_closed"] == [
        {"type": "table_closed", "table_id": table.pk, "hand_running": False}
    ]
    assert not Seat.objects.filter(table=table).exists()
    for player in (alice, bob):
        player.refresh_from_db()
        assert player.balance == 10_000
    snapshot = table_snapshot(table.pk, alice)
    assert snapshot is not None
    assert snapshot["table"]["is_open"] is False and snapshot["seats"] == []
    call_command("audit_chips")


def test_r_buy_1_a_hand_in_play_finishes_then_its_players_are_cashed_out():
    table = make_table()
    alice = seated_player(table, seat_number=1, balance=10_000)
    bob = seated_player(table, seat_number=2, balance=10_000)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))

    closed = services.table_close(table_id=table.pk)

    assert [f["hand_running"] for f in closed.frames.table_json if f["type"] == "table_closed"] == [
        True
    ]
    assert Seat.objects.filter(table=table).count() == 2  # still playing
    play_down(table, {1: alice, 2: bob})
    assert not Seat.objects.filter(table=table).exists()
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.balance + bob.balance == 20_000
    assert alice.balance > 10_000
    call_command("audit_chips")
