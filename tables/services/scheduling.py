"""Celery tasks the services send after commit: the action clock, the next hand, the
waiting-list offer expiry. Kept in one place so tests can replace them."""

from __future__ import annotations


def schedule_action_clock(*, hand_id: int, seq: int, countdown: float) -> None:
    from tables.tasks import action_clock_expire

    action_clock_expire.apply_async(args=(hand_id, seq), countdown=countdown)


def schedule_hand_start(*, table_id: int, countdown: float) -> None:
    from tables.tasks import start_next_hand

    start_next_hand.apply_async(args=(table_id,), countdown=countdown)


def schedule_offer_expiry(*, entry_id: int, countdown: float) -> None:
    from tables.tasks import expire_waiting_list_offer

    expire_waiting_list_offer.apply_async(args=(entry_id,), countdown=countdown)
