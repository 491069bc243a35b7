"""Celery tasks of the hand histories: thin, each calls a service.

Registered names keep their first module, "tables.tasks": the beat schedule and
queued messages name tasks by it."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tables.tasks.email_hand_histories")
def email_hand_histories(request_id: int) -> str:
    """R-HIST-2: send one "Email me these hands" request (histories.services)."""
    from histories.services import history_email_send

    return history_email_send(request_id=request_id)
