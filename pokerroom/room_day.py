"""The room's New York day: all-in protection counts per New York day (R-TIME-2), and the
hand lists and the rake report go by the New York day on which a hand ended.

The one place that turns a moment into the room's day (settings.ROOM_DAY_TIME_ZONE), a range
of days into moments, and checks a range of days a player or staff asked for. The engine's
PokerStars text keeps its own Eastern time: "ET" is part of that format (stud/history_text.py,
which imports nothing of the room), not the room's choice.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone


def room_zone() -> ZoneInfo:
    return ZoneInfo(settings.ROOM_DAY_TIME_ZONE)


def room_moment_text(moment: datetime) -> str:
    """A moment as players read it everywhere in the room: "2026-12-05 13:58 New York time"."""
    return moment.astimezone(room_zone()).strftime("%Y-%m-%d %H:%M") + " New York time"


def room_day(now: datetime | None = None) -> date:
    """The New York date of `now` (by default, of this moment)."""
    moment = timezone.now() if now is None else now
    return moment.astimezone(room_zone()).date()


def day_bounds(first: date | None, last: date | None) -> tuple[datetime | None, datetime | None]:
    """New York days, first and last included, as an aware [start, end) range; an open end
    where a day is not given."""
    zone = room_zone()
    start = None if first is None else datetime.combine(first, time.min, tzinfo=zone)
    end = (
        None if last is None else datetime.combine(last + timedelta(days=1), time.min, tzinfo=zone)
    )
    return start, end


# The longest range a rake report covers: about ten years of days.
REPORT_MAX_DAYS = 3660


def day_range_error(first: date | None, last: date | None, *, limited: bool = False) -> str | None:
    """What is wrong with first..last as a range of days (said of the last day), or None; a
    `limited` range (the rake report's) spans REPORT_MAX_DAYS at most."""
    if first is None or last is None:
        return None
    if last < first:
        return "The last day comes before the first."
    if limited and (last - first).days > REPORT_MAX_DAYS:
        return "At most ten years at a time."
    return None
