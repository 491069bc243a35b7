"""The tournament clock (R-TOUR-5, R-TOUR-6; DESIGN.md "Time": deadlines are data): the
scheduled start, level ends, break ends, and the sweep that applies every deadline passed,
sends a task at the exact time for each falling before the next sweep, and repairs a
tournament table left idle (its between-hands task lost).

`tournament_clock_tick` is one durable transaction on one tournament (its row, then its
tables', lower id first: play.py's lock order) and does nothing when nothing is due, so a
late, early or repeated task is harmless.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, Q

from tables.models import Hand, Table
from tables.services import scheduling
from tournaments import broadcast
from tournaments.models import Tournament, TournamentStatus
from tournaments.services.play import (
    NOT_STARTED,
    level_advance,
    now_or,
    room_rng,
    tournament_begin,
    tournament_level,
    tournament_lock,
    tournament_settle,
    tournament_table_between_hands,
)

# The beat runs the sweep this often (pokerroom/celery.py); a deadline due before the next
# sweep gets a task at its exact time.
SWEEP_SECONDS = 1.0
CLOCK_TICK = "tournaments.tasks.clock_tick"
# A task a moment early (the broker's clock) still counts as due.
DUE_TOLERANCE = timedelta(milliseconds=500)


def tournament_cancel_for_too_few(tournament: Tournament, now: datetime) -> None:
    """R-TOUR-9: fewer than the minimum at the scheduled start: cancelled, every buy-in
    refunded (tmoney's tournament_cancel, its own transaction)."""
    from tournaments.services.entries import tournament_cancel  # tmoney's (issue #13)

    tournament_cancel(tournament_id=tournament.pk, staff=None, now=now)


def tournament_clock_tick(
    *,
    tournament_id: int,
    now: datetime | None = None,
    rng: random.Random | None = None,
    skip_locked: bool = False,
) -> bool:
    """Apply what is due on the tournament's clock: the start (at `starts_at`, or once
    `start_when_registered` players are in), a level's end (the next hand at each table is
    dealt at the next level: R-TOUR-5; an equal-deals level waits for equal deals:
    R-TOUR-6; a break when one follows), a break's end. Returns whether anything was."""
    now = now_or(now)
    cancel = False
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id, skip_locked=skip_locked)
        if tournament is None:
            return False
        due = now + DUE_TOLERANCE
        if tournament.status in NOT_STARTED:
            entries = list(tournament.entries.order_by("id"))
            by_count = (
                tournament.start_when_registered is not None
                and len(entries) >= tournament.start_when_registered
            )
            by_time = tournament.starts_at is not None and tournament.starts_at <= due
            if not (by_count or by_time):
                return False
            if len(entries) < max(2, tournament.min_players):
                cancel = by_time
            else:
                tournament_begin(tournament, entries, now=now, rng=room_rng(rng))
                return True
        elif (
            tournament.status == TournamentStatus.RUNNING
            and not tournament.level_timer_expired
            and tournament.level_ends_at is not None
            and tournament.level_ends_at <= due
        ):
            if tournament_level(tournament, tournament.level).equal_deals:
                tournament.level_timer_expired = True  # R-TOUR-6: each table deals equally
                tournament.save(update_fields=["level_timer_expired"])
            else:
                level_advance(tournament, now=now)
            tournament_settle(tournament, now=now, rng=room_rng(rng))
            broadcast.tournament_changed(tournament.pk)
            return True
        elif (
            tournament.status == TournamentStatus.ON_BREAK
            and tournament.break_ends_at is not None
            and tournament.break_ends_at <= due
        ):
            tournament.status = TournamentStatus.RUNNING
            tournament.break_ends_at = None
            tournament.level += 1
            level = tournament_level(tournament, tournament.level)
            tournament.level_ends_at = now + timedelta(minutes=level.minutes)
            tournament.save(update_fields=["status", "break_ends_at", "level", "level_ends_at"])
            tournament_settle(tournament, now=now, rng=room_rng(rng))
            broadcast.tournament_changed(tournament.pk)
            return True
        else:
            return False
    if cancel:
        tournament_cancel_for_too_few(tournament, now)
        return True
    return False


def tournament_clock_sweep(*, now: datetime | None = None) -> int:
    """Beat, every SWEEP_SECONDS: every tournament deadline passed is applied, each falling
    before the next sweep gets a task at its time, and every table of a running tournament
    left idle between hands (its step's task lost) gets its step. Returns how many applied."""
    now = now_or(now)
    applied = 0
    soon = now + timedelta(seconds=SWEEP_SECONDS)
    registering = Q(status__in=NOT_STARTED) & (
        Q(starts_at__lte=soon) | Q(start_when_registered__isnull=False)
    )
    level = Q(status=TournamentStatus.RUNNING, level_timer_expired=False, level_ends_at__lte=soon)
    pause = Q(status=TournamentStatus.ON_BREAK, break_ends_at__lte=soon)
    candidates = (
        Tournament.objects.filter(registering | level | pause)
        .annotate(registered=Count("entries"))
        .values_list(
            "pk",
            "status",
            "starts_at",
            "start_when_registered",
            "registered",
            "level_ends_at",
            "break_ends_at",
        )
    )
    for pk, status, starts_at, when_registered, registered, level_ends, break_ends in list(
        candidates
    ):
        if status in NOT_STARTED:
            if when_registered is not None and registered >= when_registered:
                deadline: datetime | None = now
            else:
                deadline = starts_at
        else:
            deadline = level_ends if status == TournamentStatus.RUNNING else break_ends
        if deadline is None:
            continue
        if deadline <= now:
            if tournament_clock_tick(tournament_id=pk, now=now, skip_locked=True):
                applied += 1
        elif deadline <= soon:
            scheduling.task_send(CLOCK_TICK, pk, countdown=(deadline - now).total_seconds())
    idle = (
        Table.objects.filter(
            is_tournament=True,
            is_open=True,
            next_hand_at__isnull=True,
            tournament_table__closed_at__isnull=True,
            tournament_table__tournament__status=TournamentStatus.RUNNING,
        )
        .exclude(pk__in=Hand.objects.filter(ended_at__isnull=True).values("table_id"))
        .values_list("pk", flat=True)
    )
    for table_id in list(idle):
        if tournament_table_between_hands(table_id=table_id, now=now):
            applied += 1
    return applied
