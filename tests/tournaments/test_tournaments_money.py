"""Tournament money (R-TOUR-1, R-TOUR-9): registering, unregistering, the add-on,
cancellation and the prizes, every cent a ledger line with the tournament's reference."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest

from accounts.models import LedgerEntry, LedgerKind
from stud import StudHand
from tables import services as table_services
from tables.models import Hand, Seat
from tables.services import outbox
from tests.factories import PlayerFactory, StaffFactory, funded
from tests.table_factories import running_hand
from tests.tournaments.money_helpers import (
    NOW,
    balance_of,
    kind_total,
    later,
    ledger_of,
    make_tournament,
    registered,
    seated_in_play,
)
from tests.tournaments.play_helpers import SEATING, deal, open_tables, play_out
from tournaments import broadcast as tournaments_broadcast
from tournaments.audit import room_chip_audit
from tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentStaffAction,
    TournamentStatus,
    TournamentTable,
)
from tournaments.services.entries import (
    tournament_add_on,
    tournament_cancel,
    tournament_edit,
    tournament_finish,
    tournament_register,
    tournament_unregister,
)
from tournaments.services.play import tournament_start
from tournaments.services.refusals import TournamentRefusal, TournamentRefused

pytestmark = pytest.mark.django_db


def refusal(call: Any, **kwargs: Any) -> TournamentRefused:
    with pytest.raises(TournamentRefused) as caught:
        call(**kwargs)
    return caught.value


# --- Registering -------------------------------------------------------------------------------


def test_r_tour_1_registering_pays_the_buy_in_and_the_fee_as_ledger_lines() -> None:
    tournament = make_tournament(buy_in=4000, fee=400)
    player = PlayerFactory()
    funded(player, 5000)

    entry = tournament_register(tournament_id=tournament.pk, player=player, now=NOW)

    assert entry.registered_at == NOW
    assert balance_of(player) == 600
    assert ledger_of(player, tournament) == [
        (LedgerKind.TOURNAMENT_BUY_IN, -4000),
        (LedgerKind.TOURNAMENT_FEE, -400),
    ]
    assert tournament.reference == f"tournament:{tournament.pk}"


def test_registering_without_the_money_is_refused_and_nothing_changes() -> None:
    tournament = make_tournament(buy_in=4000, fee=400)
    player = PlayerFactory()
    funded(player, 4200)  # the buy-in but not the fee

    refused = refusal(tournament_register, tournament_id=tournament.pk, player=player, now=NOW)

    assert refused.code == TournamentRefusal.INSUFFICIENT_BALANCE
    assert str(refused) == (
        "You need $44.00 to register (buy-in $40.00 + fee $4.00); your balance is $42.00."
    )
    assert balance_of(player) == 4200
    assert ledger_of(player, tournament) == []
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()


def test_registering_twice_is_refused_and_charges_once() -> None:
    tournament = make_tournament()
    (player,) = registered(tournament, 1)

    refused = refusal(tournament_register, tournament_id=tournament.pk, player=player, now=NOW)

    assert refused.code == TournamentRefusal.ALREADY_REGISTERED
    assert str(refused) == "You are already registered for Tuesday Stud."
    assert balance_of(player) == 10_000 - 4000
    assert len(ledger_of(player, tournament)) == 1


def test_registering_after_the_start_is_refused() -> None:
    tournament = make_tournament()
    players = registered(tournament, 2)
    seated_in_play(tournament, players)
    late = PlayerFactory()
    funded(late, 10_000)

    refused = refusal(tournament_register, tournament_id=tournament.pk, player=late, now=later(5))

    assert refused.code == TournamentRefusal.NOT_OPEN
    assert str(refused) == "Tuesday Stud has started: registration is closed."
    assert balance_of(late) == 10_000


def test_registering_when_full_or_not_yet_open_is_refused() -> None:
    full = make_tournament(max_players=2)
    registered(full, 2)
    announced = make_tournament(name="Next week", status=TournamentStatus.ANNOUNCED)
    player = PlayerFactory()
    funded(player, 10_000)

    assert (
        refusal(tournament_register, tournament_id=full.pk, player=player).code
        == TournamentRefusal.FULL
    )
    not_open = refusal(tournament_register, tournament_id=announced.pk, player=player)
    assert str(not_open) == "Registration for Next week is not open yet."
    assert balance_of(player) == 10_000


# --- Unregistering -----------------------------------------------------------------------------


def test_unregistering_gives_back_the_buy_in_fee_and_add_on() -> None:
    tournament = make_tournament(buy_in=4000, fee=400, add_on_price=1500)
    (player,) = registered(tournament, 1)
    tournament_add_on(tournament_id=tournament.pk, player=player, now=NOW)
    assert balance_of(player) == 10_000 - 5900

    refunded = tournament_unregister(tournament_id=tournament.pk, player=player, now=later(1))

    assert refunded == 5900
    assert balance_of(player) == 10_000
    assert ledger_of(player, tournament)[-2:] == [
        (LedgerKind.TOURNAMENT_REFUND, 5500),
        (LedgerKind.TOURNAMENT_FEE, 400),
    ]
    # The house kept no fee: the fee lines of the tournament add up to nothing.
    assert kind_total(tournament, LedgerKind.TOURNAMENT_FEE) == 0
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()


def test_unregistering_after_the_start_is_refused_and_nothing_changes() -> None:
    tournament = make_tournament()
    players = registered(tournament, 2)
    seated_in_play(tournament, players)

    refused = refusal(
        tournament_unregister, tournament_id=tournament.pk, player=players[0], now=later(1)
    )

    assert refused.code == TournamentRefusal.TOO_LATE
    assert balance_of(players[0]) == 6000
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 2


def test_unregistering_when_not_registered_is_refused() -> None:
    tournament = make_tournament()
    stranger = PlayerFactory()

    refused = refusal(tournament_unregister, tournament_id=tournament.pk, player=stranger)

    assert refused.code == TournamentRefusal.NOT_REGISTERED


# --- The add-on (R-TOUR-1) ---------------------------------------------------------------------


def test_r_tour_1_an_add_on_before_the_start_is_seated_with_the_draw() -> None:
    tournament = make_tournament()
    (player,) = registered(tournament, 1)

    entry = tournament_add_on(tournament_id=tournament.pk, player=player, now=NOW)

    assert entry.add_on_at == NOW
    assert entry.add_on_pending is False  # the draw seats 800 + 400
    assert ledger_of(player, tournament)[-1] == (LedgerKind.TOURNAMENT_ADD_ON, -1500)
    assert balance_of(player) == 10_000 - 4000 - 1500


def test_r_tour_1_one_add_on_per_player() -> None:
    tournament = make_tournament()
    (player,) = registered(tournament, 1)
    tournament_add_on(tournament_id=tournament.pk, player=player, now=NOW)

    refused = refusal(tournament_add_on, tournament_id=tournament.pk, player=player, now=NOW)

    assert refused.code == TournamentRefusal.ALREADY_ADDED_ON
    assert str(refused) == "You have already bought your add-on."
    assert balance_of(player) == 10_000 - 5500


def test_r_tour_1_add_on_at_level_5_goes_on_the_seat_between_hands() -> None:
    tournament = make_tournament()
    players = registered(tournament, 3)
    table = seated_in_play(tournament, players, level=5)

    tournament_add_on(tournament_id=tournament.pk, player=players[1], now=later(60))

    seat = Seat.objects.get(table=table, player=players[1])
    assert seat.stack == 800 + 400
    assert TournamentEntry.objects.get(player=players[1]).add_on_pending is False


def test_r_tour_1_the_add_on_closes_at_the_first_hand_of_level_6() -> None:
    tournament = make_tournament()
    players = registered(tournament, 3)
    table = seated_in_play(tournament, players, level=5)
    TournamentTable.objects.filter(table=table).update(level=6)
    dealt = table_services.hand_start(table_id=table.pk, now=later(74))  # level 6's first hand
    assert dealt.ok, dealt.reply()
    stack = Seat.objects.get(table=table, player=players[0]).stack

    refused = refusal(
        tournament_add_on, tournament_id=tournament.pk, player=players[0], now=later(75)
    )

    assert refused.code == TournamentRefusal.TOO_LATE
    assert str(refused) == "The add-on closed when the first hand of level 6 was dealt."
    assert balance_of(players[0]) == 6000
    assert Seat.objects.get(table=table, player=players[0]).stack == stack


def test_r_tour_1_an_add_on_before_the_start_is_in_the_drawn_stack() -> None:
    tournament = make_tournament(preset="turbo")
    players = registered(tournament, 3)
    tournament_add_on(tournament_id=tournament.pk, player=players[2], now=NOW)

    tournament_start(tournament_id=tournament.pk, now=later(1), rng=Random(1))

    (table,) = open_tables(tournament)
    stacks = {seat.player_id: seat.stack for seat in Seat.objects.filter(table=table)}
    assert stacks == {players[0].pk: 800, players[1].pk: 800, players[2].pk: 1200}


def test_r_tour_1_an_add_on_bought_mid_hand_waits_for_the_hand_to_end() -> None:
    tournament = make_tournament(preset="turbo")
    players = registered(tournament, 3)
    tournament_start(tournament_id=tournament.pk, now=NOW, rng=Random(1))
    (table,) = open_tables(tournament)
    hand = deal(table, NOW + SEATING)
    buyer = players[0]

    tournament_add_on(tournament_id=tournament.pk, player=buyer, now=NOW + SEATING)

    # Not mid-hand: the hand plays on with the chips it was dealt with.
    assert TournamentEntry.objects.get(player=buyer).add_on_pending is True
    seat = Seat.objects.get(table=table, player=buyer)
    assert StudHand.from_json(running_hand(table).state).players == hand_players(hand)
    play_out(table, NOW + SEATING)  # then the tournament's step between hands
    hand.refresh_from_db()
    result = StudHand.from_json(hand.state).result
    assert result is not None
    seat.refresh_from_db()
    assert seat.stack == result.stack(seat.number) + 400
    assert TournamentEntry.objects.get(player=buyer).add_on_pending is False


def hand_players(hand: Hand) -> Any:
    return StudHand.from_json(hand.state).players


def test_add_on_without_the_money_is_refused_and_nothing_changes() -> None:
    tournament = make_tournament()
    (player,) = registered(tournament, 1, balance=5000)

    refused = refusal(tournament_add_on, tournament_id=tournament.pk, player=player, now=NOW)

    assert refused.code == TournamentRefusal.INSUFFICIENT_BALANCE
    assert str(refused) == ("You need $15.00 for the add-on (400 chips); your balance is $10.00.")
    assert TournamentEntry.objects.get(player=player).add_on_at is None


# --- Cancellation ------------------------------------------------------------------------------


def test_cancelling_refunds_every_buy_in_fee_and_add_on() -> None:
    tournament = make_tournament(buy_in=4000, fee=400)
    players = registered(tournament, 3)
    tournament_add_on(tournament_id=tournament.pk, player=players[2], now=NOW)
    staff = StaffFactory()

    refunded = tournament_cancel(
        tournament_id=tournament.pk, staff=staff, now=later(5), reason="room flooded"
    )

    assert refunded == 3 * 4400 + 1500
    assert [balance_of(player) for player in players] == [10_000, 10_000, 10_000]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    assert kind_total(tournament, LedgerKind.TOURNAMENT_FEE) == 0
    action = TournamentStaffAction.objects.filter(tournament=tournament).last()
    assert action is not None
    assert (action.staff, action.action) == (staff, "cancel")
    assert action.detail == "room flooded; refunded $147.00"


def test_cancelling_a_running_tournament_empties_and_closes_its_tables() -> None:
    tournament = make_tournament(preset="turbo")
    players = registered(tournament, 9)
    tournament_start(tournament_id=tournament.pk, now=NOW, rng=Random(1))
    first, second = open_tables(tournament)
    deal(first, NOW + SEATING)  # a hand in play at table 1; table 2 between hands

    tournament_cancel(tournament_id=tournament.pk, staff=None, now=NOW + SEATING)

    first.refresh_from_db()
    second.refresh_from_db()
    assert not first.is_open and not second.is_open
    assert not Seat.objects.filter(table__in=[first, second]).exists()
    assert not Hand.objects.filter(table=first, ended_at__isnull=True).exists()  # void
    assert first.next_hand_at is None
    assert set(
        TournamentTable.objects.filter(tournament=tournament).values_list("closed_at", flat=True)
    ) == {NOW + SEATING}
    assert [balance_of(player) for player in players] == [10_000] * 9


def test_cancelling_mid_hand_voids_the_hand_clears_the_seats_and_tells_the_players(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """Staff cancel a running tournament while a hand is in play: the buy-ins and fees come
    back as ledger lines; the hand is void (no winner, no chip moved, no deadline left on
    it), every seat is cleared and every table closed at once; the players at the table
    are told (`table_closed`, the hand's last event) and the tournament's page says it is
    cancelled; the room's chips still add up."""
    table_frames: list[dict[str, Any]] = []
    monkeypatch.setattr(
        outbox, "broadcast", lambda *, table_id, frames: table_frames.extend(frames.table_json)
    )
    page_frames: list[dict[str, Any]] = []
    monkeypatch.setattr(
        tournaments_broadcast,
        "_send",
        lambda messages: page_frames.extend(
            json.loads(text) for _, message in messages for text in message["texts"]
        ),
    )
    tournament = make_tournament(preset="turbo", buy_in=4000, fee=400)
    players = registered(tournament, 9)
    tournament_start(tournament_id=tournament.pk, now=NOW, rng=Random(1))
    first, second = open_tables(tournament)
    hand = deal(first, NOW + SEATING)
    engine = StudHand.from_json(hand.state)
    to_act = engine.to_act
    assert to_act is not None
    bring_in = engine.legal_actions(to_act)[0]  # chips go into the pot
    acting = next(p for p in players if p.pk == int(hand.players[str(to_act)]))
    assert table_services.hand_act(
        table_id=first.pk,
        player=acting,
        expected_seq=hand.seq,
        kind=bring_in.kind.value,
        amount=bring_in.amount,
        now=NOW + SEATING,
    ).ok
    hand.refresh_from_db()
    assert hand.action_deadline is not None
    table_frames.clear()

    with django_capture_on_commit_callbacks(execute=True):
        refunded = tournament_cancel(
            tournament_id=tournament.pk, staff=StaffFactory(), now=NOW + SEATING
        )

    assert refunded == 9 * 4400
    for player in players:
        assert ledger_of(player, tournament) == [
            (LedgerKind.TOURNAMENT_BUY_IN, -4000),
            (LedgerKind.TOURNAMENT_FEE, -400),
            (LedgerKind.TOURNAMENT_REFUND, 4000),
            (LedgerKind.TOURNAMENT_FEE, 400),
        ]
        assert balance_of(player) == 10_000
    first.refresh_from_db()
    second.refresh_from_db()
    assert not first.is_open and not second.is_open
    assert not Seat.objects.filter(table__in=[first, second]).exists()
    assert not Hand.objects.filter(table__in=[first, second], ended_at__isnull=True).exists()
    assert not Hand.objects.filter(action_deadline__isnull=False).exists()
    assert first.next_hand_at is None and second.next_hand_at is None
    hand.refresh_from_db()
    assert hand.ended_at == NOW + SEATING
    last = hand.events.order_by("-seq").first()
    assert last is not None and last.kind == "hand_end"
    assert last.payload["void"] == "tournament_cancelled"
    assert last.payload["winners"] == []
    closed = {f["table_id"] for f in table_frames if f["type"] == "table_closed"}
    assert closed == {first.pk, second.pk}
    assert any(
        f["type"] == "event" and f["kind"] == "hand_end" and f["table_id"] == first.pk
        for f in table_frames
    )
    assert [f["seats"] for f in table_frames if f["type"] == "seats"] == [[], []]
    assert any(
        f["type"] == "tournament" and f["tournament"]["status"] == TournamentStatus.CANCELLED
        for f in page_frames
    )
    audit = room_chip_audit()
    assert audit.conserved, audit.mismatches


def test_staff_actions_on_a_finished_or_cancelled_tournament_are_refused() -> None:
    tournament = make_tournament()
    registered(tournament, 2)
    tournament_cancel(tournament_id=tournament.pk, staff=None, now=later(1))
    rows = TournamentStaffAction.objects.filter(tournament=tournament).count()

    again = refusal(tournament_cancel, tournament_id=tournament.pk, staff=None, now=later(2))
    edit = refusal(
        tournament_edit,
        tournament_id=tournament.pk,
        staff=None,
        now=later(2),
        settings={"name": "Renamed"},
    )

    assert again.code == edit.code == TournamentRefusal.OVER
    assert str(again) == "Tuesday Stud is cancelled: nothing can change."
    assert TournamentStaffAction.objects.filter(tournament=tournament).count() == rows
    assert Tournament.objects.get(pk=tournament.pk).name == "Tuesday Stud"


# --- The prizes (R-TOUR-9) ---------------------------------------------------------------------


def _finish(tournament: Tournament, places: dict[int, int]) -> None:
    for player_id, place in places.items():
        TournamentEntry.objects.filter(tournament=tournament, player_id=player_id).update(
            place=place, eliminated_at=NOW
        )
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament_finish(tournament=tournament, now=later(90))


def test_r_tour_9_eight_entrants_pay_three_places_and_the_odd_cents_go_to_first() -> None:
    tournament = make_tournament(buy_in=4000, fee=400, add_on_price=1333)
    players = registered(tournament, 8)
    tournament_add_on(tournament_id=tournament.pk, player=players[0], now=NOW)
    # pool = 8 x $40 + $13.33 = $333.33: 50% 16666.5 -> 16666, 30% 9999.9 -> 9999,
    # 20% 6666.6 -> 6666; the 2 cents left go to first.
    _finish(tournament, {players[i].pk: i + 1 for i in range(1, 8)})

    prizes = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list("place", "prize")
    )
    assert prizes == {1: 16668, 2: 9999, 3: 6666, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0}
    assert ledger_of(players[0], tournament)[-1] == (LedgerKind.PRIZE, 16668)
    assert kind_total(tournament, LedgerKind.PRIZE) == 33333
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert tournament.finished_at == later(90)
    # Fees stay with the house: 8 x $4.
    assert kind_total(tournament, LedgerKind.TOURNAMENT_FEE) == -3200


def test_r_tour_9_players_tied_in_one_hand_split_the_places_they_share() -> None:
    tournament = make_tournament(buy_in=4001)
    players = registered(tournament, 5)
    # Five entrants pay 65/35 of $200.05. Two players bust in the same hand with the same
    # chips at its start (R-TOUR-7): both 2nd, sharing 2nd's and 3rd's prizes.
    _finish(
        tournament,
        {players[4].pk: 5, players[3].pk: 4, players[1].pk: 2, players[2].pk: 2},
    )

    prizes = {
        entry.player_id: entry.prize
        for entry in TournamentEntry.objects.filter(tournament=tournament)
    }
    # 35% of 20005 = 7001.75 -> 7001, shared: 3500 each, the cent left goes to first.
    assert prizes[players[1].pk] == prizes[players[2].pk] == 3500
    assert prizes[players[0].pk] == 20005 - 7000
    assert sum(prizes.values()) == 20005


def test_finishing_twice_is_refused() -> None:
    tournament = make_tournament()
    players = registered(tournament, 2)
    _finish(tournament, {players[1].pk: 2})
    prize_lines = LedgerEntry.objects.filter(kind=LedgerKind.PRIZE).count()

    with pytest.raises(TournamentRefused):
        _finish(tournament, {})

    assert LedgerEntry.objects.filter(kind=LedgerKind.PRIZE).count() == prize_lines


# --- Staff's edits (seed 004: until the first hand) ---------------------------------------------


def test_edits_before_the_first_hand_change_the_rules_and_are_audited() -> None:
    tournament = make_tournament()
    staff = StaffFactory()

    tournament_edit(
        tournament_id=tournament.pk,
        staff=staff,
        now=later(1),
        settings={"payout_percentages": [60, 40], "starting_chips": 1000},
        preset="turbo",
    )

    tournament.refresh_from_db()
    assert (tournament.payout_percentages, tournament.starting_chips) == ([60, 40], 1000)
    assert set(tournament.levels.values_list("minutes", flat=True)) == {3}
    action = TournamentStaffAction.objects.filter(tournament=tournament).order_by("id").last()
    assert action is not None
    assert (action.staff, action.action, action.detail) == (
        staff,
        "edit",
        "changed payout_percentages, starting_chips, levels",
    )


def test_edits_after_the_first_hand_are_refused_and_nothing_changes() -> None:
    tournament = make_tournament()
    players = registered(tournament, 2)
    seated_in_play(tournament, players, first_hand=True)

    refused = refusal(
        tournament_edit,
        tournament_id=tournament.pk,
        staff=None,
        now=later(30),
        settings={"name": "Renamed"},
        preset="turbo",
    )

    assert refused.code == TournamentRefusal.NOT_EDITABLE
    assert str(refused) == "The first hand has been dealt: the rules can no longer change."
    tournament.refresh_from_db()
    assert tournament.name == "Tuesday Stud"
    assert set(tournament.levels.values_list("minutes", flat=True)) == {15}


def test_the_buy_in_cannot_change_once_players_have_paid() -> None:
    tournament = make_tournament()
    registered(tournament, 1)

    refused = refusal(
        tournament_edit, tournament_id=tournament.pk, staff=None, settings={"buy_in": 5000}
    )

    assert refused.code == TournamentRefusal.BAD_SETTINGS
    assert str(refused) == "Players have paid: the buy-in, fee and add-on price cannot change now."
    assert Tournament.objects.get(pk=tournament.pk).buy_in == 4000


def test_payouts_that_do_not_add_up_are_refused() -> None:
    tournament = make_tournament()

    refused = refusal(
        tournament_edit,
        tournament_id=tournament.pk,
        staff=None,
        settings={"payout_percentages": [50, 30]},
    )

    assert str(refused) == "The payout percentages must add up to 100, not 80."
    assert Tournament.objects.get(pk=tournament.pk).payout_percentages == []
