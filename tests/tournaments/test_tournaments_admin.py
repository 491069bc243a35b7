"""Staff in the admin: a tournament from a preset, their own levels, edits until the first
hand is dealt, cancellation with refunds, and the audit of every staff action."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import StaffFactory, log_in_staff
from tests.tournaments.money_helpers import NOW, balance_of, make_tournament, registered
from tournaments.models import (
    Tournament,
    TournamentLevel,
    TournamentStaffAction,
    TournamentStatus,
    TournamentTable,
)

pytestmark = pytest.mark.django_db


def tournament_form(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Friday Stud",
        "game": "stud",
        "status": "registering",
        "structure": "default",
        "buy_in": "$40.00",
        "fee": "4.00",
        "starting_chips": 800,
        "add_on_price": "15.00",
        "add_on_chips": 400,
        "add_on_until_level": 6,
        "payout_percentages": "",
        "min_players": 2,
        "max_players": 16,
        "starts_at_0": "",
        "starts_at_1": "",
        "start_when_registered": "",
        "action_clock": 10,
        "time_bank": 30,
        "levels-TOTAL_FORMS": 0,
        "levels-INITIAL_FORMS": 0,
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "staff_actions-TOTAL_FORMS": 0,
        "staff_actions-INITIAL_FORMS": 0,
    }
    data.update(fields)
    return data


def level_rows(*levels: tuple[int, int, int, int, int, int]) -> dict[str, Any]:
    data: dict[str, Any] = {"levels-TOTAL_FORMS": len(levels)}
    for index, (number, ante, bring_in, small, big, minutes) in enumerate(levels):
        prefix = f"levels-{index}-"
        data.update(
            {
                prefix + "number": number,
                prefix + "ante": ante,
                prefix + "bring_in": bring_in,
                prefix + "small_bet": small,
                prefix + "big_bet": big,
                prefix + "minutes": minutes,
                prefix + "break_minutes": 0,
            }
        )
    return data


@pytest.fixture
def staff_client(client: Client) -> Client:
    log_in_staff(client, StaffFactory(username="floor_manager"))
    return client


def test_r_tour_8_staff_create_a_tournament_from_the_turbo_preset(staff_client: Client) -> None:
    response = staff_client.post(
        reverse("admin:tournaments_tournament_add"), tournament_form(structure="turbo")
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(name="Friday Stud")
    levels = list(TournamentLevel.objects.filter(tournament=tournament).order_by("number"))
    assert len(levels) == 12
    assert {level.minutes for level in levels} == {3}
    assert (levels[2].ante, levels[2].dealer_only_ante, levels[2].equal_deals) == (25, True, True)
    assert levels[4].break_minutes == 1
    action = TournamentStaffAction.objects.get(tournament=tournament)
    assert (action.action, action.staff.username) == ("create", "floor_manager")
    assert action.detail == "12 levels, the turbo structure; buy-in $40.00 + fee $4.00"


def test_staff_write_the_buy_in_fee_and_add_on_in_dollars(staff_client: Client) -> None:
    """Issue #16: money as people write it, stored in cents; a fraction of a cent or a
    negative amount is refused with its reason and nothing is created."""
    response = staff_client.post(
        reverse("admin:tournaments_tournament_add"),
        tournament_form(buy_in="$1,040.50", fee="0.50", add_on_price="15"),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(name="Friday Stud")
    assert (tournament.buy_in, tournament.fee, tournament.add_on_price) == (104050, 50, 1500)

    refused = staff_client.post(
        reverse("admin:tournaments_tournament_add"),
        tournament_form(name="Odd Cents", buy_in="40.005", fee="-1"),
    )
    page = refused.content.decode()
    assert refused.status_code == 200
    assert "fraction of a cent" in page
    assert "cannot be negative" in page
    assert not Tournament.objects.filter(name="Odd Cents").exists()


def test_staff_create_a_tournament_with_their_own_levels(staff_client: Client) -> None:
    form = tournament_form(
        structure="", **level_rows((1, 10, 10, 20, 40, 20), (2, 20, 20, 40, 80, 20))
    )

    response = staff_client.post(reverse("admin:tournaments_tournament_add"), form)

    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(name="Friday Stud")
    assert list(
        tournament.levels.order_by("number").values_list("number", "small_bet", "minutes")
    ) == [(1, 20, 20), (2, 40, 20)]


def test_staff_levels_that_do_not_hold_together_are_refused_with_the_reason(
    staff_client: Client,
) -> None:
    form = tournament_form(structure="", **level_rows((1, 10, 10, 40, 20, 20)))

    response = staff_client.post(reverse("admin:tournaments_tournament_add"), form)

    assert response.status_code == 200
    assert "Level 1: the big bet cannot be smaller than the small bet." in response.content.decode()
    assert not Tournament.objects.filter(name="Friday Stud").exists()


def test_the_tournament_list_shows_money_in_dollars(staff_client: Client) -> None:
    make_tournament(buy_in=4000, fee=400)

    page = staff_client.get(reverse("admin:tournaments_tournament_changelist")).content.decode()

    assert "$40.00 + $4.00" in page


def test_staff_edit_the_levels_before_the_first_hand(staff_client: Client) -> None:
    tournament = make_tournament()
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])

    response = staff_client.post(
        url, tournament_form(name="Tuesday Turbo", structure="turbo", fee=0)
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    tournament.refresh_from_db()
    assert tournament.name == "Tuesday Turbo"
    assert set(tournament.levels.values_list("minutes", flat=True)) == {3}
    edit = TournamentStaffAction.objects.filter(tournament=tournament, action="edit").get()
    assert edit.detail == "changed name, levels"


def test_edits_are_refused_once_the_first_hand_is_dealt(staff_client: Client) -> None:
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(
        status=TournamentStatus.RUNNING, started_at=NOW, first_hand_at=NOW
    )
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])

    page = staff_client.get(url)
    response = staff_client.post(url, tournament_form(name="Renamed", structure="turbo"))

    assert page.status_code == 200  # read, not edited
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.name == "Tuesday Stud"
    assert set(tournament.levels.values_list("minutes", flat=True)) == {15}


def test_staff_cancel_from_the_list_and_every_player_is_refunded(staff_client: Client) -> None:
    tournament = make_tournament(fee=400)
    players = registered(tournament, 2)

    response = staff_client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "cancel_tournaments", "_selected_action": [tournament.pk]},
        follow=True,
    )

    assert "Tuesday Stud: cancelled, every buy-in, fee and add-on refunded." in (
        response.content.decode()
    )
    assert [balance_of(player) for player in players] == [10_000, 10_000]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    audit = list(
        TournamentStaffAction.objects.filter(tournament=tournament)
        .order_by("id")
        .values_list("action", "staff__username")
    )
    assert audit[-1] == ("cancel", "floor_manager")


def test_cancelling_a_finished_tournament_is_refused_with_a_clear_message(
    staff_client: Client,
) -> None:
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)

    response = staff_client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "cancel_tournaments", "_selected_action": [tournament.pk]},
        follow=True,
    )

    assert "Tuesday Stud: Tuesday Stud is finished: nothing can change." in (
        response.content.decode()
    )
    assert not TournamentStaffAction.objects.filter(tournament=tournament, action="cancel").exists()


def test_staff_start_a_tournament_early_from_the_list(staff_client: Client) -> None:
    tournament = make_tournament(preset="turbo")
    registered(tournament, 3)

    response = staff_client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "start_early", "_selected_action": [tournament.pk]},
        follow=True,
    )

    assert "Tuesday Stud: started." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert TournamentTable.objects.filter(tournament=tournament).count() == 1
    assert TournamentStaffAction.objects.filter(
        tournament=tournament, staff__username="floor_manager"
    ).exists()


def test_a_play_action_the_play_refuses_shows_its_reason(staff_client: Client) -> None:
    tournament = make_tournament()
    registered(tournament, 1)  # too few to start

    response = staff_client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "start_early", "_selected_action": [tournament.pk]},
        follow=True,
    )

    page = response.content.decode()
    assert "Tuesday Stud: started." not in page
    assert 'class="error"' in page
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING


def test_the_add_and_change_pages_offer_the_presets_and_show_the_audit(
    staff_client: Client,
) -> None:
    tournament = make_tournament(fee=400)
    registered(tournament, 1)

    add_page = staff_client.get(reverse("admin:tournaments_tournament_add")).content.decode()
    change_page = staff_client.get(
        reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    ).content.decode()

    assert "Turbo (3-minute levels, 1-minute breaks)" in add_page
    assert "Default (R-TOUR-8: 15-minute levels, 10-minute breaks)" in add_page
    # Players have paid: the money is shown in dollars, not offered for editing.
    assert "buy-in $40.00, fee $4.00, add-on $15.00 for 400 chips" in change_page
    assert 'name="buy_in"' not in change_page
    assert "Staff actions (audit)" in change_page
    assert "12 levels, the default structure; buy-in $40.00 + fee $4.00" in change_page


def test_staff_edit_a_tournament_players_have_paid_for_without_touching_the_money(
    staff_client: Client,
) -> None:
    tournament = make_tournament()
    registered(tournament, 2)
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])

    response = staff_client.post(
        url, tournament_form(name="Tuesday Stud (turbo)", structure="turbo", buy_in="99.00")
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    tournament.refresh_from_db()
    assert (tournament.name, tournament.buy_in) == ("Tuesday Stud (turbo)", 4000)
    assert set(tournament.levels.values_list("minutes", flat=True)) == {3}
