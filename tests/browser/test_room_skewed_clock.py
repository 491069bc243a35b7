"""Issue #12: the countdown comes from the server's `ms_left`, counted on the browser's
monotonic clock, so a machine whose wall clock is off still shows the time left."""

from __future__ import annotations

import pytest

from tables.models import Table
from tests.browser import steps
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page's wall clock (Date.now(), new Date()) an hour ahead of the server's.
AN_HOUR_AHEAD = """(() => {
  const skew = 3600 * 1000;
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  class SkewedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + skew);
      else super(...args);
    }
    static now() { return realNow() + skew; }
  }
  window.Date = SkewedDate;
})();"""


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    """No hand is dealt by the server while the next test's database is being reset."""
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def test_a_client_whose_clock_is_an_hour_ahead_still_counts_down_the_turn(new_context):
    """R-TIME-1's 30 seconds: the player whose computer's clock is an hour fast sees them
    counting down, not "0s" (the deadline an hour in the past by that clock)."""
    table = make_table(name="Skewed", action_clock=30)
    pages = []
    for number, name in enumerate(("ann", "ben"), start=1):
        funded(PlayerFactory(username=name), 10_000)
        context = new_context()
        if name == "ann":
            context.add_init_script(AN_HOUR_AHEAD)
        page = context.new_page()
        steps.log_in(page, name)
        steps.open_table(page, table.pk)
        steps.sit(page, number, "20")
        pages.append(page)
    ann = pages[0]
    assert ann.evaluate("Date.now() - performance.timeOrigin - performance.now()") > 3_500_000
    ann.locator(".seat.mine .card.hole").nth(1).wait_for()
    countdown = ann.locator(".seat.to-act [data-countdown]")
    countdown.wait_for()
    ann.wait_for_function("el => /^\\d+s$/.test(el.textContent)", arg=countdown.element_handle())
    seconds = int(countdown.inner_text().rstrip("s"))
    assert 15 < seconds <= 30
