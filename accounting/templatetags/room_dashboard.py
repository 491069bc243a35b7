"""The admin index's top (templates/admin/index.html): the room's headline figures."""

from __future__ import annotations

from typing import Any

from django import template

from accounting.dashboard import room_headline

register = template.Library()


@register.simple_tag
def room_headline_figures() -> dict[str, Any]:
    return room_headline()
