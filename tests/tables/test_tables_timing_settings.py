"""The room's timings come from the settings: the pause between hands (R-GAME-3) and how
long a freed seat is held for the first on the waiting list."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services
from tables.models import WaitingListEntry
from tables.services import scheduling
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table, seated_player

pytestmark = pytest.mark.django_db


def _sent_tasks(monkeypatch) -> list[tuple[str, tuple, object]]:
    sent: list[tuple[str, tuple, object]] = []
    monkeypatch.setattr(
        scheduling, "task_send_at", lambda name, args, *, eta: sent.append((name, args, eta))
    )
    return sent


def _second_player_sits(table, now):
    seated_player(table)
    player = PlayerFactory()
    funded(player, 10_000)
    return services.seat_take(table_id=table.pk, player=player, buy_in=table.buy_in, now=now)


def test_the_next_hand_is_due_after_next_hand_pause_seconds_and_nothing_is_sent(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    """R-GAME-3's pause is stored on the table (DESIGN.md "Time"); the clock sweep schedules
    the start when it falls near, so the service sends nothing."""
    settings.NEXT_HAND_PAUSE_SECONDS = 7
    sent = _sent_tasks(monkeypatch)
    table = make_table()
    now = timezone.now()

    with django_capture_on_commit_callbacks(execute=True):
        taken = _second_player_sits(table, now)

    assert taken.ok
    table.refresh_from_db()
    assert table.next_hand_at == now + timedelta(seconds=7)
    assert sent == []


def test_a_pause_shorter_than_the_sweeps_horizon_sends_its_start_at_the_exact_time(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A deadline that may pass before the next sweep sees it: the service sends its task
    itself, with the deadline as its `eta`."""
    settings.NEXT_HAND_PAUSE_SECONDS = 0.5
    sent = _sent_tasks(monkeypatch)
    table = make_table()
    now = timezone.now()

    with django_capture_on_commit_callbacks(execute=True):
        assert _second_player_sits(table, now).ok

    at = now + timedelta(seconds=0.5)
    assert sent == [("tables.tasks.start_next_hand", (table.pk,), at)]


def test_a_freed_seat_is_held_for_waiting_list_offer_seconds(settings):
    settings.WAITING_LIST_OFFER_SECONDS = 15
    table = make_table(seats=2)
    alice = seated_player(table)
    seated_player(table)
    carol = PlayerFactory()
    funded(carol, 5000)
    assert services.waiting_list_join(table_id=table.pk, player=carol).ok
    now = timezone.now()

    services.seat_leave(table_id=table.pk, player=alice, now=now)

    assert WaitingListEntry.objects.get(player=carol).offered_until == now + timedelta(seconds=15)
