"""Dealing and playing hands: start, act, time out, and the sweep of passed deadlines."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from accounts.models import Player
from stud import Action, ActionKind, IllegalAction, SeatSetup, StudHand
from stud.deck import (
    CARD_BY_CARD_SCHEME,
    card_by_card_commitment,
    new_salts,
    reshuffle_seed_for,
    shuffled_deck,
)
from tables.models import Hand, HandPlayer, Seat, Table
from tables.services.flow import (
    DUE_TOLERANCE,
    carry_on,
    current_hand,
    engine_records,
    game_config,
    lock_table,
    now_or,
    ready_seats,
    record,
    seats_by_number,
    time_out_seat,
)
from tables.services.outbox import Outbox
from tables.services.results import TableResult, refused, stale


def _next_button(table: Table, dealt: list[int]) -> int:
    """R-DEAL-1: the button moves one seat clockwise (to the next seat dealt in); the first
    hand's button is the last seat, so the lowest seat is dealt first."""
    previous = Hand.objects.filter(table=table).order_by("-number").values_list("button", flat=True)
    last = previous.first()
    if last is None:
        return dealt[-1]
    later = [number for number in dealt if number > last]
    return later[0] if later else dealt[0]


def hand_start(
    *,
    table_id: int,
    now: datetime | None = None,
    deck: list[int] | None = None,
    only_when_due: bool = False,
) -> TableResult:
    """R-GAME-3: deal a hand to the seated players who are in, with chips, and (without
    auto-ante) have confirmed (R-ANTE-1). The deck is committed to before the deal.
    `deck`: a stacked deck for tests; `only_when_due`: the scheduled start (a no-op before
    the table's next_hand_at)."""
    now = now_or(now)
    with transaction.atomic():
        table = lock_table(table_id)
        if table is None:
            return refused(table_id, "not_found", "No such table.")
        running = current_hand(table)
        if running is not None:
            return refused(
                table_id, "hand_running", "A hand is in play.", hand_id=running.pk, seq=running.seq
            )
        if only_when_due and (
            table.next_hand_at is None or table.next_hand_at > now + DUE_TOLERANCE
        ):
            return refused(table_id, "not_due", "The next hand is not due yet.")
        outbox = Outbox(table)
        if not table.is_open:
            table.next_hand_at = None
            table.save(update_fields=["next_hand_at"])
            return refused(table_id, "table_closed", "The table is closed.")
        seats = [
            seat
            for seat in ready_seats(table)
            if seat.player.auto_ante or seat.ante_confirmed  # R-ANTE-1
        ]
        table.next_hand_at = None
        if len(seats) < 2:
            table.save(update_fields=["next_hand_at"])
            return refused(
                table_id, "not_enough_players", "A hand needs two players in with chips."
            )
        deck = list(deck) if deck is not None else shuffled_deck()
        salts = new_salts()  # DESIGN "Fairness": card by card
        commitment = card_by_card_commitment(deck, salts)
        numbers = [seat.number for seat in seats]
        button = _next_button(table, numbers)
        reshuffle_seed = reshuffle_seed_for(commitment)  # R-DEAL-5, fixed before the deal
        engine, events = StudHand.start(
            game_config(table),
            [
                SeatSetup(
                    seat=seat.number,
                    name=seat.player.table_name,
                    stack=seat.stack,
                    auto_muck=seat.player.auto_muck,
                )
                for seat in seats
            ],
            deck,
            button,
            reshuffle_seed=reshuffle_seed,
        )
        table.hands_dealt += 1
        table.save(update_fields=["next_hand_at", "hands_dealt"])
        Seat.objects.filter(table=table).update(ante_confirmed=False)
        hand = Hand.objects.create(
            table=table,
            number=table.hands_dealt,
            state=engine.to_json(),
            deck=deck,
            salts=salts,
            commitment=commitment,
            fairness_scheme=CARD_BY_CARD_SCHEME,
            reshuffle_seed=reshuffle_seed,
            button=button,
            players={str(seat.number): seat.player_id for seat in seats},
            seat_ids={str(seat.number): seat.pk for seat in seats},
            started_at=now,
        )
        HandPlayer.objects.bulk_create(
            HandPlayer(hand=hand, player_id=seat.player_id, seat=seat.number) for seat in seats
        )
        # R-DEAL-6: the commitment is the first thing in the log, before any card.
        record(
            hand,
            [("commitment", {"commitment": hand.commitment, "hand_number": hand.number}, None)],
            outbox,
        )
        record(hand, engine_records(events), outbox)
        outbox.seats_changed = True
        carry_on(table=table, hand=hand, engine=engine, outbox=outbox, now=now)
        return outbox.result(hand=hand)


def hand_act(
    *,
    table_id: int,
    player: Player,
    expected_seq: int,
    kind: str,
    amount: int = 0,
    expected_hand_id: int | None = None,
    now: datetime | None = None,
) -> TableResult:
    """A player's action: applied only at the seq they saw (a stale or repeated one is
    answered, not applied); the engine refuses anything it does not offer."""
    now = now_or(now)
    player_id = player.pk
    with transaction.atomic():
        table = lock_table(table_id)
        if table is None:
            return refused(table_id, "not_found", "No such table.")
        hand = current_hand(table)
        if hand is None:
            return refused(table_id, "no_hand", "No hand is in play.")
        if hand.seq != expected_seq or (
            expected_hand_id is not None and hand.pk != expected_hand_id
        ):
            return stale(table_id, hand_id=hand.pk, seq=hand.seq)
        # The seats are read once: the player's own and carry_on's.
        seats = seats_by_number(table)
        seat = next((s for s in seats.values() if s.player_id == player_id), None)
        if seat is None:
            return refused(
                table_id, "not_seated", "You have no seat here.", hand_id=hand.pk, seq=hand.seq
            )
        if not hand.seat_is_dealt(seat):
            return refused(
                table_id, "not_in_hand", "You are not in this hand.", hand_id=hand.pk, seq=hand.seq
            )
        try:
            action = Action(seat.number, ActionKind(kind), int(amount))
        except ValueError:
            return refused(
                table_id,
                "illegal_action",
                f"Unknown action {kind!r}.",
                hand_id=hand.pk,
                seq=hand.seq,
            )
        engine = StudHand.from_json(hand.state)
        try:
            engine, events = engine.apply(action)
        except IllegalAction as error:
            return refused(table_id, "illegal_action", str(error), hand_id=hand.pk, seq=hand.seq)
        outbox = Outbox(table)
        record(hand, engine_records(events), outbox)
        carry_on(table=table, hand=hand, engine=engine, outbox=outbox, now=now, seats=seats)
        return outbox.result(hand=hand)


def hand_time_out(
    *,
    hand_id: int,
    expected_seq: int,
    now: datetime | None = None,
    skip_locked: bool = False,
) -> TableResult:
    """R-TIME-1: the action clock ran out. Nothing happens unless the hand is still at
    `expected_seq` and its deadline has passed. `skip_locked`: the sweep leaves a table
    another process is working on."""
    now = now_or(now)
    found = (
        Hand.objects.filter(pk=hand_id)
        .values_list("table_id", "seq", "ended_at", "action_deadline")
        .first()
    )
    if found is None:
        return refused(0, "not_found", "No such hand.")
    table_id, seq, ended_at, deadline = found
    # Most clock tasks find their hand moved on (one is set per turn): answered from one
    # read, without waiting for the table's lock. A hand's seq only grows and an ended hand
    # stays ended, so this answer cannot be overtaken; a due clock is checked again locked.
    if ended_at is not None or seq != expected_seq:
        return stale(table_id, hand_id=hand_id, seq=seq)
    if deadline is None or deadline > now + DUE_TOLERANCE:
        return refused(table_id, "not_due", "The clock has not run out.", hand_id=hand_id, seq=seq)
    with transaction.atomic():
        table = lock_table(table_id, skip_locked=skip_locked)
        if table is None:
            return refused(table_id, "busy", "The table is busy; the sweep will come back.")
        hand = Hand.objects.get(pk=hand_id)
        if hand.ended_at is not None or hand.seq != expected_seq:
            return stale(table_id, hand_id=hand.pk, seq=hand.seq)
        if hand.action_deadline is None or hand.action_deadline > now + DUE_TOLERANCE:
            return refused(
                table_id, "not_due", "The clock has not run out.", hand_id=hand.pk, seq=hand.seq
            )
        engine = StudHand.from_json(hand.state)
        seat = engine.to_act
        if seat is None:  # pragma: no cover - a hand in play always has someone to act
            return stale(table_id, hand_id=hand.pk, seq=hand.seq)
        outbox = Outbox(table)
        engine, events = time_out_seat(
            hand=hand, engine=engine, seat=seat, player_id=hand.players.get(str(seat)), now=now
        )
        record(hand, engine_records(events), outbox)
        carry_on(table=table, hand=hand, engine=engine, outbox=outbox, now=now)
        return outbox.result(hand=hand)


def hand_deadlines_sweep(*, now: datetime | None = None) -> int:
    """Apply every action deadline already passed and start every hand already due, so a
    lost or late task costs seconds, never a stuck table. Returns how many were applied."""
    now = now_or(now)
    applied = 0
    passed = Hand.objects.filter(ended_at__isnull=True, action_deadline__lt=now).values_list(
        "pk", "seq"
    )
    for hand_id, seq in list(passed):
        if hand_time_out(hand_id=hand_id, expected_seq=seq, now=now, skip_locked=True).ok:
            applied += 1
    due = Table.objects.filter(next_hand_at__lt=now).values_list("pk", flat=True)
    for table_id in list(due):
        if hand_start(table_id=table_id, now=now, only_when_due=True).ok:
            applied += 1
    return applied
