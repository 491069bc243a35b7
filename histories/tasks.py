"""Celery tasks of the hand histories: thin, each calls a service.

Registered names keep their first module, "tables.tasks": the beat schedule and
queued messages name tasks by it."""

from __future__ import annotations

from celery import shared_task

from histories.services import EMAIL_HAND_HISTORIES, history_email_send


@shared_task(name=EMAIL_HAND_HISTORIES)
def email_hand_histories(request_id: int) -> str:
    """R-HIST-2: send one "Email me these hands" request (histories.services)."""
    return history_email_send(request_id=request_id)
