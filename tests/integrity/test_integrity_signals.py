"""Issue #25: the pair signals read from the hand log, in words with their hands; the seat
refused from an address already seated at the table unless staff allow the pair; a case
decided "suspended" stops play at the end of the hand in play and holds the wallet, with no
ledger row changed; every staff action in the audit log."""

from __future__ import annotations

import random

import pytest

from accounts.models import CashierKind, LedgerEntry, StaffAction
from accounts.services import CashierRefused, cashier_request
from integrity.models import PairReview, Suspension
from integrity.services import (
    case_decide,
    case_open,
    integrity_scan,
    shared_address_allow,
)
from stud import StudHand
from stud.cards import FULL_DECK
from tables import services
from tables.models import Hand, Seat, Table
from tests.factories import PlayerFactory, funded
from tests.history_hands import bettor, hold_scheduling, play_hand
from tests.table_factories import make_table, running_hand, seated_player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _still(monkeypatch: pytest.MonkeyPatch) -> None:
    hold_scheduling(monkeypatch)


def deck_text(rng: random.Random) -> str:
    from stud.cards import cards_text

    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return cards_text(deck)


def dumper_of(receiver_seat: int):
    """Folds whenever the receiver's bet is to be called; calls or checks anyone else."""

    def strategy(table: Table, player, engine: StudHand, seat: int) -> tuple[str, int]:
        offers = {o.kind.value: o.amount for o in engine.legal_actions(seat)}
        facing = engine.current_bet > engine.bet(seat)
        aggressor = (
            engine.players[engine.last_aggressor].seat if engine.last_aggressor >= 0 else None
        )
        if "fold" in offers and facing and aggressor == receiver_seat:
            return "fold", 0
        for kind in ("check", "call", "bring_in"):
            if kind in offers:
                return kind, offers[kind]
        return next(iter(offers.items()))

    return strategy


def test_chip_dumping_the_pair_is_flagged_in_words_with_its_hands():
    """Alice (1) folds to bob's (2) bets whatever she holds, and calls carol's (3): alice and
    bob are flagged, the words say she folded the better hand to his bet, and the hands named
    are hands she folded to him; alice and carol are not flagged."""
    table = make_table(heads_up_raises=2)
    players = {seat: seated_player(table, seat_number=seat, balance=200_000) for seat in (1, 2, 3)}
    rng = random.Random(7)
    strategies = {1: dumper_of(2), 2: bettor, 3: bettor}
    for _ in range(45):
        play_hand(table, players, deck_text(rng), strategies=strategies)
        for seat in Seat.objects.filter(table=table, stack__lt=1000):
            services.seat_add_chips(table_id=table.pk, player=seat.player, amount=5000)

    scanned = integrity_scan()

    assert scanned.hands_read == 45
    alice, bob, carol = players[1], players[2], players[3]
    dumping = PairReview.objects.get(
        player_low_id=min(alice.pk, bob.pk), player_high_id=max(alice.pk, bob.pk)
    )
    assert dumping.flagged and dumping.hands_together == 45
    [signal] = [s for s in dumping.signals if s["kind"] == "chip_dumping"]
    assert signal["flagged"]
    assert signal["words"].startswith(
        f"{alice.table_name} folded the better hand to {bob.table_name}'s bet"
    )
    assert f"went from {alice.table_name} to {bob.table_name}" in signal["words"]
    for hand_id in signal["hands"]:
        engine = StudHand.from_json(Hand.objects.get(pk=hand_id).state)
        assert engine.status_of(1) == "folded"
    honest = PairReview.objects.get(
        player_low_id=min(alice.pk, carol.pk), player_high_id=max(alice.pk, carol.pk)
    )
    assert not honest.flagged


def test_the_scan_reads_only_new_hands():
    table = make_table()
    players = {seat: seated_player(table, seat_number=seat) for seat in (1, 2)}
    rng = random.Random(3)
    play_hand(table, players, deck_text(rng))
    assert integrity_scan().hands_read == 1
    assert integrity_scan().hands_read == 0
    play_hand(table, players, deck_text(rng))
    assert integrity_scan().hands_read == 1
    review = PairReview.objects.get()
    assert review.hands_together == 2


# --- one address at one table -------------------------------------------------------------


def test_a_second_seat_from_an_address_already_seated_is_refused_until_staff_allow_the_pair():
    table = make_table()
    alice, bob = PlayerFactory(), PlayerFactory()
    staff = PlayerFactory(is_staff=True)
    funded(alice, 10_000)
    funded(bob, 10_000)
    at_home = "203.0.113.9"
    assert services.seat_take(
        table_id=table.pk, player=alice, buy_in=2000, address=at_home, device="Firefox"
    ).ok
    refused = services.seat_take(table_id=table.pk, player=bob, buy_in=2000, address=at_home)
    assert not refused.ok and refused.error == "shared_address"
    assert "network address" in refused.message
    assert (
        LedgerEntry.objects.filter(player=bob).count() == 1
    )  # only the deposit: no buy-in was taken

    shared_address_allow(
        player_a=bob.pk, player_b=alice.pk, reason="A married couple, one router", staff=staff
    )
    assert services.seat_take(table_id=table.pk, player=bob, buy_in=2000, address=at_home).ok
    logged = StaffAction.objects.get(action="integrity_shared_address_allow")
    assert logged.staff == staff and logged.detail == "A married couple, one router"


def test_sitting_together_from_one_address_is_a_signal_in_words():
    table = make_table()
    staff = PlayerFactory(is_staff=True)
    alice, bob = PlayerFactory(), PlayerFactory()
    from tests.factories import funded

    funded(alice, 10_000)
    funded(bob, 10_000)
    shared_address_allow(player_a=alice.pk, player_b=bob.pk, reason="flatmates", staff=staff)
    for player in (alice, bob):
        assert services.seat_take(
            table_id=table.pk, player=player, buy_in=2000, address="198.51.100.4"
        ).ok
    play_hand(table, {1: alice, 2: bob}, deck_text(random.Random(1)))
    integrity_scan()
    review = PairReview.objects.get()
    [signal] = [s for s in review.signals if s["kind"] == "sitting_together"]
    assert (
        "took seats at one table from one network address once; 1 hands together"
        in (signal["words"])
    )


# --- a case decided: suspended ------------------------------------------------------------


def test_suspension_stops_play_at_the_end_of_the_hand_and_holds_the_wallet(settings):
    """Bob is suspended mid-hand: he plays it out; when it ends he is stood up, his stack
    back in his wallet (a cash-out row, nothing else), he cannot sit again nor withdraw."""
    settings.ROOM_MONEY = "real"
    table = make_table()
    players = {seat: seated_player(table, seat_number=seat) for seat in (1, 2)}
    bob = players[2]
    play_hand(table, players, deck_text(random.Random(5)))
    integrity_scan()
    review = PairReview.objects.get()
    staff = PlayerFactory(is_staff=True)
    case = case_open(pair_id=review.pk, staff=staff)
    assert services.hand_start(table_id=table.pk).ok
    hand = running_hand(table)

    case_decide(
        case_id=case.pk,
        staff=staff,
        decision="suspended",
        note="dumping to alice",
        suspend=[bob.pk],
    )

    assert Seat.objects.filter(table=table, player=bob).exists()  # the hand plays on
    assert StudHand.from_json(Hand.objects.get(pk=hand.pk).state).status_of(2) != "folded"
    rows_before = set(LedgerEntry.objects.filter(player=bob).values_list("pk", flat=True))
    from tests.history_hands import calling_station

    engine = StudHand.from_json(Hand.objects.get(pk=hand.pk).state)
    while not engine.is_over:
        seat = engine.to_act
        kind, amount = calling_station(table, players[seat], engine, seat)
        assert services.hand_act(
            table_id=table.pk,
            player=players[seat],
            expected_seq=Hand.objects.get(pk=hand.pk).seq,
            kind=kind,
            amount=amount,
        ).ok
        engine = StudHand.from_json(Hand.objects.get(pk=hand.pk).state)

    assert not Seat.objects.filter(table=table, player=bob).exists()
    new_rows = LedgerEntry.objects.filter(player=bob).exclude(pk__in=rows_before)
    assert [row.kind for row in new_rows] == ["cash_out"]
    bob.refresh_from_db()
    assert bob.balance == sum(
        LedgerEntry.objects.filter(player=bob).values_list("amount", flat=True)
    )
    refused = services.seat_take(table_id=table.pk, player=bob, buy_in=2000)
    assert not refused.ok and refused.error == "suspended"
    with pytest.raises(CashierRefused, match="held for review"):
        cashier_request(player_id=bob.pk, kind=CashierKind.WITHDRAWAL, amount=100)
    assert Suspension.objects.get().player == bob
    logged = list(StaffAction.objects.order_by("id").values_list("action", flat=True))
    assert logged == ["integrity_case_open", "integrity_case_suspended", "integrity_suspend"]


def test_a_second_seat_from_loopback_is_never_refused(monkeypatch):
    """Issue #25: the demo's bots and the room's own browsers all connect from the room's
    machine: loopback (settings.SEAT_ADDRESS_EXEMPT) tells no two players apart, so a second
    seat from it is taken, and one from another shared address still is not."""
    hold_scheduling(monkeypatch)
    table = make_table()
    alice, bob, carol, dave, eve = (PlayerFactory() for _ in range(5))
    for player in (alice, bob, carol, dave, eve):
        funded(player, 10_000)
    assert services.seat_take(table_id=table.pk, player=alice, buy_in=2000, address="127.0.0.1").ok
    assert services.seat_take(table_id=table.pk, player=bob, buy_in=2000, address="127.0.0.1").ok
    assert services.seat_take(table_id=table.pk, player=carol, buy_in=2000, address="::1").ok
    at_home = "203.0.113.9"
    assert services.seat_take(table_id=table.pk, player=dave, buy_in=2000, address=at_home).ok
    refused = services.seat_take(table_id=table.pk, player=eve, buy_in=2000, address=at_home)
    assert not refused.ok and refused.error == "shared_address"
