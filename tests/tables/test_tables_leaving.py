"""Leaving mid-hand (R-BUY-1): the engine folds the leaver's hand at once, out of turn if need
be, the stack they did not put in the pot goes back to the balance at once, and the seat frees;
chips are conserved at every step."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.models import LedgerEntry, LedgerKind
from stud import ActionKind
from tables import services
from tables.models import HandEvent, Seat
from tables.selectors import room_chip_totals, seats_public
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
from tests.tables.test_tables_hand_flow import ALICE_WINS

pytestmark = pytest.mark.django_db


def audit_ok() -> None:
    call_command("audit_chips")  # raises CommandError on any mismatch


def _three_at_the_table():
    table = make_table()
    players = {n: seated_player(table, seat_number=n) for n in (1, 2, 3)}
    assert services.hand_start(table_id=table.pk).ok
    return table, players


def test_a_player_who_leaves_out_of_turn_is_folded_at_once_and_paid_out_at_once():
    table, players = _three_at_the_table()
    hand = running_hand(table)
    engine = engine_of(hand)
    to_act = engine.to_act
    leaver_seat = next(n for n in players if n != to_act)
    leaver = players[leaver_seat]
    in_front = engine.stack(leaver_seat)

    left = services.seat_leave(table_id=table.pk, player=leaver)

    assert left.ok and left.message == ""
    after = engine_of(hand)
    assert after.status_of(leaver_seat) == "folded"
    assert after.to_act == to_act  # the player to act still is
    assert not Seat.objects.filter(table=table, player=leaver).exists()
    leaver.refresh_from_db()
    assert leaver.balance == 10_000 - table.buy_in + in_front  # only the ante stays in the pot
    kinds = list(HandEvent.objects.filter(hand=hand).order_by("seq").values_list("kind", flat=True))
    assert kinds[-2:] == ["abandon", "action"]
    audit_ok()
    play_down(table, {n: p for n, p in players.items() if n != leaver_seat})
    leaver.refresh_from_db()
    assert leaver.balance == 10_000 - table.buy_in + in_front
    audit_ok()


def test_a_player_who_leaves_on_their_turn_passes_the_turn_on():
    table, players = _three_at_the_table()
    hand = running_hand(table)
    to_act = engine_of(hand).to_act
    leaver = players[to_act]

    assert services.seat_leave(table_id=table.pk, player=leaver).ok

    after = engine_of(hand)
    assert after.to_act not in (None, to_act) and not after.is_over
    assert hand.action_deadline is not None
    audit_ok()


def test_the_last_opponent_leaving_ends_the_hand_and_an_uncalled_bet_follows_the_leaver():
    """Heads-up: bob brings in, alice completes, bob to act; alice leaves. Bob alone wins;
    alice's uncalled completion goes back to her balance at the end (R-SHOW-4)."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2)
    services.hand_start(table_id=table.pk, deck=stacked_deck(ALICE_WINS))
    assert act(table, bob, "bring_in", 25).ok
    assert act(table, alice, "complete", 100).ok

    left = services.seat_leave(table_id=table.pk, player=alice)

    assert left.ok
    assert engine_of(_last_hand(table)).is_over
    alice.refresh_from_db()
    # Her ante and the 25 bob called stay in the pot; the 1890 in front of her and the
    # uncalled 75 of her completion come back at once (the hand ended when she left).
    assert alice.balance == 10_000 - 10 - 25
    cash_outs = LedgerEntry.objects.filter(player=alice, kind=LedgerKind.CASH_OUT)
    assert list(cash_outs.values_list("amount", flat=True)) == [1890 + 75]
    assert Seat.objects.get(table=table, player=bob).stack == 2000 + 10 + 25
    assert room_chip_totals()["in_pots"] == 0
    audit_ok()


def test_r_buy_1_a_seat_left_mid_hand_is_held_until_the_hand_ends():
    """R-BUY-1, R-GAME-4: the chips the leaver put in still play at that place, so its seat
    number is not free until the hand ends; another free seat may be taken, and its player
    waits for the next hand."""
    table, players = _three_at_the_table()
    hand = running_hand(table)
    to_act = engine_of(hand).to_act
    leaver_seat = next(n for n in players if n != to_act)
    assert services.seat_leave(table_id=table.pk, player=players[leaver_seat]).ok
    newcomer = PlayerFactory()
    funded(newcomer, 5000)

    held = services.seat_take(
        table_id=table.pk, player=newcomer, buy_in=3000, seat_number=leaver_seat
    )

    assert held.error == "seat_held"
    assert held.message == "That seat is held until the hand in play ends."
    newcomer.refresh_from_db()
    assert newcomer.balance == 5000
    assert services.seat_take(table_id=table.pk, player=newcomer, buy_in=3000).ok
    assert Seat.objects.get(table=table, player=newcomer).number not in players
    assert act(table, newcomer, "fold").error == "not_in_hand"
    audit_ok()
    play_down(table, {n: p for n, p in players.items() if n != leaver_seat})
    assert Seat.objects.get(table=table, player=newcomer).stack == 3000
    later = PlayerFactory()
    funded(later, 5000)
    assert services.seat_take(
        table_id=table.pk, player=later, buy_in=2000, seat_number=leaver_seat
    ).ok
    audit_ok()


def test_r_buy_1_leaving_twice_in_one_hand_pays_each_seat_its_own_stack():
    """Issue #11: a player leaves a hand, sits down again with the posted buy-in while it
    runs, and leaves again: the second seat pays back its own buy-in, never the first stack
    once more, and is shown out of the hand."""
    table, players = _three_at_the_table()
    hand = running_hand(table)
    to_act = engine_of(hand).to_act
    leaver_seat = next(n for n in players if n != to_act)
    leaver = players[leaver_seat]
    in_front = engine_of(hand).stack(leaver_seat)
    assert services.seat_leave(table_id=table.pk, player=leaver).ok

    for _ in range(3):
        assert services.seat_take(table_id=table.pk, player=leaver, buy_in=table.buy_in).ok
        seat = Seat.objects.get(table=table, player=leaver)
        shown = next(s for s in seats_public(table.pk) if s["player_id"] == leaver.pk)
        assert (shown["in_hand"], shown["stack"]) == (False, table.buy_in)
        assert seat.number != leaver_seat
        assert services.seat_leave(table_id=table.pk, player=leaver).ok
        audit_ok()

    leaver.refresh_from_db()
    assert leaver.balance == 10_000 - table.buy_in + in_front  # only the ante stays in the pot
    cash_outs = LedgerEntry.objects.filter(player=leaver, kind=LedgerKind.CASH_OUT)
    assert list(cash_outs.order_by("pk").values_list("amount", flat=True)) == [
        in_front,
        table.buy_in,
        table.buy_in,
        table.buy_in,
    ]


def _last_hand(table):
    return table.hands.order_by("-number").first()


def test_a_player_who_folded_and_then_leaves_is_paid_out_at_once():
    table, players = _three_at_the_table()
    hand = running_hand(table)
    engine = engine_of(hand)
    to_act = engine.to_act
    offered = {offer.kind for offer in engine.legal_actions(to_act)}
    if ActionKind.FOLD not in offered:  # the bring-in may not fold: bring in first
        assert act(table, players[to_act], "bring_in", table.bring_in).ok
        to_act = engine_of(hand).to_act
    assert act(table, players[to_act], "fold").ok
    in_front = engine_of(hand).stack(to_act)

    assert services.seat_leave(table_id=table.pk, player=players[to_act]).ok

    players[to_act].refresh_from_db()
    assert players[to_act].balance == 10_000 - table.buy_in + in_front
    audit_ok()


def test_an_uncalled_bet_of_a_leaver_follows_them_when_the_hand_ends():
    """Three players: one brings in, the next completes and leaves before the others act;
    when the third folds, the completion is uncalled (R-SHOW-4) and its uncalled part goes to the
    leaver's balance at the end."""
    table, players = _three_at_the_table()
    hand = running_hand(table)
    bring_in_seat = engine_of(hand).to_act
    assert act(table, players[bring_in_seat], "bring_in", table.bring_in).ok
    completer = engine_of(hand).to_act
    assert act(table, players[completer], "complete", table.small_bet).ok
    in_front = engine_of(hand).stack(completer)

    assert services.seat_leave(table_id=table.pk, player=players[completer]).ok

    audit_ok()
    third = engine_of(hand).to_act
    assert third not in (bring_in_seat, completer)
    assert act(table, players[third], "fold").ok  # the bring-in is left alone: it wins
    hand.refresh_from_db()
    assert hand.ended_at is not None
    leaver = players[completer]
    leaver.refresh_from_db()
    returned = table.small_bet - table.bring_in
    cash_outs = LedgerEntry.objects.filter(player=leaver, kind=LedgerKind.CASH_OUT)
    assert list(cash_outs.order_by("pk").values_list("amount", flat=True)) == [in_front, returned]
    assert leaver.balance == 10_000 - table.ante - table.bring_in
    audit_ok()
