"""Issue #16: the staff dashboard in Chromium, under the Content-Security-Policy: the rake
chart is drawn by the vendored Chart.js, the figures refresh by themselves, and the page is
photographed for docs/operations.md."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from tables.models import Hand, RakeEntry, RakeSchedule, RakeTier, Table
from tests.browser.test_content_security_policy import PolicyWatch
from tests.factories import PASSWORD, PlayerFactory
from tests.history_hands import hold_scheduling, raked_hand
from tests.table_factories import make_table, seated_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
# As the room's screenshots: docs/screenshots/ only when asked for (POKERROOM_UPDATE_SCREENSHOTS),
# so a test run leaves no tracked file modified; otherwise the untracked var/screenshots/.
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("POKERROOM_UPDATE_SCREENSHOTS") == "1"
    else ROOT / "var" / "screenshots"
)


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    """No hand is dealt by the server while the next test's database is being reset."""
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def test_staff_see_the_rake_chart_and_live_figures_without_a_policy_violation(
    new_context, monkeypatch: pytest.MonkeyPatch
) -> None:
    hold_scheduling(monkeypatch)
    # Made here: a transactional test's flush removes the schedules the migrations seeded.
    small = RakeSchedule.objects.create(name="Dashboard $1/$2", min_small_bet=50, max_small_bet=100)
    RakeTier.objects.create(schedule=small, min_players=2, amount=25, every=500, cap=100)
    aces = make_table(name="Aces", rake_schedule=small)
    now = timezone.now()
    # Played now (the room's Daphne runs the clock sweep on this database: a hand dated days
    # ago would have its deadlines applied by it mid-play), then dated to its day.
    played = None
    for days_ago in (6, 4, 3, 1, 0):
        played = raked_hand(table=aces, players=None if played is None else played.players)
        Table.objects.filter(pk=aces.pk).update(next_hand_at=None)
        when = now - timedelta(days=days_ago)
        Hand.objects.filter(pk=played.hand.pk).update(started_at=when, ended_at=when)
        RakeEntry.objects.filter(hand=played.hand).update(created_at=when)
    Table.objects.filter(pk=aces.pk).update(is_open=False, next_hand_at=None)
    staff = PlayerFactory(username="floorboss", is_staff=True, is_superuser=True)
    watch = PolicyWatch()

    page = watch.watch(new_context(1280, 900)).new_page()
    page.goto("/admin/login/")
    page.locator("input[name=username]").fill(staff.username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/admin/$"))
    assert page.get_by_test_id("room-figures").is_visible()
    page.get_by_role("link", name="Open the live dashboard").click()
    page.wait_for_url(re.compile(r"/staff/dashboard/$"))

    chart = page.locator("canvas#rake-chart[data-rendered=yes]")
    chart.wait_for()
    drawn = page.evaluate(
        """() => {
          const canvas = document.getElementById("rake-chart");
          const chart = window.Chart.getChart(canvas);
          const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
          let painted = 0;
          for (let i = 3; i < pixels.data.length; i += 4) if (pixels.data[i] > 0) painted += 1;
          return {bars: chart.data.datasets[0].data.length, nonzero:
            chart.data.datasets[0].data.filter((value) => value > 0).length,
            width: canvas.width, painted};
        }"""
    )
    assert drawn["bars"] == 30 and drawn["nonzero"] == 5
    assert drawn["width"] > 0 and drawn["painted"] > 1000  # bars and axes on the canvas
    assert page.get_by_test_id("players-seated").inner_text() == "3"

    # The page polls: two players sit down at another table and the figure follows.
    queens = make_table(name="Queens")
    seated_player(queens, username="newcomer1")
    seated_player(queens, username="newcomer2")
    page.get_by_test_id("players-seated").filter(has_text=re.compile("^5$")).wait_for()
    Table.objects.filter(pk=queens.pk).update(is_open=False, next_hand_at=None)

    page.wait_for_load_state("networkidle")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "staff-dashboard.png"), full_page=True)
    assert watch.violations == []
