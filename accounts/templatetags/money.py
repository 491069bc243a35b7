"""`{{ entry.amount|dollars }}` shows integer cents as "$50.00"."""

from __future__ import annotations

from django import template

from accounts.money import cents_format

register = template.Library()


@register.filter
def dollars(cents: int | None) -> str:
    if cents is None or cents == "":
        return ""
    return cents_format(int(cents))
