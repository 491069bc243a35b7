"""Hands written as PHH (uoftcprg/phh-std) and read back by PokerKit 0.7.7, a test dependency:
PokerKit replays our files of all three games to the same final stacks (R-HIST-1), and a file
holds another player's down cards only when they were shown (R-HIST-2)."""

from __future__ import annotations

import random
import re
import tomllib

import pytest

from benchmarks.phh_hands import (
    final_stacks_in_deal_order,
    pokerkit_final_stacks,
    random_hand,
    round_trip_loss,
)
from stud import Game
from stud.phh import ALL_DOWN_CARDS, PhhRefused, read_phh, render_phh
from tests.stud.conftest import Dealer, config, stacked


@pytest.mark.parametrize("game", list(Game))
def test_r_hist_1_pokerkit_replays_our_phh_to_the_same_final_stacks(game: Game) -> None:
    """R-HIST-1 through PHH: 150 random hands of each game (F7S, F7S/8, FR) written by us
    and replayed by PokerKit end at the same stacks, pot by pot, split or not."""
    rng = random.Random(f"phh-{game.value}")
    for number in range(150):
        loss = round_trip_loss(random_hand(game, rng), number)
        assert loss is None, loss


def test_a_phh_file_that_does_not_add_up_is_refused_naming_the_line() -> None:
    """A damaged file (a raise to an amount the rules do not offer, finishing stacks that
    the actions do not reach) is refused with the failing line; the good one reads."""
    deck = stacked(["Ac 2c 7c", "Kd Qd Jd"], ["4c", "Td"], ["5h", "9d"], ["Kc", "Ks"], ["Qc", "Kh"])
    dealer = Dealer(deck, players=2, table=config(Game.RAZZ))
    dealer.act(2, "bring_in")
    dealer.act(1, "complete", 100)
    dealer.passive_to_end()
    text = render_phh(dealer.hand, hand_id=1, table_name="R", viewer=ALL_DOWN_CARDS)
    assert read_phh(text).result == dealer.hand.result
    damaged = text.replace('"p1 cbr 100"', '"p1 cbr 150"')
    assert damaged.splitlines()[11].strip() == '"p1 cbr 150",'  # the file's line 12
    with pytest.raises(PhhRefused, match=r"line 12 \('p1 cbr 150'\) does not add up"):
        read_phh(damaged)
    with pytest.raises(PhhRefused, match="finishing_stacks"):
        read_phh(re.sub(r"finishing_stacks = \[\d+", "finishing_stacks = [1", text))
    with pytest.raises(PhhRefused, match="not a PHH"):
        read_phh("variant = ")


def test_the_phh_file_is_the_standards_toml_with_our_facts_in_user_defined_fields() -> None:
    """The variant code, the stakes, one action a line; the room's own facts under keys
    beginning with an underscore, as phh-std reserves them."""
    deck = stacked(["Ac 2c 7c", "Kd Qd Jd"], ["4c", "Td"], ["5h", "9d"], ["Kc", "Ks"], ["Qc", "Kh"])
    dealer = Dealer(deck, players=2, table=config(Game.RAZZ))
    dealer.passive_to_end()
    data = tomllib.loads(
        render_phh(dealer.hand, hand_id=7, table_name="Razz 1", viewer=ALL_DOWN_CARDS)
    )
    assert data["variant"] == "FR"
    assert (data["ante_trimming_status"], data["antes"], data["bring_in"]) == (True, [10, 10], 25)
    assert (data["small_bet"], data["big_bet"], data["seats"]) == (100, 200, [1, 2])
    assert data["actions"][:3] == ["d dh p1 Ac2c7c", "d dh p2 KdQdJd", "p2 pb"]
    assert data["actions"][-2:] == ["p1 sm Ac2c7c4c5hKcQc", "p2 sm"] or data["actions"][-2:] == [
        "p2 sm",
        "p1 sm Ac2c7c4c5hKcQc",
    ]
    assert data["_game"] == "razz" and data["_button"] == 2 and data["hand"] == 7


def test_r_hist_2_a_phh_file_shows_another_players_down_cards_only_when_shown() -> None:
    """R-HIST-2: seat 2 mucks its losing hand; in seat 1's file seat 2's down cards are
    ``??``, seat 1's own are written, and seat 2's up cards are there for all."""
    deck = stacked(["Ac 2c 7c", "Kd Qd Jd"], ["4c", "Td"], ["5h", "9d"], ["Kc", "Ks"], ["Qc", "Kh"])
    dealer = Dealer(deck, players=2, table=config(Game.RAZZ))
    dealer.passive_to_end()
    actions = tomllib.loads(render_phh(dealer.hand, hand_id=7, table_name="R", viewer=1))["actions"]
    assert "d dh p1 Ac2c7c" in actions and "d dh p2 ????Jd" in actions
    assert "d dh p2 ??" in actions  # the river, face down
    assert not any("Kd" in line or "Qd" in line or "Kh" in line for line in actions)
    assert pokerkit_final_stacks(
        render_phh(dealer.hand, hand_id=7, table_name="R", viewer=ALL_DOWN_CARDS)
    ) == final_stacks_in_deal_order(dealer.hand)
