"""Issue #25 in Chromium: staff see a colluding pair flagged on the Integrity page with its
evidence in words, open a hand with every card face up, and act on the pair: a case opened,
a note, a decision (suspended). Under the Content-Security-Policy, at a phone's width and a
desktop's; the pages are photographed (SCREENSHOTS, untracked unless asked for)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import expect

from integrity.models import IntegrityCase, Suspension
from tests.browser import steps
from tests.browser.test_content_security_policy import PolicyWatch
from tests.factories import PASSWORD, PlayerFactory
from tests.history_hands import (
    THREE_HANDED,
    fold_when_asked,
    hold_scheduling,
    play_hand,
    three_handed_hand,
)
from tests.integrity.test_integrity_pages import seeded_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("INTEGRITY_SCREENSHOTS", ROOT / "var" / "screenshots"))


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/$"))


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)], ids=["phone", "desktop"])
def test_staff_see_a_flagged_pair_with_its_evidence_and_suspend_it(
    new_context, monkeypatch: pytest.MonkeyPatch, sweep_hold, size
) -> None:
    hold_scheduling(monkeypatch)
    played = three_handed_hand()
    sweep_hold.tables(played.table)
    review = seeded_pair(played)
    carol, bob = played.players[3], played.players[2]
    staff = PlayerFactory(username="floorboss", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="review_integrity"))
    watch = PolicyWatch()
    page = watch.watch(new_context(*size)).new_page()
    steps.log_in_staff(page, staff, at="/accounts/login/")  # with its one-time password (#26)

    steps.top_bar_link(page, "Integrity").click()
    page.wait_for_url(re.compile(r"/staff/integrity/$"))
    card = page.locator(f"[data-pair='{review.pk}']")
    expect(card).to_contain_text(f"{carol.table_name} folded the better hand to")
    expect(card).to_contain_text("flagged")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = f"{size[0]}x{size[1]}"
    page.screenshot(path=str(SCREENSHOTS / f"integrity-pairs-{name}.png"), full_page=True)

    card.get_by_role("link", name=f"#{played.hand.pk}").click()
    face_up = page.get_by_test_id("face-up")
    expect(face_up.locator("[data-seat='3']")).to_contain_text("3h 8h")  # carol's fold
    page.screenshot(path=str(SCREENSHOTS / f"integrity-hand-{name}.png"), full_page=True)

    page.get_by_role("link", name="← The pair").click()
    page.get_by_role("button", name="Open a case").click()
    page.get_by_label("Note").fill("Folds the better hand to bob nearly half the time.")
    page.get_by_role("button", name="Add the note").click()
    expect(page.get_by_test_id("case")).to_contain_text("nearly half the time")
    page.get_by_role("radio", name=re.compile("Suspended")).check()
    page.get_by_role("button", name="Decide").click()
    expect(page.locator("[data-case-status]").first).to_have_text("suspended")
    page.screenshot(path=str(SCREENSHOTS / f"integrity-case-{name}.png"), full_page=True)

    case = IntegrityCase.objects.get()
    assert case.status == "suspended" and case.decided_by == staff
    assert set(Suspension.objects.values_list("player_id", flat=True)) == {carol.pk, bob.pk}
    assert not watch.violations, watch.violations


def test_the_public_fairness_chain_page(new_context, monkeypatch, sweep_hold) -> None:
    hold_scheduling(monkeypatch)
    played = three_handed_hand()
    sweep_hold.tables(played.table)
    play_hand(played.table, played.players, THREE_HANDED, strategies={3: fold_when_asked})
    for size in ((390, 844), (1440, 900)):
        page = new_context(*size).new_page()
        page.goto("/fairness/")
        expect(page.locator("[data-chain-length]")).to_have_text("2")
        page.screenshot(
            path=str(SCREENSHOTS / f"fairness-chain-{size[0]}x{size[1]}.png"), full_page=True
        )
