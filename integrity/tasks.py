"""Periodic job of the integrity app: read the hands finished since the last run into the
pair signals (issue #25). Staff can also run it now from the Integrity page."""

from __future__ import annotations

from celery import shared_task

from integrity.services import integrity_scan


@shared_task(name="integrity.tasks.scan_new_hands")
def scan_new_hands() -> int:
    """Returns how many new hands were read."""
    return integrity_scan().hands_read
