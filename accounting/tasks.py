"""Celery tasks of the rake report: thin, each calls a service.

Registered names keep their first module, "tables.tasks": the beat schedule rows in
the database (django-celery-beat) name tasks by it."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tables.tasks.mail_daily_rake_report")
def mail_daily_rake_report() -> str:
    """Beat, after New York midnight: yesterday's rake report to settings.ACCOUNTING_EMAIL."""
    from accounting.report import mail_rake_report_for_yesterday

    return mail_rake_report_for_yesterday()
