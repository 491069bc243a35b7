"""Issue #12: one shape for every change to a table (tables/services/change.py).

A refused change writes nothing, whatever its body wrote before refusing; a table that does
not exist is answered not_found, whatever the body would have answered; hand_start, which
must clear the schedule of a hand it cannot deal, says so as "skipped", not as a refusal
(docs/tables-services.md: a refusal changes nothing)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services
from tables.models import Hand, Table
from tables.services import Refusal
from tables.services.change import lock_players, table_change
from tests.factories import PlayerFactory
from tests.table_factories import make_table, seated_player

pytestmark = pytest.mark.django_db


def test_a_refused_change_writes_nothing_its_body_wrote_before_refusing() -> None:
    table = make_table(name="Main")
    with table_change(table.pk) as change:
        change.table.name = "Renamed"
        change.table.save(update_fields=["name"])
        change.outbox.seats_changed = True
        raise change.refuse(Refusal.NOT_SEATED, "You have no seat here.")

    result = change.result
    assert (result.status, result.error, result.message) == (
        "refused",
        Refusal.NOT_SEATED,
        "You have no seat here.",
    )
    assert not result.frames
    assert Table.objects.get(pk=table.pk).name == "Main"


def test_an_applied_change_keeps_its_writes_and_sends_its_frames() -> None:
    table = make_table(name="Main")
    with table_change(table.pk) as change:
        change.table.name = "Renamed"
        change.table.save(update_fields=["name"])
        change.outbox.seats_changed = True

    assert change.result.ok
    assert [frame["type"] for frame in change.result.frames.table_json] == ["seats"]
    assert Table.objects.get(pk=table.pk).name == "Renamed"


def test_a_missing_table_is_not_found_whatever_the_body_answers() -> None:
    missing = 10**12
    with table_change(missing) as refusing:
        raise refusing.refuse(Refusal.NOT_SEATED, "You have no seat here.")
    with table_change(missing) as silent:
        pass
    with table_change(missing) as touching:
        touching.table.save()

    for change in (refusing, silent, touching):
        assert (change.result.status, change.result.error) == ("refused", Refusal.NOT_FOUND)
    assert services.seat_sit_out(table_id=missing, player=PlayerFactory()).reply()["error"] == (
        "not_found"
    )


def test_r_game_3_a_hand_with_one_player_in_is_skipped_and_its_schedule_cleared() -> None:
    """The pause is over but only one player is in: nothing dealt, and next_hand_at cleared
    so that the sweep stops calling and the next player to sit schedules a hand."""
    table = make_table()
    seated_player(table)
    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() - timedelta(seconds=1))

    result = services.hand_start(table_id=table.pk, only_when_due=True)

    assert (result.status, result.error, result.ok) == (
        "skipped",
        Refusal.NOT_ENOUGH_PLAYERS,
        False,
    )
    assert Table.objects.get(pk=table.pk).next_hand_at is None
    assert not Hand.objects.filter(table=table).exists()
    seated_player(table)
    assert Table.objects.get(pk=table.pk).next_hand_at is not None


def test_a_closed_table_deals_no_hand_and_its_schedule_is_cleared() -> None:
    table = make_table()
    seated_player(table)
    seated_player(table)
    assert Table.objects.get(pk=table.pk).next_hand_at is not None
    Table.objects.filter(pk=table.pk).update(is_open=False)

    result = services.hand_start(table_id=table.pk)

    assert (result.status, result.error) == ("skipped", Refusal.TABLE_CLOSED)
    assert Table.objects.get(pk=table.pk).next_hand_at is None


def test_a_hand_start_refused_before_its_time_writes_nothing() -> None:
    table = make_table()
    seated_player(table)
    seated_player(table)
    due = Table.objects.get(pk=table.pk).next_hand_at

    result = services.hand_start(table_id=table.pk, only_when_due=True, now=due - timedelta(1))

    assert (result.status, result.error) == ("refused", Refusal.NOT_DUE)
    assert Table.objects.get(pk=table.pk).next_hand_at == due


def test_players_are_locked_by_primary_key_once_each() -> None:
    """The lock order's second step (docs/architecture.md, "Lock order")."""
    first, second, third = PlayerFactory(), PlayerFactory(), PlayerFactory()
    with table_change(make_table().pk):
        locked = lock_players([third.pk, first.pk, third.pk, second.pk])
    assert locked == sorted([first.pk, second.pk, third.pk])
