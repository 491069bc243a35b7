"""The steps services share while they hold a table's lock: write a hand's events, move the
turn on (time-outs of the disconnected, turns of a player leaving), finish a hand, schedule
the next one, offer free seats to the waiting list.

Every function here expects to run inside a service's transaction with the table row locked.
No rule of poker is decided here: the engine says what happens, these steps record it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from accounts.models import LedgerKind
from accounts.services import all_in_protection_take, wallet_credit
from tables.engine import (
    Action,
    ActionKind,
    Event,
    Game,
    GameConfig,
    OddChip,
    StudHand,
)
from tables.models import Hand, HandEvent, RakeEntry, Seat, Table, WaitingListEntry
from tables.services import scheduling
from tables.services.outbox import Outbox, iso, ms_left


def next_hand_pause() -> float:
    """Seconds between hands (R-GAME-3's short pause): settings.NEXT_HAND_PAUSE_SECONDS."""
    return float(settings.NEXT_HAND_PAUSE_SECONDS)


def waiting_list_offer_seconds() -> float:
    """How long a freed seat is held for the first in line: settings.WAITING_LIST_OFFER_SECONDS."""
    return float(settings.WAITING_LIST_OFFER_SECONDS)


# A clock task or next-hand task may arrive a moment before its time by the database clock.
DUE_TOLERANCE = timedelta(milliseconds=500)

EventRecord = tuple[str, dict[str, Any], int | None]


def now_or(now: datetime | None) -> datetime:
    return timezone.now() if now is None else now


def table_reference(table: Table) -> str:
    return f"table:{table.pk}"


# The act path's reads as fixed SQL (Model.objects.raw): building the same ORM query anew for
# every action cost about a third of an act's CPU (docs/performance.md, "Live tables").
_LOCK_TABLE_SQL = f"SELECT * FROM {Table._meta.db_table} WHERE id = %s FOR UPDATE"
_LOCK_TABLE_SKIP_LOCKED_SQL = _LOCK_TABLE_SQL + " SKIP LOCKED"
_CURRENT_HAND_SQL = (
    f"SELECT * FROM {Hand._meta.db_table} WHERE table_id = %s AND ended_at IS NULL"
    " ORDER BY id DESC LIMIT 1"
)
_SEATS_SQL = f"SELECT * FROM {Seat._meta.db_table} WHERE table_id = %s"


def lock_table(table_id: int, *, skip_locked: bool = False) -> Table | None:
    """Lock the table's row for this transaction (every change to a table holds it) and
    return it; None if there is no such table, or (`skip_locked`) another holds it."""
    if skip_locked and not connection.features.has_select_for_update_skip_locked:
        skip_locked = False  # SQLite: one writer at a time anyway
    sql = _LOCK_TABLE_SKIP_LOCKED_SQL if skip_locked else _LOCK_TABLE_SQL
    if not connection.features.has_select_for_update:
        sql = sql.split(" FOR UPDATE")[0]  # SQLite locks the whole database on write
    return next(iter(Table.objects.raw(sql, [table_id])), None)


def current_hand(table: Table) -> Hand | None:
    return next(iter(Hand.objects.raw(_CURRENT_HAND_SQL, [table.pk])), None)


def game_config(table: Table) -> GameConfig:
    """The engine's configuration from the table's options (R-GAME-2)."""
    return GameConfig(
        game=Game(table.game),
        small_bet=table.small_bet,
        big_bet=table.big_bet,
        ante=table.ante,
        bring_in=table.bring_in,
        heads_up_raises=table.heads_up_raises,
        odd_chip=OddChip(table.odd_chip),
        rake=None if table.rake_schedule is None else table.rake_schedule.to_engine(),
    )


def seats_by_number(table: Table) -> dict[int, Seat]:
    """The table's seats by number, without their players: a turn needs only the seat's own
    columns (player id, leaving, presence, stack), and joining the player's forty columns made
    this the act path's dearest query (docs/performance.md)."""
    return {seat.number: seat for seat in Seat.objects.raw(_SEATS_SQL, [table.pk])}


def record(hand: Hand, records: Iterable[EventRecord], outbox: Outbox) -> None:
    """Append events to the hand's log, numbered on from its seq (the caller saves `hand`)."""
    rows = []
    for kind, payload, visible_to in records:
        hand.seq += 1
        rows.append(
            HandEvent(hand=hand, seq=hand.seq, kind=kind, payload=payload, visible_to=visible_to)
        )
    HandEvent.objects.bulk_create(rows)
    outbox.events(hand, rows)


def engine_records(events: Iterable[Event]) -> list[EventRecord]:
    return [(event.kind, event.payload, event.visible_to) for event in events]


def time_out_seat(
    *, hand: Hand, engine: StudHand, seat: int, player_id: int | None, now: datetime
) -> tuple[StudHand, list[Event]]:
    """R-TIME-1: the engine decides check / all-in / fold; the room only says whether the
    player has an all-in protection left today (R-TIME-2), taking one only when it is needed
    (the seat faces a bet: neither check nor the bring-in is offered)."""
    offered = {offer.kind for offer in engine.legal_actions(seat)}
    protected = False
    if ActionKind.CHECK not in offered and ActionKind.BRING_IN not in offered:
        protected = player_id is not None and all_in_protection_take(player_id=player_id, now=now)
    if seat not in hand.timed_out_seats:
        hand.timed_out_seats = [*hand.timed_out_seats, seat]
    return engine.time_out(seat, protected)


def _play_for_leaver(engine: StudHand, seat: int) -> tuple[StudHand, list[Event]]:
    """A player who left folds when the turn reaches them; where folding is not offered
    (they could check, or owe the bring-in) the time-out without protection plays it."""
    offered = {offer.kind for offer in engine.legal_actions(seat)}
    if ActionKind.FOLD in offered:
        return engine.apply(Action(seat, ActionKind.FOLD))
    return engine.time_out(seat, False)


# What a turn changes on a hand (carry_on saves only these: the deck, salt and players are
# written once at the deal and need not travel with every action).
HAND_TURN_FIELDS = ["state", "seq", "action_deadline", "timed_out_seats", "left_seats"]


def carry_on(
    *,
    table: Table,
    hand: Hand,
    engine: StudHand,
    outbox: Outbox,
    now: datetime,
    seats: dict[int, Seat] | None = None,
) -> StudHand:
    """After a change: play the turns of players who left or are disconnected (R-TIME-1),
    then either set the action clock for the player to act or finish the hand. Saves `hand`
    (HAND_TURN_FIELDS; finish_hand saves it whole). `seats`: the table's seats with their
    players, when the caller already read them in this transaction (saves a query)."""
    if seats is None:
        seats = seats_by_number(table)
    while not engine.is_over:
        to_act = engine.to_act
        if to_act is None:  # pragma: no cover - the engine always names someone or ends
            break
        seat = seats.get(to_act)
        if seat is not None and not hand.seat_is_dealt(seat):
            seat = None  # pragma: no cover - a dealt seat's number is held until the end
        if seat is not None and seat.leaving:
            engine, events = _play_for_leaver(engine, to_act)
        elif seat is None or not seat.connected:
            player_id = hand.players.get(str(to_act))
            engine, events = time_out_seat(
                hand=hand, engine=engine, seat=to_act, player_id=player_id, now=now
            )
        else:
            break
        record(hand, engine_records(events), outbox)
    hand.state = engine.to_json()
    if engine.is_over:
        finish_hand(table=table, hand=hand, engine=engine, seats=seats, outbox=outbox, now=now)
        return engine
    deadline = now + timedelta(seconds=table.action_clock)
    hand.action_deadline = deadline
    hand.save(update_fields=HAND_TURN_FIELDS)
    to_act = engine.to_act
    player_id = hand.players.get(str(to_act))
    offers = (
        [
            {"kind": offer.kind.value, "amount": offer.amount, "adds": offer.adds}
            for offer in engine.legal_actions(to_act)
        ]
        if to_act is not None
        else []
    )
    outbox.set_turn(to_act, deadline, now)
    if player_id is not None:
        outbox.user_frame(
            int(player_id),
            {
                "type": "your_turn",
                "table_id": table.pk,
                "hand_id": hand.pk,
                "seq": hand.seq,
                "seat": to_act,
                "legal_actions": offers,
                "action_deadline": iso(deadline),
                "ms_left": ms_left(deadline, now),
            },
        )
    hand_id, seq, clock = hand.pk, hand.seq, table.action_clock
    outbox.after_commit(
        lambda: scheduling.schedule_action_clock(hand_id=hand_id, seq=seq, countdown=clock)
    )
    return engine


def finish_hand(
    *,
    table: Table,
    hand: Hand,
    engine: StudHand,
    seats: dict[int, Seat],
    outbox: Outbox,
    now: datetime,
) -> None:
    """Stacks back to the seats, rake recorded (R-RAKE-2), R-SIT-1's count of hands in a row
    with a time-out, players who left cashed out, the next hand scheduled."""
    result = engine.result
    assert result is not None
    final = dict(result.final_stacks)
    timed_out = set(hand.timed_out_seats)
    for number, chips in final.items():
        if str(number) in hand.left_seats:
            # Cashed out when they left; chips the engine gave back since (an uncalled bet)
            # follow them to the balance. Their seat may already be someone else's.
            late = chips - int(hand.left_seats[str(number)])
            if late > 0:
                wallet_credit(
                    player_id=int(hand.players[str(number)]),
                    amount=late,
                    kind=LedgerKind.CASH_OUT,
                    reason=f"returned after leaving {table.name}",
                    reference=table_reference(table),
                )
            continue
        seat = seats[number]
        assert hand.seat_is_dealt(seat), f"seat {number} is not the one dealt into hand {hand.pk}"
        seat.stack = chips
        seat.timeouts_in_a_row = seat.timeouts_in_a_row + 1 if number in timed_out else 0
        if seat.timeouts_in_a_row >= 2:
            seat.sitting_out = True  # R-SIT-1: timed out on two hands in a row
        seat.save(update_fields=["stack", "timeouts_in_a_row", "sitting_out"])
    if result.rake > 0:
        RakeEntry.objects.create(
            hand=hand,
            table=table,
            amount=result.rake,
            small_bet=table.small_bet,
            big_bet=table.big_bet,
            players=len(engine.players),
            schedule=table.rake_schedule,
        )
    record(
        hand,
        [
            (
                "hand_end",
                {
                    "stacks": {str(number): chips for number, chips in final.items()},
                    "rake": result.rake,
                    "winners": list(result.winners),
                },
                None,
            )
        ],
        outbox,
    )
    hand.ended_at = now
    hand.action_deadline = None
    hand.save()
    outbox.set_turn(None, None)
    left = bool(hand.left_seats)  # their seats were held until now
    for seat in seats.values():
        if seat.leaving:
            cash_out(table=table, seat=seat)
            left = True
    if left:
        offer_free_seats(table=table, outbox=outbox, now=now)
    outbox.seats_changed = True
    schedule_next_hand(table=table, outbox=outbox, now=now)
    # R-SHOW-3: the winner nobody called may show, until the next hand is dealt.
    for number in engine.seats:
        player_id = hand.players.get(str(number))
        if player_id is not None and engine.may_show(number):
            outbox.user_frame(
                int(player_id),
                {
                    "type": "show_offer",
                    "table_id": table.pk,
                    "hand_id": hand.pk,
                    "seat": number,
                    "until": iso(table.next_hand_at),
                    "ms_left": ms_left(table.next_hand_at, now),
                },
            )


def cash_out(*, table: Table, seat: Seat) -> None:
    """R-BUY-1: leaving returns the stack to the balance; the seat frees."""
    if seat.stack > 0:
        wallet_credit(
            player_id=seat.player_id,
            amount=seat.stack,
            kind=LedgerKind.CASH_OUT,
            reason=f"left {table.name}",
            reference=table_reference(table),
        )
    seat.delete()


def ready_seats(table: Table) -> list[Seat]:
    """Seats that would be dealt in, before R-ANTE-1's confirmation (R-GAME-3, R-SIT-1)."""
    return list(
        Seat.objects.filter(table=table, sitting_out=False, leaving=False, stack__gt=0)
        .select_related("player")
        .order_by("number")
    )


def schedule_next_hand(*, table: Table, outbox: Outbox, now: datetime) -> None:
    """R-GAME-3: when two or more are in and no hand runs, deal after a short pause; ask the
    players without auto-ante to confirm (R-ANTE-1)."""
    if not table.is_open or table.next_hand_at is not None:
        return
    if current_hand(table) is not None:
        return
    candidates = ready_seats(table)
    if len(candidates) < 2:
        return
    pause = next_hand_pause()
    at = now + timedelta(seconds=pause)
    table.next_hand_at = at
    table.save(update_fields=["next_hand_at"])
    outbox.table_frame(
        {"type": "next_hand", "table_id": table.pk, "at": iso(at), "ms_left": ms_left(at, now)}
    )
    for seat in candidates:
        if not seat.player.auto_ante and not seat.ante_confirmed:
            outbox.user_frame(
                seat.player_id,
                {
                    "type": "ante_confirm",
                    "table_id": table.pk,
                    "deadline": iso(at),
                    "ms_left": ms_left(at, now),
                },
            )
    table_id = table.pk
    outbox.after_commit(lambda: scheduling.schedule_hand_start(table_id=table_id, countdown=pause))


def free_seat_count(table: Table) -> int:
    """Seats nobody sits in, less those held for the hand in play (`Hand.held_numbers`)."""
    hand = current_hand(table)
    held = 0 if hand is None else len(hand.held_numbers())
    return table.seats - Seat.objects.filter(table=table).count() - held


def active_offers(table: Table, now: datetime) -> Any:
    return WaitingListEntry.objects.filter(table=table, offered_until__gt=now)


def offer_free_seats(*, table: Table, outbox: Outbox, now: datetime) -> None:
    """A seat frees: the first in line without an offer is offered it for a limited time."""
    free = free_seat_count(table)
    free -= active_offers(table, now).count()
    if free <= 0:
        return
    waiting = WaitingListEntry.objects.filter(table=table).filter(Q(offered_until__isnull=True))
    held = waiting_list_offer_seconds()
    until = now + timedelta(seconds=held)
    for entry in waiting.order_by("created_at", "id")[:free]:
        entry.offered_until = until
        entry.save(update_fields=["offered_until"])
        outbox.user_frame(
            entry.player_id,
            {
                "type": "seat_offer",
                "table_id": table.pk,
                "entry_id": entry.pk,
                "until": iso(until),
                "ms_left": ms_left(until, now),
            },
        )
        entry_id = entry.pk
        outbox.after_commit(
            lambda entry_id=entry_id: scheduling.schedule_offer_expiry(
                entry_id=entry_id, countdown=held
            )
        )
        outbox.waiting_changed = True
