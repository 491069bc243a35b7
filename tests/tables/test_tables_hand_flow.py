"""Live tables through the services: seats, buy-ins, a whole hand, conservation of chips."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.models import LedgerEntry, LedgerKind
from stud.cards import parse_card
from stud.deck import CARD_BY_CARD_SCHEME, card_by_card_commitment, reshuffle_seed_for
from tables import services
from tables.models import Hand, HandEvent, Seat
from tables.selectors import room_chip_totals, table_snapshot
from tests.factories import PlayerFactory, funded
from tests.table_factories import (
    act,
    engine_of,
    make_table,
    play_down,
    running_hand,
    seated_player,
    stacked_deck,
)

pytestmark = pytest.mark.django_db

# Seat 1 (alice) and seat 2 (bob); the first button is seat 2, so seat 1 is dealt first.
# Down: As, 2c | Ad, 3d ; doors: Ah, 7c ; 4th: burn 9s, Kc, 8d ; 5th: burn 9h, Qc, 4h ;
# 6th: burn 9d, Jd, 5s ; river: burn 9c, Ac, Td.
ALICE_WINS = "As 2c Ad 3d Ah 7c 9s Kc 8d 9h Qc 4h 9d Jd 5s 9c Ac Td"


def audit_ok() -> None:
    call_command("audit_chips")  # raises CommandError on any mismatch


def test_r_buy_1_a_short_buy_in_is_refused_and_nothing_is_debited():
    table = make_table()
    player = PlayerFactory()
    funded(player, 10_000)

    result = services.seat_take(table_id=table.pk, player=player, buy_in=1999)

    assert result.status == "refused" and result.error == "short_buy_in"
    player.refresh_from_db()
    assert player.balance == 10_000
    assert not Seat.objects.filter(table=table).exists()


def test_r_buy_1_the_buy_in_comes_from_the_balance_with_a_ledger_row():
    table = make_table()
    player = seated_player(table, balance=5000, buy_in=2500)

    assert player.balance == 2500
    entry = LedgerEntry.objects.filter(player=player, kind=LedgerKind.BUY_IN).get()
    assert entry.amount == -2500 and entry.reference == f"table:{table.pk}"
    assert Seat.objects.get(table=table, player=player).stack == 2500
    audit_ok()


def test_r_buy_1_a_buy_in_larger_than_the_balance_is_refused():
    table = make_table()
    player = PlayerFactory()
    funded(player, 1500)

    result = services.seat_take(table_id=table.pk, player=player, buy_in=2000)

    assert result.error == "insufficient_balance"
    player.refresh_from_db()
    assert player.balance == 1500


def test_r_game_3_one_player_waits_two_players_get_a_hand_scheduled():
    table = make_table()
    seated_player(table)
    table.refresh_from_db()
    assert table.next_hand_at is None

    seated_player(table)
    table.refresh_from_db()
    assert table.next_hand_at is not None


def test_r_game_3_and_r_sit_1_a_player_sitting_out_is_not_dealt_in():
    table = make_table()
    alice, bob, carol = (seated_player(table) for _ in range(3))
    services.seat_sit_out(table_id=table.pk, player=carol)

    result = services.hand_start(table_id=table.pk)

    assert result.ok
    assert set(running_hand(table).players.values()) == {alice.pk, bob.pk}


def test_r_buy_1_chips_are_added_between_hands_only():
    table = make_table()
    alice = seated_player(table)
    seated_player(table)
    services.hand_start(table_id=table.pk)

    refused = services.seat_add_chips(table_id=table.pk, player=alice, amount=500)

    assert refused.error == "in_hand"


def test_a_whole_hand_to_showdown_with_a_stacked_deck():
    """R-DEAL-6 commitment first; R-BRING-1 the 7c brings in; the aces win at showdown."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)

    started = services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))
    assert started.ok
    hand = running_hand(table)
    # DESIGN "Fairness": card by card, a salt for each position; R-DEAL-5's seed follows
    assert hand.fairness_scheme == CARD_BY_CARD_SCHEME and len(set(hand.salts)) == 52
    assert hand.commitment == card_by_card_commitment(hand.deck, hand.salts)
    assert engine_of(hand).reshuffle_seed == reshuffle_seed_for(hand.commitment)
    first = HandEvent.objects.filter(hand=hand).order_by("seq").first()
    assert first is not None and first.kind == "commitment" and first.seq == 1
    engine = engine_of(hand)
    assert engine.to_act == 2  # bob's 7c is the lowest door card
    audit_ok()  # mid-hand: antes in the pot

    finished = play_down(table, {1: alice, 2: bob})

    result = engine_of(finished).result
    assert result is not None and result.showdown and result.winners == (1,)
    seats = {seat.number: seat.stack for seat in Seat.objects.filter(table=table)}
    assert seats[1] + seats[2] == 4000  # no rake on this table
    assert seats[1] > 2000
    seqs = list(HandEvent.objects.filter(hand=finished).values_list("seq", flat=True))
    assert seqs == list(range(1, finished.seq + 1))
    assert HandEvent.objects.filter(hand=finished, kind="hand_end").exists()
    audit_ok()


def test_events_visible_to_one_seat_reach_the_table_as_placeholders():
    table = make_table()
    alice = seated_player(table, seat_number=1)
    seated_player(table, seat_number=2)

    result = services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))

    table_frames = [f for f in result.frames.table_json if f["type"] == "event"]
    assert [f["seq"] for f in table_frames] == list(range(1, len(table_frames) + 1))
    private = [f for f in table_frames if f["kind"] == "private"]
    assert private and all(f["payload"] == {} for f in private)
    alice_frames = result.frames.users_json[alice.pk]
    down = [f for f in alice_frames if f.get("kind") == "down_cards"]
    assert down[0]["payload"]["cards"] == [parse_card("As"), parse_card("Ad")]
    assert {f["seq"] for f in down} <= {f["seq"] for f in private}
    assert table_frames[-1]["to_act"] == 2 and table_frames[-1]["action_deadline"]


def test_a_stale_or_repeated_seq_is_answered_not_applied():
    table = make_table()
    seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))
    hand = running_hand(table)
    seq = hand.seq

    first = services.hand_act(
        table_id=table.pk, player=bob, expected_seq=seq, kind="bring_in", amount=25
    )
    again = services.hand_act(
        table_id=table.pk, player=bob, expected_seq=seq, kind="bring_in", amount=25
    )

    assert first.ok
    assert again.status == "stale" and again.seq == first.seq
    assert running_hand(table).seq == first.seq


def test_an_illegal_action_is_refused_and_changes_nothing():
    table = make_table()
    alice = seated_player(table, seat_number=1)
    seated_player(table, seat_number=2)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))
    before = running_hand(table)

    result = act(table, alice, "bet", 100)  # not alice's turn

    assert result.error == "illegal_action" and "not seat 1's turn" in result.message
    after = running_hand(table)
    assert after.seq == before.seq and after.state == before.state


def test_leaving_mid_hand_folds_and_cashes_out_at_the_end():
    """R-BUY-1: leaving returns the stack to the balance; in a hand the player folds."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))
    assert act(table, bob, "complete", 100).ok  # bob completes; alice to act

    left = services.seat_leave(table_id=table.pk, player=alice)

    assert left.ok
    assert Hand.objects.get(pk=left.hand_id).ended_at is not None  # alice folded: bob wins
    assert not Seat.objects.filter(table=table, player=alice).exists()
    alice.refresh_from_db()
    assert alice.balance == 10_000 - 10  # only her ante lost
    assert services.seat_leave(table_id=table.pk, player=bob).ok
    bob.refresh_from_db()
    assert bob.balance == 10_010
    assert room_chip_totals() == {"on_tables": 0, "in_pots": 0, "rake": 0}
    audit_ok()


def test_a_snapshot_shows_the_viewer_their_own_down_cards_only():
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))

    mine = table_snapshot(table.pk, alice)
    spectator = table_snapshot(table.pk, None)
    bobs = table_snapshot(table.pk, bob)

    assert mine is not None and spectator is not None and bobs is not None
    alice_seat = mine["hand"]["state"]["seats"][0]
    assert alice_seat["down"] == [parse_card("As"), parse_card("Ad")]
    assert all("down" not in seat for seat in spectator["hand"]["state"]["seats"])
    assert bobs["hand"]["state"]["legal_actions"]  # bob must bring in
    assert mine["hand"]["state"]["legal_actions"] == []
    assert mine["hand"]["seq"] == running_hand(table).seq


def test_the_player_to_act_gets_their_offers_with_the_turn():
    table = make_table()
    seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)

    result = services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))

    turn = [f for f in result.frames.users_json[bob.pk] if f["type"] == "your_turn"]
    assert len(turn) == 1 and turn[0]["seq"] == result.seq and turn[0]["seat"] == 2
    assert {offer["kind"] for offer in turn[0]["legal_actions"]} == {"bring_in", "complete"}


def test_a_seq_from_another_hand_is_stale():
    table = make_table()
    seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))
    hand = running_hand(table)

    result = services.hand_act(
        table_id=table.pk,
        player=bob,
        expected_seq=hand.seq,
        expected_hand_id=hand.pk - 1,
        kind="bring_in",
        amount=25,
    )

    assert result.status == "stale"
