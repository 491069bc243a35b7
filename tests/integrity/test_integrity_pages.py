"""Issue #25: the Integrity pages are for staff with the integrity permission only; the pairs
are ranked with their signals in words and their hands; a staff replay shows every card face
up (a player's own history never shows a folded card, R-HIST-2); each viewing and each
decision is in the staff audit log."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import StaffAction
from integrity.models import IntegrityCase, PairReview, PlayerTally
from integrity.services import pair_review_recompute
from stud.cards import card_text
from tests.factories import PlayerFactory, log_in_staff
from tests.history_hands import PlayedTable, hold_scheduling, three_handed_hand

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _still(monkeypatch: pytest.MonkeyPatch) -> None:
    hold_scheduling(monkeypatch)


def reviewer(**fields) -> Client:
    staff = PlayerFactory(is_staff=True, **fields)
    staff.user_permissions.add(Permission.objects.get(codename="review_integrity"))
    client = Client()
    log_in_staff(client, staff)  # with a verified second factor (issue #26)
    return client


def seeded_pair(played: PlayedTable) -> PairReview:
    """Carol (3) and bob (2) as the scan would leave them had carol folded to bob's bets
    with the better hand in 9 of 20 bets faced, against 1 in 40 to everyone else, while
    everyone else folded the better hand to bob's bets once in 40."""
    carol, bob = played.players[3], played.players[2]
    low, high = sorted((carol.pk, bob.pk))
    key = "low>high" if carol.pk == low else "high>low"
    PlayerTally.objects.create(player=carol, counts={"facing": 60, "folds_ahead": 10})
    PlayerTally.objects.create(
        player=bob,
        counts={"facing": 50, "folds_ahead": 2, "toward": {"facing": 60, "folds_ahead": 10}},
    )
    review = PairReview.objects.create(
        player_low_id=low,
        player_high_id=high,
        hands_together=80,
        counts={
            key: {
                "facing": 20,
                "folds_ahead": 9,
                "chips_to": 4200,
                "fold_ahead_hands": [played.hand.pk],
            }
        },
    )
    pair_review_recompute(pairs={(low, high)}, now=timezone.now())
    review.refresh_from_db()
    return review


@pytest.fixture
def played() -> PlayedTable:
    return three_handed_hand()


def test_only_staff_with_the_integrity_permission_see_the_page(played):
    url = reverse("integrity_home")
    assert Client().get(url).status_code == 302  # to the login
    other_staff = Client()
    log_in_staff(other_staff, PlayerFactory(is_staff=True))
    assert other_staff.get(url).status_code == 403
    assert reviewer().get(url).status_code == 200


def test_a_flagged_pair_is_ranked_with_its_signal_in_words_and_its_hands(played):
    review = seeded_pair(played)
    carol, bob = played.players[3], played.players[2]
    assert review.flagged
    page = reviewer().get(reverse("integrity_home")).content.decode()
    assert (
        f"{carol.table_name} folded the better hand to {bob.table_name}&#x27;s bet 9 times" in page
    )
    assert f"$42.00 went from {carol.table_name} to {bob.table_name}" in page
    assert reverse("integrity_hand", kwargs={"hand_id": played.hand.pk}) in page


def test_r_hist_2_staff_see_the_folded_cards_face_up_and_the_viewing_is_logged(played):
    """Carol folded 3h 8h on third street: her own history shows them to her, bob's never;
    the staff replay shows them, and the audit log records who looked."""
    folded = [card_text(c) for c in played.engine.down_cards(3)]
    assert folded == ["3h", "8h"]
    client = reviewer(username="floor")
    page = client.get(reverse("integrity_hand", kwargs={"hand_id": played.hand.pk}))
    text = page.content.decode()
    assert page.status_code == 200
    assert '<span class="down" title="down cards">3h 8h</span>' in text
    logged = StaffAction.objects.get(action="integrity_hand_face_up")
    assert logged.staff.username == "floor" and logged.target == f"hand:{played.hand.pk}"
    bob = Client()
    bob.force_login(played.players[2])
    bobs = bob.get(reverse("hand_detail", kwargs={"hand_id": played.hand.pk})).content.decode()
    assert "3h 8h" not in bobs
    assert bob.get(reverse("integrity_hand", kwargs={"hand_id": played.hand.pk})).status_code == 302


def test_a_case_opened_noted_and_decided_warned_is_in_the_audit_log(played):
    review = seeded_pair(played)
    client = reviewer(username="floor")
    client.post(reverse("integrity_case_open", kwargs={"pair_id": review.pk}))
    case = IntegrityCase.objects.get()
    client.post(reverse("integrity_case_note", kwargs={"case_id": case.pk}), {"text": "looked"})
    response = client.post(
        reverse("integrity_case_decide", kwargs={"case_id": case.pk}),
        {"decision": "warned", "note": "first time"},
        follow=True,
    )
    assert f"Case #{case.pk}: warned." in response.content.decode()
    case.refresh_from_db()
    assert case.status == "warned" and case.notes.count() == 2
    assert list(StaffAction.objects.order_by("id").values_list("action", flat=True)) == [
        "integrity_case_open",
        "integrity_case_note",
        "integrity_case_warned",
    ]
    again = client.post(
        reverse("integrity_case_decide", kwargs={"case_id": case.pk}),
        {"decision": "cleared"},
        follow=True,
    )
    assert "already decided" in again.content.decode()
    case.refresh_from_db()
    assert case.status == "warned"
