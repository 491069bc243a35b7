"""Tournament tables (issue #13): what the tournament does to its tables between hands.

A tournament's services (tournaments/services/) run one transaction that locks the
tournament's row and then its tables' rows, lower id first (`tournament_tables_lock`), and
call the steps below on the tables they hold: open a table, place and remove seats (a draw,
a move, a merge), set the level's stakes, schedule or hold the next deal, close a table.
Each step collects its frames in the table's own `Outbox`; `tournament_tables_finish`
registers them to go out after the commit, as every table change does. Nothing here is a
rule of poker or of the tournament: stud/tournament.py decides, the tournament records.

The tables themselves know a tournament table only by its kind (tables/kinds.py,
`table_kind(table)` is `TOURNAMENT` when `Table.is_tournament`): seats are not taken or left
by players (Refusal.TOURNAMENT_TABLE), everyone with chips is dealt in, chips never go to
the wallet, nothing is raked, and a hand's end sends the tournament's step by name instead
of scheduling the next hand (flow.hand_schedule_next).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from stud import Game, OddChip
from stud.time_bank import time_bank_start_ms
from tables.common import iso, ms_left
from tables.models import Hand, Seat, Table
from tables.realtime.frames import NextHand, Stakes, TableClosed
from tables.services import scheduling
from tables.services.change import current_hand, lock_table
from tables.services.flow import hand_events_record
from tables.services.outbox import Outbox

# R-TOUR-8: the cap of a bet and three raises holds heads-up too.
TOURNAMENT_HEADS_UP_RAISES = 3

# Why a hand was voided (the `void` of its last event, `hand_end`).
VOID_TOURNAMENT_CANCELLED = "tournament_cancelled"


@dataclass
class TournamentTableLock:
    """A tournament table locked in the caller's transaction, with its outbox."""

    table: Table
    outbox: Outbox = field(init=False)

    def __post_init__(self) -> None:
        self.outbox = Outbox(self.table)

    @property
    def hand_in_play(self) -> Hand | None:
        return current_hand(self.table)

    def last_hand(self) -> Hand | None:
        return Hand.objects.filter(table=self.table).order_by("-number").first()

    def seats(self) -> dict[int, Seat]:
        """Seat number -> seat, players joined."""
        rows = Seat.objects.filter(table=self.table).select_related("player").order_by("number")
        return {seat.number: seat for seat in rows}


def tournament_tables_lock(table_ids: list[int]) -> dict[int, TournamentTableLock]:
    """Lock these tables' rows in the lock order (ascending id), inside the caller's
    transaction (which already holds the tournament's row)."""
    locked: dict[int, TournamentTableLock] = {}
    for table_id in sorted(set(table_ids)):
        table = lock_table(table_id)
        if table is None:
            raise Table.DoesNotExist(f"no table {table_id}")
        locked[table_id] = TournamentTableLock(table)
    return locked


def tournament_tables_finish(locked: dict[int, TournamentTableLock]) -> None:
    """Register each table's frames (and jobs) to go out after the commit."""
    for lock in locked.values():
        lock.outbox.result()


def tournament_table_open(
    *,
    name: str,
    game: str,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    dealer_only_ante: bool,
    action_clock: int,
    time_bank: int,
    triple_stud: bool = False,
) -> TournamentTableLock:
    """A new tournament table (R-TOUR-8): fixed limit as cash tables, the cap holding
    heads-up, the odd chip to the winner nearest the button's left, no rake, no buy-in
    (chips are tournament chips). `triple_stud`: it rotates the three games from its own
    first hand (R-MIX-1). Created locked: nobody else sees it before the commit."""
    table = Table.objects.create(
        name=name,
        game=Game(game).value,
        triple_stud=triple_stud,
        ante=ante,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        dealer_only_ante=dealer_only_ante,
        seats=8,
        buy_in=0,
        action_clock=action_clock,
        time_bank=time_bank,
        heads_up_raises=TOURNAMENT_HEADS_UP_RAISES,
        odd_chip=OddChip.LEFT_OF_BUTTON.value,
        rake_schedule=None,
        is_tournament=True,
    )
    lock = tournament_tables_lock([table.pk])[table.pk]
    return lock


def tournament_seat_place(
    lock: TournamentTableLock,
    *,
    player_id: int,
    number: int,
    stack: int,
    time_bank_ms: int | None = None,
    hands_dealt: int = 0,
) -> Seat:
    """Seat a player (the draw, a move, the merge) with their tournament chips; a moved
    player keeps their time bank and count of hands (R-BET-7)."""
    table = lock.table
    if not 1 <= number <= table.seats:
        raise ValueError(f"seat {number} is not at {table.name}")
    seat = Seat.objects.create(
        table=table,
        number=number,
        player_id=player_id,
        stack=stack,
        time_bank_ms=time_bank_start_ms(table.time_bank) if time_bank_ms is None else time_bank_ms,
        hands_dealt=hands_dealt,
    )
    lock.outbox.seats_changed = True
    lock.outbox.viewers_changed.add(player_id)  # their page learns its seat from the frames
    return seat


def tournament_seat_remove(lock: TournamentTableLock, *, seat: Seat) -> None:
    """A seat leaves the table between hands (moved, merged, eliminated, the winner at the
    end): its chips go with the tournament, never to the wallet."""
    hand = lock.hand_in_play
    if hand is not None and hand.seat_is_dealt(seat):
        raise ValueError("a seat dealt into the hand in play stays until it ends")
    seat.delete()
    lock.outbox.seats_changed = True


def tournament_table_stakes_set(
    lock: TournamentTableLock,
    *,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    dealer_only_ante: bool,
) -> bool:
    """The level the next hand is dealt at (R-TOUR-5: a hand in play keeps the stakes it
    was dealt with, which its engine state holds). Returns whether anything changed."""
    table = lock.table
    new = (ante, bring_in, small_bet, big_bet, dealer_only_ante)
    old = (table.ante, table.bring_in, table.small_bet, table.big_bet, table.dealer_only_ante)
    if new == old:
        return False
    table.ante, table.bring_in, table.small_bet, table.big_bet = new[:4]
    table.dealer_only_ante = dealer_only_ante
    table.save(update_fields=["ante", "bring_in", "small_bet", "big_bet", "dealer_only_ante"])
    lock.outbox.table_frame(
        Stakes(
            table_id=table.pk,
            ante=ante,
            bring_in=bring_in,
            small_bet=small_bet,
            big_bet=big_bet,
            dealer_only_ante=dealer_only_ante,
        )
    )
    return True


def tournament_hand_schedule(lock: TournamentTableLock, *, now: datetime, pause: float) -> bool:
    """Deal the next hand after `pause` seconds (the tables' own start task and sweep deal
    it: hand_start only_when_due). Nothing when a hand is in play, one is already due, the
    table is closed, or fewer than two have chips. Returns whether it was scheduled."""
    table = lock.table
    if not table.is_open or table.next_hand_at is not None or lock.hand_in_play is not None:
        return False
    if Seat.objects.filter(table=table, stack__gt=0).count() < 2:
        return False
    at = now + timedelta(seconds=pause)
    table.next_hand_at = at
    table.save(update_fields=["next_hand_at"])
    lock.outbox.table_frame(NextHand(table_id=table.pk, at=iso(at), ms_left=ms_left(at, now)))
    # DESIGN "Time": the start is data (next_hand_at) the clock sweep deals; a task is sent
    # only when the start falls before the next sweep.
    scheduling.deadline_send_if_soon(
        lock.outbox.after_commit, scheduling.HAND_START_NEXT, [table.pk], deadline=at, now=now
    )
    return True


def tournament_hand_hold(lock: TournamentTableLock) -> bool:
    """No new hand at this table for now (a break, a pause, a move or merge it waits for):
    a start already scheduled is called off (the start task finds nothing due). Returns
    whether one was."""
    table = lock.table
    if table.next_hand_at is None:
        return False
    table.next_hand_at = None
    table.save(update_fields=["next_hand_at"])
    lock.outbox.table_frame(NextHand(table_id=table.pk, at=None, ms_left=None))
    return True


def tournament_table_close(lock: TournamentTableLock) -> None:
    """The table is done (merged into the final table, the tournament over or cancelled):
    no hand is dealt there again, and everyone watching is told (`table_closed`). Its seats
    must be gone already."""
    table = lock.table
    if Seat.objects.filter(table=table).exists():
        raise ValueError("a tournament table closes empty")
    scheduled = table.next_hand_at is not None
    table.is_open = False
    table.next_hand_at = None
    table.save(update_fields=["is_open", "next_hand_at"])
    lock.outbox.seats_changed = True
    if scheduled:  # the hand that was due is not dealt: no page says it comes
        lock.outbox.table_frame(NextHand(table_id=table.pk, at=None, ms_left=None))
    lock.outbox.table_frame(TableClosed(table_id=table.pk, hand_running=False))


def tournament_hand_void(lock: TournamentTableLock, *, now: datetime, why: str) -> Hand | None:
    """The hand in play is void (the tournament is cancelled): it ends now, nobody wins it,
    no chip moves and nothing is raked (tournament chips are not money; the buy-ins are the
    tournament's to give back). Its log closes with the room's `hand_end`, every dealt seat
    at the stack it was dealt with, no winner and `void` saying why; no turn, deadline or
    time bank is left on it. The engine state stays as it was (no result: the players'
    histories leave it out). Returns the hand, or None when none was in play."""
    hand = lock.hand_in_play
    if hand is None:
        return None
    stacks = {
        str(number): seat.stack for number, seat in lock.seats().items() if hand.seat_is_dealt(seat)
    }
    hand_events_record(
        hand,
        [("hand_end", {"stacks": stacks, "rake": 0, "winners": [], "void": why}, None)],
        lock.outbox,
    )
    hand.ended_at = now
    hand.action_deadline = None
    hand.time_bank_seat = None
    hand.time_bank_since = None
    hand.save()
    lock.outbox.set_turn(None, None)
    # The seats are out of the hand and it is among the table's last hands, as at any end.
    lock.outbox.seats_changed = True
    lock.outbox.last_hands_changed = True
    return hand


def tournament_table_cancel(lock: TournamentTableLock, *, now: datetime) -> None:
    """The tournament is cancelled: the hand in play, if any, is void
    (`tournament_hand_void`), every seat leaves (its chips with it: they are worth nothing
    now), the table closes, and everyone watching is told at once (`table_closed`)."""
    tournament_hand_void(lock, now=now, why=VOID_TOURNAMENT_CANCELLED)
    for seat in lock.seats().values():
        tournament_seat_remove(lock, seat=seat)
    tournament_table_close(lock)
