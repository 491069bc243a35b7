"""`{{ hand.ended_at|room_time|date:"Y-m-d H:i T" }}`: a moment in the room's New York time,
so the times of a list agree with the New York days its filters name."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.templatetags.tz import do_timezone

from pokerroom.room_day import room_zone

register = template.Library()


@register.filter
def room_time(moment: datetime | None) -> datetime | str:
    if moment is None:
        return ""
    converted: datetime = do_timezone(moment, room_zone())
    return converted


@register.filter
def unsigned_dollars(cents: int | None) -> int | None:
    """The size of a win or a loss, without its sign ("lost $0.05", never "lost -$0.05")."""
    return None if cents is None else abs(int(cents))
