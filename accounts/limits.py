"""Limits a player sets on themselves (issue #26), read from the ledger and enforced where
money is staked: every debit of a stake kind (a table buy-in or add chips, a tournament's
buy-in, fee or add-on) passes `stake_check` inside the wallet's own transaction, after the
player's row is locked, so no page, API or race can pass a limit in force. Play money too.

- Buy-ins a day / week / month: the stakes put in during the room's New York day, week (from
  Monday) or month, this one included, may not pass the limit.
- Losses a day / week / month: stakes put in less what came back (cash-outs, prizes,
  refunds) in the period, plus this stake (all of it could be lost), may not pass the limit.
- Session length: a room day's play runs from its first stake; none is taken once it is
  longer than the limit.
- Reality check (not a limit on stakes): every how many minutes the table shows the
  player's session so far (tables/services/reality_checks.py); 60 unless they set another,
  from 5 to 240. A shorter one (more often) takes effect at once, a longer one or going back
  to the default like any raise, after 24 hours.

Lowering a limit (or setting a new one) takes effect at once; raising or removing one only
24 hours later, shown with its time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db import transaction
from django.db.models import Min, Q, Sum
from django.utils import timezone

from accounts.models import (
    LedgerEntry,
    LedgerKind,
    PlayBreak,
    PlayBreakKind,
    Player,
    PlayLimit,
    PlayLimitKind,
)
from accounts.money import cents_format
from accounts.signals import play_break_taken
from pokerroom.room_day import room_moment_text, room_zone

RAISE_WAIT = timedelta(hours=24)
# What puts money at stake (debits), and what brings it back (credits).
STAKE_KINDS = frozenset(
    {
        LedgerKind.BUY_IN,
        LedgerKind.TOURNAMENT_BUY_IN,
        LedgerKind.TOURNAMENT_FEE,
        LedgerKind.TOURNAMENT_ADD_ON,
    }
)
RETURN_KINDS = frozenset(
    {
        LedgerKind.CASH_OUT,
        LedgerKind.PRIZE,
        LedgerKind.TOURNAMENT_REFUND,
        LedgerKind.TOURNAMENT_FEE,
    }
)
PERIODS = {
    PlayLimitKind.BUY_IN_DAY: "day",
    PlayLimitKind.BUY_IN_WEEK: "week",
    PlayLimitKind.BUY_IN_MONTH: "month",
    PlayLimitKind.LOSS_DAY: "day",
    PlayLimitKind.LOSS_WEEK: "week",
    PlayLimitKind.LOSS_MONTH: "month",
}
# Limits counted in minutes, not cents (no period, nothing "used").
MINUTE_KINDS = (PlayLimitKind.SESSION_MINUTES, PlayLimitKind.REALITY_CHECK)
REALITY_CHECK_DEFAULT_MINUTES = 60
REALITY_CHECK_MINUTES = (5, 240)
BUY_IN_KINDS = (PlayLimitKind.BUY_IN_DAY, PlayLimitKind.BUY_IN_WEEK, PlayLimitKind.BUY_IN_MONTH)
LOSS_KINDS = (PlayLimitKind.LOSS_DAY, PlayLimitKind.LOSS_WEEK, PlayLimitKind.LOSS_MONTH)


class PlayLimitRefused(Exception):
    """A stake over a limit in force: the message names the limit and when it resets."""

    def __init__(self, message: str, *, kind: str, resets_at: datetime) -> None:
        super().__init__(message)
        self.kind = kind
        self.resets_at = resets_at


class PlayLimitInvalid(ValueError):
    """A limit that cannot be set (a negative amount, an unknown kind)."""


@dataclass(frozen=True)
class LimitView:
    """One limit as the account page and the API show it."""

    kind: str
    label: str
    amount: int | None
    used: int | None
    pending: bool
    pending_amount: int | None
    pending_at: datetime | None
    resets_at: datetime | None


def in_force(limit: PlayLimit, now: datetime) -> int | None:
    """The limit in force at `now`: a raise or removal only once its 24 hours have passed."""
    if limit.raise_pending and limit.raise_at is not None and limit.raise_at <= now:
        return limit.raise_to
    return limit.amount


def period_bounds(period: str, now: datetime) -> tuple[datetime, datetime]:
    """The New York day, week (from Monday) or month holding `now`, as [start, end)."""
    zone = room_zone()
    day = now.astimezone(zone).date()
    if period == "day":
        first, last = day, day + timedelta(days=1)
    elif period == "week":
        first = day - timedelta(days=day.weekday())
        last = first + timedelta(days=7)
    else:
        first = day.replace(day=1)
        last = (first + timedelta(days=32)).replace(day=1)
    return _midnight(first), _midnight(last)


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=room_zone())


def _stakes_and_returns(player_id: int, start: datetime, end: datetime) -> tuple[int, int]:
    lines = LedgerEntry.objects.filter(
        player_id=player_id, created_at__gte=start, created_at__lt=end
    )
    totals = lines.aggregate(
        staked=Sum("amount", filter=Q(kind__in=STAKE_KINDS, amount__lt=0)),
        returned=Sum("amount", filter=Q(kind__in=RETURN_KINDS, amount__gt=0)),
    )
    return -(totals["staked"] or 0), totals["returned"] or 0


def used_toward(kind: str, player_id: int, now: datetime) -> int:
    """What counts toward a money limit now: stakes put in (buy-in limits) or stakes less
    returns (loss limits), in the limit's period."""
    start, end = period_bounds(PERIODS[PlayLimitKind(kind)], now)
    staked, returned = _stakes_and_returns(player_id, start, end)
    return staked if kind in BUY_IN_KINDS else staked - returned


def _session_start(player_id: int, now: datetime) -> datetime | None:
    start, end = period_bounds("day", now)
    first = LedgerEntry.objects.filter(
        player_id=player_id,
        kind__in=STAKE_KINDS,
        amount__lt=0,
        created_at__gte=start,
        created_at__lt=end,
    ).aggregate(first=Min("created_at"))["first"]
    return first


def stake_check(*, player_id: int, amount: int, now: datetime | None = None) -> None:
    """Refuse (PlayLimitRefused) a stake of `amount` cents that would pass a limit in force.
    Called by the wallet with the player's row locked, before the ledger line is written."""
    now = timezone.now() if now is None else now
    break_check(player_id=player_id, now=now)
    for limit in PlayLimit.objects.filter(player_id=player_id):
        cap = in_force(limit, now)
        if cap is None:
            continue
        label = PlayLimitKind(limit.kind).label.lower()
        if limit.kind == PlayLimitKind.REALITY_CHECK:
            continue  # no limit on stakes: how often the table shows the session
        if limit.kind == PlayLimitKind.SESSION_MINUTES:
            started = _session_start(player_id, now)
            if started is not None and now - started >= timedelta(minutes=cap):
                resets = period_bounds("day", now)[1]
                raise PlayLimitRefused(
                    f"Your session length limit of {cap} minutes is reached; "
                    f"it resets at {room_moment_text(resets)}.",
                    kind=limit.kind,
                    resets_at=resets,
                )
            continue
        used = used_toward(limit.kind, player_id, now)
        if used + amount > cap:
            resets = period_bounds(PERIODS[PlayLimitKind(limit.kind)], now)[1]
            raise PlayLimitRefused(
                f"That would pass your limit of {cents_format(cap)} on {label} "
                f"({cents_format(max(used, 0))} so far); it resets at {room_moment_text(resets)}.",
                kind=limit.kind,
                resets_at=resets,
            )


def play_limit_set(
    *, player_id: int, kind: str, amount: int | None, now: datetime | None = None
) -> PlayLimit:
    """Set one limit (None removes it). Lower than the one in force (or a first one): at once.
    Higher, or removed: in 24 hours, the one in force holding until then."""
    now = timezone.now() if now is None else now
    if kind not in PlayLimitKind.values:
        raise PlayLimitInvalid(f"No such limit: {kind!r}.")
    if amount is not None and (
        not isinstance(amount, int) or isinstance(amount, bool) or amount < 0
    ):
        raise PlayLimitInvalid("A limit is a whole amount of 0 or more.")
    reality_check = kind == PlayLimitKind.REALITY_CHECK
    low, high = REALITY_CHECK_MINUTES
    if reality_check and amount is not None and not low <= amount <= high:
        raise PlayLimitInvalid(f"A reality check comes every {low} to {high} minutes.")
    with transaction.atomic():
        limit, _ = PlayLimit.objects.select_for_update().get_or_create(
            player_id=player_id, kind=kind
        )
        current = in_force(limit, now)
        limit.amount = current
        if reality_check:
            # None is the default (60 minutes): checks less often wait 24 hours.
            default = REALITY_CHECK_DEFAULT_MINUTES
            raising = (amount or default) > (current or default)
        else:
            raising = current is not None and (amount is None or amount > current)
        if raising:
            limit.raise_pending, limit.raise_to, limit.raise_at = True, amount, now + RAISE_WAIT
        else:
            limit.amount = amount
            limit.raise_pending, limit.raise_to, limit.raise_at = False, None, None
        limit.save()
    return limit


def play_limits_view(*, player_id: int, now: datetime | None = None) -> list[LimitView]:
    """Every kind of limit for the account page and the API, in order."""
    now = timezone.now() if now is None else now
    limits = {limit.kind: limit for limit in PlayLimit.objects.filter(player_id=player_id)}
    views = []
    for kind in PlayLimitKind:
        limit = limits.get(kind.value)
        amount = None if limit is None else in_force(limit, now)
        pending = bool(limit and limit.raise_pending and limit.raise_at and limit.raise_at > now)
        money = kind not in MINUTE_KINDS
        if kind == PlayLimitKind.REALITY_CHECK:  # shown as the minutes in force, default too
            amount = amount or REALITY_CHECK_DEFAULT_MINUTES
        views.append(
            LimitView(
                kind=kind.value,
                label=kind.label,
                amount=amount,
                used=used_toward(kind.value, player_id, now) if money else None,
                pending=pending,
                pending_amount=_pending_amount(kind, limit) if pending and limit else None,
                pending_at=limit.raise_at if pending and limit else None,
                resets_at=period_bounds(PERIODS[kind], now)[1] if money else None,
            )
        )
    return views


def _pending_amount(kind: PlayLimitKind, limit: PlayLimit) -> int | None:
    if kind == PlayLimitKind.REALITY_CHECK:
        return limit.raise_to or REALITY_CHECK_DEFAULT_MINUTES
    return limit.raise_to


def reality_check_minutes(player_ids: list[int], now: datetime | None = None) -> dict[int, int]:
    """Every how many minutes each player's reality check comes (the setting in force, or
    the default 60): one query for all of them."""
    now = timezone.now() if now is None else now
    minutes = dict.fromkeys(player_ids, REALITY_CHECK_DEFAULT_MINUTES)
    for limit in PlayLimit.objects.filter(
        player_id__in=player_ids, kind=PlayLimitKind.REALITY_CHECK
    ):
        minutes[limit.player_id] = in_force(limit, now) or REALITY_CHECK_DEFAULT_MINUTES
    return minutes


# --- Breaks and self-exclusion ----------------------------------------------------------------

BREAK_LENGTHS = {
    "24h": (PlayBreakKind.BREAK, timedelta(hours=24)),
    "7d": (PlayBreakKind.BREAK, timedelta(days=7)),
    "30d": (PlayBreakKind.BREAK, timedelta(days=30)),
    "6m": (PlayBreakKind.SELF_EXCLUSION, timedelta(days=183)),
    "1y": (PlayBreakKind.SELF_EXCLUSION, timedelta(days=365)),
    "5y": (PlayBreakKind.SELF_EXCLUSION, timedelta(days=5 * 365 + 1)),
}


class OnBreak(PlayLimitRefused):
    """A stake or a cashier request while a break or self-exclusion runs."""


def break_in_force(player_id: int, now: datetime | None = None) -> PlayBreak | None:
    """The break or self-exclusion running now (the one ending last), if any."""
    now = timezone.now() if now is None else now
    return (
        PlayBreak.objects.filter(player_id=player_id, starts_at__lte=now, ends_at__gt=now)
        .order_by("-ends_at")
        .first()
    )


def players_on_break(player_ids: list[int], now: datetime | None = None) -> set[int]:
    """The players among `player_ids` whose break or self-exclusion runs now, and those who
    closed their account (issue #26): the tables cash both out when the hand they are in ends."""
    now = timezone.now() if now is None else now
    on_break = PlayBreak.objects.filter(
        player_id__in=player_ids, starts_at__lte=now, ends_at__gt=now
    ).values_list("player_id", flat=True)
    closed = Player.objects.filter(pk__in=player_ids, closed_at__isnull=False).values_list(
        "pk", flat=True
    )
    return set(on_break) | set(closed)


def break_check(*, player_id: int, now: datetime | None = None) -> None:
    running = break_in_force(player_id, now)
    if running is not None:
        raise OnBreak(
            f"You are on a {running.get_kind_display().lower()} until "
            f"{room_moment_text(running.ends_at)}.",
            kind=running.kind,
            resets_at=running.ends_at,
        )


def play_break_take(*, player_id: int, length: str, now: datetime | None = None) -> PlayBreak:
    """Take a break or self-exclude (`length` a key of BREAK_LENGTHS). It runs from now; a
    longer one already running is kept (a break never shortens another). After commit,
    `play_break_taken` tells the tables (the player is cashed out at the end of each hand
    they are in, never folded) and the tournaments (unregistered, buy-ins back)."""
    now = timezone.now() if now is None else now
    if length not in BREAK_LENGTHS:
        raise PlayLimitInvalid(f"No such break: {length!r}.")
    kind, span = BREAK_LENGTHS[length]
    with transaction.atomic():
        taken = PlayBreak.objects.create(
            player_id=player_id, kind=kind, starts_at=now, ends_at=now + span
        )
        transaction.on_commit(lambda: play_break_taken.send(sender=PlayBreak, player_id=player_id))
    return taken
