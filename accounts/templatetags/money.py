"""`{{ entry.amount|dollars }}` shows integer cents as "$50.00"."""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from accounts.money import cents_format

register = template.Library()


@register.filter
def dollars(cents: int | None) -> str:
    if cents is None or cents == "":
        return ""
    return cents_format(int(cents))


@register.filter
def stakes_wrap(stakes: str) -> str:
    """Stakes such as "$400.00/$800.00" may wrap after the slash on a phone's narrow column
    (a browser breaks no line there by itself)."""
    return mark_safe(escape(stakes).replace("/", "/<wbr>"))  # escaped first
