"""Celery tasks of the live tables: each is thin and calls a service (DESIGN.md "Time").

Functions are named `<entity>_<action>` like the services; the registered names are the
first ones and stay (beat's rows and queued messages name them). The clock sweep sends the
timed ones by name, each at its deadline's exact time (tables/services/scheduling.py); the
services import nothing from here."""

from __future__ import annotations

from celery import shared_task

from tables import services


@shared_task(name="tables.tasks.action_clock_expire")
def action_clock_expire(hand_id: int, seq: int) -> str:
    """R-BET-7 / R-TIME-1: the clock set at `seq` ran out; nothing happens if the hand moved on."""
    return services.hand_time_out(hand_id=hand_id, expected_seq=seq).status


@shared_task(name="tables.tasks.sweep_action_deadlines")
def deadlines_sweep() -> int:
    """Periodic, every second (DESIGN.md "Time"): apply every passed deadline and schedule a
    task at the time of each one falling before the next sweep."""
    return services.hand_deadlines_sweep()


@shared_task(name="tables.tasks.sweep_stale_presence")
def presence_sweep() -> int:
    """Periodic: clear the presence of connections whose process died (no heartbeat)."""
    return services.presence_sweep()


@shared_task(name="tables.tasks.start_next_hand")
def hand_start_next(table_id: int) -> str:
    """R-GAME-3: the pause between hands is over; deal if two or more are in."""
    return services.hand_start(table_id=table_id, only_when_due=True).status


@shared_task(name="tables.tasks.expire_waiting_list_offer")
def waiting_list_offer_expire(entry_id: int) -> str:
    """The offered seat was not taken in time: offer it to the next in line."""
    return services.waiting_list_offer_expire(entry_id=entry_id).status


@shared_task(name="tables.tasks.reality_check_send")
def reality_check_send(session_id: int, table_id: int) -> bool:
    """Issue #26: a player seated between hands is due their reality check (a no-op when they
    were dealt in, left, or had it already)."""
    return services.reality_check_idle_send(session_id=session_id, table_id=table_id)
