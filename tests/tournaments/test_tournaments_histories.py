"""R-HIST-3 for tournament hands: they are in "My hands" with chips, never dollars, and
download in PokerStars' tournament text ("Tournament #..., $40+$4 USD 7 Card Stud Limit -
Level II (20/40)")."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables import services as table_services
from tests.table_factories import play_down
from tests.tournaments.money_helpers import later, make_tournament, registered, seated_in_play
from tournaments.models import TournamentEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament_hand() -> tuple[int, int, Client]:
    tournament = make_tournament(buy_in=4000, fee=400)
    players = registered(tournament, 2)
    table = seated_in_play(tournament, players, level=2)
    assert table_services.hand_start(table_id=table.pk, now=later(20)).ok
    hand = play_down(table, {1: players[0], 2: players[1]})
    client = Client()
    client.force_login(players[0])
    return tournament.pk, hand.pk, client


def test_r_hist_3_a_tournament_hand_downloads_in_pokerstars_tournament_text(
    tournament_hand: tuple[int, int, Client],
) -> None:
    tournament_id, hand_id, client = tournament_hand

    text = client.get(reverse("hand_download_text", kwargs={"hand_id": hand_id})).content.decode()

    lines = text.splitlines()
    assert lines[0].startswith(
        f"PokerStars Hand #{hand_id}: Tournament #{tournament_id}, $40+$4 USD "
        "7 Card Stud Limit - Level II (20/40) - "
    )
    assert lines[1] == f"Table '{tournament_id} 1' 8-max"
    assert lines[2].endswith(" (800 in chips)")
    assert "$" not in "\n".join(lines[1:])
    assert any(line.endswith("posts the ante 5") for line in lines)
    assert any(line.startswith("Total pot ") and line.endswith("| Rake 0") for line in lines)


def test_r_hist_3_tournament_hands_are_in_my_hands_in_chips(
    tournament_hand: tuple[int, int, Client],
) -> None:
    _, hand_id, client = tournament_hand

    listing = client.get(reverse("hand_list")).content.decode()
    detail = client.get(reverse("hand_detail", kwargs={"hand_id": hand_id})).content.decode()

    assert f'data-hand="{hand_id}"' in listing
    assert "<td>20/40</td>" in listing
    assert "$0.20" not in listing
    assert "Stud 20/40" in detail
    assert "(rake 0)" in detail


def test_r_hist_3_the_hand_that_knocked_a_player_out_says_where_they_finished(
    tournament_hand: tuple[int, int, Client],
) -> None:
    tournament_id, hand_id, client = tournament_hand
    loser = TournamentEntry.objects.filter(tournament_id=tournament_id).order_by("id").last()
    assert loser is not None
    TournamentEntry.objects.filter(pk=loser.pk).update(place=2, eliminated_in_hand_id=hand_id)

    text = client.get(reverse("hand_download_text", kwargs={"hand_id": hand_id})).content.decode()

    assert (
        f"{loser.player.table_name} finished the tournament in 2nd place\n*** SUMMARY ***" in text
    )
