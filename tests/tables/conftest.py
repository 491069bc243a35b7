"""Fixtures of the consumer tests (tests/tables/test_consumer_*.py): a table with the
stakes of consumer_helpers.make_table and three funded players. A module that needs another
table or more players defines its own (test_consumer_waiting_list.py)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Player
from tables.models import Table
from tests.consumer_helpers import make_player, make_table


@pytest.fixture
def table(db: Any) -> Table:
    return make_table()


@pytest.fixture
def players(db: Any) -> list[Player]:
    return [make_player() for _ in range(3)]
