"""The tournament clock (R-TOUR-5, R-TOUR-6; DESIGN.md "Time": deadlines are data): the
scheduled start, level ends, break ends, kept by the room's one clock sweep
(tables/services/scheduling.py) as deadline kinds registered here, with a tournament table
left idle between hands (its step's task lost): the sweep applies every one passed and sends
`tournaments.tasks.clock_tick` at the exact time of each falling before its next run.

`tournament_clock_tick` is one durable transaction on one tournament (its row, then its
tables', lower id first: play.py's lock order) and does nothing when nothing is due, so a
late, early or repeated task is harmless.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

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


# A deadline already passed whatever the sweep's time: a start by the count of entries once
# it is reached, a table left idle between hands (its step's task lost).
DUE_ALREADY = datetime.min.replace(tzinfo=UTC)


def _starts_due(until: datetime) -> Iterable[tuple[datetime, int | None, Sequence[Any]]]:
    """Registering tournaments to start: at `starts_at`, or now once `start_when_registered`
    players are in."""
    rows = (
        Tournament.objects.filter(status__in=NOT_STARTED)
        .filter(Q(starts_at__lte=until) | Q(start_when_registered__isnull=False))
        .annotate(registered=Count("entries"))
        .values_list("pk", "starts_at", "start_when_registered", "registered")
    )
    due: list[tuple[datetime, int | None, Sequence[Any]]] = []
    for pk, starts_at, when_registered, registered in rows:
        if when_registered is not None and registered >= when_registered:
            due.append((DUE_ALREADY, None, (pk,)))
        elif starts_at is not None and starts_at <= until:
            due.append((starts_at, None, (pk,)))
    return due


def _levels_due(until: datetime) -> Iterable[tuple[datetime, int | None, Sequence[Any]]]:
    rows = Tournament.objects.filter(
        status=TournamentStatus.RUNNING, level_timer_expired=False, level_ends_at__lte=until
    ).values_list("level_ends_at", "pk")
    return [(at, None, (pk,)) for at, pk in rows if at]


def _breaks_due(until: datetime) -> Iterable[tuple[datetime, int | None, Sequence[Any]]]:
    rows = Tournament.objects.filter(
        status=TournamentStatus.ON_BREAK, break_ends_at__lte=until
    ).values_list("break_ends_at", "pk")
    return [(at, None, (pk,)) for at, pk in rows if at]


def _clock_tick_passed(tournament_id: int, *, now: datetime) -> bool:
    return tournament_clock_tick(tournament_id=tournament_id, now=now, skip_locked=True)


def _idle_tables_due(until: datetime) -> Iterable[tuple[datetime, int | None, Sequence[Any]]]:
    """The tables of a running tournament between hands with no next deal scheduled and no
    hand in play: their step (`table_between_hands`, sent when a hand ends) was lost, or
    they wait for a move or a merge; the step runs again (a no-op when nothing changed)."""
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
    return [(DUE_ALREADY, table_id, (table_id,)) for table_id in idle]


def _table_step_passed(table_id: int, *, now: datetime) -> bool:
    return tournament_table_between_hands(table_id=table_id, now=now)


# The tournament's deadlines are kinds of the room's one clock sweep (DESIGN.md "Time",
# tables/services/scheduling.py): it applies each one passed and sends `clock_tick` at the
# exact time of each falling before its next run. Registered when this module is imported
# (tournaments/tasks.py imports it, and TournamentsConfig.ready does in every process).
for _kind in (
    # The scheduled start, or the start once enough are registered (R-TOUR-9: cancelled
    # when too few at the scheduled time).
    scheduling.DeadlineKind(
        name="tournament_start", due=_starts_due, task=CLOCK_TICK, apply=_clock_tick_passed
    ),
    # A level's end (R-TOUR-5; R-TOUR-6's equal deals; a break when one follows).
    scheduling.DeadlineKind(
        name="tournament_level", due=_levels_due, task=CLOCK_TICK, apply=_clock_tick_passed
    ),
    # A break's end: the next level.
    scheduling.DeadlineKind(
        name="tournament_break", due=_breaks_due, task=CLOCK_TICK, apply=_clock_tick_passed
    ),
    # A tournament table left idle between hands gets its step (always already due).
    scheduling.DeadlineKind(
        name="tournament_idle_table",
        due=_idle_tables_due,
        task=scheduling.TOURNAMENT_TABLE_BETWEEN_HANDS,
        apply=_table_step_passed,
    ),
):
    scheduling.deadline_kind_register(_kind)
