"""RULES.md "Rake": the seeded schedules (seed 003) give the table's amounts at each tier,
threshold and maximum; every raked hand has its RakeEntry (R-RAKE-2); the admin previews."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.admin import rake_preview_lines
from tables.models import RakeEntry, RakeSchedule
from tests.factories import PlayerFactory, StaffFactory, log_in_staff
from tests.history_hands import hold_scheduling, raked_hand
from tests.table_factories import make_table

pytestmark = pytest.mark.django_db

SMALL = "$0.50/$1 and $1/$2"
MIDDLE = "$2/$4 to $10/$20"
HIGH = "$15/$30 and $20/$40"

# (schedule, players, pot in cents, rake in cents) straight from the RULES.md table.
CASES = [
    # $0.50/$1, $1/$2, 2-10 players: $0.25 per full $5 of pot, max $1.
    (SMALL, 2, 499, 0),
    (SMALL, 2, 500, 25),
    (SMALL, 10, 999, 25),
    (SMALL, 10, 1000, 50),
    (SMALL, 5, 1500, 75),
    (SMALL, 5, 2000, 100),
    (SMALL, 8, 10_000, 100),  # max $1
    # $2/$4 to $10/$20
    (MIDDLE, 2, 1999, 0),
    (MIDDLE, 2, 2000, 100),  # 2-3: $1 at $20
    (MIDDLE, 3, 50_000, 100),  # max $1
    (MIDDLE, 4, 1999, 0),
    (MIDDLE, 4, 2000, 100),  # 4-5: $1 at $20
    (MIDDLE, 5, 3999, 100),
    (MIDDLE, 5, 4000, 200),  # $1 more at $40
    (MIDDLE, 5, 50_000, 200),  # max $2
    (MIDDLE, 6, 2000, 100),  # 6+: $1 at $20, $40, $60
    (MIDDLE, 6, 4000, 200),
    (MIDDLE, 8, 5999, 200),
    (MIDDLE, 8, 6000, 300),
    (MIDDLE, 8, 50_000, 300),  # max $3
    # $15/$30, $20/$40
    (HIGH, 3, 3999, 0),
    (HIGH, 3, 4000, 100),  # 2-3: $1 at $40, max $1
    (HIGH, 2, 90_000, 100),
    (HIGH, 4, 4000, 100),  # 4-5: $1 at $40, $1 more at $70
    (HIGH, 5, 6999, 100),
    (HIGH, 5, 7000, 200),
    (HIGH, 4, 90_000, 200),  # max $2
    (HIGH, 6, 4000, 100),  # 6+: $1 at $40, $70, $100
    (HIGH, 7, 7000, 200),
    (HIGH, 8, 9999, 200),
    (HIGH, 8, 10_000, 300),
    (HIGH, 8, 90_000, 300),  # max $3
]


@pytest.mark.parametrize(("name", "players", "pot", "rake"), CASES)
def test_rules_rake_table_seeded_schedule_gives_the_rules_amount(name, players, pot, rake):
    schedule = RakeSchedule.objects.get(name=name).to_engine()
    assert schedule.rake_for(pot, players) == rake


def test_r_rake_2_a_raked_hand_has_its_rake_entry_with_table_stakes_and_players(monkeypatch):
    hold_scheduling(monkeypatch)
    schedule = RakeSchedule.objects.get(name=SMALL)
    table = make_table(rake_schedule=schedule)
    played = raked_hand(table=table)
    result = played.engine.result
    assert result is not None and result.rake > 0
    entry = RakeEntry.objects.get(hand=played.hand)
    pot = sum(p.amount for p in result.pots)
    assert entry.amount == result.rake == schedule.to_engine().rake_for(pot, 3)
    assert (entry.table, entry.small_bet, entry.big_bet, entry.players, entry.schedule) == (
        table,
        100,
        200,
        3,
        schedule,
    )


def test_r_rake_3_an_unraked_table_writes_no_entry(monkeypatch):
    hold_scheduling(monkeypatch)
    played = raked_hand(table=make_table(rake_schedule=None))
    assert played.engine.result is not None and played.engine.result.rake == 0
    assert not RakeEntry.objects.filter(hand=played.hand).exists()


def test_the_admin_previews_what_a_schedule_takes():
    lines = rake_preview_lines(RakeSchedule.objects.get(name=MIDDLE))
    assert "pot $40.00, 5 players: $2.00" in lines
    assert "pot $39.99, 4 players: $1.00" in lines
    assert "pot $60.00, 6 players: $3.00" in lines
    staff = StaffFactory()
    client = Client()
    log_in_staff(client, staff)
    schedule = RakeSchedule.objects.get(name=MIDDLE)
    page = client.get(reverse("admin:tables_rakeschedule_change", args=[schedule.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "pot $40.00, 5 players: $2.00" in body and "tiers" in body.lower()


def test_players_cannot_open_the_rake_schedule_admin():
    client = Client()
    client.force_login(PlayerFactory())
    schedule = RakeSchedule.objects.get(name=MIDDLE)
    response = client.get(reverse("admin:tables_rakeschedule_change", args=[schedule.pk]))
    assert response.status_code == 302 and "login" in response["Location"]
