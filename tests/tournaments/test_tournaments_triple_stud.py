"""A Triple Stud tournament (R-MIX-1: "a tournament may be played as Razz or as Triple Stud
the same way"): staff create it where tournaments are created (the service, the admin),
each of its tables rotates Stud, Razz and Stud Hi/Lo every 8 hands of its own, and the
lobby, the tournament's page, its TV clock and the API say the game and where each table's
rotation stands."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Table
from tests.factories import StaffFactory, log_in_staff
from tests.tournaments.play_helpers import SEATING, T0, deal, open_tables, play_out, started
from tests.tournaments.test_tournaments_admin import tournament_form
from tournaments.models import Tournament
from tournaments.services.entries import tournament_create, tournament_edit
from tournaments.services.refusals import TournamentRefused

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    """The page's visible words, tags dropped and spaces squeezed."""
    html = response.content.decode()
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def at_its_last_stud_hand() -> tuple[Tournament, Table]:
    """A Triple Stud tournament of four on one table that has dealt seven hands: its next
    is the eighth, the last Stud hand before Razz."""
    tournament, _ = started(4, triple_stud=True, name="Triple Tuesday")
    (table,) = open_tables(tournament)
    Table.objects.filter(pk=table.pk).update(hands_dealt=7)
    table.refresh_from_db()
    return tournament, table


def test_r_mix_1_a_triple_stud_tournament_table_turns_to_razz_after_eight_hands(
    client: Client,
) -> None:
    """R-MIX-1: the 8th hand at the tournament's table is Seven Card Stud, the 9th Razz (the
    highest door brings in); the game changes between hands, and every page says so."""
    tournament, table = at_its_last_stud_hand()
    assert table.triple_stud

    eighth = deal(table, T0 + SEATING)
    assert eighth.state["config"]["game"] == "stud"
    page = text(client.get(f"/tournaments/{tournament.pk}/"))
    assert "Triple Stud · fixed limit" in page
    assert "Table 1 now Stud · next hand Razz" in page
    play_out(table, T0 + SEATING)

    clock = text(client.get(f"/tournaments/{tournament.pk}/clock/"))
    assert "Triple Tuesday Triple Stud Table 1:" in clock
    assert "Table 1: next hand Razz · 7 more before Stud Hi/Lo" in clock
    table.refresh_from_db()
    assert table.next_hand_at is not None
    ninth = deal(table, table.next_hand_at)
    assert ninth.state["config"]["game"] == "razz"
    assert ninth.events.filter(kind="bring_in_due").exists()
    lobby = text(client.get("/tournaments/"))
    assert "Triple Tuesday Triple Stud" in lobby  # the Game column, after the name


def test_r_mix_1_the_api_gives_each_tournament_table_its_game_and_rotation(
    client: Client,
) -> None:
    tournament, table = at_its_last_stud_hand()
    deal(table, T0 + SEATING)

    detail = client.get(f"/api/tournaments/{tournament.pk}/").json()
    (row,) = [r for r in client.get("/api/tournaments/").json() if r["id"] == tournament.pk]

    assert (detail["triple_stud"], detail["game_label"]) == (True, "Triple Stud")
    assert (row["triple_stud"], row["game_label"]) == (True, "Triple Stud")
    (at_table,) = detail["tables"]
    assert at_table["game"] == "stud"
    assert at_table["game_label"] == "now Stud · next hand Razz"
    assert at_table["rotation"] == {
        "hand_in_play": True,
        "current_game": "stud",
        "next_hand_game": "razz",
        "hands_left_in_game": 0,
        "next_game": "razz",
    }


def test_r_mix_1_tournament_create_makes_a_triple_stud_one_and_its_game_is_fixed_once_drawn():
    """Where tournaments are created (the service): a Triple Stud tournament; once it has
    started, the rotation can no more be turned off than the game changed."""
    made = tournament_create(
        name="Mixed Monday", staff=None, preset="turbo", settings={"triple_stud": True}
    )
    assert made.triple_stud and made.game_label == "Triple Stud"

    tournament, _ = started(2, triple_stud=True)
    with pytest.raises(TournamentRefused, match="can no longer change"):
        tournament_edit(tournament_id=tournament.pk, staff=None, settings={"triple_stud": False})
    tournament.refresh_from_db()
    assert tournament.triple_stud


def test_r_mix_1_staff_create_razz_and_triple_stud_tournaments_in_the_admin(client: Client):
    log_in_staff(client, StaffFactory(username="floor_manager"))
    add = reverse("admin:tournaments_tournament_add")

    razz = client.post(add, tournament_form(name="Razz Night", game="razz"))
    mixed = client.post(add, tournament_form(name="Triple Friday", triple_stud="on"))

    assert razz.status_code == mixed.status_code == 302, mixed.content.decode()[:3000]
    assert Tournament.objects.get(name="Razz Night").game_label == "Razz"
    assert Tournament.objects.get(name="Triple Friday").triple_stud
    listed = text(client.get(reverse("admin:tournaments_tournament_changelist")))
    assert "Razz Night Razz" in listed
    assert "Triple Friday Triple Stud" in listed
