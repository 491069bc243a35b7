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
from playwright.sync_api import expect

from tables.models import RakeSchedule, RakeTier
from tests.browser import steps
from tests.browser.test_content_security_policy import PolicyWatch
from tests.factories import PlayerFactory
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


def test_staff_see_the_rake_chart_and_live_figures_without_a_policy_violation(
    new_context, monkeypatch: pytest.MonkeyPatch, sweep_hold
) -> None:
    """The hands are played in the test process on their days, their table held off the
    server's clock sweep (their deadlines are days old)."""
    hold_scheduling(monkeypatch)
    # Made here: a transactional test's flush removes the schedules the migrations seeded.
    small = RakeSchedule.objects.create(name="Dashboard $1/$2", min_small_bet=50, max_small_bet=100)
    RakeTier.objects.create(schedule=small, min_players=2, amount=25, every=500, cap=100)
    aces = make_table(name="Aces", rake_schedule=small)
    sweep_hold.tables(aces)
    now = timezone.now()
    played = None
    for days_ago in (6, 4, 3, 1, 0):
        played = raked_hand(
            table=aces,
            now=now - timedelta(days=days_ago),
            players=None if played is None else played.players,
        )
    staff = PlayerFactory(username="floorboss", is_staff=True, is_superuser=True)
    watch = PolicyWatch()

    page = watch.watch(new_context(1280, 900)).new_page()
    steps.log_in_staff(page, staff)
    page.wait_for_url(re.compile(r"/admin/$"))
    expect(page.get_by_test_id("room-figures")).to_be_visible()
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
    expect(page.get_by_test_id("players-seated")).to_have_text("3")

    # The page polls: two players sit down at another table and the figure follows.
    queens = make_table(name="Queens")
    sweep_hold.tables(queens)  # no hand dealt there: the screenshot shows the five hands
    seated_player(queens, username="newcomer1")
    seated_player(queens, username="newcomer2")
    # The page polls every POLL_SECONDS (5 s), as long as expect's default wait: give it three.
    expect(page.get_by_test_id("players-seated")).to_have_text("5", timeout=20_000)

    page.wait_for_load_state("networkidle")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "staff-dashboard.png"), full_page=True)
    assert watch.violations == []
