"""R-SHOW-3 through the services: the winner nobody called may show their cards after the
hand and before the next one; the show is a public event kept in the hand's history; the
"muck losing hands" setting set at the table is read when the next hand starts."""

from __future__ import annotations

import pytest

from histories.selectors import hand_text, played_hand
from tables import services
from tables.models import Hand, HandEvent
from tests.table_factories import (
    act,
    engine_of,
    make_table,
    play_down,
    running_hand,
    seated_player,
    stacked_deck,
)
from tests.tables.test_tables_hand_flow import ALICE_WINS

pytestmark = pytest.mark.django_db


def _bob_folds_to_alice():
    """Bob brings in, alice completes, bob folds: alice wins without being called."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))
    hand = running_hand(table)
    assert act(table, bob, "bring_in", 25).ok
    assert act(table, alice, "complete", 100).ok
    last = act(table, bob, "fold")
    assert last.ok
    hand.refresh_from_db()
    assert hand.ended_at is not None
    return table, alice, bob, hand, last


def test_r_show_3_the_uncalled_winner_is_offered_to_show_until_the_next_hand():
    table, alice, bob, hand, last = _bob_folds_to_alice()

    offers = [f for f in last.frames.users_json.get(alice.pk, []) if f["type"] == "show_offer"]

    table.refresh_from_db()
    assert len(offers) == 1
    ms_left = offers[0].pop("ms_left")  # the time to the next hand (docs/protocol.md)
    assert offers == [
        {
            "type": "show_offer",
            "table_id": table.pk,
            "hand_id": hand.pk,
            "seat": 1,
            "until": table.next_hand_at.isoformat(),
        }
    ]
    assert isinstance(ms_left, int) and ms_left >= 0
    assert not [f for f in last.frames.users_json.get(bob.pk, []) if f["type"] == "show_offer"]


def test_r_show_3_the_uncalled_winner_shows_and_everyone_sees_the_cards():
    table, alice, bob, hand, _ = _bob_folds_to_alice()
    seq = hand.seq

    shown = services.hand_show(table_id=table.pk, player=alice, hand_id=hand.pk)

    assert shown.ok and shown.seq == seq + 1
    [frame] = [f for f in shown.frames.table_json if f["type"] == "event"]
    assert frame["kind"] == "show" and frame["seq"] == seq + 1
    assert frame["payload"]["seat"] == 1 and len(frame["payload"]["cards"]) == 3
    row = HandEvent.objects.get(hand=hand, seq=seq + 1)
    assert row.kind == "show" and row.visible_to is None
    assert engine_of(hand).shown_by_choice[0][0] == 1
    # The history text says so, for either player.
    text = hand_text(played_hand(hand_id=hand.pk, player_id=bob.pk))
    assert "shows [" in text


def test_r_show_3_only_the_winner_shows_and_only_once():
    table, alice, bob, hand, _ = _bob_folds_to_alice()

    assert services.hand_show(table_id=table.pk, player=bob, hand_id=hand.pk).error == (
        "illegal_action"
    )
    assert services.hand_show(table_id=table.pk, player=alice, hand_id=hand.pk).ok
    again = services.hand_show(table_id=table.pk, player=alice, hand_id=hand.pk)
    assert again.error == "illegal_action"
    outsider = seated_player(table, seat_number=3)
    refused = services.hand_show(table_id=table.pk, player=outsider, hand_id=hand.pk)
    assert refused.error == "not_in_hand"


def test_r_show_3_it_is_too_late_to_show_once_the_next_hand_is_dealt():
    table, alice, _bob, hand, _ = _bob_folds_to_alice()
    assert services.hand_start(table_id=table.pk).ok

    late = services.hand_show(table_id=table.pk, player=alice, hand_id=hand.pk)

    assert late.error == "too_late"
    assert not HandEvent.objects.filter(hand=hand, kind="show").exists()


def test_r_show_3_nobody_shows_by_choice_during_the_hand_or_after_a_showdown():
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))
    running = running_hand(table)
    early = services.hand_show(table_id=table.pk, player=alice, hand_id=running.pk)
    assert early.error == "hand_running"

    hand = play_down(table, {1: alice, 2: bob})

    after = services.hand_show(table_id=table.pk, player=alice, hand_id=hand.pk)
    assert after.error == "illegal_action"


def test_r_show_3_muck_losing_hands_set_at_the_table_is_read_at_the_next_deal():
    table = make_table()
    alice = seated_player(table, seat_number=1)
    seated_player(table, seat_number=2)

    assert services.player_auto_muck_set(table_id=table.pk, player=alice, auto_muck=False).ok

    alice.refresh_from_db()
    assert alice.auto_muck is False
    services.hand_start(table_id=table.pk)
    players = {p.seat: p for p in engine_of(running_hand(table)).players}
    assert players[1].auto_muck is False and players[2].auto_muck is True
    assert Hand.objects.filter(table=table).count() == 1
