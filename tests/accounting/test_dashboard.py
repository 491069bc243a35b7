"""Issue #16: the staff dashboard's figures from a room set up by hand, with the clock held:
players online and seated, tables running, hands per hour, rake today against the days
before, money in play (the chip audit's figures), the largest pots today, all-in protections
used today (R-TIME-2), players sat out by time-outs (R-SIT-1), the room's health. The JSON
endpoint and the page say the same; staff only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounting.dashboard import room_dashboard
from accounts.models import Player
from accounts.selectors import balances_total
from accounts.services import all_in_protection_take
from stud import StudHand
from tables import services
from tables.models import Hand, RakeSchedule, Seat
from tables.selectors import room_chip_totals
from tests.factories import PlayerFactory, StaffFactory, log_in_staff
from tests.history_hands import PlayedTable, hold_scheduling, raked_hand
from tests.table_factories import act, make_table, running_hand, seated_player, stacked_deck
from tests.tables.test_tables_hand_flow import ALICE_WINS

pytestmark = pytest.mark.django_db

# Noon in New York on 15 March 2025 (EDT): the room's day is the 15th.
NOW = datetime(2025, 3, 15, 16, 0, tzinfo=UTC)
THREE_DAYS_AGO = NOW - timedelta(days=3)


def pot_of(hand: Hand) -> int:
    """What the hand's pots held: every chip awarded plus the rake."""
    result = StudHand.from_json(hand.state).result
    assert result is not None
    return sum(award.amount for pot in result.pots for award in pot.awards) + result.rake


def rake_of(played: PlayedTable) -> int:
    result = played.engine.result
    assert result is not None
    return result.rake


@dataclass
class Room:
    raked_today: PlayedTable
    raked_earlier: PlayedTable
    protected_hand: Hand
    running: Hand
    offline: Player
    sat_out: Player


@pytest.fixture
def room(monkeypatch: pytest.MonkeyPatch) -> Room:
    """Three tables: "Aces" raked a hand three days ago and one today (half an hour ago);
    at "Kings" alice times out facing a bet five minutes ago and her all-in protection keeps
    her in (the hand is dealt out and ends); at "Queens" a hand is in play. One seated player
    is not connected; one was sat out for timing out on two hands in a row."""
    hold_scheduling(monkeypatch)
    small = RakeSchedule.objects.get(name="$0.50/$1 and $1/$2")
    aces = make_table(name="Aces", rake_schedule=small)
    earlier = raked_hand(table=aces, now=THREE_DAYS_AGO)
    today = raked_hand(table=aces, now=NOW - timedelta(minutes=30), players=earlier.players)

    kings = make_table(name="Kings")
    alice = seated_player(kings, seat_number=1, username="alice")
    bob = seated_player(kings, seat_number=2, username="bob")
    dealt = NOW - timedelta(minutes=5)
    assert services.hand_start(table_id=kings.pk, deck=stacked_deck(ALICE_WINS), now=dealt).ok
    protected = running_hand(kings)
    assert act(kings, bob, "complete", 100, now=dealt).ok  # alice faces a bet
    assert services.hand_time_out(
        hand_id=protected.pk,
        expected_seq=running_hand(kings).seq,
        now=dealt + timedelta(seconds=11),
    ).ok
    protected.refresh_from_db()
    assert protected.ended_at is not None  # all-in protected, dealt out
    alice.refresh_from_db()
    assert alice.all_ins_used == 1
    # A protection used on an earlier New York day is not today's.
    all_in_protection_take(player_id=bob.pk, now=THREE_DAYS_AGO)

    queens = make_table(name="Queens")
    carol = seated_player(queens, seat_number=1, username="carol")
    seated_player(queens, seat_number=2, username="dave")
    assert services.hand_start(table_id=queens.pk, now=NOW - timedelta(minutes=1)).ok

    # Set-up by hand, as the consumer and the clock would leave them.
    Seat.objects.filter(player=carol).update(connected=False)
    sat_out = earlier.players[3]
    Seat.objects.filter(player=sat_out).update(sitting_out=True, timeouts_in_a_row=2)
    return Room(today, earlier, protected, running_hand(queens), carol, sat_out)


def test_the_figures_of_a_room_set_up_by_hand(room: Room) -> None:
    figures = room_dashboard(now=NOW)

    # seven players seated at three tables, carol not connected, one sat out
    assert figures["players"]["seated"] == 7
    assert figures["players"]["online"] == 6
    assert figures["players"]["sitting_out"] == 1
    # running: Queens' hand in play and Kings, whose hand ended five minutes ago (between
    # hands); not Aces, whose last hand ended half an hour ago (issue #21 item 6)
    assert figures["tables"] == {"open": 3, "running": 2, "hands_per_hour": 2, "hands_today": 2}

    # rake: today's hand at Aces against the 30 days, today last
    days = figures["rake"]["days"]
    assert len(days) == 30 and days[-1] == {"day": "2025-03-15", "rake": rake_of(room.raked_today)}
    assert days[-4] == {"day": "2025-03-12", "rake": rake_of(room.raked_earlier)}
    assert sum(day["rake"] for day in days) == rake_of(room.raked_today) + rake_of(
        room.raked_earlier
    )
    assert figures["rake"]["today"] == rake_of(room.raked_today) > 0
    # the average over the four days from the first that raked, today included: never
    # "$0.00 a day" beside a day's rake (issue #21 item 6)
    assert figures["rake"]["average_days"] == 4
    raked = rake_of(room.raked_earlier) + rake_of(room.raked_today)
    assert figures["rake"]["average"] == raked // 4

    # money in play: the chip audit's own figures; Queens' antes are in the pot
    chips = room_chip_totals()
    assert figures["money"] == {
        "wallets": balances_total(),
        "on_tables": chips["on_tables"],
        "in_pots": 20,
        "total": balances_total() + chips["on_tables"] + 20,
    }

    # the largest pots today: both hands that ended today, the larger first
    pots = [(pot["table"], pot["hand_id"], pot["pot"]) for pot in figures["largest_pots"]]
    expected = sorted(
        [
            ("Aces", room.raked_today.hand.pk, pot_of(room.raked_today.hand)),
            ("Kings", room.protected_hand.pk, pot_of(room.protected_hand)),
        ],
        key=lambda row: -row[2],
    )
    assert pots == expected

    assert figures["all_in_protections_today"] == 1
    assert figures["timed_out"] == {
        "count": 1,
        "seats": [
            {
                "player": room.sat_out.table_name,
                "player_id": room.sat_out.pk,
                "table": "Aces",
                "seat": 3,
            }
        ],
    }
    assert figures["health"]["ok"] is True
    assert figures["health"]["database"]["ok"] is True


def test_the_next_new_york_day_starts_from_nothing(room: Room) -> None:
    tomorrow = room_dashboard(now=NOW + timedelta(days=1))
    assert tomorrow["rake"]["today"] == 0
    assert tomorrow["largest_pots"] == []
    assert tomorrow["all_in_protections_today"] == 0
    assert tomorrow["tables"]["hands_per_hour"] == 0


def test_staff_read_the_figures_as_json_and_on_the_page(client: Client, room: Room) -> None:
    log_in_staff(client, StaffFactory())

    data: dict[str, Any] = client.get(reverse("staff_dashboard_data")).json()
    assert data["players"]["seated"] == 7
    assert data["tables"]["running"] == 1  # the page's now: Kings' hand ended long before
    assert data["money"]["in_pots"] == 20
    assert len(data["rake"]["days"]) == 30

    page = client.get(reverse("staff_dashboard"))
    assert page.status_code == 200
    text = page.text
    assert 'data-testid="players-seated">7<' in text
    assert 'data-testid="tables-running">1<' in text
    assert 'data-testid="money-in-pots">$0.20<' in text
    assert '<canvas id="rake-chart"' in text
    assert 'id="dashboard-figures" type="application/json"' in text
    assert "vendor/chart.js/chart.umd.min.js" in text
    assert "<script>" not in text  # CSP: no inline script, the data is JSON


def test_the_admin_index_shows_the_headline_figures(client: Client, room: Room) -> None:
    log_in_staff(client, StaffFactory())
    text = client.get(reverse("admin:index")).text
    assert 'data-testid="room-figures"' in text
    assert reverse("staff_dashboard") in text
    assert "<span>Seated</span><strong>7</strong>" in text
    assert "<span>Tables running</span><strong>1 / 3</strong>" in text


def test_players_get_no_dashboard(client: Client) -> None:
    client.force_login(PlayerFactory())
    page = client.get(reverse("staff_dashboard"))
    assert page.status_code == 302 and "/admin/login/" in page["Location"]
    data = client.get(reverse("staff_dashboard_data"))
    assert data.status_code == 403 and data.json() == {"error": "Accountants only."}
    client.logout()
    assert client.get(reverse("staff_dashboard_data")).status_code == 403
