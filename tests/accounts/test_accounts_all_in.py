"""All-in protection (R-TIME-2): two per New York day, reset at New York midnight."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from accounts.models import Player
from accounts.services import all_in_protection_take
from accounts.tasks import reset_all_in_allowances
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

# 03:30 UTC on 2 March is still 1 March in New York (UTC-5).
NEW_YORK_EVENING = datetime(2026, 3, 2, 3, 30, tzinfo=UTC)
NEW_YORK_NEXT_MORNING = datetime(2026, 3, 2, 5, 30, tzinfo=UTC)


def test_r_time_2_two_all_ins_per_day_then_none() -> None:
    player = PlayerFactory()

    taken = [all_in_protection_take(player_id=player.pk, now=NEW_YORK_EVENING) for _ in range(3)]

    assert taken == [True, True, False]
    player.refresh_from_db()
    assert (player.all_ins_used, player.all_ins_day) == (2, date(2026, 3, 1))


def test_r_time_2_the_new_new_york_day_counts_from_zero_without_the_reset_task() -> None:
    player = PlayerFactory()
    for _ in range(2):
        all_in_protection_take(player_id=player.pk, now=NEW_YORK_EVENING)

    assert all_in_protection_take(player_id=player.pk, now=NEW_YORK_NEXT_MORNING) is True
    player.refresh_from_db()
    assert (player.all_ins_used, player.all_ins_day) == (1, date(2026, 3, 2))


def test_r_time_2_staff_can_change_the_allowance() -> None:
    player = PlayerFactory(all_in_allowance=3)

    taken = [all_in_protection_take(player_id=player.pk, now=NEW_YORK_EVENING) for _ in range(4)]

    assert taken == [True, True, True, False]


def test_the_midnight_task_resets_earlier_days_and_keeps_today(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    yesterday = PlayerFactory(all_ins_used=2, all_ins_day=date(2026, 3, 1))
    today = PlayerFactory(all_ins_used=1, all_ins_day=date(2026, 3, 2))
    monkeypatch.setattr("accounts.tasks.timezone.now", lambda: NEW_YORK_NEXT_MORNING)

    assert reset_all_in_allowances.name == "accounts.tasks.reset_all_in_allowances"
    assert reset_all_in_allowances() == 1

    assert Player.objects.get(pk=yesterday.pk).all_ins_used == 0
    assert Player.objects.get(pk=today.pk).all_ins_used == 1
