"""Issue #21 part 2: every page a player, a staff member and an accountant opens, each with
the real content of one scene (tests/browser/scene.py), looked at as a person sees it, at
390 x 844 and at 1440 x 900 (docs/browser.md says which check catches which defect):

- the layout check: no sideways scroll (the document no wider than the viewport), no two
  seats, cards, name boxes, bets or pots overlapping, no text clipped by its box, the action
  bar and the player's own cards inside the viewport during the turn; no console error (the
  `new_context` fixture);
- pictures compared with tests/browser/baselines/ (Pillow, with a tolerance; where it changed
  is printed, with a diff picture); `make screenshots` writes the baselines and
  docs/screenshots/ from these same states;
- axe-core's accessibility rules: no serious or critical violation.

One test per viewport: each builds the scene and walks every page in one browser, and every
problem is collected so one run tells the whole story."""

from __future__ import annotations

import re
import time
from collections import defaultdict
from typing import Any

import pytest

from tables.models import Hand
from tests.browser import seen, steps
from tests.browser.scene import REPORT_MONTH, room_scene
from tests.browser.test_room_phone import PIECES_JS, overlaps, within_viewport

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {390: 844, 1440: 900}


class Look:
    """Runs the three checks on each state and keeps what each found."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.found: dict[str, dict[str, list[str]]] = defaultdict(dict)

    def at(
        self,
        page: Any,
        name: str,
        *,
        felt: bool = False,
        turn: bool = False,
        on_screen: str | None = None,
        docs: str | None = None,
        picture: bool = True,
    ) -> None:
        state = f"{name}-{self.width}"
        started = time.monotonic()
        layout = [*seen.sideways_scroll(page), *seen.clipped_text(page)]
        if felt:
            layout += [f"overlap: {pair}" for pair in overlaps(page.evaluate(PIECES_JS))]
        if turn:
            layout += [
                f"off the screen during the turn: {what}"
                for what in within_viewport(page, ".actions, .seat.mine .card")
            ]
        if on_screen:
            layout += [f"off the screen: {what}" for what in within_viewport(page, on_screen)]
        self._keep("layout check", state, layout)
        if picture:
            self._keep("accessibility (axe-core)", state, seen.serious_violations(page))
            docs_name = None if docs is None else docs.format(width=self.width)
            self._keep("pictures", state, seen.picture_changes(page, state, docs_name=docs_name))
        print(f"{state}: {time.monotonic() - started:.2f}s")

    def _keep(self, check: str, state: str, problems: list[str]) -> None:
        if problems:
            self.found[check][state] = problems

    def report(self) -> str:
        return "\n".join(
            f"{check} failed at {state}:\n    " + "\n    ".join(problems)
            for check, states in self.found.items()
            for state, problems in states.items()
        )


def opened(new_context: Any, width: int, username: str) -> Any:
    page = new_context(width, VIEWPORTS[width]).new_page()
    steps.log_in(page, username)
    return page


def visit(page: Any, url: str, ready: str) -> None:
    page.goto(url)
    page.locator(ready).first.wait_for()
    page.evaluate("document.fonts.ready.then(() => true)")


def step_of(replayer: Any) -> tuple[int, int]:
    position = replayer.locator(".replayer-position").inner_text()
    found = re.search(r"Step (\d+) of (\d+)", position)
    assert found, position
    return int(found[1]), int(found[2])


# One test walks some thirty pages and every step of a replay, with axe-core on each page:
# it needs more than the suite's 300 s per test on a loaded machine (no wait in it is longer).
@pytest.mark.timeout(900)
@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_every_page_as_a_person_sees_it(width, new_context, monkeypatch, sweep_hold):
    began = time.monotonic()
    scene = room_scene(monkeypatch, sweep_hold)
    print(f"scene: {time.monotonic() - began:.2f}s")
    look = Look(width)

    # The player whose turn it is on the river, and the showdown of eight with side pots.
    player = opened(new_context, width, scene.to_act.username)
    steps.open_table(player, scene.table.pk)
    player.locator(".actions button").first.wait_for()
    player.locator(".seat.mine .card.hole").first.wait_for()
    look.at(player, "table", felt=True, turn=True, docs="table-{width}")
    assert steps.click_passive(player)
    player.locator('.felt[data-phase="showdown"]').wait_for()
    player.locator(".seat.winner").first.wait_for()
    player.locator(".winners-note").first.wait_for()
    player.locator(".felt:not(.chips-flying)").wait_for()
    look.at(player, "table-showdown", felt=True, docs="table-showdown-{width}")

    # The lobby with its tables and tournaments.
    visit(player, "/", "table.lobby-tables tr.lobby-row")
    look.at(player, "lobby", docs="lobby-{width}")
    visit(player, "/tournaments/", "main table, main .lobby-tabs")
    look.at(player, "tournament-lobby", docs="tournament-lobby-{width}")

    # The histories: the hand list, the hand page and its replayer at every step.
    hand = Hand.objects.get(table=scene.table)
    visit(player, "/hands/", f'a[href="/hands/{hand.pk}/"]')
    look.at(player, "hands", docs="hands-{width}")
    visit(player, f"/hands/{hand.pk}/", "#replayer .seat")
    replayer = player.locator("#replayer")
    look.at(player, "hand", felt=True)
    forward = replayer.get_by_role("button", name="Next action")
    step, last = step_of(replayer)
    while step < last:
        forward.click()
        replayer.locator(".replayer-position").filter(has_text=f"Step {step + 1} of").wait_for()
        step, last = step_of(replayer)
        look.at(player, f"replayer-step-{step:02}", felt=True, picture=False)
    replayer.locator(".seat.winner").first.wait_for()
    look.at(player, "hand-last-step", felt=True, docs="hand-{width}")

    # The account's pages.
    visit(player, "/accounts/", "main h1")
    look.at(player, "account")
    # The top bar's menu: on a phone folded behind "Menu" (the bar keeps one line), and once
    # open every link, "Log out" too, on the screen; on a desktop always open.
    menu = player.locator(".topbar").get_by_role("button", name="Menu")
    log_out = player.get_by_role("button", name=re.compile("^Log out"))
    if width < 760:
        assert not log_out.is_visible()
        menu.click()
        log_out.wait_for()
        look.at(player, "menu", on_screen=".topbar nav a, .topbar nav .link")
    else:
        assert not menu.is_visible() and log_out.is_visible()
    visit(player, "/accounts/settings/", "main form")
    look.at(player, "settings")
    visit(player, "/accounts/cashier/", "main")
    look.at(player, "cashier")

    # A tournament: its table, its page and the TV clock.
    entrant = opened(new_context, width, scene.tournament_player.username)
    visit(entrant, f"/tables/{scene.tournament_table.pk}/", ".felt .seat.mine")
    entrant.locator("[data-tournament-bar]").wait_for()
    look.at(entrant, "tournament-table", felt=True, docs="tournament-table-{width}")
    visit(entrant, f"/tournaments/{scene.tournament.pk}/", '[data-connection="online"]')
    look.at(entrant, "tournament", docs="tournament-{width}")
    visit(entrant, f"/tournaments/{scene.tournament.pk}/clock/", ".tv-clock .tv-time")
    look.at(entrant, "tournament-clock", docs="tournament-clock-{width}")

    # Staff and the accountant: the admin, the dashboard, the rake report, the statement.
    staff = new_context(width, VIEWPORTS[width]).new_page()
    steps.log_in_staff(staff, scene.staff)  # with the one-time password (issue #26)
    for name, url in (
        ("admin", "/admin/"),
        ("admin-tables", "/admin/tables/table/"),
        ("admin-players", "/admin/accounts/player/"),
        ("admin-tournaments", "/admin/tournaments/tournament/"),
    ):
        visit(staff, url, "#content")
        look.at(staff, name)
    visit(staff, "/staff/dashboard/", "main canvas")
    look.at(staff, "dashboard", docs="staff-dashboard" if width == 1440 else None)
    first, last = f"{REPORT_MONTH}-01", f"{REPORT_MONTH}-31"
    visit(staff, f"/staff/rake/?first_day={first}&last_day={last}", "main .report-layout")
    look.at(staff, "rake-report", docs="rake-report" if width == 1440 else None)
    visit(staff, f"/staff/rake/statement/?month={REPORT_MONTH}", "main table")
    look.at(staff, "statement")

    assert not look.found, look.report()
    assert re.search(r"\S", player.title())
