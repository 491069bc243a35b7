"""Issue #11: every page of the room works under its Content-Security-Policy.

The browser suite's Daphne runs with the policy on (CSP_ENABLED, tests/browser/conftest.py).
Here a player and a staff member open every page; each page must carry the policy, raise no
`securitypolicyviolation` event and log nothing to the console, and still work: the table
connects and draws its seats, the replayer steps, the fairness check runs, the admin's
forms open. (django-axes' locked-out page is left out: it answers 429, which the browser
logs as an error; its template, like every other, has no inline script or style.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import expect

from tables import services
from tests.browser import steps
from tests.browser.sweep_hold import SweepHold
from tests.factories import PlayerFactory
from tests.history_hands import hold_scheduling
from tests.table_factories import make_table, play_down, seated_player
from tests.tournaments.tui_rows import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Reported by the page itself, from before its first script runs (an init script is
# injected by the browser, so the policy does not apply to it).
LISTEN_FOR_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportViolation(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber}`);
});
"""


class PolicyWatch:
    """Every violation and every console message (of any level) of the pages of a context."""

    def __init__(self) -> None:
        self.violations: list[str] = []
        self.console: list[str] = []

    def watch(self, context: Any) -> Any:
        context.expose_binding(
            "reportViolation",
            lambda source, text: self.violations.append(f"{source['frame'].url}: {text}"),
        )
        context.add_init_script(LISTEN_FOR_VIOLATIONS)
        context.on(
            "console",
            lambda message: self.console.append(f"{message.type}: {message.text}"),
        )
        return context


def _visit(page: Any, path: str) -> None:
    response = page.goto(path)
    assert response is not None and response.ok, f"{path}: {response and response.status}"
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy, path
    page.wait_for_load_state("networkidle")


@pytest.fixture
def finished_hand(monkeypatch: pytest.MonkeyPatch, sweep_hold: SweepHold) -> Any:
    """A hand played down in the test process (no clock, no broadcast), for the hand page;
    its table held off the server's clock sweep (no turn timed out, no next hand dealt)."""
    hold_scheduling(monkeypatch)
    monkeypatch.setattr("tables.services.outbox.broadcast", lambda **kwargs: None)
    table = make_table(name="Policy replay")
    sweep_hold.tables(table)
    alice, bob = seated_player(table, username="cspa"), seated_player(table, username="cspb")
    assert services.hand_start(table_id=table.pk).ok
    hand = play_down(table, {1: alice, 2: bob})
    return hand, alice


def test_every_page_works_under_the_content_security_policy(new_context, finished_hand):
    hand, alice = finished_hand
    table = make_table(name="Policy table")
    staff = PlayerFactory(username="policyboss", is_staff=True, is_superuser=True)
    watch = PolicyWatch()

    visitor = watch.watch(new_context()).new_page()
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/accounts/password-reset/"):
        _visit(visitor, path)
    visitor.locator("input[name=email]").fill(f"{alice.username}@example.com")
    visitor.get_by_role("button", name="Send me the link").click()
    visitor.wait_for_url(re.compile(r"/password-reset/sent/$"))
    uid, token = (
        urlsafe_base64_encode(force_bytes(alice.pk)),
        default_token_generator.make_token(alice),
    )
    _visit(visitor, f"/accounts/reset/{uid}/{token}/")
    assert visitor.locator("input[name=new_password1]").count() == 1
    _visit(visitor, "/accounts/reset/done/")
    # The tournament pages: the Tournaments tab, a tournament, its results and TV clock.
    tournament = make_tournament(name="Policy cup")
    for path in ("/tournaments/", f"/tournaments/{tournament.pk}/"):
        _visit(visitor, path)
        visitor.locator('[data-connection="online"], .lobby-status:text("Live")').first.wait_for()
    for path in (f"/tournaments/{tournament.pk}/results/", f"/tournaments/{tournament.pk}/clock/"):
        _visit(visitor, path)

    player = watch.watch(new_context()).new_page()
    steps.log_in(player, alice.username)
    player.locator(".lobby, table, [data-lobby]").first.wait_for()
    for path in ("/accounts/", "/accounts/settings/", "/hands/"):
        _visit(player, path)
    _visit(player, f"/hands/{hand.pk}/")
    replay = player.locator("#replayer")
    first = replay.locator(".replayer-position").inner_text()
    replay.get_by_role("button", name="Next action").click()
    expect(replay.locator(".replayer-position")).not_to_have_text(first)
    player.locator("[data-verify]").click()
    player.locator("[data-verify-result]").filter(has_text=re.compile(r"\w")).wait_for()
    steps.open_table(player, table.pk)  # the WebSocket connects under connect-src 'self'
    expect(player.locator(".felt .seat").nth(1)).to_be_attached()
    player.get_by_role("button", name=re.compile("^Log out")).click()  # form-action 'self'
    player.wait_for_url(re.compile(r"/accounts/login/$"))

    office = watch.watch(new_context()).new_page()
    steps.log_in_staff(office, staff)  # the one-time password page too, under the policy
    office.wait_for_url(re.compile(r"/admin/$"))
    for path in (
        "/admin/",
        "/admin/accounts/player/",
        f"/admin/accounts/player/{alice.pk}/change/",
        f"/admin/accounts/player/{alice.pk}/wallet/",
        "/admin/accounts/ledgerentry/",
        "/admin/tables/table/",
        f"/admin/tables/table/{table.pk}/change/",
        "/admin/tournaments/tournament/",
        "/staff/rake/",
        "/staff/rake/statement/",
        "/api/docs/",
    ):
        _visit(office, path)
    office.locator(".swagger-ui .info").first.wait_for()  # Swagger UI started from its file

    assert watch.violations == []
    assert [line for line in watch.console if line.startswith(("error", "warning"))] == []
