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


def test_the_next_hand_is_due_after_next_hand_pause_seconds(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.NEXT_HAND_PAUSE_SECONDS = 7
    countdowns = []
    monkeypatch.setattr(
        scheduling, "schedule_hand_start", lambda **kwargs: countdowns.append(kwargs["countdown"])
    )
    table = make_table()
    now = timezone.now()
    seated_player(table)
    player = PlayerFactory()
    funded(player, 10_000)

    with django_capture_on_commit_callbacks(execute=True):
        taken = services.seat_take(table_id=table.pk, player=player, buy_in=table.buy_in, now=now)

    assert taken.ok

    table.refresh_from_db()
    assert table.next_hand_at == now + timedelta(seconds=7)
    assert countdowns == [7]


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
