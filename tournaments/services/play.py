"""A tournament played on the tables (issue #13, R-TOUR-2..8): the start and its seat draw,
the step between hands at a tournament table (add-on chips, eliminations, balancing, the
merge, the level, the next deal, the end), and staff's redraw, pause, resume and early start.

Each public function is one durable transaction with one lock order (docs/architecture.md,
"Tournaments"): the tournament's row, then its open tables' rows, lower id first, then
players' rows (a wallet move, in tmoney's services). The table services never lock a
tournament row, so the two orders never meet in a circle. Frames go out after the commit
(the tables' outboxes, tournaments/broadcast.py).

The level clock itself (level ends, breaks, the scheduled start: the clock sweep's deadline
kinds) is in clock.py; the seats (draw, moves, merge, eliminations) in seating.py; the rules
in stud/tournament.py.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import Player
from stud.tournament import LevelSpec, equal_deals_level_over, level_spec
from stud.tournament import tables_merge as merge_due
from tables.models import Hand
from tables.services import next_hand_pause
from tables.services.tournament_tables import (
    TournamentTableLock,
    tournament_hand_hold,
    tournament_hand_schedule,
    tournament_seat_place,
    tournament_seat_remove,
    tournament_table_stakes_set,
    tournament_tables_finish,
    tournament_tables_lock,
)
from tournaments import broadcast
from tournaments.models import (
    IN_PLAY,
    OVER,
    Tournament,
    TournamentEntry,
    TournamentStaffAction,
    TournamentStatus,
    TournamentTable,
)
from tournaments.selectors import tournament_structure
from tournaments.services import seating
from tournaments.services.refusals import TournamentRefusal, TournamentRefused
from tournaments.services.seating import Locks

NOT_STARTED = frozenset({TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING})


def now_or(now: datetime | None) -> datetime:
    return timezone.now() if now is None else now


def room_rng(rng: random.Random | None) -> random.Random:
    """The draw's randomness: the system's secure source unless a test gives its own."""
    return random.SystemRandom() if rng is None else rng


def seating_seconds() -> float:
    """Seconds between the draw and the first deal, for players to reach their tables:
    settings.TOURNAMENT_SEATING_SECONDS (10 by default; read at each call)."""
    return float(settings.TOURNAMENT_SEATING_SECONDS)


def tournament_level(tournament: Tournament, number: int) -> LevelSpec:
    """Level `number` of the tournament (past the last, doubling: R-TOUR-8)."""
    return level_spec(tournament_structure(tournament), number)


def tournament_lock(tournament_id: int, *, skip_locked: bool = False) -> Tournament | None:
    """The tournament's row, locked for this transaction (first of the lock order)."""
    query = Tournament.objects.select_for_update(skip_locked=skip_locked).filter(pk=tournament_id)
    return query.first()


def open_tables(tournament: Tournament) -> list[TournamentTable]:
    return list(tournament.tables.filter(closed_at__isnull=True).order_by("table_id"))


def staff_action_record(
    tournament: Tournament, *, staff: Player | None, action: str, detail: str, now: datetime
) -> None:
    TournamentStaffAction.objects.create(
        tournament=tournament, staff=staff, action=action, detail=detail[:300], at=now
    )


# --- the start ----------------------------------------------------------------------------


def tournament_start(
    *,
    tournament_id: int,
    now: datetime | None = None,
    rng: random.Random | None = None,
    staff: Player | None = None,
) -> None:
    """R-TOUR-2: seats drawn at random onto one table, or two for more than 7 players, each
    a tables.Table (is_tournament) at level 1's stakes with every player's starting chips
    (and add-on chips bought before); seat 1 deals first, after TOURNAMENT_SEATING_SECONDS.
    The level clock starts at that first deal. `staff`: an early start by staff (audited).
    Raises TournamentRefused (nothing changed) when it has started or is over (STARTED,
    OVER), or has too few players (TOO_FEW)."""
    now = now_or(now)
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        _refuse_over(tournament)
        assert tournament is not None
        if tournament.status not in NOT_STARTED:
            raise TournamentRefused(TournamentRefusal.STARTED, "The tournament has started.")
        entries = list(tournament.entries.order_by("id"))
        needed = max(2, tournament.min_players)
        if len(entries) < needed:
            raise TournamentRefused(
                TournamentRefusal.TOO_FEW,
                f"{needed} players are needed to start; {len(entries)} registered.",
            )
        tournament_begin(tournament, entries, now=now, rng=room_rng(rng))
        if staff is not None:
            staff_action_record(
                tournament,
                staff=staff,
                action="start_early",
                detail=f"started with {len(entries)} players",
                now=now,
            )


def tournament_begin(
    tournament: Tournament,
    entries: list[TournamentEntry],
    *,
    now: datetime,
    rng: random.Random,
) -> None:
    """The start, inside the caller's transaction (tournament row locked)."""
    level = tournament_level(tournament, 1)
    # R-TOUR-1: an add-on bought before the start is in the starting stack.
    add_on = tournament.add_on_chips
    stacks = {
        entry.player_id: tournament.starting_chips + (add_on if entry.add_on_at else 0)
        for entry in entries
    }
    TournamentEntry.objects.filter(tournament=tournament).update(
        add_on_pending=False, deals_this_level=0
    )
    opened = seating.seats_draw(tournament, stacks=stacks, level=level, rng=rng, first_number=1)
    pause = seating_seconds()
    for _, lock in opened:
        tournament_hand_schedule(lock, now=now, pause=pause)
    first_deal = now + timedelta(seconds=pause)
    tournament.status = TournamentStatus.RUNNING
    tournament.level = 1
    tournament.level_timer_expired = False
    tournament.started_at = now
    tournament.first_hand_at = first_deal
    tournament.level_ends_at = first_deal + timedelta(minutes=level.minutes)
    tournament.save(
        update_fields=[
            "status",
            "level",
            "level_timer_expired",
            "started_at",
            "first_hand_at",
            "level_ends_at",
        ]
    )
    tournament_tables_finish({lock.table.pk: lock for _, lock in opened})
    broadcast.tournament_changed(tournament.pk)


def tournament_start_early(
    *,
    tournament_id: int,
    staff: Player | None,
    now: datetime | None = None,
    rng: random.Random | None = None,
) -> None:
    """Staff: start now, before the scheduled time (audited)."""
    tournament_start(tournament_id=tournament_id, now=now, rng=rng, staff=staff)


# --- between hands ------------------------------------------------------------------------


def tournament_table_between_hands(
    *, table_id: int, now: datetime | None = None, rng: random.Random | None = None
) -> bool:
    """A tournament table's hand ended (the tables send this step by name) or the sweep
    found it idle: everything due between hands at the tournament's tables, in one
    transaction (tournament_settle). Returns whether the tournament was in play."""
    now = now_or(now)
    tournament_id = (
        TournamentTable.objects.filter(table_id=table_id)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        return False
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        if tournament is None or tournament.status not in IN_PLAY:
            return False
        tournament_settle(tournament, now=now, rng=room_rng(rng))
    return True


def tournament_settle(tournament: Tournament, *, now: datetime, rng: random.Random) -> None:
    """Inside the caller's transaction (tournament row locked): lock the open tables (lower
    id first) and, at those between hands: add-on chips onto seats (R-TOUR-1), the last
    hands settled (deals counted, R-TOUR-6) and the players out of chips placed (R-TOUR-7,
    both tables together), the end when one is left, the merge at 7 (R-TOUR-4) or the
    balancing move (R-TOUR-3), the level the next hand is dealt at (R-TOUR-5/6), and the
    next deal scheduled, or held (a break, a pause, a move or merge waited for)."""
    clock_before = (tournament.status, tournament.level)
    tables = open_tables(tournament)
    levels_before = {table.table_id: table.level for table in tables}
    locks = tournament_tables_lock([table.table_id for table in tables])
    seating.add_on_chips_seat(locks)
    busts = seating.hands_settle(tournament, tables, locks)
    seating.eliminations_record(tournament, busts, now=now)
    left = seating.players_left(tournament)
    if left <= 1:
        tournament_end(tournament, tables, locks, now=now)
        return
    held: set[int] = set()
    levels_applied = False
    if merge_due(left, len(tables)):
        if len({table.level for table in tables}) > 1:
            # A table is a level behind another (it still deals the equal-deals level, or
            # its hand was in play at a level's end): its level first, so that the merge
            # never ends the equal-deals level for its players (R-TOUR-6).
            held = tables_level_apply(tournament, tables, locks, now=now)
            levels_applied = True
        top = max(table.level for table in tables)
        if any(table.level < top for table in tables):
            # R-TOUR-6 before R-TOUR-4: the players still owing the equal-deals level their
            # deals finish it at their table (equal deals, or one more orbit at most); the
            # tables done with it wait, and the merge comes when every table is done.
            held |= {table.table_id for table in tables if table.level == top}
        else:
            level = tournament_level(tournament, top)
            merged = seating.tables_merge(tournament, tables, locks, level=level, rng=rng, now=now)
            if merged is None:
                held = {table.table_id for table in tables}
            else:
                final, lock = merged
                locks[lock.table.pk] = lock
                tables = [final]
                levels_applied = False
    else:
        _, held = seating.tables_balance(tournament, tables, locks, rng)
    if not levels_applied:
        held |= tables_level_apply(tournament, tables, locks, now=now)
    for table in tables:
        lock = locks[table.table_id]
        if lock.hand_in_play is not None:
            continue
        if tournament.status != TournamentStatus.RUNNING or table.table_id in held:
            tournament_hand_hold(lock)
        else:
            tournament_hand_schedule(lock, now=now, pause=next_hand_pause())
    # The tournament's pages hear of it only when something changed (the sweep runs this
    # every second for a table that waits for a move or a merge). A table's own level is
    # in its tournament bar (R-TOUR-6: done with the equal-deals level before a break, its
    # level moves on while its stakes, and so its frames, stay).
    changed = (
        bool(busts)
        or clock_before != (tournament.status, tournament.level)
        or levels_before != {table.table_id: table.level for table in tables}
        or any(lock.outbox.table_frames or lock.outbox.seats_changed for lock in locks.values())
    )
    tournament_tables_finish(locks)
    if changed:
        broadcast.tournament_changed(tournament.pk)


def tables_level_apply(
    tournament: Tournament, tables: list[TournamentTable], locks: Locks, *, now: datetime
) -> set[int]:
    """R-TOUR-5 / R-TOUR-6 at the tables between hands: a table behind the clock's level
    deals its next hand at the new one; after an equal-deals level's timer has expired, a
    table moves on once every player there has dealt equally (or after one more orbit).
    When every table is past it, the clock moves on (a break or the next level). Returns
    the tables that wait (done with the level, a break to come)."""
    spec = tournament_level(tournament, tournament.level)
    waiting_for_equal_deals = (
        tournament.status == TournamentStatus.RUNNING
        and tournament.level_timer_expired
        and spec.equal_deals
    )
    for table in tables:
        lock = locks[table.table_id]
        if lock.hand_in_play is not None:
            continue
        if table.level < tournament.level:
            table_level_set(tournament, table, lock, tournament.level)
        if waiting_for_equal_deals and table.level == tournament.level:
            seats = lock.seats()
            deals = list(
                TournamentEntry.objects.filter(
                    tournament=tournament, player_id__in=[s.player_id for s in seats.values()]
                ).values_list("deals_this_level", flat=True)
            )
            since = tournament.level_ends_at or now
            hands = Hand.objects.filter(table=lock.table, started_at__gte=since).count()
            if equal_deals_level_over(deals=deals, hands_since_timer=hands, players=len(deals)):
                table_level_set(tournament, table, lock, tournament.level + 1)
    if waiting_for_equal_deals and all(table.level > tournament.level for table in tables):
        level_advance(tournament, now=now)
    held = set()
    break_next = tournament_level(tournament, tournament.level).break_minutes > 0
    for table in tables:
        lock = locks[table.table_id]
        in_force = table.level
        if table.level > tournament.level and break_next:
            # done with the equal-deals level before the other table: the break that
            # follows it starts when both are done, so this one waits
            held.add(table.table_id)
            in_force = tournament.level
        if lock.hand_in_play is None:
            level = tournament_level(tournament, in_force)
            tournament_table_stakes_set(
                lock,
                ante=level.ante,
                bring_in=level.bring_in,
                small_bet=level.small_bet,
                big_bet=level.big_bet,
                dealer_only_ante=level.dealer_only_ante,
            )
    return held


def table_level_set(
    tournament: Tournament, table: TournamentTable, lock: TournamentTableLock, number: int
) -> None:
    """The table deals its next hand at level `number`; its players' deals count from 0."""
    table.level = number
    last = lock.last_hand()
    table.level_from_hand = 0 if last is None else last.number
    table.save(update_fields=["level", "level_from_hand"])
    players = [seat.player_id for seat in lock.seats().values()]
    TournamentEntry.objects.filter(tournament=tournament, player_id__in=players).update(
        deals_this_level=0
    )


def level_advance(tournament: Tournament, *, now: datetime) -> None:
    """The level in force has ended everywhere: a break if one follows it (no new hand
    starts, the timer stops: R-TOUR-5), else the next level's timer starts."""
    spec = tournament_level(tournament, tournament.level)
    tournament.level_timer_expired = False
    if spec.break_minutes:
        tournament.status = TournamentStatus.ON_BREAK
        tournament.break_ends_at = now + timedelta(minutes=spec.break_minutes)
        tournament.level_ends_at = None
    else:
        tournament.level += 1
        nxt = tournament_level(tournament, tournament.level)
        tournament.level_ends_at = now + timedelta(minutes=nxt.minutes)
    tournament.save(
        update_fields=["level_timer_expired", "status", "break_ends_at", "level_ends_at", "level"]
    )


def tournament_end(
    tournament: Tournament, tables: list[TournamentTable], locks: Locks, *, now: datetime
) -> None:
    """One player has all the chips: the tables close and tmoney's tournament_finish sets
    first place, pays the prizes (R-TOUR-9) and marks the tournament finished."""
    from tournaments.services.entries import tournament_finish  # tmoney's (issue #13)

    seating.tables_close(tables, locks, now=now)
    tournament.level_ends_at = None
    tournament.break_ends_at = None
    tournament.save(update_fields=["level_ends_at", "break_ends_at"])
    tournament_tables_finish(locks)
    tournament_finish(tournament=tournament, now=now)
    broadcast.tournament_changed(tournament.pk)


# --- staff --------------------------------------------------------------------------------


def _refuse_over(tournament: Tournament | None) -> None:
    """Nothing changes a tournament that does not exist or is over."""
    if tournament is None:
        raise TournamentRefused(TournamentRefusal.NOT_FOUND, "No such tournament.")
    if tournament.status in OVER:
        raise TournamentRefused(
            TournamentRefusal.OVER,
            f"The tournament is {tournament.get_status_display().lower()}.",
        )


def tournament_redraw(
    *,
    tournament_id: int,
    staff: Player | None,
    now: datetime | None = None,
    rng: random.Random | None = None,
) -> None:
    """Staff (seed 004: the director may redraw the tables): after the draw and before the
    first hand is dealt, every seat is drawn again on the same tables (audited)."""
    now = now_or(now)
    rng = room_rng(rng)
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        _refuse_over(tournament)
        assert tournament is not None
        if tournament.status in NOT_STARTED:
            raise TournamentRefused(
                TournamentRefusal.NOT_STARTED,
                "Seats are drawn when the tournament starts; redraw them after that.",
            )
        if Hand.objects.filter(table__tournament_table__tournament=tournament).exists():
            raise TournamentRefused(
                TournamentRefusal.NOT_EDITABLE,
                "The first hand has been dealt: the seats stay as drawn.",
            )
        tables = open_tables(tournament)
        locks = tournament_tables_lock([table.table_id for table in tables])
        stacks: dict[int, int] = {}
        for lock in locks.values():
            for seat in lock.seats().values():
                stacks[seat.player_id] = seat.stack
                tournament_seat_remove(lock, seat=seat)
        from stud.tournament import seat_draw

        draws = seat_draw(sorted(stacks), rng)
        by_number = sorted(tables, key=lambda table: table.number)
        for table, draw in zip(by_number, draws, strict=True):
            lock = locks[table.table_id]
            for number, player_id in draw.items():
                tournament_seat_place(
                    lock, player_id=player_id, number=number, stack=stacks[player_id]
                )
                broadcast.tournament_player_moved(player_id, tournament.pk, lock.table.pk, number)
        staff_action_record(
            tournament, staff=staff, action="redraw", detail="seats drawn again", now=now
        )
        tournament_tables_finish(locks)
        broadcast.tournament_changed(tournament.pk)


def tournament_pause(
    *, tournament_id: int, staff: Player | None, now: datetime | None = None
) -> None:
    """Staff (R-TOUR-5): the clock stops (what is left of the level or break is kept) and no
    new hand starts; hands in play finish (audited)."""
    now = now_or(now)
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        _refuse_over(tournament)
        assert tournament is not None
        if tournament.status == TournamentStatus.PAUSED:
            raise TournamentRefused(TournamentRefusal.PAUSED, "The tournament is paused already.")
        if tournament.status not in IN_PLAY:
            raise TournamentRefused(
                TournamentRefusal.NOT_STARTED, "The tournament has not started."
            )
        deadline = (
            tournament.break_ends_at
            if tournament.status == TournamentStatus.ON_BREAK
            else (None if tournament.level_timer_expired else tournament.level_ends_at)
        )
        tournament.clock_remaining_ms = (
            None if deadline is None else max(0, int((deadline - now).total_seconds() * 1000))
        )
        tournament.paused_from = tournament.status
        tournament.status = TournamentStatus.PAUSED
        if tournament.paused_from == TournamentStatus.ON_BREAK:
            tournament.break_ends_at = None
        elif not tournament.level_timer_expired:
            tournament.level_ends_at = None
        tournament.save(
            update_fields=[
                "clock_remaining_ms",
                "paused_from",
                "status",
                "break_ends_at",
                "level_ends_at",
            ]
        )
        tables = open_tables(tournament)
        locks = tournament_tables_lock([table.table_id for table in tables])
        for lock in locks.values():
            tournament_hand_hold(lock)
        staff_action_record(tournament, staff=staff, action="pause", detail="", now=now)
        tournament_tables_finish(locks)
        broadcast.tournament_changed(tournament.pk)


def tournament_resume(
    *,
    tournament_id: int,
    staff: Player | None,
    now: datetime | None = None,
    rng: random.Random | None = None,
) -> None:
    """Staff (R-TOUR-5): the clock goes on with what was left, and the tables deal again
    (audited)."""
    now = now_or(now)
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        _refuse_over(tournament)
        assert tournament is not None
        if tournament.status != TournamentStatus.PAUSED:
            raise TournamentRefused(TournamentRefusal.NOT_PAUSED, "The tournament is not paused.")
        tournament.status = tournament.paused_from or TournamentStatus.RUNNING
        remaining = tournament.clock_remaining_ms
        if remaining is not None:
            deadline = now + timedelta(milliseconds=remaining)
            if tournament.status == TournamentStatus.ON_BREAK:
                tournament.break_ends_at = deadline
            else:
                tournament.level_ends_at = deadline
        tournament.clock_remaining_ms = None
        tournament.paused_from = ""
        tournament.save(
            update_fields=[
                "status",
                "break_ends_at",
                "level_ends_at",
                "clock_remaining_ms",
                "paused_from",
            ]
        )
        staff_action_record(tournament, staff=staff, action="resume", detail="", now=now)
        tournament_settle(tournament, now=now, rng=room_rng(rng))
