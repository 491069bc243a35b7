"""Reality checks (issue #26, item 2; docs/tables-services.md "Reality checks").

Every N minutes of a play session (the player's setting, `accounts.limits`
`reality_check_minutes`: 60 unless they chose 5 to 240) the table shows the player their
session so far: time played, net result, rake paid (`reality_check` frame, to the player
alone). It never interrupts a turn: it is sent when a hand the player was dealt into ends
(`hand_reality_checks`, called by `hand_finish`), or, for a player seated between hands
and dealt into no hand anywhere, by the clock sweep (the `reality_check` deadline kind
below: the deadline is data, DESIGN.md "Time"). Each check sent is a `RealityCheck` row,
numbered in its session (unique): never sent twice, and staff see them in the admin.

A session (`PlaySession`) is what a player would call one: it starts with the first cash
hand they are dealt after SESSION_GAP (30 minutes) without one, and goes on while they are
dealt hands less than that apart, or stay seated at the table between them (a table that
waits for players). Its figures count the cash hands dealt in it (`HandPlayer.net`,
`HandPlayer.rake_paid`: tables.selectors.play_session_summary). Tournament tables, whose
chips are not money, start or carry on no session.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db.models import F

from accounts.limits import reality_check_minutes
from stud import StudHand
from stud.rake import rake_paid_shares
from tables import kinds, selectors
from tables.common import iso, now_or
from tables.models import Hand, HandPlayer, PlaySession, RealityCheck, Seat, Table
from tables.realtime.frames import RealityCheckNotice
from tables.services import scheduling
from tables.services.change import table_change
from tables.services.outbox import Outbox

SESSION_GAP = timedelta(minutes=30)
REALITY_CHECK_SEND = "tables.tasks.reality_check_send"


def hand_players_settle(*, hand: Hand, engine: StudHand) -> None:
    """When a hand ends: each dealt seat's net (chips at the end less at the start) and its
    share of the rake (by the chips it put in: stud.rake.rake_paid_shares) on its
    HandPlayer row."""
    result = engine.result
    assert result is not None
    final = dict(result.final_stacks)
    put_in = [setup.stack - final[setup.seat] + result.won(setup.seat) for setup in engine.players]
    shares = rake_paid_shares(result.rake, put_in)
    by_seat = {
        setup.seat: (final[setup.seat] - setup.stack, share)
        for setup, share in zip(engine.players, shares, strict=True)
    }
    rows = list(HandPlayer.objects.filter(hand=hand))
    for row in rows:
        row.net, row.rake_paid = by_seat.get(row.seat, (0, 0))
    HandPlayer.objects.bulk_update(rows, ["net", "rake_paid"])


def hand_reality_checks(
    *, table: Table, hand: Hand, seats: dict[int, Seat], outbox: Outbox, now: datetime
) -> None:
    """At a cash table, when `hand` ends (after everything else `hand_finish` writes, so
    the lock order holds: table, players, then sessions): each player dealt in carries their
    session on (or starts one), and those still seated whose check is due get it now."""
    if not kinds.table_kind(table).chips_are_money:
        return
    dealt = {int(player_id): int(number) for number, player_id in hand.players.items()}
    if not dealt:
        return
    sessions = _sessions_carry_on(dealt, seats, hand, now)
    seated = {seat.player_id for seat in seats.values() if seat.player_id in sessions}
    here = Seat.objects.filter(table=table, player_id__in=seated)
    still = set(here.values_list("player_id", flat=True))
    every = reality_check_minutes(sorted(still), now)
    for player_id in sorted(still):
        session = sessions[player_id]
        if session.checked_from + timedelta(minutes=every[player_id]) <= now:
            _send(session, table=table, hand=hand, every=every[player_id], outbox=outbox, now=now)


def _open(session: PlaySession | None, joined_at: datetime | None, now: datetime) -> bool:
    """The session goes on: a hand less than SESSION_GAP ago, or seated since before it."""
    if session is None:
        return False
    if session.last_played_at >= now - SESSION_GAP:
        return True
    return joined_at is not None and joined_at <= session.last_played_at


def _latest_sessions(player_ids: Iterable[int]) -> dict[int, PlaySession]:
    latest: dict[int, PlaySession] = {}
    for session in PlaySession.objects.filter(player_id__in=list(player_ids)).order_by(
        "player_id", "-last_played_at", "-pk"
    ):
        latest.setdefault(session.player_id, session)
    return latest


def _sessions_carry_on(
    dealt: dict[int, int], seats: dict[int, Seat], hand: Hand, now: datetime
) -> dict[int, PlaySession]:
    joined = {seat.player_id: seat.joined_at for seat in seats.values()}
    latest = _latest_sessions(dealt)
    sessions: dict[int, PlaySession] = {}
    carried = []
    for player_id in dealt:
        session = latest.get(player_id)
        if session is not None and _open(session, joined.get(player_id), now):
            session.last_played_at = now
            carried.append(session.pk)
        else:
            session = PlaySession.objects.create(
                player_id=player_id,
                started_at=hand.started_at,
                last_played_at=now,
                checked_from=hand.started_at,
            )
        sessions[player_id] = session
    if carried:
        PlaySession.objects.filter(pk__in=carried).update(last_played_at=now)
    return sessions


def _send(
    session: PlaySession,
    *,
    table: Table,
    hand: Hand | None,
    every: int,
    outbox: Outbox,
    now: datetime,
) -> RealityCheck | None:
    """The session's next check, once: the session's count moves on only from the number
    read (another table's hand ending at the same moment sends it, not this one)."""
    number = session.checks + 1
    moved = PlaySession.objects.filter(pk=session.pk, checks=session.checks).update(
        checks=F("checks") + 1, checked_from=now
    )
    if not moved:
        return None
    session.checks, session.checked_from = number, now
    summary = selectors.play_session_summary(session, now)
    check = RealityCheck.objects.create(
        session=session,
        player_id=session.player_id,
        number=number,
        table=table,
        hand=hand,
        sent_at=now,
        every_minutes=every,
        minutes_played=summary.minutes_played,
        net=summary.net,
        rake_paid=summary.rake_paid,
    )
    outbox.user_frame(
        session.player_id,
        RealityCheckNotice(
            table_id=table.pk,
            check_id=check.pk,
            started_at=iso(session.started_at) or "",
            minutes_played=summary.minutes_played,
            net=summary.net,
            rake_paid=summary.rake_paid,
            every_minutes=every,
        ),
    )
    return check


def reality_check_idle_send(
    *, session_id: int, table_id: int, now: datetime | None = None, skip_locked: bool = False
) -> bool:
    """The clock sweep's (or its task's): a player seated at `table_id` between hands, dealt
    into no hand at any table, whose session's check is due, gets it there. A no-op (False)
    when it is no longer so: they were dealt in, left, were checked already."""
    now = now_or(now)
    with table_change(table_id, skip_locked=skip_locked) as change:
        session = PlaySession.objects.filter(pk=session_id).first()
        if session is None or not kinds.table_kind(change.table).chips_are_money:
            raise change.stale(None)
        seat = Seat.objects.filter(table=change.table, player_id=session.player_id).first()
        if seat is None:
            raise change.stale(None)
        if _latest_sessions([session.player_id]).get(session.player_id) != session:
            raise change.stale(None)
        if not _open(session, seat.joined_at, now) or _in_a_hand(session.player_id):
            raise change.stale(None)
        every = reality_check_minutes([session.player_id], now)[session.player_id]
        if session.checked_from + timedelta(minutes=every) > now:
            raise change.stale(None)
        sent = _send(
            session, table=change.table, hand=None, every=every, outbox=change.outbox, now=now
        )
        if sent is None:
            raise change.stale(None)
    return change.result.ok


def _in_a_hand(player_id: int) -> bool:
    return HandPlayer.objects.filter(player_id=player_id, hand__ended_at__isnull=True).exists()


# The clock sweep's kind (tables/services/scheduling.py): the sessions of players seated at a
# cash table and dealt into no hand, due by `until`. One read of those players' sessions of
# the last day (an index on `last_played_at`), their settings in one more.


def _checks_due(until: datetime) -> Iterable[tuple[datetime, int, Sequence[Any]]]:
    rows = list(
        PlaySession.objects.filter(
            last_played_at__gte=until - timedelta(days=1),
            player__seats__table__is_tournament=False,
        )
        .exclude(player__hands_dealt__hand__ended_at__isnull=True)
        .values_list(
            "pk",
            "player_id",
            "checked_from",
            "last_played_at",
            "player__seats__table_id",
            "player__seats__joined_at",
        )
        .order_by("player_id", "-last_played_at", "-pk")
    )
    if not rows:
        return []
    every = reality_check_minutes(sorted({row[1] for row in rows}), until)
    due = []
    seen: set[int] = set()
    for session_id, player_id, checked_from, last_played_at, table_id, joined_at in rows:
        if player_id in seen:  # their latest session only, at one of their tables
            continue
        seen.add(player_id)
        if last_played_at < until - SESSION_GAP and joined_at > last_played_at:
            continue  # over: they sat down again after it ended (their next hand starts one)
        at = checked_from + timedelta(minutes=every[player_id])
        if at <= until:
            due.append((at, table_id, (session_id, table_id)))
    return due


def _check_passed(session_id: int, table_id: int, *, now: datetime) -> bool:
    return reality_check_idle_send(
        session_id=session_id, table_id=table_id, now=now, skip_locked=True
    )


scheduling.deadline_kind_register(
    scheduling.DeadlineKind(
        name="reality_check",
        due=_checks_due,
        task=REALITY_CHECK_SEND,
        apply=_check_passed,
    )
)
