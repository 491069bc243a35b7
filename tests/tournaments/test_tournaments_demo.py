"""The `make run` demo (issue #13): a turbo sit-and-go for ten that nine bots join and that
starts when a player joins them, on two tables."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import Player
from tests.factories import PlayerFactory, funded
from tests.tournaments.play_helpers import open_tables
from tournaments.models import Tournament, TournamentStatus
from tournaments.services.clock import tournament_clock_sweep
from tournaments.services.demo import DEMO_SIT_AND_GO, DEMO_TOURNAMENT_BOTS
from tournaments.services.entries import tournament_register

pytestmark = pytest.mark.django_db


def _load_demo_tournament(*args: str) -> str:
    out = StringIO()
    call_command("load_demo_tournament", *args, stdout=out)
    return out.getvalue().strip()


def test_the_demo_sit_and_go_waits_for_ten_and_loading_it_again_changes_nothing():
    first = int(_load_demo_tournament("--id"))
    again = int(_load_demo_tournament("--id"))

    assert first == again
    tournament = Tournament.objects.get(pk=first)
    assert tournament.name == DEMO_SIT_AND_GO
    assert tournament.status == TournamentStatus.REGISTERING
    assert tournament.start_when_registered == 10
    assert [level.minutes for level in tournament.levels.all()][:3] == [3, 3, 3]  # turbo
    assert _load_demo_tournament("--bot-args").split() == [
        part for name in DEMO_TOURNAMENT_BOTS for part in ("--username", name)
    ]


def test_the_demo_starts_on_two_tables_when_a_player_joins_the_nine_bots():
    tournament = Tournament.objects.get(pk=int(_load_demo_tournament("--id")))
    for name in DEMO_TOURNAMENT_BOTS:  # what run_tournament_bots does through the API
        tournament_register(tournament_id=tournament.pk, player=Player.objects.get(username=name))
    assert tournament_clock_sweep() == 0  # nine: it waits

    you = PlayerFactory()
    funded(you, 10_000)
    tournament_register(tournament_id=tournament.pk, player=you)
    assert tournament_clock_sweep() == 1

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert [table.seat_set.count() for table in open_tables(tournament)] == [5, 5]
    # the next `make run` offers a new one
    assert int(_load_demo_tournament("--id")) != tournament.pk
