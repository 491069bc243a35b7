"""Triple Stud (R-MIX-1): a table that rotates Stud, Razz and Stud Hi/Lo, eight hands each,
changing game only between hands; the lobby, the table and the API say which game is dealt
now and next."""

from __future__ import annotations

import pytest

from stud.variant import Game, triple_stud_game, triple_stud_rotation
from tables import services
from tables.models import Hand
from tables.selectors import lobby_rows, table_snapshot
from tests.table_factories import engine_of, make_table, play_down, running_hand, seated_player


def test_r_mix_1_the_rotation_is_stud_razz_hi_lo_eight_hands_each() -> None:
    """R-MIX-1: hands 1-8 Stud, 9-16 Razz, 17-24 Stud Hi/Lo, then Stud again."""
    games = [triple_stud_game(n) for n in range(1, 26)]
    assert games == [Game.STUD] * 8 + [Game.RAZZ] * 8 + [Game.STUD8] * 8 + [Game.STUD]
    eighth = triple_stud_rotation(8, hand_in_play=True)
    assert (eighth.current, eighth.next_hand, eighth.hands_left) == (Game.STUD, Game.RAZZ, 0)
    assert eighth.label == "Triple Stud · now Stud · next hand Razz"
    assert triple_stud_rotation(9, hand_in_play=True).label == (
        "Triple Stud · now Razz · next hand Razz · 7 more before Stud Hi/Lo"
    )


def test_r_mix_1_between_hands_the_next_hand_named_is_the_one_about_to_be_dealt() -> None:
    """R-MIX-1: fifteen hands dealt and none in play: the 16th, the next dealt, is the last
    Razz hand, so the header says "next hand Razz", then Stud Hi/Lo; never "next hand Stud
    Hi/Lo" while a Razz hand is still to come."""
    waiting = triple_stud_rotation(16, hand_in_play=False)

    assert (waiting.current, waiting.next_hand, waiting.hands_left) == (Game.RAZZ, Game.RAZZ, 0)
    assert waiting.label == "Triple Stud · next hand Razz · then Stud Hi/Lo"
    assert waiting.to_json() == {
        "hand_in_play": False,
        "current_game": "razz",
        "next_hand_game": "razz",
        "hands_left_in_game": 0,
        "next_game": "stud8",
    }
    # Eight hands dealt, none in play: the ninth (Razz) and seven more before Stud Hi/Lo.
    assert triple_stud_rotation(9, hand_in_play=False).label == (
        "Triple Stud · next hand Razz · 7 more before Stud Hi/Lo"
    )


@pytest.mark.django_db
def test_r_mix_1_a_triple_stud_table_deals_each_hand_as_its_own_game(client) -> None:
    """R-MIX-1: ten hands at a Triple Stud table: the first eight are Seven Card Stud, the
    ninth and tenth Razz, each hand recorded as its own game; between hands the lobby and
    the API name the game of the next hand and the one after."""
    table = make_table(triple_stud=True)
    players = {1: seated_player(table, seat_number=1), 2: seated_player(table, seat_number=2)}
    dealt: list[str] = []
    for _ in range(10):
        assert services.hand_start(table_id=table.pk).ok
        hand = running_hand(table)
        dealt.append(engine_of(hand).config.game.value)
        snapshot = table_snapshot(table.pk, None)
        assert snapshot is not None and snapshot["table"]["game"] == dealt[-1]
        play_down(table, players)
        table.refresh_from_db()
    assert dealt == ["stud"] * 8 + ["razz"] * 2
    assert Hand.objects.filter(table=table).count() == 10
    (row,) = [r for r in lobby_rows() if r["id"] == table.pk]
    assert row["game"] == "razz" and row["triple_stud"] is True
    assert row["game_label"] == "Triple Stud · next hand Razz · 5 more before Stud Hi/Lo"
    client.force_login(players[1])
    api = client.get(f"/api/tables/{table.pk}/").json()
    assert api["rotation"] == {
        "hand_in_play": False,
        "current_game": "razz",
        "next_hand_game": "razz",
        "hands_left_in_game": 5,
        "next_game": "stud8",
    }
