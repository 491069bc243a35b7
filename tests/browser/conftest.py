"""The browser suite: Debian's Chromium through Playwright against a real Daphne.

One Daphne subprocess serves the whole suite, started once the test database exists and
pointed at it (SQLite: the test database is a file, var/test.sqlite3; PostgreSQL in CI: the
test_<name> database). The subprocess runs with REDIS_URL unset, so the channel layer and the
Celery tasks (action clock, next hand) run in-process inside that one server: no worker is
needed, and the test process itself never touches the channel layer. Tests are transactional
(`transaction=True`) so the server sees every row the test writes.

That server's clock sweep runs on the test database too: a test that plays or dates hands
itself holds their tables off it with `sweep_hold` (tables/services/scheduling.py
`sweep_hold`).

Every page a test opens records console errors and uncaught exceptions; a test that leaves
any fails (issue #5: no errors in the browser console).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.sweep_hold import SweepHold
from tests.room_processes import daphne, room_env

CHROMIUM = (
    os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE")
    or os.environ.get("POKERROOM_CHROMIUM")
    or "/usr/bin/chromium"
)
# Screenshots of every open page when a browser test fails.
FAILURES = Path(__file__).resolve().parents[2] / "var" / "browser-failures"


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reason = "playwright is not installed"
    if reason is None and shutil.which(CHROMIUM) is None and not os.path.exists(CHROMIUM):
        reason = f"no Chromium at {CHROMIUM}"
    if reason is None:
        return
    if os.environ.get("POKERROOM_REQUIRE_SERVICES") == "1":
        return  # CI installs Chromium: there a missing browser fails the tests, never skips
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="package")
def sweep_hold_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file the browser server's clock sweep reads its test hold from (`SweepHold`)."""
    return tmp_path_factory.mktemp("sweep-hold") / "held-tables"


@pytest.fixture(scope="package")
def decks_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file the browser server deals its next stacked decks from (`stacked_decks`)."""
    return tmp_path_factory.mktemp("stacked-decks") / "decks"


@pytest.fixture(scope="package")
def room_url(
    django_db_setup: Any, django_db_blocker: Any, sweep_hold_file: Path, decks_file: Path
) -> Iterator[str]:
    """A Daphne serving the room on the test database, for the whole browser suite: the
    room's settings plus the MD5 hasher and the sweep's test hold
    (tests/browser/server_settings.py), embedded (no REDIS_URL, so the channel layer and the
    Celery tasks live in that one process), with the Content-Security-Policy of production
    on: a page that breaks it logs a console error."""
    env = room_env(
        settings_module="tests.browser.server_settings",
        DEBUG="1",
        CSP_ENABLED="1",
        # R-ANTE-1's prompt (only when a player posts antes by hand): long enough for a test
        # to reload a page and read the countdown on a busy machine.
        ANTE_CONFIRM_SECONDS="8",
        BROWSER_TESTS_SWEEP_HOLD_FILE=str(sweep_hold_file),
        BROWSER_TESTS_DECKS_FILE=str(decks_file),
    )
    with django_db_blocker.unblock(), daphne(env) as url:
        yield url


@pytest.fixture
def stacked_decks(room_url: str, decks_file: Path) -> Iterator[Any]:
    """Writes the decks the browser server deals next (tests/browser/stacked_decks.py); what a
    test left undealt is dropped at its end, so the next test's hands are shuffled."""
    from tests.browser.stacked_decks import write_decks

    yield lambda *decks: write_decks(decks_file, list(decks))
    write_decks(decks_file, [])


@pytest.fixture
def sweep_hold(room_url: str, sweep_hold_file: Path) -> Iterator[SweepHold]:
    """`SweepHold` for this test. At its end the held tables are closed and their clocks
    taken off before the hold is lifted, so the sweep never applies a deadline the test
    left behind (a hand dated days ago, a table parked between hands)."""
    hold = SweepHold(sweep_hold_file)
    try:
        yield hold
    finally:
        if hold.held:
            # `new_context` quiets the whole room after a page's test, and lets it settle.
            _quiet_the_room(hold.held, settle=0)
        hold.release()


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """Chromium for this package only: Playwright's sync API runs an event loop in this
    thread, so it stops before the rest of the suite (asyncio tests) runs, and Django's
    async-safety check is relaxed only while it runs (the ORM calls here are plain sync)."""
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


class ConsoleErrors:
    """Console errors and page errors of every page opened through `new_page`."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Any) -> None:
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"{page.url}: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))


@pytest.fixture
def console_errors() -> ConsoleErrors:
    return ConsoleErrors()


@pytest.fixture
def new_context(
    request: pytest.FixtureRequest, browser: Any, room_url: str, console_errors: ConsoleErrors
) -> Iterator[Any]:
    """Opens a fresh browser context (one player's cookies); pages report console errors."""
    contexts: list[Any] = []

    def open_context(width: int = 1440, height: int = 900) -> Any:
        context = browser.new_context(
            base_url=room_url, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(15_000)
        context.on("page", console_errors.watch)
        contexts.append(context)
        return context

    yield open_context
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        FAILURES.mkdir(parents=True, exist_ok=True)
        for c, context in enumerate(contexts):
            for p, page in enumerate(context.pages):
                page.screenshot(path=str(FAILURES / f"{request.node.name}-{c}-{p}.png"))
    for context in contexts:
        context.close()
    _quiet_the_room()
    assert console_errors.errors == [], "\n".join(console_errors.errors)


def _quiet_the_room(table_ids: set[int] | None = None, *, settle: float = 1.5) -> None:
    """Before the test database is flushed, stop the server writing to it.

    The server goes on by itself (clocks run out, the next hand is dealt, closed pages
    disconnect): a write racing PostgreSQL's TRUNCATE of the flush can deadlock it. Close the
    tables (`table_ids`: only those), take the clocks off the hands and the seat offers and
    give the server a moment to finish what it is doing."""
    from tables.models import Hand, Table, WaitingListEntry

    tables, hands = Table.objects.all(), Hand.objects.filter(ended_at__isnull=True)
    offers = WaitingListEntry.objects.exclude(offered_until=None)
    if table_ids is not None:
        tables = tables.filter(pk__in=table_ids)
        hands, offers = hands.filter(table_id__in=table_ids), offers.filter(table_id__in=table_ids)
    tables.update(is_open=False, next_hand_at=None)
    hands.update(action_deadline=None)
    offers.update(offered_until=None)
    time.sleep(settle)
