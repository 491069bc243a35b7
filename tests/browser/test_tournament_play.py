"""A tournament in the browser (issue #13): a player registers and buys the add-on by
clicking, is taken to their table when it starts, sees the level clock in chips, is moved
when the tables merge (R-TOUR-4) with a notice, and wins; a second player, followed in a
second browser, is knocked out. Each sees their place (R-TOUR-7) live and again after a
reload of the table they finished at.

The other eight players are driven through the services by the test process
(tests/tournaments/tui_driver.py), which holds every task, so the tournament moves only when
the test steps it. Its broadcasts must reach the browser: this module's Daphne and the test
share a Redis of their own (the suite's other Daphne runs embedded, its channel layer in its
own memory). Screenshots of the tournament lobby and a tournament table at 390 and 1440 px.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from stud.tournament import LevelSpec
from tables.models import Hand, Seat, Table
from tables.services import scheduling
from tests.browser import steps
from tests.factories import PlayerFactory, funded
from tests.room_processes import daphne, private_redis, room_env
from tests.tournaments.play_helpers import (
    SEATING,
    T0,
    deal,
    open_tables,
    play_out,
    seats_of,
    stakes,
    started,
    tournament_clock_sweep,
)
from tests.tournaments.tui_driver import tournament_step
from tournaments.models import Tournament, TournamentEntry, TournamentTable
from tournaments.services.clock import tournament_clock_tick
from tournaments.services.entries import tournament_create, tournament_register
from tournaments.services.play import tournament_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("POKERROOM_UPDATE_SCREENSHOTS") == "1"
    else ROOT / "var" / "screenshots"
)
# Seconds between the test's steps, so the pages draw what each step sent.
STEP_PAUSE = 0.05


@pytest.fixture(scope="module")
def tournament_room(django_db_setup: Any, django_db_blocker: Any) -> Iterator[tuple[str, str]]:
    """A Daphne on the test database and a private Redis (its channel layer and broker);
    no worker: the test drives everything."""
    with private_redis() as redis:
        env = room_env(
            settings_module="tests.browser.server_settings",
            DEBUG="1",
            CSP_ENABLED="1",
            REDIS_URL=redis.url,
        )
        with django_db_blocker.unblock(), daphne(env) as url:
            yield url, redis.url


@pytest.fixture
def room(
    tournament_room: tuple[str, str], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """The test process broadcasts on the room's Redis and sends no task. Playwright runs an
    event loop in this thread, so the broadcasts go out on a loop of their own (as in a
    Celery worker: tables.services.broadcast's own loop), stopped after the test."""
    url, redis_url = tournament_room
    loop = asyncio.new_event_loop()
    carrier = threading.Thread(target=loop.run_forever, name="test-broadcasts", daemon=True)
    carrier.start()
    monkeypatch.setattr(import_module("tables.services.broadcast"), "_own_loop", loop)
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": redis_url, "socket_timeout": None}]},
        }
    }
    monkeypatch.setattr(scheduling, "task_send", lambda *args, **kwargs: None)
    monkeypatch.setattr(scheduling, "task_send_at", lambda *args, **kwargs: None)
    yield url
    Table.objects.update(is_open=False, next_hand_at=None)
    time.sleep(0.5)
    loop.call_soon_threadsafe(loop.stop)
    carrier.join(timeout=5)


@pytest.fixture
def open_page(browser: Any, room: str) -> Iterator[Any]:
    contexts: list[Any] = []
    errors: list[str] = []

    def open_one(width: int = 1440, height: int = 900) -> Any:
        context = browser.new_context(base_url=room, viewport={"width": width, "height": height})
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_one
    for context in contexts:
        context.close()
    # A page going to its new table may cut its sockets mid-handshake: not an error.
    assert [e for e in errors if "WebSocket" not in e] == []


def table_of(player: Player) -> int | None:
    seat = Seat.objects.filter(player=player, table__is_tournament=True).first()
    return None if seat is None else seat.table_id


def test_a_player_registers_plays_is_moved_at_the_merge_and_finishes_placed(open_page):
    tournament = tournament_create(
        name="Stud Sit and Go",
        staff=None,
        preset="turbo",
        settings={"starting_chips": 40, "add_on_chips": 400, "add_on_price": 1500},
    )
    field = [PlayerFactory() for _ in range(8)]
    for player in field:
        funded(player, 10_000)
        tournament_register(tournament_id=tournament.pk, player=player)
    me = PlayerFactory(username="tina")
    funded(me, 10_000)
    # Otto, one of the field, follows the tournament in a browser of his own.
    otto = field[0]
    otto_page = open_page()
    steps.log_in(otto_page, otto.username)
    otto_page.goto(f"/tournaments/{tournament.pk}/")
    otto_page.locator('[data-connection="online"]').wait_for()

    # The lobby's Tournaments tab; register and buy the add-on by clicking (R-TOUR-1).
    page = open_page()
    steps.log_in(page, "tina")
    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="Open tournament Stud Sit and Go").click()
    page.get_by_role("button", name="Register: $40.00").click()
    page.get_by_text("You are registered.").first.wait_for()
    page.get_by_role("button", name="Add-on: 400 chips for $15.00").click()
    page.get_by_text("Add-on bought.").first.wait_for()
    page.locator('[data-connection="online"]').wait_for()
    me.refresh_from_db()
    assert me.balance == 10_000 - 4000 - 1500

    # The draw (R-TOUR-2) takes the browser to the player's table.
    tournament_start(tournament_id=tournament.pk)
    first_table = table_of(me)
    page.wait_for_url(re.compile(rf"/tables/{first_table}/$"))
    otto_page.wait_for_url(re.compile(rf"/tables/{table_of(otto)}/$"))
    bar = page.locator("[data-tournament-bar]")
    bar.get_by_text("Stud Sit and Go").wait_for()
    expect(bar.locator("[data-t-level]")).to_have_text("1")
    expect(bar.locator("[data-t-limits]")).to_have_text("10/20")
    expect(bar.locator("[data-t-time]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    # Chips, not dollars: the 40 starting chips and the add-on's 400 (R-TOUR-1).
    page.locator(".seat.mine .stack").get_by_text("440", exact=True).wait_for()
    assert page.get_by_role("button", name="Leave table").count() == 0

    # Play: tina checks or folds, the others press; at 7 left the tables merge (R-TOUR-4).
    # Once moved, tina presses and the others check or fold: she wins every pot to the end.
    policy = lambda player_id: "timid" if player_id == me.pk else "press"  # noqa: E731
    # The screenshots mid-hand: the hand dealt and its first bets made.
    for _ in range(3):
        tournament_step(tournament.pk, policy)
    page.locator(".seat.mine .card").first.wait_for()
    shots(page, open_page, tournament)

    notices = notices_shown(page)
    where = first_table
    moved = 0
    for _ in range(400):
        going = tournament_step(tournament.pk, policy)
        time.sleep(STEP_PAUSE)
        now_at = table_of(me)
        if now_at is not None and now_at != where:
            number = TournamentTable.objects.get(table_id=now_at).number
            seat = Seat.objects.get(player=me, table_id=now_at).number
            # The notice shows for a moment (MOVE_NOTICE_MS) before the browser goes on: it
            # was on screen if the dialog opened with it before the page left.
            page.wait_for_url(re.compile(rf"/tables/{now_at}/$"))
            told = f"You were moved to table {number}, seat {seat}."
            assert any(told in notice for notice in notices), notices
            page.locator(".seat.mine").wait_for()
            where, moved = now_at, moved + 1
        if moved and TournamentEntry.objects.get(tournament=tournament, player=me).place:
            break
        if not going:
            break
        if moved:
            policy = lambda player_id: "press" if player_id == me.pk else "timid"  # noqa: E731
    assert moved, "tina was never moved"
    for _ in range(2000):
        if not tournament_step(tournament.pk, policy):
            break
        time.sleep(STEP_PAUSE)
    else:
        raise AssertionError("the tournament did not end")

    # The end: tina won (R-TOUR-7), and her table tells her, live and after a reload.
    entry = TournamentEntry.objects.get(tournament=tournament, player=me)
    assert entry.place == 1
    notice = page.locator("[data-notice]")
    expect(notice.get_by_role("heading")).to_have_text("You won the tournament")
    expect(notice).to_contain_text("You finished 1st.")
    page.reload()
    expect(notice).to_contain_text("You finished 1st.")
    # Otto was knocked out: his notice, wherever his browser was, names his place.
    place = TournamentEntry.objects.get(tournament=tournament, player=otto).place
    assert place is not None and place > 1
    otto_notice = otto_page.locator("[data-notice]")
    expect(otto_notice).to_contain_text(f"You finished {ordinal(place)}.")
    otto_page.reload()
    expect(otto_notice).to_contain_text(f"You finished {ordinal(place)}.")
    expect(otto_notice.get_by_role("heading")).to_have_text("You are out")
    # The results list every place.
    page.get_by_role("link", name="See the results").click()
    page.wait_for_url(re.compile(rf"/tournaments/{tournament.pk}/results/$"))
    mine = page.locator("tr.mine")
    assert mine.locator("td").first.inner_text() == str(entry.place)
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert page.locator("table.results tbody tr").count() == 9


# Level 1 is followed by a break, and the add-on closes at level 2's first hand (R-TOUR-1).
BREAK_THEN_ADD_ON_CLOSES = (
    LevelSpec(1, ante=5, bring_in=5, small_bet=10, big_bet=20, minutes=3, break_minutes=1),
    LevelSpec(2, ante=5, bring_in=10, small_bet=20, big_bet=40, minutes=3),
)


def hand_ended_between_hands(table_id: int) -> bool:
    return (
        Hand.objects.filter(table_id=table_id, ended_at__isnull=False).exists()
        and not Hand.objects.filter(table_id=table_id, ended_at__isnull=True).exists()
    )


def test_r_tour_1_in_the_break_the_tables_bar_offers_the_add_on_and_one_click_buys_it(
    open_page,
):
    """Issue #21 item 9: at the table, during the break before the add-on closes, the
    tournament bar shows the offer (400 chips for $15.00, its last chance) and a button;
    one click buys it, the player's chips show the 400 and the offer goes. Otto, who did not
    buy, keeps the offer through the break's end and sees it go when level 2's first hand
    is dealt, the deal that closes it. The clock is the test's: it jumps to the level's end,
    then to the break's (tournament_clock_sweep), and every deal is a step of the test."""
    tournament = tournament_create(
        name="Break Stud",
        staff=None,
        levels=BREAK_THEN_ADD_ON_CLOSES,
        settings={
            "starting_chips": 100,
            "add_on_chips": 400,
            "add_on_price": 1500,
            "add_on_until_level": 2,
        },
    )
    tina, otto, third = (PlayerFactory(username=name) for name in ("tina", "otto", "uma"))
    for player in (tina, otto, third):
        funded(player, 10_000)
        tournament_register(tournament_id=tournament.pk, player=player)
    tournament_start(tournament_id=tournament.pk)
    table_id = table_of(tina)
    assert table_id is not None and table_of(otto) == table_id  # three: one table
    pages = {}
    for player in (tina, otto):
        page = open_page()
        steps.log_in(page, player.username)
        page.goto(f"/tables/{table_id}/")
        page.locator('[data-connection="online"]').wait_for()
        page.locator("[data-tournament-bar]").get_by_text("Break Stud").wait_for()
        pages[player.username] = page
    # A hand dealt and played to its end; the table between hands.
    for _ in range(200):
        tournament_step(tournament.pk, lambda player_id: "timid")
        time.sleep(STEP_PAUSE)
        if hand_ended_between_hands(table_id):
            break
    else:
        raise AssertionError("no hand ended")

    # The level's time is up: the break (R-TOUR-5), the add-on's last chance.
    level_end = Tournament.objects.get(pk=tournament.pk).level_ends_at
    assert level_end is not None
    tournament_clock_sweep(now=level_end)
    page = pages["tina"]
    bar = page.locator("[data-tournament-bar]")
    expect(bar).to_have_attribute("data-mode", "break")
    offer = bar.locator("[data-t-add-on]")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("400 chips for $15.00")
    expect(offer).to_contain_text("closes when level 2's first hand is dealt")
    expect(page.locator("[data-break-banner]")).to_contain_text(
        "Last chance for the add-on (400 chips for $15.00)"
    )
    stack = Seat.objects.get(player=tina, table_id=table_id).stack
    mine = page.locator(".seat.mine .stack")
    expect(mine).to_have_text(str(stack))

    bar.get_by_role("button", name="Buy add-on").click()

    expect(page.locator("[data-toast]")).to_have_text("Add-on bought: 400 chips.")
    expect(mine).to_have_text(str(stack + 400))
    expect(offer).to_be_hidden()
    entry = TournamentEntry.objects.get(tournament=tournament, player=tina)
    assert entry.add_on_at is not None
    tina.refresh_from_db()
    assert tina.balance == 10_000 - tournament.buy_in - tournament.fee - 1500

    # Otto did not buy: the offer stays through the break's end, until level 2 is dealt.
    otto_offer = pages["otto"].locator("[data-tournament-bar] [data-t-add-on]")
    expect(otto_offer).to_be_visible()
    break_end = Tournament.objects.get(pk=tournament.pk).break_ends_at
    assert break_end is not None
    tournament_clock_sweep(now=break_end)
    otto_bar = pages["otto"].locator("[data-tournament-bar]")
    expect(otto_bar.locator("[data-t-level]")).to_have_text("2")
    expect(otto_offer).to_contain_text("until level 2")
    tournament_step(tournament.pk, lambda player_id: "timid")  # level 2's first hand

    assert Hand.objects.filter(table_id=table_id, ended_at__isnull=True).exists()
    expect(otto_offer).to_be_hidden()


# Every modal notice the page opens, told to the test as it opens (on this document and
# on each one the browser goes to after).
_TELL_NOTICES = """
(() => {
  const showModal = HTMLDialogElement.prototype.showModal;
  HTMLDialogElement.prototype.showModal = function () {
    showModal.call(this);
    window.roomNoticeShown(this.innerText);
  };
})();
"""


def notices_shown(page: Any) -> list[str]:
    """The texts of the notices the page shows from now on, across its navigations. Looking
    for the notice on screen after a step raced the page: the "moved" notice shows for
    MOVE_NOTICE_MS, then the browser goes to the new table, and a step of several tables on
    a loaded machine outlasted it (issue #21 item 12)."""
    shown: list[str] = []

    def told(text: str) -> None:
        shown.append(text)

    page.expose_function("roomNoticeShown", told)
    page.add_init_script(_TELL_NOTICES)
    page.evaluate(_TELL_NOTICES)
    return shown


def ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def shots(page: Any, open_page: Any, tournament: Tournament) -> None:
    """The README's: a tournament table (this page) and the Tournaments tab, 1440 and 390."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(300)
    page.screenshot(path=str(SCREENSHOTS / "tournament-table-1440.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    page.screenshot(path=str(SCREENSHOTS / "tournament-table-390.png"), full_page=True)
    page.set_viewport_size({"width": 1440, "height": 900})
    for width, height in ((1440, 900), (390, 844)):
        lobby = open_page(width, height)
        lobby.goto(f"/tournaments/{tournament.pk}/")
        lobby.locator('[data-connection="online"]').wait_for()
        lobby.screenshot(path=str(SCREENSHOTS / f"tournament-{width}.png"), full_page=True)
        lobby.goto("/tournaments/")
        lobby.get_by_text("Live").wait_for()
        lobby.screenshot(path=str(SCREENSHOTS / f"tournament-lobby-{width}.png"), full_page=True)
        # The TV clock: level, limits and the time left in large type, counting down.
        lobby.goto(f"/tournaments/{tournament.pk}/clock/")
        lobby.locator('[data-tv-clock][data-connection="online"]').wait_for()
        assert re.fullmatch(r"\d+:\d\d", lobby.locator("[data-time-left]").inner_text())
        assert lobby.locator("[data-limits]").inner_text() == "10/20"
        lobby.screenshot(path=str(SCREENSHOTS / f"tournament-clock-{width}.png"), full_page=True)
        lobby.context.close()


EQUAL_DEALS_FIRST = (
    LevelSpec(
        1,
        ante=25,
        bring_in=10,
        small_bet=25,
        big_bet=50,
        minutes=3,
        dealer_only_ante=True,
        equal_deals=True,
    ),
    LevelSpec(2, ante=10, bring_in=15, small_bet=30, big_bet=60, minutes=3),
)
WAITING = "Level ends when everyone has dealt equally"


def bar_reads(page: Any) -> dict[str, str]:
    """The tournament bar of a table's page as a player (or their screen reader) reads it:
    the text, not its capitals on screen; a hidden part reads as nothing."""
    bar = page.locator("[data-tournament-bar]")

    def read(selector: str) -> str:
        part = bar.locator(selector)
        return (part.text_content() or "").strip() if part.is_visible() else ""

    return {
        "level": read("[data-t-level]"),
        "limits": read("[data-t-limits]"),
        "antes": read("[data-t-ante]"),
        "time label": read("[data-t-time-label]"),
        "time": read("[data-t-time]"),
        "next": read("[data-t-next]"),
    }


def test_r_tour_6_while_a_table_waits_for_equal_deals_the_page_and_the_tables_bar_say_so(
    open_page,
):
    """Issue #28: past an equal-deals level's timer, a table whose players have not dealt
    equally deals on; the tournament's page and that table's bar say "Level ends when
    everyone has dealt equally" in place of the countdown (no time: it read "0:00" beside
    the words), with the level, limits and antes the table deals at. Once everyone there
    has dealt, the bar shows the level the table moved to, its limits and its time left. The
    clock is the test's: one hand is dealt (seat 1 deals), then it jumps to the level's end."""
    tournament = tournament_create(name="Equal Deals Stud", staff=None, levels=EQUAL_DEALS_FIRST)
    tina, otto, uma = (PlayerFactory(username=name) for name in ("tina", "otto", "uma"))
    for player in (tina, otto, uma):
        funded(player, 10_000)
        tournament_register(tournament_id=tournament.pk, player=player)
    tournament_start(tournament_id=tournament.pk)
    table_id = table_of(tina)
    assert table_id is not None
    for _ in range(200):
        tournament_step(tournament.pk, lambda player_id: "timid")
        time.sleep(STEP_PAUSE)
        if hand_ended_between_hands(table_id):
            break
    else:
        raise AssertionError("no hand ended")
    level_end = Tournament.objects.get(pk=tournament.pk).level_ends_at
    assert level_end is not None
    tournament_clock_sweep(now=level_end)  # the timer expires: seats 2 and 3 have not dealt
    assert Tournament.objects.get(pk=tournament.pk).level_timer_expired
    assert Table.objects.get(pk=table_id).dealer_only_ante  # the table deals on at level 1

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tables = {}
    for width, height in ((1440, 900), (390, 844)):
        page = open_page(width, height)
        steps.log_in(page, tina.username)
        page.goto(f"/tables/{table_id}/")
        page.locator('[data-connection="online"]').wait_for()
        bar = page.locator("[data-tournament-bar]")
        expect(bar.locator("[data-t-time-label]")).to_have_text(WAITING)
        assert bar_reads(page) == {
            "level": "1",
            "limits": "25/50",
            "antes": "25 (dealer only) · bring-in 10",
            "time label": WAITING,
            "time": "",  # the words stand in place of the countdown: no "0:00"
            "next": "30/60, ante 10",
        }
        bar.screenshot(path=str(SCREENSHOTS / f"equal-deals-bar-waiting-{width}.png"))
        page.screenshot(path=str(SCREENSHOTS / f"equal-deals-table-{width}.png"), full_page=True)
        tables[width] = page
        lobby = open_page(width, height)
        steps.log_in(lobby, tina.username)
        lobby.goto(f"/tournaments/{tournament.pk}/")
        lobby.locator('[data-connection="online"]').wait_for()
        expect(lobby.locator("[data-time-label]")).to_have_text(WAITING)
        expect(lobby.locator("[data-time-left]")).not_to_have_text("0:00")
        lobby.screenshot(
            path=str(SCREENSHOTS / f"equal-deals-tournament-{width}.png"), full_page=True
        )
        lobby.context.close()

    # Seats 2 and 3 deal their hands: everyone has dealt once, the table (the only one) moves
    # on and the clock with it: level 2, its timer started then.
    for _ in range(400):
        tournament_step(tournament.pk, lambda player_id: "timid")
        time.sleep(STEP_PAUSE)
        if Tournament.objects.get(pk=tournament.pk).level == 2:
            break
    else:
        raise AssertionError("the table never moved on to level 2")
    for width, page in tables.items():
        bar = page.locator("[data-tournament-bar]")
        expect(bar.locator("[data-t-level]")).to_have_text("2")
        after = bar_reads(page)
        left = after.pop("time")  # level 2's 3 minutes, counting down since the table moved on
        assert re.fullmatch(r"[0-3]:\d\d", left) and left != "0:00"
        assert after == {
            "level": "2",
            "limits": "30/60",
            "antes": "10 · bring-in 15",
            "time label": "Time left",
            "next": "—",
        }
        bar.screenshot(path=str(SCREENSHOTS / f"equal-deals-bar-after-{width}.png"))
        page.screenshot(
            path=str(SCREENSHOTS / f"equal-deals-table-after-{width}.png"), full_page=True
        )


def test_r_tour_6_a_table_done_early_shows_the_level_it_deals_and_the_other_table_waits(
    open_page,
):
    """Issue #28, the bar at two tables: past the equal-deals level's timer the first
    table's four players have dealt once each and it deals level 2 meanwhile; the second's
    have not. The first table's bar showed the clock's level 1 and its limits; it shows
    level 2, 30/60, and level 2's 3 minutes, which run from when every table is done. The
    second's says the level ends when everyone has dealt equally, with no time beside it.
    The clock is the test's (tests/tournaments/play_helpers.py deals and plays each hand)."""
    tournament, _ = started(8, levels=EQUAL_DEALS_FIRST)
    first, second = open_tables(tournament)
    deal(first, T0 + SEATING)
    deal(second, T0 + SEATING)
    timer = tournament.level_ends_at
    assert timer is not None
    tournament_clock_tick(tournament_id=tournament.pk, now=timer)  # seat 1 of each has dealt
    when = timer + timedelta(seconds=5)
    play_out(second, when)
    for _ in range(3):  # at the first table seats 2, 3 and 4 deal
        play_out(first, when)
        first.refresh_from_db()
        when = first.next_hand_at
        deal(first, when)
    play_out(first, when)
    assert stakes(first) == (10, 15, 30, 60) and stakes(second) == (25, 10, 25, 50)

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    early = {
        "level": "2",
        "limits": "30/60",
        "antes": "10 · bring-in 15",
        "time label": "Time left, from when every table has dealt equally",
        "time": "3:00",
        "next": "—",
    }
    waiting = {
        "level": "1",
        "limits": "25/50",
        "antes": "25 (dealer only) · bring-in 10",
        "time label": WAITING,
        "time": "",
        "next": "30/60, ante 10",
    }
    for width, height in ((1440, 900), (390, 844)):
        for table, reads, name in ((first, early, "early"), (second, waiting, "still")):
            player = next(iter(seats_of(table).values())).player
            page = open_page(width, height)
            steps.log_in(page, player.username)
            page.goto(f"/tables/{table.pk}/")
            page.locator('[data-connection="online"]').wait_for()
            bar = page.locator("[data-tournament-bar]")
            expect(bar.locator("[data-t-level]")).to_have_text(reads["level"])
            assert bar_reads(page) == reads
            bar.screenshot(path=str(SCREENSHOTS / f"equal-deals-bar-{name}-{width}.png"))
            page.context.close()
