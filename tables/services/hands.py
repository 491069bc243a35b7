"""Dealing and playing hands: start, act, time out, and the sweep of passed deadlines."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from accounts.models import Player
from integrity.chain import fairness_entry_append
from pokerroom import metrics
from stud import Action, ActionKind, IllegalAction, SeatSetup, StudHand
from stud.deck import (
    CARD_BY_CARD_SCHEME,
    card_by_card_commitment,
    new_salts,
    reshuffle_seed_for,
    shuffled_deck,
)
from tables.common import ante_awaited, now_or, ready_seats
from tables.kinds import table_kind
from tables.models import Hand, HandPlayer, Seat, Table, WaitingListEntry
from tables.services import scheduling
from tables.services.change import TableChange, table_change
from tables.services.flow import (
    DUE_TOLERANCE,
    ante_confirm_ask,
    engine_records,
    game_config,
    hand_carry_on,
    hand_events_record,
    hand_turn_time_out,
    next_hand_frame,
    seats_time_bank_top_up,
)
from tables.services.results import Refusal, TableResult, refused, stale
from tables.services.waiting import waiting_list_offer_expire


def _next_button(table: Table, dealt: list[int]) -> int:
    """R-DEAL-1: the button moves one seat clockwise (to the next seat dealt in); the first
    hand's button is the last seat, so the lowest seat is dealt first."""
    previous = Hand.objects.filter(table=table).order_by("-number").values_list("button", flat=True)
    last = previous.first()
    if last is None:
        # The first hand: the kind says which seat deals first (a cash table's lowest seat;
        # a tournament table's seat 1 gets the button, R-TOUR-2).
        return table_kind(table).first_button(dealt)
    later = [number for number in dealt if number > last]
    return later[0] if later else dealt[0]


def hand_start(
    *,
    table_id: int,
    now: datetime | None = None,
    deck: list[int] | None = None,
    only_when_due: bool = False,
    skip_locked: bool = False,
) -> TableResult:
    """R-GAME-3: deal a hand to the seated players who are in, with chips, and (without
    auto-ante) have confirmed (R-ANTE-1). The deck is committed to before the deal.
    `deck`: a stacked deck for tests; `only_when_due`: the scheduled start (a no-op before
    the table's next_hand_at); `skip_locked`: the sweep leaves a table another process is
    working on.

    Refused (nothing written) while a hand runs or before the scheduled time; skipped when
    the table is closed or fewer than two are in: nothing is dealt, and the schedule is
    cleared (status "skipped"), so that the sweep stops calling and the next seat taken
    schedules a hand again."""
    now = now_or(now)
    with table_change(table_id, skip_locked=skip_locked) as change:
        table = change.table
        running = change.hand
        if running is not None:
            raise change.refuse(Refusal.HAND_RUNNING, "A hand is in play.", hand=running)
        if only_when_due and (
            table.next_hand_at is None or table.next_hand_at > now + DUE_TOLERANCE
        ):
            raise change.refuse(Refusal.NOT_DUE, "The next hand is not due yet.")
        ready = ready_seats(table) if table.is_open else []
        seats = _dealt_in(table, ready) if table.is_open else []
        table.next_hand_at = None
        if not table.is_open or len(seats) < 2:
            table.save(update_fields=["next_hand_at"])
            if not table.is_open:
                raise change.skip(Refusal.TABLE_CLOSED, "The table is closed.")
            if table_kind(table).asks_im_in:
                _wait_for_ante(change, ready, now)
            raise change.skip(Refusal.NOT_ENOUGH_PLAYERS, "A hand needs two players in with chips.")
        change.hand = _deal(change, seats, deck=deck, now=now)
    return change.result


def _dealt_in(table: Table, ready: list[Seat]) -> list[Seat]:
    """R-GAME-3 and R-ANTE-1: the seats ready to play that also posted their "I'm in". At a
    table whose kind deals in everyone with chips (a tournament's), sitting out or absent,
    they post and are timed out by R-TIME-1 (issue #13)."""
    if table_kind(table).deals_in_everyone_with_chips:
        return list(
            Seat.objects.filter(table=table, stack__gt=0)
            .select_related("player")
            .order_by("number")
        )
    return [seat for seat in ready if seat.player.auto_ante or seat.ante_confirmed]


def _wait_for_ante(change: TableChange, ready: list[Seat], now: datetime) -> None:
    """No hand can be dealt. Every viewer is told the next hand is not scheduled; when two or
    more are ready but too few said "I'm in" (R-ANTE-1 with R-GAME-3), the table waits for
    them: they keep the prompt (no deadline now) and the others are told whom the table
    waits for. Their "I'm in" (ante_confirm) schedules the hand again."""
    awaited = ante_awaited(ready) if len(ready) >= 2 else []
    change.outbox.table_frame(next_hand_frame(change.table, None, now, awaited))
    if awaited:
        ante_confirm_ask(table=change.table, ready=ready, outbox=change.outbox, at=None, now=now)


def _deal(change: TableChange, seats: list[Seat], *, deck: list[int] | None, now: datetime) -> Hand:
    """The deal: the deck committed to (R-DEAL-6, card by card), the button moved, the engine's
    first events recorded and the first turn set."""
    table, outbox = change.table, change.outbox
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
    metrics.hand_dealt(engine.config.game.value)
    table.save(update_fields=["next_hand_at", "hands_dealt"])
    Seat.objects.filter(table=table).update(ante_confirmed=False)
    seats_time_bank_top_up(seats)
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
    # DESIGN "Fairness": the commitment joins the public chain in the deal's transaction.
    fairness_entry_append(hand_id=hand.pk, table_id=table.pk, commitment=hand.commitment, at=now)
    # R-DEAL-6: the commitment is the first thing in the log, before any card.
    hand_events_record(
        hand,
        [("commitment", {"commitment": hand.commitment, "hand_number": hand.number}, None)],
        outbox,
    )
    hand_events_record(hand, engine_records(events), outbox)
    outbox.seats_changed = True
    hand_carry_on(table=table, hand=hand, engine=engine, outbox=outbox, now=now)
    dealt_task = table_kind(table).dealt_task
    if dealt_task is not None:  # the table's owner hears of the deal by name (tables/kinds.py)
        table_id, hand_id = table.pk, hand.pk
        outbox.after_commit(
            lambda: scheduling.task_send(dealt_task, table_id, hand_id, countdown=0)
        )
    return hand


@metrics.act_observed
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
    with table_change(table_id, read_hand=True) as change:
        hand = change.hand
        if hand is None:
            raise change.refuse(Refusal.NO_HAND, "No hand is in play.")
        if hand.seq != expected_seq or (
            expected_hand_id is not None and hand.pk != expected_hand_id
        ):
            raise change.stale(hand)
        # The seats are read once, with the lock: the player's own and hand_carry_on's.
        seats = change.seats
        seat = next((s for s in seats.values() if s.player_id == player_id), None)
        if seat is None:
            raise change.refuse(Refusal.NOT_SEATED, "You have no seat here.", hand=hand)
        if not hand.seat_is_dealt(seat):
            raise change.refuse(Refusal.NOT_IN_HAND, "You are not in this hand.", hand=hand)
        try:
            action = Action(seat.number, ActionKind(kind), int(amount))
        except ValueError:
            raise change.refuse(
                Refusal.ILLEGAL_ACTION, f"Unknown action {kind!r}.", hand=hand
            ) from None
        engine = StudHand.from_json(hand.state)
        try:
            engine, events = engine.apply(action)
        except IllegalAction as error:
            raise change.refuse(Refusal.ILLEGAL_ACTION, str(error), hand=hand) from None
        # Written with the hand's new turn, in one statement (flow.hand_turn_save).
        hand_events_record(hand, engine_records(events), change.outbox, with_turn=True)
        hand_carry_on(
            table=change.table, hand=hand, engine=engine, outbox=change.outbox, now=now, seats=seats
        )
    return change.result


@metrics.time_out_observed
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
        return refused(0, Refusal.NOT_FOUND, "No such hand.")
    table_id, seq, ended_at, deadline = found
    # A clock task that finds its hand moved on (the turn answered in its last second, or
    # the second copy when two sweeps saw the deadline) is answered from one read, without
    # waiting for the table's lock. A hand's seq only grows and an ended hand
    # stays ended, so this answer cannot be overtaken; a due clock is checked again locked.
    if ended_at is not None or seq != expected_seq:
        return stale(table_id, hand_id=hand_id, seq=seq)
    if deadline is None or deadline > now + DUE_TOLERANCE:
        return refused(
            table_id, Refusal.NOT_DUE, "The clock has not run out.", hand_id=hand_id, seq=seq
        )
    with table_change(table_id, skip_locked=skip_locked) as change:
        table = change.table
        hand = change.hand = Hand.objects.get(pk=hand_id)
        if hand.ended_at is not None or hand.seq != expected_seq:
            raise change.stale(hand)
        if hand.action_deadline is None or hand.action_deadline > now + DUE_TOLERANCE:
            raise change.refuse(Refusal.NOT_DUE, "The clock has not run out.", hand=hand)
        metrics.clock_fired(now, hand.action_deadline)
        engine = StudHand.from_json(hand.state)
        if engine.to_act is None:  # pragma: no cover - a hand in play always has someone to act
            raise change.stale(hand)
        hand_turn_time_out(table=table, hand=hand, engine=engine, outbox=change.outbox, now=now)
    return change.result


def hand_deadlines_sweep(*, now: datetime | None = None) -> int:
    """One run of the clock sweep (DESIGN.md "Time"; beat, every DEADLINE_SWEEP_SECONDS):
    schedules a task at the exact time of every deadline falling before the next sweep and
    applies every one already passed: action clocks, hands due to start, seat offers out of
    time, and whatever other kinds are registered (tables/services/scheduling.py). A lost or
    late task therefore costs at most one interval, never a stuck table or waiting list.
    Returns how many were applied."""
    return scheduling.deadlines_sweep(now=now)


# The deadline kinds of the live tables (tables/services/scheduling.py). Each `due` query is
# one indexed read of the rows whose deadline falls before the sweep's horizon.


def _hands_due(until: datetime) -> Iterable[tuple[datetime, int, Sequence[Any]]]:
    rows = Hand.objects.filter(ended_at__isnull=True, action_deadline__lte=until).values_list(
        "action_deadline", "table_id", "pk", "seq"
    )
    return [
        (deadline, table_id, (hand_id, seq))
        for deadline, table_id, hand_id, seq in rows
        if deadline
    ]


def _hand_time_out_passed(hand_id: int, seq: int, *, now: datetime) -> bool:
    return hand_time_out(hand_id=hand_id, expected_seq=seq, now=now, skip_locked=True).ok


def _tables_due(until: datetime) -> Iterable[tuple[datetime, int, Sequence[Any]]]:
    rows = Table.objects.filter(next_hand_at__lte=until).values_list("next_hand_at", "pk")
    return [(at, table_id, (table_id,)) for at, table_id in rows if at]


def _hand_start_passed(table_id: int, *, now: datetime) -> bool:
    return hand_start(table_id=table_id, now=now, only_when_due=True, skip_locked=True).ok


def _offers_due(until: datetime) -> Iterable[tuple[datetime, int, Sequence[Any]]]:
    rows = WaitingListEntry.objects.filter(offered_until__lte=until).values_list(
        "offered_until", "table_id", "pk"
    )
    return [(until_, table_id, (entry_id,)) for until_, table_id, entry_id in rows if until_]


def _offer_expire_passed(entry_id: int, *, now: datetime) -> bool:
    return waiting_list_offer_expire(entry_id=entry_id, now=now, skip_locked=True).ok


for _kind in (
    # R-BET-7 / R-TIME-1: the clock (or time bank) of the player to act; stale once the
    # hand's seq moved on.
    scheduling.DeadlineKind(
        name="action_clock",
        due=_hands_due,
        task=scheduling.ACTION_CLOCK_EXPIRE,
        apply=_hand_time_out_passed,
    ),
    # R-GAME-3: the pause between hands is over; a no-op unless next_hand_at is due.
    scheduling.DeadlineKind(
        name="next_hand",
        due=_tables_due,
        task=scheduling.HAND_START_NEXT,
        apply=_hand_start_passed,
    ),
    # A seat held for the first in line lapses to the next (a no-op once taken or left).
    scheduling.DeadlineKind(
        name="seat_offer",
        due=_offers_due,
        task=scheduling.WAITING_LIST_OFFER_EXPIRE,
        apply=_offer_expire_passed,
    ),
):
    scheduling.deadline_kind_register(_kind)
