"""The steps services share while they hold a table's lock: write a hand's events
(`hand_events_record`), move the turn on (`hand_carry_on`: the turns of players who left),
finish a hand (`hand_finish`), cash a seat out (`seat_cash_out`), schedule the next hand
(`hand_schedule_next`), offer free seats to the waiting list (`waiting_list_offer_seats`).

Every function here expects to run inside a service's table change (tables/services/change.py)
with the table row locked; players' rows are locked after it, by primary key (the lock order).
No rule of poker is decided here: the engine says what happens, these steps record it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Q

from accounts.limits import players_on_break
from accounts.models import LedgerKind
from accounts.services import (
    all_in_protection_take,
    closed_account_payout_request,
    wallet_credit,
)
from integrity import holds
from pokerroom import metrics
from pokerroom.room_day import room_day
from stud import ActionKind, Event, Game, GameConfig, OddChip, StudHand
from stud.time_bank import time_bank_after_deal, time_bank_after_use, time_bank_start_ms
from tables.common import ante_awaited, iso, ms_left, ready_seats
from tables.kinds import table_kind
from tables.models import Hand, HandEvent, RakeEntry, Seat, Table, TimeBankKept, WaitingListEntry
from tables.realtime.frames import (
    AnteConfirm,
    LegalAction,
    NextHand,
    SeatOffer,
    ShowOffer,
    TimeBank,
    TurnClock,
    YourTurn,
)
from tables.services import reality_checks, scheduling
from tables.services.change import current_hand, lock_players, seats_by_number
from tables.services.outbox import Outbox


def next_hand_pause() -> float:
    """Seconds between hands (R-GAME-3's short pause): settings.NEXT_HAND_PAUSE_SECONDS."""
    return float(settings.NEXT_HAND_PAUSE_SECONDS)


def ante_confirm_seconds() -> float:
    """R-ANTE-1: how long a player without auto-ante has to say "I'm in" before the next hand
    is dealt without them: settings.ANTE_CONFIRM_SECONDS (the hand waits at least this long
    when someone is asked, never less than the pause between hands)."""
    return float(settings.ANTE_CONFIRM_SECONDS)


def waiting_list_offer_seconds() -> float:
    """How long a freed seat is held for the first in line: settings.WAITING_LIST_OFFER_SECONDS."""
    return float(settings.WAITING_LIST_OFFER_SECONDS)


# A clock task or next-hand task may arrive a moment before its time by the database clock.
DUE_TOLERANCE = timedelta(milliseconds=500)

EventRecord = tuple[str, dict[str, Any], int | None]


def table_reference(table: Table) -> str:
    return f"table:{table.pk}"


def game_config(table: Table) -> GameConfig:
    """The engine's configuration for the table's next hand (R-GAME-2; on a Triple Stud table
    the rotation's game for that hand, R-MIX-1)."""
    return GameConfig(
        game=Game(table.game_of_hand(table.hands_dealt + 1)),
        small_bet=table.small_bet,
        big_bet=table.big_bet,
        ante=table.ante,
        bring_in=table.bring_in,
        heads_up_raises=table.heads_up_raises,
        odd_chip=OddChip(table.odd_chip),
        dealer_only_ante=table.dealer_only_ante,
        rake=(
            table.rake_schedule.to_engine()
            if table_kind(table).raked and table.rake_schedule is not None
            else None
        ),
    )


def hand_events_record(
    hand: Hand, records: Iterable[EventRecord], outbox: Outbox, *, with_turn: bool = False
) -> None:
    """Append events to the hand's log, numbered on from its seq (the caller saves `hand`).
    `with_turn`: the rows are written with the hand's new turn (`hand_turn_save`, one
    statement on PostgreSQL), or before the hand is finished, whichever comes first; events
    recorded for the hand meanwhile join them."""
    rows = []
    for kind, payload, visible_to in records:
        hand.seq += 1
        rows.append(
            HandEvent(hand=hand, seq=hand.seq, kind=kind, payload=payload, visible_to=visible_to)
        )
    unwritten = outbox.events_unwritten.setdefault(hand.pk, [])
    if with_turn or unwritten:
        unwritten.extend(rows)
    else:
        HandEvent.objects.bulk_create(rows)
    outbox.events(hand, rows)


def hand_events_write(hand: Hand, outbox: Outbox) -> None:
    """Write the hand's events recorded `with_turn` (kept by the change's outbox until
    then; none: nothing is sent)."""
    unwritten = outbox.events_unwritten.get(hand.pk)
    if unwritten:
        HandEvent.objects.bulk_create(unwritten)
        unwritten.clear()


_EVENT_FIELDS = [field for field in HandEvent._meta.concrete_fields if not field.primary_key]
_EVENT_INSERT_SQL = "INSERT INTO {} ({}) VALUES ".format(
    HandEvent._meta.db_table, ", ".join(str(field.column) for field in _EVENT_FIELDS)
)
_HAND_FIELDS = {field.name: field for field in Hand._meta.concrete_fields}
_EVENT_VALUES_SQL = "(" + ", ".join(["%s"] * len(_EVENT_FIELDS)) + ")"


def hand_turn_save(hand: Hand, fields: list[str], outbox: Outbox) -> None:
    """`hand.save(update_fields=fields)` with the events recorded `with_turn` written first.
    On PostgreSQL both are one statement, `WITH events AS (INSERT ...) UPDATE ...` (a
    data-modifying WITH runs once, whatever the UPDATE reads): the same rows and values as
    `bulk_create` and `save` write, in one trip instead of two (docs/performance.md,
    "Issue #15: the act path, profiled")."""
    unwritten = outbox.events_unwritten.get(hand.pk)
    if not unwritten or connection.vendor != "postgresql":
        hand_events_write(hand, outbox)
        hand.save(update_fields=fields)
        return
    params: list[Any] = []
    for row in unwritten:
        for field in _EVENT_FIELDS:  # as bulk_create: created_at's auto_now_add, then adapted
            params.append(field.get_db_prep_save(field.pre_save(row, True), connection))
    hand_fields = [_HAND_FIELDS[name] for name in fields]
    sets = []
    for field in hand_fields:
        sets.append(f"{field.column} = %s")
        params.append(field.get_db_prep_save(field.pre_save(hand, False), connection))
    params.append(hand.pk)
    sql = (
        f"WITH events AS ({_EVENT_INSERT_SQL}{', '.join([_EVENT_VALUES_SQL] * len(unwritten))}) "
        f"UPDATE {Hand._meta.db_table} SET {', '.join(sets)} WHERE id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        updated = cursor.rowcount
    for row in unwritten:  # as bulk_create leaves them: saved rows
        row._state.adding = False
        row._state.db = connection.alias
    unwritten.clear()
    if updated != 1:
        raise DatabaseError("Save with update_fields did not affect any rows.")


def engine_records(events: Iterable[Event]) -> list[EventRecord]:
    return [(event.kind, event.payload, event.visible_to) for event in events]


def seat_time_out(
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


def hand_absentees(hand: Hand, seats: dict[int, Seat]) -> set[int]:
    """Players of the hand whose turn the room may play at once (their dealt seat is gone:
    R-TIME-1, all-in protection) or whose money it may move (they left: chips returned at
    the end). A disconnected player is not one of them: R-TIME-3, they keep their clock like
    anyone else. Nobody on a hand where every dealt seat is still there: no lock, no query."""
    absent = set()
    for number, player_id in hand.players.items():
        seat = seats.get(int(number))
        if number in hand.left_seats or seat is None or not hand.seat_is_dealt(seat):
            absent.add(int(player_id))
    return absent


def hand_absentees_lock(hand: Hand, seats: dict[int, Seat], *, also: Iterable[int] = ()) -> None:
    """The lock order for a change that may move several players' money or protections
    (`also`: those it moves before the turn goes on): their rows all at once, by primary key,
    before the first move (tables/services/change.py). One player or none: their own wallet
    move locks the row, in no conflict with another, and nothing is queried here."""
    players = hand_absentees(hand, seats) | set(also)
    if len(players) > 1:
        lock_players(players)


def hand_turn_time_out(
    *, table: Table, hand: Hand, engine: StudHand, outbox: Outbox, now: datetime
) -> StudHand:
    """R-TIME-1: the player to act is timed out now (their clock ran out, present or
    disconnected) and the hand carries on. Locks the players it may move first, in
    the lock order."""
    seat = engine.to_act
    assert seat is not None, "a hand in play always has someone to act"
    player_id = hand.players.get(str(seat))
    seats = seats_by_number(table)
    if hand_turn_clock_restart(table=table, hand=hand, engine=engine, outbox=outbox, now=now):
        return engine  # R-TIME-3: the room could not reach them; their time is not charged
    if hand_time_bank_start(hand=hand, seat=seats.get(seat), outbox=outbox, now=now):
        return engine  # R-BET-7: the clock ran out; the bank runs before R-TIME-1
    hand_time_bank_spent(hand=hand, seats=seats)
    hand_absentees_lock(hand, seats, also=[] if player_id is None else [int(player_id)])
    engine, events = seat_time_out(
        hand=hand, engine=engine, seat=seat, player_id=player_id, now=now
    )
    if player_id is not None and any(
        event.kind == "timeout" and event.payload.get("result") == "all_in_protection"
        for event in events
    ):
        outbox.viewers_changed.add(int(player_id))  # R-TIME-2: one protection fewer today
    hand_events_record(hand, engine_records(events), outbox)
    return hand_carry_on(
        table=table,
        hand=hand,
        engine=engine,
        outbox=outbox,
        now=now,
        seats=seats,
        absentees_locked=True,
    )


def hand_turn_clock_restart(
    *, table: Table, hand: Hand, engine: StudHand, outbox: Outbox, now: datetime
) -> bool:
    """R-TIME-3: the clock of a turn whose broadcast was lost (the channel layer was down:
    `turn_unsent`) ran out. The room could not reach the player, as if they were
    disconnected by no fault of theirs: their time bank is not started and the hand does not
    go on without them; the turn's clock starts again, and the turn is sent again (the
    table's bar by `turn_clock`, the player's offers by `your_turn`). Returns whether it did."""
    if not hand.turn_unsent or engine.to_act is None:
        return False
    seat = engine.to_act
    deadline = now + timedelta(seconds=table.action_clock)
    hand.turn_unsent = False
    hand.action_deadline = deadline
    # A bank that was running is not charged either: the player has it whole afterwards.
    hand.time_bank_seat = None
    hand.time_bank_since = None
    hand.save(update_fields=["turn_unsent", "action_deadline", "time_bank_seat", "time_bank_since"])
    outbox.table_frame(
        TurnClock(
            table_id=table.pk,
            hand_id=hand.pk,
            seq=hand.seq,
            seat=seat,
            action_deadline=iso(deadline),
            ms_left=ms_left(deadline, now),
        )
    )
    player_id = hand.players.get(str(seat))
    if player_id is not None:
        outbox.user_frame(int(player_id), your_turn_frame(hand, engine, deadline, now))
    scheduling.deadline_send_if_soon(
        outbox.after_commit,
        scheduling.ACTION_CLOCK_EXPIRE,
        (hand.pk, hand.seq),
        deadline=deadline,
        now=now,
    )
    return True


def your_turn_frame(hand: Hand, engine: StudHand, deadline: datetime, now: datetime) -> YourTurn:
    """The offers of the turn, to the player to act only (docs/protocol.md, `your_turn`)."""
    to_act = engine.to_act
    offers = (
        [
            LegalAction(kind=offer.kind.value, amount=offer.amount, adds=offer.adds)
            for offer in engine.legal_actions(to_act)
        ]
        if to_act is not None
        else []
    )
    return YourTurn(
        table_id=hand.table_id,
        hand_id=hand.pk,
        seq=hand.seq,
        seat=to_act,
        legal_actions=offers,
        action_deadline=iso(deadline),
        ms_left=ms_left(deadline, now),
    )


def hand_time_bank_start(*, hand: Hand, seat: Seat | None, outbox: Outbox, now: datetime) -> bool:
    """R-BET-7: the action clock of the player to act ran out; their time bank runs now,
    from the clock's end, if they have any left and it is not already running. The turn and
    its seq stay theirs (their buttons still count); the table is told (`time_bank`) so the
    bar shows the bank. Returns whether the bank started."""
    if (
        seat is None
        or not hand.seat_is_dealt(seat)
        or hand.time_bank_seat == seat.number
        or seat.time_bank_ms <= 0
    ):
        return False
    since = hand.action_deadline or now
    deadline = since + timedelta(milliseconds=seat.time_bank_ms)
    hand.time_bank_seat = seat.number
    hand.time_bank_since = since
    hand.action_deadline = deadline
    hand.save(update_fields=["action_deadline", "time_bank_seat", "time_bank_since"])
    outbox.set_turn(seat.number, deadline, now)
    outbox.table_frame(
        TimeBank(
            table_id=hand.table_id,
            hand_id=hand.pk,
            seq=hand.seq,
            seat=seat.number,
            time_bank_ms=seat.time_bank_ms,
            action_deadline=iso(deadline),
            ms_left=ms_left(deadline, now),
        )
    )
    scheduling.deadline_send_if_soon(
        outbox.after_commit,
        scheduling.ACTION_CLOCK_EXPIRE,
        (hand.pk, hand.seq),
        deadline=deadline,
        now=now,
    )
    return True


def hand_time_bank_spent(*, hand: Hand, seats: dict[int, Seat]) -> None:
    """R-BET-7: the bank's deadline passed too: the player's bank is empty (R-TIME-1 next)."""
    if hand.time_bank_seat is None:
        return
    seat = seats.get(hand.time_bank_seat)
    if seat is not None and hand.seat_is_dealt(seat):
        seat.time_bank_ms = 0
        seat.save(update_fields=["time_bank_ms"])
    hand.time_bank_seat = None
    hand.time_bank_since = None


def hand_time_bank_settle(*, hand: Hand, seats: dict[int, Seat], now: datetime) -> None:
    """R-BET-7: the turn that was on the time bank is over (the player acted, or the hand
    moved on): what was used is gone from their bank."""
    if hand.time_bank_seat is None:
        return
    seat = seats.get(hand.time_bank_seat)
    if seat is not None and hand.seat_is_dealt(seat) and hand.time_bank_since is not None:
        used_ms = int((now - hand.time_bank_since).total_seconds() * 1000)
        seat.time_bank_ms = time_bank_after_use(seat.time_bank_ms, used_ms)
        seat.save(update_fields=["time_bank_ms"])
    hand.time_bank_seat = None
    hand.time_bank_since = None


def seats_time_bank_top_up(seats: list[Seat]) -> None:
    """R-BET-7: one more hand dealt to each of these seats; every tenth adds 5 s to the
    player's bank, at most 60 s. One UPDATE for all."""
    for seat in seats:
        seat.hands_dealt += 1
        seat.time_bank_ms = time_bank_after_deal(seat.time_bank_ms, seat.hands_dealt)
    Seat.objects.bulk_update(seats, ["hands_dealt", "time_bank_ms"])


# What a turn changes on a hand (hand_carry_on saves only these: the deck, salt and players are
# written once at the deal and need not travel with every action).
HAND_TURN_FIELDS = [
    "state",
    "seq",
    "action_deadline",
    "timed_out_seats",
    "left_seats",
    "time_bank_seat",
    "time_bank_since",
    "turn_unsent",
]


def hand_carry_on(
    *,
    table: Table,
    hand: Hand,
    engine: StudHand,
    outbox: Outbox,
    now: datetime,
    seats: dict[int, Seat] | None = None,
    absentees_locked: bool = False,
) -> StudHand:
    """After a change: play the turns of players whose dealt seat is gone (they left:
    R-TIME-1 at once), then either set the action clock for the player to act or finish
    the hand. Saves `hand` (HAND_TURN_FIELDS; hand_finish saves it whole). `seats`: the
    table's seats, when the caller already read them in this transaction (saves a query);
    `absentees_locked`: the caller took hand_absentees_lock already."""
    if seats is None:
        seats = seats_by_number(table)
    if not absentees_locked:
        hand_absentees_lock(hand, seats)
    hand_time_bank_settle(hand=hand, seats=seats, now=now)
    while not engine.is_over:
        to_act = engine.to_act
        if to_act is None:  # pragma: no cover - the engine always names someone or ends
            break
        seat = seats.get(to_act)
        if seat is not None and not hand.seat_is_dealt(seat):
            seat = None  # pragma: no cover - a dealt seat's number is held until the end
        # R-TIME-3: a disconnected player keeps the turn and the clock (a reload, a short
        # drop); only a seat no longer theirs is played at once.
        if seat is None:
            player_id = hand.players.get(str(to_act))
            engine, events = seat_time_out(
                hand=hand, engine=engine, seat=to_act, player_id=player_id, now=now
            )
        else:
            break
        hand_events_record(hand, engine_records(events), outbox)
    hand.state = engine.to_json()
    if engine.is_over:
        hand_events_write(hand, outbox)
        hand_finish(table=table, hand=hand, engine=engine, seats=seats, outbox=outbox, now=now)
        return engine
    deadline = now + timedelta(seconds=table.action_clock)
    hand.action_deadline = deadline
    hand.turn_unsent = False  # this turn's frames go now (a lost broadcast sets it again)
    hand_turn_save(hand, HAND_TURN_FIELDS, outbox)
    to_act = engine.to_act
    player_id = hand.players.get(str(to_act))
    outbox.set_turn(to_act, deadline, now)
    if player_id is not None:
        outbox.user_frame(int(player_id), your_turn_frame(hand, engine, deadline, now))
    # The deadline is data (DESIGN.md "Time"): the clock sweep schedules its task when it
    # falls near; a turn answered before then costs no message.
    scheduling.deadline_send_if_soon(
        outbox.after_commit,
        scheduling.ACTION_CLOCK_EXPIRE,
        (hand.pk, hand.seq),
        deadline=deadline,
        now=now,
    )
    return engine


def hand_finish(
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
    # Issue #23: the page learns the hand's summary from the hand's own frames, not from a
    # snapshot every viewer would ask for after the hand.
    outbox.last_hands_changed = True
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
        metrics.rake_taken(result.rake, table.game)
    hand_events_record(
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
    reality_checks.hand_players_settle(hand=hand, engine=engine)
    outbox.set_turn(None, None)
    if hand.left_seats:  # their seats were held until now
        waiting_list_offer_seats(table=table, outbox=outbox, now=now)
    outbox.seats_changed = True
    if not table.is_open:  # closed during the hand: now every seat is cashed out
        closed_table_cash_out(table=table, outbox=outbox, now=now)
    suspended_seats_cash_out(table=table, outbox=outbox, now=now)
    on_break_cash_out(table=table, outbox=outbox, now=now)  # issue #26: a break waits for the hand
    hand_schedule_next(table=table, outbox=outbox, now=now)
    # R-SHOW-3: the winner nobody called may show, until the next hand is dealt.
    for number in engine.seats:
        player_id = hand.players.get(str(number))
        if player_id is not None and engine.may_show(number):
            outbox.user_frame(
                int(player_id),
                ShowOffer(
                    table_id=table.pk,
                    hand_id=hand.pk,
                    seat=number,
                    until=iso(table.next_hand_at),
                    ms_left=ms_left(table.next_hand_at, now),
                ),
            )
    # Issue #26: a reality check waits for the hand's end; last, after every wallet move.
    reality_checks.hand_reality_checks(table=table, hand=hand, seats=seats, outbox=outbox, now=now)


def seat_cash_out(*, table: Table, seat: Seat, now: datetime) -> None:
    """R-BUY-1: leaving returns the stack to the balance; the seat frees. R-BET-7: what is
    left of the seat's time bank is kept for the day (`seat_time_bank_kept`)."""
    TimeBankKept.objects.update_or_create(
        table_id=table.pk,
        player_id=seat.player_id,
        defaults={
            "day": room_day(now),
            "time_bank_ms": seat.time_bank_ms,
            "hands_dealt": seat.hands_dealt,
        },
    )
    if seat.stack > 0:
        wallet_credit(
            player_id=seat.player_id,
            amount=seat.stack,
            kind=LedgerKind.CASH_OUT,
            reason=f"left {table.name}",
            reference=table_reference(table),
        )
        if seat.player.closed_at is not None:  # issue #26: a closed account's chips come back
            owner = seat.player_id
            transaction.on_commit(lambda: closed_account_payout_request(player_id=owner))
    seat.delete()


def suspended_seats_cash_out(*, table: Table, outbox: Outbox, now: datetime) -> None:
    """Issue #25: a player suspended during the hand plays it to its end, then is stood up
    and their stack goes back to the wallet (held for review). At a tournament table, whose
    chips are not money, they are sat out instead."""
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    suspended = holds.suspended_among([seat.player_id for seat in seats])
    for seat in seats:
        if seat.player_id not in suspended:
            continue
        if table_kind(table).chips_are_money:
            seat_cash_out(table=table, seat=seat, now=now)
        elif not seat.sitting_out:
            seat.sitting_out = True
            seat.save(update_fields=["sitting_out"])
        outbox.seats_changed = True


def seat_time_bank_kept(*, table: Table, player_id: int, now: datetime) -> tuple[int, int]:
    """R-BET-7: the time bank (ms) and hands dealt a player sits down with: a full bank, or
    what they left this table with earlier today, whichever is less (leaving and sitting
    down again does not refill it)."""
    full = time_bank_start_ms(table.time_bank)
    kept = TimeBankKept.objects.filter(
        table_id=table.pk, player_id=player_id, day=room_day(now)
    ).first()
    if kept is None:
        return full, 0
    return min(full, kept.time_bank_ms), kept.hands_dealt


def on_break_cash_out(
    *, table: Table, outbox: Outbox, now: datetime, hand: Hand | None = None
) -> None:
    """Cash out the seats of players on a break, except those dealt into `hand` (the hand in
    play): they go when it ends (hand_finish calls this again with no hand)."""
    if not table_kind(table).chips_are_money:
        return
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    away = players_on_break([seat.player_id for seat in seats])
    for seat in seats:
        if seat.player_id not in away or (hand is not None and hand.seat_is_dealt(seat)):
            continue
        seat_cash_out(table=table, seat=seat, now=now)
        outbox.seats_changed = True


def closed_table_cash_out(
    *, table: Table, outbox: Outbox, now: datetime, hand: Hand | None = None
) -> None:
    """A closed table's seats go back to their players' balances (R-BUY-1), except those
    dealt into `hand`, the hand still in play (they are cashed out when it ends). Chips that
    are not money (a tournament table's) stay on their seats for the table's owner."""
    if not table_kind(table).chips_are_money:
        return
    for seat in Seat.objects.filter(table=table).order_by("number"):
        if hand is not None and hand.seat_is_dealt(seat):
            continue
        seat_cash_out(table=table, seat=seat, now=now)
        outbox.seats_changed = True


def next_hand_frame(
    table: Table, at: datetime | None, now: datetime, awaited: list[int]
) -> NextHand:
    """The table frame of the next hand: due `at` (None: not scheduled), and the seats whose
    "I'm in" the table waits for (R-ANTE-1), so every viewer can say who it waits on."""
    return NextHand(table_id=table.pk, at=iso(at), ms_left=ms_left(at, now), awaiting_ante=awaited)


def ante_confirm_ask(
    *, table: Table, ready: list[Seat], outbox: Outbox, at: datetime | None, now: datetime
) -> None:
    """R-ANTE-1: ask each player the table waits for to say "I'm in": by `at`, the next
    hand's time (a countdown), or, `at` None, with no deadline (the table waits for them:
    R-GAME-3, too few others are in to deal without them)."""
    awaited = set(ante_awaited(ready))
    for seat in ready:
        if seat.number in awaited:
            outbox.user_frame(
                seat.player_id,
                AnteConfirm(table_id=table.pk, deadline=iso(at), ms_left=ms_left(at, now)),
            )


def hand_schedule_next(*, table: Table, outbox: Outbox, now: datetime) -> None:
    """R-GAME-3: when two or more are in and no hand runs, deal after a short pause; ask the
    players without auto-ante to confirm (R-ANTE-1) by then: the hand waits for them at
    least ANTE_CONFIRM_SECONDS, then is dealt to the others on time. A table whose kind names
    a step between hands (a tournament table) does not schedule itself: that step
    (tournaments.tasks.table_between_hands: eliminations, moves, the level, then the next
    deal) is sent by name after the commit (tables must not import tournaments)."""
    between_hands_task = table_kind(table).between_hands_task
    if between_hands_task is not None:
        table_id = table.pk
        outbox.after_commit(lambda: scheduling.task_send(between_hands_task, table_id, countdown=0))
        return
    if not table.is_open or table.next_hand_at is not None:
        return
    if current_hand(table) is not None:
        return
    candidates = ready_seats(table)
    if len(candidates) < 2:
        return
    awaited = ante_awaited(candidates)
    pause = next_hand_pause()
    if awaited:
        pause = max(pause, ante_confirm_seconds())
    at = now + timedelta(seconds=pause)
    table.next_hand_at = at
    table.save(update_fields=["next_hand_at"])
    outbox.table_frame(next_hand_frame(table, at, now, awaited))
    ante_confirm_ask(table=table, ready=candidates, outbox=outbox, at=at, now=now)
    scheduling.deadline_send_if_soon(
        outbox.after_commit, scheduling.HAND_START_NEXT, (table.pk,), deadline=at, now=now
    )


def free_seat_count(table: Table) -> int:
    """Seats nobody sits in, less those held for the hand in play (`Hand.held_numbers`)."""
    hand = current_hand(table)
    held = 0 if hand is None else len(hand.held_numbers())
    return table.seats - Seat.objects.filter(table=table).count() - held


def active_offers(table: Table, now: datetime) -> Any:
    return WaitingListEntry.objects.filter(table=table, offered_until__gt=now)


def waiting_list_offer_seats(*, table: Table, outbox: Outbox, now: datetime) -> None:
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
            SeatOffer(
                table_id=table.pk, entry_id=entry.pk, until=iso(until), ms_left=ms_left(until, now)
            ),
        )
        scheduling.deadline_send_if_soon(
            outbox.after_commit,
            scheduling.WAITING_LIST_OFFER_EXPIRE,
            (entry.pk,),
            deadline=until,
            now=now,
        )
        outbox.waiting_changed = True
