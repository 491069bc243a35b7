"""Celery tasks the services send after commit: the action clock, the next hand, the
waiting-list offer expiry. Kept in one place so tests can replace them.

Tasks are sent by their registered name (`tables/tasks.py`), so the services import no task:
the room's Celery app (pokerroom/celery.py) sends them to the broker, or in the embedded mode
to the in-process runner."""

from __future__ import annotations

from typing import Any

from celery import current_app

ACTION_CLOCK_EXPIRE = "tables.tasks.action_clock_expire"
HAND_START_NEXT = "tables.tasks.start_next_hand"
WAITING_LIST_OFFER_EXPIRE = "tables.tasks.expire_waiting_list_offer"
# A tournament table between hands: the tournament's step (tournaments/tasks.py) decides
# what happens before the next deal (issue #13).
TOURNAMENT_TABLE_BETWEEN_HANDS = "tournaments.tasks.table_between_hands"


def task_send(name: str, *args: Any, countdown: float, **options: Any) -> None:
    """Queue the task registered as `name` to run `countdown` seconds from now (`options`:
    Celery's, e.g. a test's own queue)."""
    current_app.send_task(name, args=args, countdown=countdown, **options)


def schedule_action_clock(*, hand_id: int, seq: int, countdown: float) -> None:
    task_send(ACTION_CLOCK_EXPIRE, hand_id, seq, countdown=countdown)


def schedule_hand_start(*, table_id: int, countdown: float) -> None:
    task_send(HAND_START_NEXT, table_id, countdown=countdown)


def schedule_offer_expiry(*, entry_id: int, countdown: float) -> None:
    task_send(WAITING_LIST_OFFER_EXPIRE, entry_id, countdown=countdown)


def schedule_tournament_table(*, table_id: int, countdown: float = 0) -> None:
    task_send(TOURNAMENT_TABLE_BETWEEN_HANDS, table_id, countdown=countdown)
