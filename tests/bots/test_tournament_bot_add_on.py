"""When a tournament bot buys the add-on (issue #21 item 9, R-TOUR-1): `add_on_wanted`
decides from the tournament's snapshot alone, as a player reading the tournament bar would:
the add-on open, the bot still playing without one, and its policy (bots/client.py
ADD_ON_POLICIES)."""

from __future__ import annotations

from typing import Any

import pytest

from bots.client import TournamentBot, add_on_wanted

ME = 7


def snapshot(*, add_on_open: bool = True, starting_chips: int = 800) -> dict[str, Any]:
    return {"add_on_open": add_on_open, "starting_chips": starting_chips}


def mine(*, chips: int | None, add_on: bool = False, place: int | None = None) -> dict[str, Any]:
    return {"player_id": ME, "chips": chips, "add_on": add_on, "place": place}


def test_a_short_stack_buys_the_add_on_while_it_is_open() -> None:
    assert add_on_wanted("short", snapshot(), mine(chips=800))
    assert add_on_wanted("short", snapshot(), mine(chips=215))


def test_a_stack_above_the_starting_stack_does_not_pay_for_one() -> None:
    assert not add_on_wanted("short", snapshot(), mine(chips=801))


def test_short_waits_for_the_draw_to_know_its_stack() -> None:
    assert not add_on_wanted("short", snapshot(), mine(chips=None))
    assert add_on_wanted("always", snapshot(), mine(chips=None))


def test_r_tour_1_no_bot_asks_once_the_add_on_is_closed_or_bought() -> None:
    for policy in ("short", "always"):
        assert not add_on_wanted(policy, snapshot(add_on_open=False), mine(chips=100))
        assert not add_on_wanted(policy, snapshot(), mine(chips=100, add_on=True))
        assert not add_on_wanted(policy, snapshot(), mine(chips=0, place=5))
        assert not add_on_wanted(policy, snapshot(), None)  # not entered


def test_never_never_buys() -> None:
    assert not add_on_wanted("never", snapshot(), mine(chips=10))


def test_an_unknown_add_on_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="add_on policy"):
        TournamentBot(base_url="http://127.0.0.1:1", tournament_id=1, add_on="sometimes")
