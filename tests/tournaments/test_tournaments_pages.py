"""The tournament pages in Django's test client: the lobby's Tournaments tab, a tournament's
page (structure, payouts, players, tables, clock), the results, the TV clock, and a
tournament table's page (chips, the tournament's bar, no wallet). What a player reads."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tests.factories import PlayerFactory, funded
from tests.tournaments.tui_rows import make_tournament, register, running_tournament
from tournaments.models import TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    """The page's visible words, tags dropped and spaces squeezed."""
    html = response.content.decode()
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_lobby_has_a_tournaments_tab_listing_each_tournament(client: Client) -> None:
    tournament = make_tournament(start_when_registered=6)
    register(tournament, [PlayerFactory() for _ in range(3)], timezone.now())

    cash = client.get("/")
    assert 'href="/tournaments/"' in cash.content.decode()
    page = text(client.get("/tournaments/"))

    assert "Tuesday Stud" in page
    assert "When 6 registered" in page
    assert "$40.00+$4.00" in page  # buy-in + fee
    assert "3/16" in page  # registered of the most
    assert "$120.00" in page  # R-TOUR-9: the pool is the buy-ins, not the fees
    assert "Registering" in page


def test_a_tournament_table_is_not_listed_among_the_cash_tables(client: Client) -> None:
    _, _, tables = running_tournament(players=4)

    rows = client.get("/lobby.json").json()["tables"]

    assert tables[0].pk not in [row["id"] for row in rows]


def test_r_tour_8_the_page_shows_the_whole_structure_with_dealer_only_and_breaks(
    client: Client,
) -> None:
    tournament = make_tournament()

    page = text(client.get(f"/tournaments/{tournament.pk}/"))

    assert "Structure" in page
    assert "25 dealer only" in page  # level 3's ante (R-ANTE-3)
    assert "Ends when every player has dealt equally." in page  # R-TOUR-6
    assert "Then a 10-minute break." in page  # after level 5
    assert "50/100" in page


def test_a_visitor_is_asked_to_log_in_and_a_player_may_register(client: Client) -> None:
    tournament = make_tournament()
    assert "Log in to register" in text(client.get(f"/tournaments/{tournament.pk}/"))

    client.force_login(PlayerFactory())
    page = text(client.get(f"/tournaments/{tournament.pk}/"))

    assert "Register: $40.00+$4.00" in page


def test_a_registered_player_may_unregister_before_the_start(client: Client) -> None:
    tournament = make_tournament()
    player = PlayerFactory()
    register(tournament, [player], timezone.now())
    client.force_login(player)

    page = text(client.get(f"/tournaments/{tournament.pk}/"))

    assert "You are registered." in page
    assert "Unregister" in page
    assert "Register:" not in page


def test_while_it_runs_the_page_shows_level_players_stacks_tables_and_seats(
    client: Client,
) -> None:
    tournament, players, tables = running_tournament(players=9)
    client.force_login(players[6])

    response = client.get(f"/tournaments/{tournament.pk}/")
    page = text(response)

    assert "Running" in page
    assert "9 of 9" in page  # players left of entrants
    assert "Average stack 800" in page
    assert "Table 1" in page and "Table 2" in page
    # Player 7 of 9 drew table 2, seat 2; the page takes them there.
    assert "You play at table 2, seat 2" in page
    assert f'href="/tables/{tables[1].pk}/"' in response.content.decode()


def test_results_list_every_place_and_prize(client: Client) -> None:
    tournament = make_tournament(status=TournamentStatus.FINISHED)
    players = [PlayerFactory(username=f"finisher{n}") for n in range(3)]
    register(tournament, players, timezone.now() - timedelta(hours=1))
    for place, (player, prize) in enumerate(zip(players, [8000, 4000, 0], strict=True), 1):
        TournamentEntry.objects.filter(tournament=tournament, player=player).update(
            place=place, prize=prize
        )

    page = text(client.get(f"/tournaments/{tournament.pk}/results/"))

    assert re.search(r"1 finisher0 \$80\.00 2 finisher1 \$40\.00 3 finisher2 —", page)


def test_the_clock_page_shows_level_limits_antes_and_players_in_large_type(
    client: Client,
) -> None:
    tournament, _, _ = running_tournament(players=4)

    response = client.get(f"/tournaments/{tournament.pk}/clock/")
    page = text(response)

    assert 'class="tv-time"' in response.content.decode()
    assert "Level 1" in page
    assert "10/20" in page  # level 1's limits
    assert "Next level 20/40" in page
    assert "Ante 5 Bring-in 5" in page  # level 1 (tests/tournaments/tui_rows.py)
    assert "Players left 4" in page


def test_a_tournament_table_page_has_the_tournament_bar_and_no_wallet(client: Client) -> None:
    _, players, tables = running_tournament(players=4)
    client.force_login(players[0])

    response = client.get(f"/tables/{tables[0].pk}/")
    html = response.content.decode()

    assert "data-tournament-bar" in html
    assert "data-break-banner" in html
    assert "data-balance" not in html  # tournament chips are not the wallet's
    assert '"is_tournament": true' in html
    # R-TOUR-1: the header speaks chips before the page's script draws it (it said
    # "$0.10/$0.20" for level 1's 10/20 limits, seen on a phone while the page loaded).
    header = html[html.index("data-stakes") :].split("</span></span>", 1)[0]
    assert "· 10/20" in header and "$" not in header


def test_an_unknown_tournament_is_404(client: Client) -> None:
    assert client.get("/tournaments/987654/").status_code == 404
    assert client.get("/tournaments/987654/clock/").status_code == 404


def test_registering_from_the_page_takes_the_buy_in_and_says_so(client: Client) -> None:
    tournament = make_tournament()
    player = PlayerFactory()
    funded(player, 10_000)
    client.force_login(player)

    page = text(client.post(f"/tournaments/{tournament.pk}/register/", follow=True))

    assert "You are registered." in page
    assert "Unregister" in page
    player.refresh_from_db()
    assert player.balance == 10_000 - 4000 - 400


def test_a_player_who_cannot_pay_is_told_why_and_nothing_changes(client: Client) -> None:
    tournament = make_tournament()
    player = PlayerFactory()
    funded(player, 1000)
    client.force_login(player)

    page = text(client.post(f"/tournaments/{tournament.pk}/register/", follow=True))

    assert "Register: $40.00+$4.00" in page  # still not registered
    assert "balance" in page.lower()
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    player.refresh_from_db()
    assert player.balance == 1000


def test_unregistering_from_the_page_gives_the_money_back(client: Client) -> None:
    tournament = make_tournament()
    player = PlayerFactory()
    funded(player, 10_000)
    client.force_login(player)
    client.post(f"/tournaments/{tournament.pk}/register/")

    page = text(client.post(f"/tournaments/{tournament.pk}/unregister/", follow=True))

    assert "the buy-in is back in your wallet" in page
    player.refresh_from_db()
    assert player.balance == 10_000


def test_r_tour_1_the_add_on_is_offered_once_and_bought_from_the_page(client: Client) -> None:
    tournament = make_tournament()
    player = PlayerFactory()
    funded(player, 10_000)
    client.force_login(player)
    client.post(f"/tournaments/{tournament.pk}/register/")
    assert "Add-on: 400 chips for $15.00" in text(client.get(f"/tournaments/{tournament.pk}/"))

    page = text(client.post(f"/tournaments/{tournament.pk}/add-on/", follow=True))

    assert "Add-on bought." in page
    assert "Add-on: 400 chips" not in page
    again = text(client.post(f"/tournaments/{tournament.pk}/add-on/", follow=True))
    assert "You have already bought your add-on." in again


def test_r_tour_9_the_page_shows_the_prize_pool_and_the_payouts_by_place(
    client: Client,
) -> None:
    tournament = make_tournament()
    register(tournament, [PlayerFactory() for _ in range(9)], timezone.now())

    page = text(client.get(f"/tournaments/{tournament.pk}/"))

    # 9 entrants x $40 (the fees are the house's): 3 places paid, 50/30/20.
    assert "Prize pool $360.00" in page
    assert "1 $180.00 2 $108.00 3 $72.00" in page


def test_the_table_page_of_a_tournament_shows_chips_to_a_visitor_too(client: Client) -> None:
    _, _, tables = running_tournament(players=4)

    html = client.get(f"/tables/{tables[0].pk}/").content.decode()

    assert "data-tournament-bar" in html
    assert '"is_tournament": true' in html  # the page counts chips, offers no seat


def test_r_tour_1_the_add_on_from_the_table_page_comes_back_to_the_table(client: Client) -> None:
    tournament, players, tables = running_tournament(players=4)
    funded(players[0], 5000)
    client.force_login(players[0])

    response = client.post(
        f"/tournaments/{tournament.pk}/add-on/", {"next": f"/tables/{tables[0].pk}/"}
    )

    assert response.status_code == 302 and response["Location"] == f"/tables/{tables[0].pk}/"
    page = text(client.get(response["Location"]))
    assert "Add-on bought." in page
    assert TournamentEntry.objects.get(player=players[0]).add_on_at is not None


def test_the_form_never_sends_the_player_to_another_site(client: Client) -> None:
    tournament = make_tournament()
    player = PlayerFactory()
    funded(player, 10_000)
    client.force_login(player)

    response = client.post(
        f"/tournaments/{tournament.pk}/register/", {"next": "https://evil.example/"}
    )

    assert response["Location"] == f"/tournaments/{tournament.pk}/"


def test_the_players_list_shows_chips_as_chips_and_a_prize_in_its_own_column(
    client: Client,
) -> None:
    """Issue #21 (11): the Chips column showed a winner's prize in dollars ("$80.00" under
    Chips); chips are chips (R-TOUR-1), the prize is money in a Prize column."""
    tournament = make_tournament(status=TournamentStatus.FINISHED)
    players = [PlayerFactory(username=f"finisher{n}") for n in range(3)]
    register(tournament, players, timezone.now() - timedelta(hours=1))
    for place, (player, prize) in enumerate(zip(players, [8000, 4000, 0], strict=True), 1):
        TournamentEntry.objects.filter(tournament=tournament, player=player).update(
            place=place, prize=prize
        )

    page = text(client.get(f"/tournaments/{tournament.pk}/"))

    assert "# Player Chips Prize Table" in page
    assert re.search(r"1 finisher0 won \$80\.00 2 finisher1 out \$40\.00 3 finisher2 out ", page)
