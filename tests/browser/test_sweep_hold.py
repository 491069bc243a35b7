"""The browser tests' hold on the server's clock sweep (tests/browser/conftest.py `sweep_hold`,
tables/services/scheduling.py `sweep_hold`), against the suite's own Daphne.

A held table's passed deadline stays unapplied through two sweeps the server is seen to run
(each one applies a passed deadline on a table nobody holds, set after the held one's), and
is applied once the hold is released. Counted in sweeps, not in seconds: the polls only wait
(a bounded number of tries) for the server to do what it must."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Table
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# How long a poll waits for the server's sweep (one a second) before the test fails: a
# failure guard on a busy machine, not a measure of speed.
PATIENCE = 30.0


def swept(table: Table) -> bool:
    """The sweep applied the table's passed next-hand time: with nobody seated, hand_start
    skips the deal and clears it."""
    return Table.objects.get(pk=table.pk).next_hand_at is None


def wait_until_swept(table: Table) -> None:
    tries = int(PATIENCE / 0.1)
    for _ in range(tries):
        if swept(table):
            return
        time.sleep(0.1)
    raise AssertionError(f"the server's sweep did not apply {table.name}'s passed deadline")


def passed_deadline(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() - timedelta(minutes=5))


def test_a_held_tables_passed_deadline_waits_through_two_sweeps_and_is_applied_once_released(
    sweep_hold,
) -> None:
    held = make_table(name="Held")
    sweep_hold.tables(held)
    passed_deadline(held)

    for sweep in (1, 2):
        # A table nobody holds, its deadline passed after the held one's: the sweep that
        # applies it read the held row too (the same query) and left it.
        control = make_table(name=f"Control {sweep}")
        passed_deadline(control)
        wait_until_swept(control)
        assert not swept(held), f"sweep {sweep} applied the held table's deadline"

    sweep_hold.release()
    wait_until_swept(held)
