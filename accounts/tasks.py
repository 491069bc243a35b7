"""Periodic jobs of the accounts app: they call a service and return what it did."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from accounts.services import all_in_protection_reset_day


@shared_task(name="accounts.tasks.reset_all_in_allowances")
def reset_all_in_allowances() -> int:
    """New York midnight (R-TIME-2): every player's all-in count starts again at 0."""
    return all_in_protection_reset_day(now=timezone.now())
