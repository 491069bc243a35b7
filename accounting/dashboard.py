"""The staff dashboard's figures (issue #16): how the room is doing at this moment. Read-only.

Players online (connected to a table now) and seated, tables open and running (a hand in
play), hands per hour, rake today against each of the last 30 New York days, money in play
(the chip audit's own selectors: wallets, chips on the tables, chips in pots), the largest
pots today, all-in protections used today (R-TIME-2), players sat out by time-outs (R-SIT-1)
and whether the database and Redis answer. Everything is integer cents; a hand belongs to the
New York day on which it ended, as in the rake report.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from accounts.models import Player
from accounts.selectors import balances_total
from pokerroom.room_day import day_bounds, room_day, room_zone
from pokerroom.service_checks import service_checks
from tables.models import PRESENCE_STALE, Hand, HandEvent, RakeEntry, Seat, Table
from tables.selectors import room_chip_totals

RAKE_DAYS = 30
LARGEST_POTS = 5
TIMED_OUT_LISTED = 20
# Hands per hour: the hands that ended in the hour before now.
HOUR = timedelta(hours=1)
# A table between two hands is still running: its last hand ended less than this ago.
RUNNING_PAUSE = timedelta(minutes=10)


def players_figures(now: datetime) -> dict[str, int]:
    """Players connected to a table now (a fresh connection count, as Seat.present says),
    players seated (distinct), seats sitting out, and players who logged in today."""
    seats = Seat.objects.order_by()
    present = Q(connected=True) & (
        Q(last_seen__isnull=True) | Q(last_seen__gt=now - PRESENCE_STALE)
    )
    start, _ = day_bounds(room_day(now), None)
    return {
        "online": seats.filter(present).values("player_id").distinct().count(),
        "seated": seats.values("player_id").distinct().count(),
        "sitting_out": seats.filter(sitting_out=True).count(),
        "logged_in_today": Player.objects.filter(last_login__gte=start).count(),
    }


def tables_figures(now: datetime) -> dict[str, int]:
    """Tables open, tables running (a hand in play, or one ended less than RUNNING_PAUSE
    ago: a table between hands is running, as a staff member counts it), hands that ended in
    the last hour and today."""
    start, _ = day_bounds(room_day(now), None)
    ended = Hand.objects.order_by().filter(ended_at__isnull=False)
    return {
        "open": Table.objects.filter(is_open=True).count(),
        "running": Hand.objects.order_by()
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=now - RUNNING_PAUSE))
        .values("table_id")
        .distinct()
        .count(),
        "hands_per_hour": ended.filter(ended_at__gt=now - HOUR, ended_at__lte=now).count(),
        "hands_today": ended.filter(ended_at__gte=start, ended_at__lte=now).count(),
    }


def rake_by_day(now: datetime, days: int = RAKE_DAYS) -> list[dict[str, Any]]:
    """Rake per New York day for the `days` days ending today (today last), every day listed
    (0 where nothing was raked)."""
    today = room_day(now)
    first = today - timedelta(days=days - 1)
    start, end = day_bounds(first, today)
    taken = {
        row["day"]: int(row["rake"] or 0)
        for row in RakeEntry.objects.order_by()
        .filter(hand__ended_at__gte=start, hand__ended_at__lt=end)
        .annotate(day=TruncDate("hand__ended_at", tzinfo=room_zone()))
        .values("day")
        .annotate(rake=Sum("amount"))
    }
    return [
        {"day": day.isoformat(), "rake": taken.get(day, 0)}
        for day in (first + timedelta(days=n) for n in range(days))
    ]


def rake_figures(now: datetime) -> dict[str, Any]:
    """Rake today, the daily average and the chart's days. The average is over the days of
    the 30 (today included) from the first that raked: a room that opened today averages
    today's rake, never $0.00 beside it."""
    days = rake_by_day(now)
    raked = [n for n, day in enumerate(days) if day["rake"]]
    counted = days[raked[0] :] if raked else []
    return {
        "today": days[-1]["rake"],
        "average": sum(day["rake"] for day in counted) // len(counted) if counted else 0,
        "average_days": len(counted),
        "days": days,
    }


def money_figures() -> dict[str, int]:
    """Money in play, from the chip audit's selectors (audit_chips): players' wallets, chips
    in front of seated players, chips in the pots of hands in play."""
    room = room_chip_totals()
    wallets = balances_total()
    return {
        "wallets": wallets,
        "on_tables": room["on_tables"],
        "in_pots": room["in_pots"],
        "total": wallets + room["on_tables"] + room["in_pots"],
    }


def largest_pots_today(now: datetime, limit: int = LARGEST_POTS) -> list[dict[str, Any]]:
    """Today's largest pots: what was awarded plus the rake taken from it, per hand."""
    start, _ = day_bounds(room_day(now), None)
    pots: dict[int, int] = {}
    for hand_id, payload in (
        HandEvent.objects.order_by()
        .filter(
            hand__ended_at__gte=start, hand__ended_at__lte=now, kind__in=("pot_awarded", "rake")
        )
        .values_list("hand_id", "payload")
    ):
        amount = payload.get("amount", 0) if isinstance(payload, dict) else 0
        pots[hand_id] = pots.get(hand_id, 0) + int(amount)
    top = sorted(pots.items(), key=lambda item: (-item[1], item[0]))[:limit]
    hands = Hand.objects.select_related("table").in_bulk([hand_id for hand_id, _ in top])
    largest = []
    for hand_id, pot in top:
        hand = hands[hand_id]
        ended = hand.ended_at
        largest.append(
            {
                "hand_id": hand_id,
                "table": hand.table.name,
                "number": hand.number,
                "pot": pot,
                "ended_at": None if ended is None else ended.isoformat(),
            }
        )
    return largest


def all_in_protections_used_today(now: datetime) -> int:
    """R-TIME-2: all-in protections taken today, summed over players (a count recorded on
    an earlier New York day is 0 today, as the room counts it)."""
    total = Player.objects.filter(all_ins_day=room_day(now)).aggregate(used=Sum("all_ins_used"))
    return int(total["used"] or 0)


def timed_out_sitting_out(limit: int = TIMED_OUT_LISTED) -> dict[str, Any]:
    """R-SIT-1: players the room sat out for timing out on two hands in a row, still out."""
    seats = Seat.objects.filter(sitting_out=True, timeouts_in_a_row__gte=2)
    listed = seats.select_related("player", "table").order_by("table__name", "number")[:limit]
    return {
        "count": seats.count(),
        "seats": [
            {
                "player": seat.player.table_name,
                "player_id": seat.player_id,
                "table": seat.table.name,
                "seat": seat.number,
            }
            for seat in listed
        ],
    }


def room_dashboard(*, now: datetime | None = None) -> dict[str, Any]:
    """Every figure of the staff dashboard, as JSON-ready data (cents, ISO times)."""
    now = timezone.now() if now is None else now
    return {
        "at": now.isoformat(),
        "day": room_day(now).isoformat(),
        "players": players_figures(now),
        "tables": tables_figures(now),
        "rake": rake_figures(now),
        "money": money_figures(),
        "largest_pots": largest_pots_today(now),
        "all_in_protections_today": all_in_protections_used_today(now),
        "timed_out": timed_out_sitting_out(),
        "health": service_checks(),
    }


def room_headline(*, now: datetime | None = None) -> dict[str, Any]:
    """The few figures the admin index shows at its top (no chart, no lists but the
    health)."""
    now = timezone.now() if now is None else now
    return {
        "players": players_figures(now),
        "tables": tables_figures(now),
        "rake_today": rake_by_day(now, days=1)[0]["rake"],
        "money": money_figures(),
        "health": service_checks(),
    }
