"""Issue #16: the rake report's charts in Chromium, under the Content-Security-Policy.

Staff open the rake report on a month with hands at two stakes and both games and a
tournament fee: the charts (Chart.js served from static/vendor, the figures from the page's
JSON data block, the code in static/js/rake_report.js) draw on their canvases, nothing breaks
the policy, and the page is saved as docs/screenshots/rake-report.png (with
POKERROOM_UPDATE_SCREENSHOTS=1; otherwise to var/screenshots/).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from accounts.models import LedgerKind
from accounts.services import wallet_debit
from tables.models import RakeSchedule, RakeTier
from tests.browser import steps
from tests.browser.test_content_security_policy import PolicyWatch
from tests.factories import PlayerFactory, funded
from tests.history_hands import hold_scheduling, raked_hand
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("POKERROOM_UPDATE_SCREENSHOTS") == "1"
    else ROOT / "var" / "screenshots"
)

# How many pixels of a canvas are painted (not transparent): a chart drew something.
PAINTED_PIXELS = """
(canvas) => {
  const context = canvas.getContext("2d");
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  let painted = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted += 1;
  return painted;
}
"""


@pytest.fixture
def month_of_hands(monkeypatch: pytest.MonkeyPatch, sweep_hold) -> None:
    """Hands played in the test process (no clock, no broadcast) on several days of March
    2025 at $1/$2 and $0.50/$1, Stud and Stud Hi/Lo, and a $5 tournament fee. Their tables
    are held off the server's clock sweep: their deadlines, in March 2025, are long passed."""
    hold_scheduling(monkeypatch)
    monkeypatch.setattr("tables.services.outbox.broadcast", lambda **kwargs: None)
    # Made here: a transactional test's flush removes the schedules the migrations seeded.
    small = RakeSchedule.objects.create(name="Chart $0.50/$1", min_small_bet=50, max_small_bet=100)
    RakeTier.objects.create(schedule=small, min_players=2, amount=25, every=500, cap=100)
    tables = [
        make_table(name="Chart Aces", rake_schedule=small),
        make_table(name="Chart Kings", rake_schedule=small, small_bet=50, big_bet=100, bring_in=10),
        make_table(name="Chart Hi-Lo", game="stud8", rake_schedule=small),
    ]
    sweep_hold.tables(*tables)
    players: dict[int, Any] = {}
    for day, table in [(3, 0), (4, 1), (4, 0), (6, 2), (7, 0), (9, 1), (10, 2), (10, 0)]:
        played = raked_hand(
            table=tables[table],
            now=datetime(2025, 3, day, 18, 0, tzinfo=UTC),
            players=players.get(table),
        )
        players[table] = played.players
    player = PlayerFactory()
    funded(player, 2_000)
    monkeypatch.setattr("django.utils.timezone.now", lambda: datetime(2025, 3, 8, 18, tzinfo=UTC))
    wallet_debit(
        player_id=player.pk, amount=500, kind=LedgerKind.TOURNAMENT_FEE, reference="tournament:1"
    )


def test_the_rake_report_draws_its_charts_under_the_policy(new_context, month_of_hands):
    staff = PlayerFactory(username="chartboss", is_staff=True, is_superuser=True)
    watch = PolicyWatch()
    page = watch.watch(new_context()).new_page()
    steps.log_in_staff(page, staff)
    page.wait_for_url("**/admin/")

    response = page.goto("/staff/rake/?first_day=2025-03-01&last_day=2025-03-12&group_by=day")
    assert response is not None and response.ok
    assert "script-src 'self'" in response.headers.get("content-security-policy", "")
    page.locator("body[data-charts-drawn='3']").wait_for()

    for chart in ("chart-rake-per-day", "chart-rake-per-stakes", "chart-rake-per-game"):
        canvas = page.locator(f"#{chart}")
        assert canvas.bounding_box()["height"] > 100, chart
        assert canvas.evaluate(PAINTED_PIXELS) > 500, f"{chart} is blank"
    assert page.locator("[data-testid=total-hands-dealt]").inner_text() == "8"
    assert page.locator("[data-testid=total-tournament-fees]").inner_text() == "$5.00"
    assert watch.violations == []
    assert [line for line in watch.console if line.startswith(("error", "warning"))] == []

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "rake-report.png"), full_page=True)
